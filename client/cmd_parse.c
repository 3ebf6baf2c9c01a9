/* `catalyzer parse FILE...`: parses each statement of .sql files (split on
 * `;`) or .jsonl files (one {"sql": ...} per line) and prints its unresolved
 * plan (Spark's parsed-plan tree string) to stdout; a statement that fails
 * prints its error class, message and position to stderr. Exit 1 if any
 * statement failed, 2 on usage or I/O errors. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "cli_opts.h"
#include "commands.h"
#include "remote.h"
#include "source.h"
#include "core/arena.h"
#include "parser/parser.h"
#include "print/printer.h"

/* Keys set by earlier `SET key = value` statements of the file, for
 * Spark's ${var} substitution (what a session would do). */
enum { MAX_VARS = 64 };

typedef struct ParseRun {
    CzcClient *daemon; /* --daemon: the parse is done by catalyzerd */
    const char *file;
    int nfailed;
    int nok;
    int nvars;
    char *keys[MAX_VARS], *values[MAX_VARS];
} ParseRun;

static const char *find_var(const ParseRun *r, const char *key) {
    for (int i = r->nvars - 1; i >= 0; i--)
        if (!strcmp(r->keys[i], key)) return r->values[i];
    return NULL;
}

static const char *lookup_var(void *ctx, const char *prefix, const char *name) {
    const ParseRun *r = ctx;
    char buf[512];
    if (prefix) {
        snprintf(buf, sizeof buf, "%s:%s", prefix, name);
        const char *v = find_var(r, buf);
        return v ? v : find_var(r, name);
    }
    const char *v = find_var(r, name);
    if (v) return v;
    snprintf(buf, sizeof buf, "hivevar:%s", name);
    return find_var(r, buf);
}

static void remember_set(ParseRun *r, const Node *plan) {
    if (plan->kind != NK_SetConfig || !plan->u.ddl.text || !plan->u.ddl.value || r->nvars >= MAX_VARS) return;
    r->keys[r->nvars] = strdup(plan->u.ddl.text);
    r->values[r->nvars] = strdup(plan->u.ddl.value);
    r->nvars++;
}

static void forget_vars(ParseRun *r) {
    for (int i = 0; i < r->nvars; i++) {
        free(r->keys[i]);
        free(r->values[i]);
    }
    r->nvars = 0;
}

/* Through the daemon: Analyze with parse_only; the same output as in process. */
static void parse_remote(ParseRun *r, Arena *a, const char *sql, size_t len, const char *where) {
    /* ${var} substitution is the client's, as in process: SET statements are
       read locally for it */
    ErrorInfo *lerr = NULL;
    ParserOptions lopts = {0};
    Node *local = parse_statement(a, sql, len, &lopts, &lerr);
    if (local) remember_set(r, local);
    Catalyzer__V1__SqlQuery q = CATALYZER__V1__SQL_QUERY__INIT;
    q.query = arena_strndup(a, sql, len);
    Catalyzer__V1__AnalyzeRequest rq = CATALYZER__V1__ANALYZE_REQUEST__INIT;
    rq.input_case = CATALYZER__V1__ANALYZE_REQUEST__INPUT_SQL;
    rq.sql = &q;
    rq.parse_only = true;
    rq.omit_resolved_plan = true;
    Catalyzer__V1__AnalyzeResponse *resp = NULL;
    char msg[512] = "";
    int st = czc_client_analyze(r->daemon, &rq, NULL, NULL, &resp, msg, sizeof msg);
    if (st != CZC_OK || !resp || !resp->result) {
        fprintf(stderr, "%s: daemon: %s: %s\n", where, czc_status_name(st), msg);
        r->nfailed++;
    } else if (resp->result->ok) {
        fputs(resp->result->tree_string ? resp->result->tree_string : "", stdout);
        fputc('\n', stdout);
        r->nok++;
    } else {
        const Catalyzer__V1__AnalysisError *e = resp->result->error;
        int start = e && e->context ? e->context->start : -1, stop = e && e->context ? e->context->stop : -1;
        fprintf(stderr, "%s: %s: %s (start %d, stop %d)\n", where, e ? e->error_class : "?", e ? e->message : "?", start,
                stop);
        r->nfailed++;
    }
    if (resp) catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
}

static void parse_one(ParseRun *r, const char *sql, size_t len, const char *where) {
    Arena *a = arena_new(0);
    ErrorInfo *err = NULL;
    ParserOptions opts = {0};
    sql = parse_substitute_variables(a, sql, len, lookup_var, r, &len);
    if (r->daemon) {
        parse_remote(r, a, sql, len, where);
        arena_free(a);
        return;
    }
    Node *plan = parse_statement(a, sql, len, &opts, &err);
    if (plan) {
        remember_set(r, plan);
        fputs(plan_tree_string(a, plan), stdout);
        fputc('\n', stdout);
        r->nok++;
    } else {
        fprintf(stderr, "%s: %s: %s (start %d, stop %d)\n", where, err->error_class, err->message, err->start, err->stop);
        r->nfailed++;
    }
    arena_free(a);
}

typedef struct SplitCtx {
    ParseRun *run;
    const char *text;
} SplitCtx;

static void on_statement(void *ctx, const char *stmt, size_t len, size_t offset) {
    SplitCtx *sc = ctx;
    int line = 1;
    for (size_t i = 0; i < offset; i++)
        if (sc->text[i] == '\n') line++;
    char where[512];
    snprintf(where, sizeof where, "%s:%d", sc->run->file, line);
    parse_one(sc->run, stmt, len, where);
}


static int parse_jsonl(ParseRun *r, const char *text, size_t len) {
    size_t i = 0;
    int line = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && text[j] != '\n') j++;
        line++;
        if (j > i) {
            json_error_t je;
            json_t *o = json_loadb(text + i, j - i, 0, &je);
            json_t *sql = o ? json_object_get(o, "sql") : NULL;
            char where[512];
            snprintf(where, sizeof where, "%s:%d", r->file, line);
            if (!json_is_string(sql)) {
                fprintf(stderr, "%s: not a JSON object with a \"sql\" string\n", where);
                json_decref(o);
                return 2;
            }
            parse_one(r, json_string_value(sql), json_string_length(sql), where);
            json_decref(o);
        }
        i = j + 1;
    }
    return 0;
}

int cmd_parse(int argc, char **argv) {
    static const char USAGE[] = "parse [--daemon HOST:PORT] FILE|-|-e SQL...";
    CliOpts o;
    int prc = cli_getopt(argc, argv, CLI_O_DAEMON | CLI_O_EXPR, USAGE, false, &o);
    if (prc == 1) return 0;
    if (prc != 0 || o.nfiles < 1) {
        fprintf(stderr, "usage: catalyzer %s\n", USAGE);
        return 2;
    }
    CzcClient *cl = NULL;
    if (o.daemon) {
        char err[256];
        if (!*o.daemon || !(cl = cli_client_new(o.daemon, err, sizeof err))) {
            fprintf(stderr, "catalyzer parse: --daemon: %s\n", *o.daemon ? err : "HOST:PORT expected");
            return 2;
        }
    }
    int failed = 0;
    for (int i = 0; i < o.nfiles; i++) {
        const char *file = o.files[i];
        size_t len;
        char *text = source_slurp(file, &len);
        if (!text) {
            fprintf(stderr, "catalyzer parse: cannot read %s\n", file);
            if (cl) czc_client_free(cl);
            return 2;
        }
        ParseRun r = {.daemon = cl, .file = file};
        if (source_is_jsonl(file)) {
            int rc = parse_jsonl(&r, text, len);
            if (rc) {
                forget_vars(&r);
                free(text);
                if (cl) czc_client_free(cl);
                return rc;
            }
        } else {
            SplitCtx sc = {&r, text};
            cz_split_statements(text, len, on_statement, &sc);
        }
        forget_vars(&r);
        free(text);
        failed += r.nfailed;
    }
    if (cl) czc_client_free(cl);
    return failed ? 1 : 0;
}
