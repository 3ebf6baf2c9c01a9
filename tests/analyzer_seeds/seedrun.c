/* seedrun: a small driver for the seed-feature tests, with the same contract
 * as `catalyzer run` (judge.py can drive it) plus `--tree`, which prints
 * each statement's analysed plan after its JSON line (ids normalised to #x
 * with --norm), `--sql FILE`, which reads `;`-separated statements, and
 * `--golden FILE.sql`, which prints what the golden .out files
 * hold (regenerate: seedrun --golden X.sql > X.out).
 *   seedrun [--conf k=v]... [--tree] [--norm] [--trace] FILE.jsonl|--sql FILE.sql|--golden FILE.sql */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "harness.h"

typedef struct Run {
    CzSession *s;
    bool tree, norm, trace;
    int index;
} Run;

static void print_norm(const char *t, bool norm) {
    if (!norm) {
        fputs(t, stdout);
        return;
    }
    /* #123 -> #x, #123L -> #xL */
    for (const char *p = t; *p; p++) {
        putchar(*p);
        if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
            putchar('x');
            while (p[1] >= '0' && p[1] <= '9') p++;
        }
    }
}

static void on_trace(void *ctx, const CzTraceEvent *ev) {
    (void)ctx;
    printf("--- %s/%s #%d\n%s\n", ev->batch, ev->rule, ev->iteration, ev->plan ? ev->plan : "");
}

static void run_one(Run *r, const char *sql, size_t len) {
    CzRunOptions o = {0};
    o.want_tree = r->tree;
    if (r->trace) {
        o.trace = on_trace;
        o.trace_level = CZ_TRACE_EFFECTIVE;
        o.trace_plans = true;
    }
    CzResult *res = cz_run_sql(r->s, sql, len, &o);
    puts(cz_result_json(res, r->index++));
    if (r->tree) {
        const char *t = cz_result_tree(res);
        if (t) {
            print_norm(t, r->norm);
            putchar('\n');
        }
    }
    fflush(stdout);
    cz_result_free(res);
}

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t k;
    while ((k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

static void on_stmt(void *ctx, const char *stmt, size_t len, size_t offset) {
    (void)offset;
    run_one(ctx, stmt, len);
}

int main(int argc, char **argv) {
    Run r = {cz_session_new(true), false, false, false, 0};
    const char *file = NULL;
    bool sql = false, golden = false;
    if (argc > 1 && !strcmp(argv[1], "run")) argv++, argc--; /* `seedrun run ...` as judge.py calls it */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--conf") && i + 1 < argc) {
            char *kv = argv[++i], *eq = strchr(kv, '=');
            if (eq) {
                *eq = 0;
                cz_session_set_conf(r.s, kv, eq + 1);
            }
        } else if (!strcmp(argv[i], "--tree")) r.tree = true;
        else if (!strcmp(argv[i], "--norm")) r.norm = true;
        else if (!strcmp(argv[i], "--trace")) r.trace = true;
        else if (!strcmp(argv[i], "--sql")) sql = true;
        else if (!strcmp(argv[i], "--golden")) golden = true;
        else file = argv[i];
    }
    if (!file) {
        fprintf(stderr, "usage: seedrun [--conf k=v] [--tree] [--norm] [--sql] FILE\n");
        return 2;
    }
    size_t len;
    char *text = read_all(file, &len);
    if (!text) {
        perror(file);
        return 2;
    }
    if (golden) {
        harness_run_script(stdout, text, len);
    } else if (sql) {
        cz_split_statements(text, len, on_stmt, &r);
    } else {
        char *line = text;
        while (line && *line) {
            char *nl = strchr(line, '\n');
            if (nl) *nl = 0;
            if (*line) {
                json_error_t e;
                json_t *o = json_loads(line, 0, &e);
                const char *s = o ? json_string_value(json_object_get(o, "sql")) : NULL;
                if (s) run_one(&r, s, strlen(s));
                else r.index++;
                json_decref(o);
            }
            line = nl ? nl + 1 : NULL;
        }
    }
    free(text);
    cz_session_free(r.s);
    return 0;
}
