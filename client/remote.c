/* Session set-up and result rendering for the CLI over the wire (remote.h). */
#include "remote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalyzer.h"
#include "core/arena.h"
#include "core/strbuf.h"
#include "cli_opts.h"

/* Deadline of each CLI call: generous, a stuck daemon still ends the CLI. */
enum { CLI_TIMEOUT_MS = 120000 };

const char *cli_daemon_arg(int argc, char **argv) {
    CliOpts o;
    if (cli_getopt(argc, argv, ~0u, "", true, &o) == 0) return o.daemon;
    for (int i = 0; i < argc; i++) { /* a bad command line: its own parser says why */
        if (!strcmp(argv[i], "--daemon")) return i + 1 < argc ? argv[i + 1] : "";
        if (!strncmp(argv[i], "--daemon=", 9)) return argv[i] + 9;
    }
    return NULL;
}

CzcClient *cli_client_new(const char *hostport, char *err, size_t errlen) {
    CzcClient *cl = czc_client_new(hostport, err, errlen);
    if (!cl) return NULL;
    CzcSecurity sec = {getenv("CATALYZER_TLS_CA"), getenv("CATALYZER_TLS_CERT"), getenv("CATALYZER_TLS_KEY"),
                       getenv("CATALYZER_TLS_SERVER_NAME"), NULL};
    const char *token_file = getenv("CATALYZER_TOKEN_FILE");
    char token[1024];
    if (token_file && *token_file) {
        if (!czc_read_token_file(token_file, token, sizeof token, err, errlen)) {
            czc_client_free(cl);
            return NULL;
        }
        sec.token = token;
    }
    if (sec.ca_file && !*sec.ca_file) sec.ca_file = NULL;
    if ((sec.ca_file || sec.token) && !czc_client_set_security(cl, &sec, err, errlen)) {
        czc_client_free(cl);
        return NULL;
    }
    return cl;
}

int remote_parse_opts(int argc, char **argv, RemoteOpts *o, const char *usage) {
    memset(o, 0, sizeof *o);
    CliOpts c;
    int rc = cli_getopt(argc, argv,
                        CLI_O_DAEMON | CLI_O_CONF | CLI_O_BARE | CLI_O_TRACE | CLI_O_DIFF | CLI_O_ALL | CLI_O_PLAN | CLI_O_EXPR,
                        usage, false, &c);
    if (rc != 0) return rc;
    o->daemon = c.daemon;
    for (int i = 0; i < c.nconfs; i++) o->confs[o->nconfs++] = c.confs[i];
    o->bare = c.bare;
    o->trace = c.trace;
    o->diff = c.diff;
    o->all = c.all;
    o->plan = c.plan;
    if (c.nfiles > 1) {
        fprintf(stderr, "catalyzer: one FILE expected\n");
        return -1;
    }
    o->file = c.nfiles ? c.files[0] : NULL;
    if (!o->file) {
        fprintf(stderr, "catalyzer: FILE expected\n");
        return -1;
    }
    for (int i = 0; i < o->nconfs; i++)
        if (!strchr(o->confs[i], '=')) {
            fprintf(stderr, "catalyzer: --conf expects key=value, got %s\n", o->confs[i]);
            return -1;
        }
    return 0;
}

/* ---------------------------------------------------------------- test tables */

/* The tables cz_session_new(true) creates (analyzer/run.c). Their columns are
 * read back from an in-process session, so the two never drift apart. */
static const char *const TEST_TABLES[] = {"testdata", "arraydata", "mapdata", "aggtest", "onek", "tenk1"};
#define NTEST (sizeof TEST_TABLES / sizeof TEST_TABLES[0])

/* Splits "struct<a:int,b:decimal(10,2),c:map<int,string>>" into columns. */
static Catalyzer__V1__Table *table_from_schema(Arena *a, const char *name, const char *schema) {
    Catalyzer__V1__Table *t = arena_alloc(a, sizeof *t);
    *t = (Catalyzer__V1__Table)CATALYZER__V1__TABLE__INIT;
    t->name = (char *)name;
    size_t n = strlen(schema);
    if (n < 8 || strncmp(schema, "struct<", 7) || schema[n - 1] != '>') return t;
    const char *p = schema + 7, *end = schema + n - 1;
    t->columns = ARENA_ARRAY(a, Catalyzer__V1__Column *, 64);
    while (p < end && t->n_columns < 64) {
        const char *colon = strchr(p, ':');
        if (!colon || colon >= end) break;
        const char *q = colon + 1;
        int depth = 0;
        while (q < end && (depth > 0 || *q != ',')) {
            if (*q == '<' || *q == '(') depth++;
            else if (*q == '>' || *q == ')') depth--;
            q++;
        }
        Catalyzer__V1__Column *c = arena_alloc(a, sizeof *c);
        *c = (Catalyzer__V1__Column)CATALYZER__V1__COLUMN__INIT;
        c->name = arena_strndup(a, p, (size_t)(colon - p));
        c->type = arena_strndup(a, colon + 1, (size_t)(q - colon - 1));
        t->columns[t->n_columns++] = c;
        p = q + 1;
    }
    return t;
}

static Catalyzer__V1__Catalog *test_catalog(Arena *a) {
    Catalyzer__V1__Catalog *cat = arena_alloc(a, sizeof *cat);
    *cat = (Catalyzer__V1__Catalog)CATALYZER__V1__CATALOG__INIT;
    cat->tables = ARENA_ARRAY(a, Catalyzer__V1__Table *, NTEST);
    CzSession *s = cz_session_new(true);
    for (size_t i = 0; i < NTEST; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT * FROM %s", TEST_TABLES[i]);
        CzResult *r = cz_run_sql(s, sql, strlen(sql), NULL);
        if (cz_result_status(r) == CZ_OK)
            cat->tables[cat->n_tables++] = table_from_schema(a, TEST_TABLES[i], arena_strdup(a, cz_result_schema(r)));
        cz_result_free(r);
    }
    cz_session_free(s);
    return cat;
}

/* ---------------------------------------------------------------- session */

int remote_open(Remote *r, const RemoteOpts *o) {
    memset(r, 0, sizeof *r);
    char err[256];
    r->cl = cli_client_new(o->daemon, err, sizeof err);
    if (!r->cl) {
        fprintf(stderr, "catalyzer: --daemon: %s\n", err);
        return 2;
    }
    czc_client_set_timeout(r->cl, CLI_TIMEOUT_MS);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(r->session_id, sizeof r->session_id, "cli-%d-%ld%09ld", (int)getpid(), (long)ts.tv_sec, ts.tv_nsec);
    /* One Execute sets the session up as cz_session_new + --conf do in
     * process: the catalog first, then the configuration (Execute's conf
     * persists in the session); the statement itself does nothing. */
    Arena *a = arena_new(0);
    Catalyzer__V1__ExecuteRequest rq = CATALYZER__V1__EXECUTE_REQUEST__INIT;
    rq.session_id = r->session_id;
    rq.sql = "SELECT 1";
    if (!o->bare) rq.catalog = test_catalog(a);
    rq.conf = ARENA_ARRAY(a, Catalyzer__V1__ExecuteRequest__ConfEntry *, o->nconfs + 1);
    for (int i = 0; i < o->nconfs; i++) {
        const char *eq = strchr(o->confs[i], '=');
        Catalyzer__V1__ExecuteRequest__ConfEntry *kv = arena_alloc(a, sizeof *kv);
        *kv = (Catalyzer__V1__ExecuteRequest__ConfEntry)CATALYZER__V1__EXECUTE_REQUEST__CONF_ENTRY__INIT;
        kv->key = arena_strndup(a, o->confs[i], (size_t)(eq - o->confs[i]));
        kv->value = (char *)eq + 1;
        rq.conf[rq.n_conf++] = kv;
    }
    Catalyzer__V1__ExecuteResponse *resp = NULL;
    char msg[512] = "";
    int st = czc_client_execute(r->cl, &rq, &resp, msg, sizeof msg);
    arena_free(a);
    if (resp) catalyzer__v1__execute_response__free_unpacked(resp, NULL);
    if (st != CZC_OK) {
        fprintf(stderr, "catalyzer: daemon %s: %s: %s\n", o->daemon, czc_status_name(st), msg);
        czc_client_free(r->cl);
        r->cl = NULL;
        return 2;
    }
    return 0;
}

void remote_close(Remote *r) {
    if (!r->cl) return;
    char msg[256];
    czc_client_drop_session(r->cl, r->session_id, msg, sizeof msg);
    czc_client_free(r->cl);
    r->cl = NULL;
}

int remote_analyze(Remote *r, const char *sql, size_t len, bool want_tree, int trace_level, bool trace_plans,
                   void (*on_event)(void *ud, const Catalyzer__V1__TraceEvent *ev), void *ud,
                   Catalyzer__V1__AnalyzeResponse **out) {
    char *text = strndup(sql, len);
    if (!text) abort();
    Catalyzer__V1__SqlQuery q = CATALYZER__V1__SQL_QUERY__INIT;
    q.query = text;
    Catalyzer__V1__AnalyzeRequest rq = CATALYZER__V1__ANALYZE_REQUEST__INIT;
    rq.session_id = r->session_id;
    rq.input_case = CATALYZER__V1__ANALYZE_REQUEST__INPUT_SQL;
    rq.sql = &q;
    rq.trace_level = (Catalyzer__V1__TraceLevel)trace_level;
    rq.trace_plans = trace_plans;
    rq.omit_tree_string = !want_tree;
    rq.omit_resolved_plan = true;
    char msg[512] = "";
    int st = czc_client_analyze(r->cl, &rq, on_event, ud, out, msg, sizeof msg);
    free(text);
    if (st != CZC_OK) fprintf(stderr, "catalyzer: daemon: %s: %s\n", czc_status_name(st), msg);
    return st;
}

int remote_analyze_plan(Remote *r, Spark__Connect__Relation *rel, bool want_tree, int trace_level,
                        void (*on_event)(void *ud, const Catalyzer__V1__TraceEvent *ev), void *ud,
                        Catalyzer__V1__AnalyzeResponse **out, char *message, size_t msgcap) {
    Catalyzer__V1__AnalyzeRequest rq = CATALYZER__V1__ANALYZE_REQUEST__INIT;
    rq.session_id = r->session_id;
    rq.input_case = CATALYZER__V1__ANALYZE_REQUEST__INPUT_PLAN;
    rq.plan = rel;
    rq.trace_level = (Catalyzer__V1__TraceLevel)trace_level;
    rq.omit_tree_string = !want_tree;
    rq.omit_resolved_plan = true;
    message[0] = '\0';
    int st = czc_client_analyze(r->cl, &rq, on_event, ud, out, message, msgcap);
    if (st != CZC_OK && st != CZC_INVALID_ARGUMENT && st != CZC_UNIMPLEMENTED)
        fprintf(stderr, "catalyzer: daemon: %s: %s\n", czc_status_name(st), message);
    return st;
}

/* ---------------------------------------------------------------- JSON line */

char *remote_result_json(const Catalyzer__V1__AnalyzeResult *res, int index) {
    const char *rj = res->result_json;
    /* The daemon renders the line with cz_result_json itself (index 0 for
     * Analyze): renumber it. */
    if (rj && !strncmp(rj, "{\"index\":", 9) && !getenv("CATALYZER_CLI_JSON_FROM_FIELDS")) {
        const char *p = rj + 9;
        while (*p == '-' || (*p >= '0' && *p <= '9')) p++;
        size_t n = strlen(p) + 32;
        char *o = malloc(n);
        if (!o) abort();
        snprintf(o, n, "{\"index\":%d%s", index, p);
        return o;
    }
    /* Otherwise rebuild it from the fields, as cz_result_json does (the
     * tests check both ways agree; CATALYZER_CLI_JSON_FROM_FIELDS forces this). */
    Arena *a = arena_new(0);
    StrBuf sb;
    sb_init(&sb, a, 256);
    sb_printf(&sb, "{\"index\":%d,", index);
#define JS(s) sb_put_json_string(&sb, (s) ? (s) : "", (s) ? strlen(s) : 0)
    if (res->ok) {
        sb_puts(&sb, "\"status\":\"ok\",\"schema\":");
        const char *s = res->schema && *res->schema ? res->schema : "struct<>";
        JS(s);
        sb_putc(&sb, '}');
    } else {
        const Catalyzer__V1__AnalysisError *e = res->error;
        sb_puts(&sb, "\"status\":\"error\",\"error_class\":");
        JS(e ? e->error_class : "");
        sb_puts(&sb, ",\"sqlstate\":");
        if (e && e->sqlstate && *e->sqlstate) JS(e->sqlstate);
        else sb_puts(&sb, "null");
        sb_puts(&sb, ",\"message\":");
        JS(e ? e->message : "");
        sb_puts(&sb, ",\"message_parameters\":{");
        for (size_t i = 0; e && i < e->n_message_parameters; i++) {
            if (i) sb_putc(&sb, ',');
            JS(e->message_parameters[i]->key);
            sb_putc(&sb, ':');
            JS(e->message_parameters[i]->value);
        }
        sb_putc(&sb, '}');
        if (e && e->context && e->context->start >= 0) {
            sb_printf(&sb, ",\"query_context\":{\"start\":%d,\"stop\":%d,\"fragment\":", e->context->start,
                      e->context->stop);
            JS(e->context->fragment);
            sb_putc(&sb, '}');
        }
        sb_putc(&sb, '}');
    }
#undef JS
    char *o = strdup(sb_str(&sb));
    arena_free(a);
    if (!o) abort();
    return o;
}
