/* `catalyzer explain [--conf key=value]... [--bare] [--trace] FILE` — prints
 * each statement's analysed plan as a Spark-style tree (or its error); with
 * --trace, first the per-rule trace of the analysis: batch, rule, iteration,
 * effective, microseconds. */
#include <stdio.h>

#include "catalyzer.h"
#include "commands.h"
#include "input.h"
#include "plan_input.h"
#include "remote.h"

static void print_event(void *ctx, const CzTraceEvent *ev) {
    (void)ctx;
    printf("  %-14s %-40s iter %-3d %-9s %8.1f us%s%s\n", ev->batch, ev->rule, ev->iteration,
           ev->effective ? "effective" : "-", (double)ev->nanos / 1000.0, ev->changed_kinds ? "  " : "",
           ev->changed_kinds ? ev->changed_kinds : "");
}

int cmd_explain(int argc, char **argv) {
    if (cli_daemon_arg(argc, argv)) return cmd_explain_daemon(argc, argv);
    CzSession *s;
    const char *path;
    int flags;
    static const char USAGE[] = "explain [--conf key=value]... [--bare] [--trace] [--plan] FILE|-|-e SQL";
    int prc = cli_parse_common(argc, argv, USAGE, &s, &path, &flags);
    if (prc == 1) return 0;
    if (prc != 0) {
        fprintf(stderr, "usage: catalyzer %s\n", USAGE);
        return 2;
    }
    if (flags & CLI_PLAN) {
        PlanList pl;
        if (plans_read(path, &pl) != 0) {
            cz_session_free(s);
            return 2;
        }
        for (size_t i = 0; i < pl.n; i++) {
            CzRunOptions o = {.want_tree = true};
            if (flags & CLI_TRACE) {
                o.trace = print_event;
                o.trace_level = CZ_TRACE_ALL;
                printf("-- plan %zu: trace\n", i);
            }
            char err[512];
            CzResult *r = plan_analyse(s, pl.v[i], &o, err, sizeof err);
            printf("-- plan %zu\n", i);
            if (!r) printf("error: %s\n", err);
            else if (cz_result_status(r) == CZ_OK) printf("%s\n", cz_result_tree(r));
            else printf("error: %s\n", cz_result_error(r)->message);
            if (r) cz_result_free(r);
        }
        plans_free(&pl);
        cz_session_free(s);
        return 0;
    }
    StatementList l;
    if (statements_read(path, &l) != 0) {
        cz_session_free(s);
        return 2;
    }
    for (size_t i = 0; i < l.n; i++) {
        CzRunOptions o = {.want_tree = true};
        if (flags & CLI_TRACE) {
            o.trace = print_event;
            o.trace_level = CZ_TRACE_ALL;
            printf("-- statement %zu: trace\n", i);
        }
        CzResult *r = cz_run_sql(s, l.v[i].sql, l.v[i].len, &o);
        printf("-- statement %zu\n", i);
        if (cz_result_status(r) == CZ_OK) {
            printf("%s\n", cz_result_tree(r));
        } else {
            const CzError *e = cz_result_error(r);
            printf("error: %s\n", e->message);
        }
        cz_result_free(r);
    }
    statements_free(&l);
    cz_session_free(s);
    return 0;
}
