/* The golden-plan harness shared by seedrun and test_golden: runs a script
 * of `;`-separated statements in a fresh session (test tables included) and
 * prints, per statement, its status with the schema or the error class and,
 * for queries that analyse, the plan tree with expression ids normalised to
 * #x (positions and message texts belong to other modules' tests). Lines
 * `-- conf: key=value` in the script set configuration first. */
#ifndef SEED_HARNESS_H
#define SEED_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"

static void harness_print_norm(FILE *out, const char *t) {
    for (const char *p = t; *p; p++) {
        fputc(*p, out);
        if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
            fputc('x', out);
            while (p[1] >= '0' && p[1] <= '9') p++;
        }
    }
}

typedef struct HarnessRun {
    CzSession *s;
    FILE *out;
    int index;
} HarnessRun;

static void harness_stmt(void *ctx, const char *stmt, size_t len, size_t offset) {
    HarnessRun *h = ctx;
    (void)offset;
    CzRunOptions o = {0};
    o.want_tree = true;
    CzResult *res = cz_run_sql(h->s, stmt, len, &o);
    const CzError *err = cz_result_error(res);
    if (err) fprintf(h->out, "-- %d error %s\n", h->index++, err->error_class);
    else fprintf(h->out, "-- %d ok %s\n", h->index++, cz_result_schema(res));
    const char *t = cz_result_tree(res);
    if (t && !cz_result_is_command(res)) {
        harness_print_norm(h->out, t);
        fputs("\n\n", h->out);
    }
    cz_result_free(res);
}

static void harness_run_script(FILE *out, const char *text, size_t len) {
    HarnessRun h = {cz_session_new(true), out, 0};
    const char *p = text;
    while ((p = strstr(p, "-- conf: ")) != NULL) {
        p += 9;
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char *kv = strndup(p, n);
        char *eq = strchr(kv, '=');
        if (eq) {
            *eq = 0;
            cz_session_set_conf(h.s, kv, eq + 1);
        }
        free(kv);
    }
    cz_split_statements(text, len, harness_stmt, &h);
    cz_session_free(h.s);
}

#endif
