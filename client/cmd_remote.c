/* `catalyzer run|explain|bench|parse|functions --daemon HOST:PORT ...`: the
 * subcommands' work sent to catalyzerd, printed exactly as in process.
 *   run      one daemon session per file (the in-process session's tables
 *            and --conf), each statement one Analyze in order; the JSON
 *            lines are the daemon's cz_result_json renumbered.
 *   explain  Analyze with the tree string (and the rule trace with --trace).
 *   bench    round-trip time of Analyze per query (median/min/max us) and
 *            the daemon's arena bytes.
 *   functions  the ListFunctions RPC.
 * (parse --daemon lives in cmd_parse.c: Analyze with parse_only.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "catalyzer.h"
#include "input.h"
#include "plan_input.h"
#include "remote.h"
#include "cli_opts.h"

int cmd_run_daemon(int argc, char **argv) {
    RemoteOpts o;
    static const char USAGE[] = "run --daemon HOST:PORT [--conf key=value]... [--bare] [--plan] FILE|-|-e SQL";
    int prc = remote_parse_opts(argc, argv, &o, USAGE);
    if (prc == 1) return 0;
    if (prc != 0 || !o.daemon || o.diff || o.all || !o.file) {
        fprintf(stderr, "usage: catalyzer %s\n", USAGE);
        return 2;
    }
    Remote r;
    if (remote_open(&r, &o) != 0) return 2;
    if (o.plan) {
        PlanList pl;
        if (plans_read(o.file, &pl) != 0) {
            remote_close(&r);
            return 2;
        }
        int rc = 0;
        for (size_t i = 0; i < pl.n; i++) {
            Catalyzer__V1__AnalyzeResponse *resp = NULL;
            char msg[512];
            int st = remote_analyze_plan(&r, pl.v[i], false, 0, NULL, NULL, &resp, msg, sizeof msg);
            char *line = st == CZC_OK ? remote_result_json(resp->result, (int)i)
                         : st == CZC_INVALID_ARGUMENT || st == CZC_UNIMPLEMENTED ? plan_error_json((int)i, msg)
                                                                                  : NULL;
            if (!line) rc = 1; /* no line: the daemon did not answer */
            else {
                fputs(line, stdout);
                fputc('\n', stdout);
                fflush(stdout);
                free(line);
            }
            if (resp) catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
        }
        plans_free(&pl);
        remote_close(&r);
        return rc;
    }
    StatementList l;
    if (statements_read(o.file, &l) != 0) {
        remote_close(&r);
        return 2;
    }
    int rc = 0;
    for (size_t i = 0; i < l.n; i++) {
        Catalyzer__V1__AnalyzeResponse *resp = NULL;
        if (remote_analyze(&r, l.v[i].sql, l.v[i].len, false, 0, false, NULL, NULL, &resp) != CZC_OK) {
            rc = 1; /* no line for this statement: the daemon did not answer it */
            continue;
        }
        char *line = remote_result_json(resp->result, (int)i);
        fputs(line, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        free(line);
        catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
    }
    statements_free(&l);
    remote_close(&r);
    return rc;
}

/* The same line as cmd_explain.c's print_event. */
static void print_event(void *ud, const Catalyzer__V1__TraceEvent *ev) {
    (void)ud;
    const char *kinds = ev->changed_kinds && *ev->changed_kinds ? ev->changed_kinds : NULL;
    printf("  %-14s %-40s iter %-3d %-9s %8.1f us%s%s\n", ev->batch, ev->rule, ev->iteration,
           ev->effective ? "effective" : "-", (double)ev->duration_nanos / 1000.0, kinds ? "  " : "",
           kinds ? kinds : "");
}

int cmd_explain_daemon(int argc, char **argv) {
    RemoteOpts o;
    static const char USAGE[] = "explain --daemon HOST:PORT [--conf key=value]... [--bare] [--trace] [--plan] FILE|-|-e SQL";
    int prc = remote_parse_opts(argc, argv, &o, USAGE);
    if (prc == 1) return 0;
    if (prc != 0 || !o.daemon || o.diff || o.all || !o.file) {
        fprintf(stderr, "usage: catalyzer %s\n", USAGE);
        return 2;
    }
    Remote r;
    if (remote_open(&r, &o) != 0) return 2;
    if (o.plan) {
        PlanList pl;
        if (plans_read(o.file, &pl) != 0) {
            remote_close(&r);
            return 2;
        }
        int rc = 0;
        for (size_t i = 0; i < pl.n; i++) {
            if (o.trace) printf("-- plan %zu: trace\n", i);
            Catalyzer__V1__AnalyzeResponse *resp = NULL;
            char msg[512];
            int st = remote_analyze_plan(&r, pl.v[i], true, o.trace ? CATALYZER__V1__TRACE_LEVEL__TRACE_LEVEL_ALL : 0,
                                         o.trace ? print_event : NULL, NULL, &resp, msg, sizeof msg);
            printf("-- plan %zu\n", i);
            if (st == CZC_INVALID_ARGUMENT || st == CZC_UNIMPLEMENTED) printf("error: %s\n", msg);
            else if (st != CZC_OK) {
                printf("error: daemon call failed: %s\n", czc_status_name(st));
                rc = 1;
            } else if (resp->result->ok) printf("%s\n", resp->result->tree_string);
            else printf("error: %s\n", resp->result->error ? resp->result->error->message : "");
            if (resp) catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
        }
        plans_free(&pl);
        remote_close(&r);
        return rc;
    }
    StatementList l;
    if (statements_read(o.file, &l) != 0) {
        remote_close(&r);
        return 2;
    }
    int rc = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (o.trace) printf("-- statement %zu: trace\n", i);
        Catalyzer__V1__AnalyzeResponse *resp = NULL;
        int st = remote_analyze(&r, l.v[i].sql, l.v[i].len, true,
                                o.trace ? CATALYZER__V1__TRACE_LEVEL__TRACE_LEVEL_ALL : 0, false,
                                o.trace ? print_event : NULL, NULL, &resp);
        printf("-- statement %zu\n", i);
        if (st != CZC_OK) {
            printf("error: daemon call failed: %s\n", czc_status_name(st));
            rc = 1;
            continue;
        }
        const Catalyzer__V1__AnalyzeResult *res = resp->result;
        if (res->ok) printf("%s\n", res->tree_string);
        else printf("error: %s\n", res->error ? res->error->message : "");
        catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
    }
    statements_free(&l);
    remote_close(&r);
    return rc;
}

/* ---------------------------------------------------------------- bench */


/* Runs a file's statements once in the session (schema, set-up). */
static void run_once(Remote *r, const char *path, const char *what, int *status) {
    StatementList l;
    if (statements_read(path, &l) != 0) {
        *status = 2;
        return;
    }
    for (size_t i = 0; i < l.n; i++) {
        Catalyzer__V1__AnalyzeResponse *resp = NULL;
        if (remote_analyze(r, l.v[i].sql, l.v[i].len, false, 0, false, NULL, NULL, &resp) != CZC_OK) continue;
        if (!resp->result->ok)
            fprintf(stderr, "catalyzer bench: %s statement %zu: %s\n", what, i,
                    resp->result->error ? resp->result->error->message : "");
        catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
    }
    statements_free(&l);
}

int cmd_bench_daemon(int argc, char **argv) {
    RemoteOpts o = {.bare = true, .file = "-"};
    static const char USAGE[] =
        "bench --daemon HOST:PORT [--schema FILE] [--iterations N] [--conf k=v]... [--json] QUERY.sql|-|-e SQL...";
    CliOpts c;
    int prc = cli_getopt(argc, argv, CLI_O_DAEMON | CLI_O_SCHEMA | CLI_O_ITERATIONS | CLI_O_CONF | CLI_O_JSON | CLI_O_EXPR,
                         USAGE, false, &c);
    if (prc == 1) return 0;
    const char *schema = c.schema;
    long iterations = c.iterations ? c.iterations : 1000;
    bool json = c.json;
    const char **files = calloc((size_t)c.nfiles + 1, sizeof *files);
    int nfiles = 0;
    if (!files) abort();
    if (prc != 0) goto usage;
    o.daemon = c.daemon;
    for (int i = 0; i < c.nconfs; i++) {
        if (!strchr(c.confs[i], '=') || o.nconfs >= 256) goto usage;
        o.confs[o.nconfs++] = c.confs[i];
    }
    for (int i = 0; i < c.nfiles; i++) files[nfiles++] = c.files[i];
    if (!nfiles || iterations < 1 || !o.daemon) goto usage;
    Remote r;
    if (remote_open(&r, &o) != 0) {
        free(files);
        return 2;
    }
    int status = 0;
    if (schema) run_once(&r, schema, "schema", &status);
    if (status) {
        remote_close(&r);
        free(files);
        return 2;
    }
    double *times = malloc(sizeof(double) * (size_t)iterations);
    if (!times) abort();
    if (json) printf("{\"iterations\":%ld,\"queries\":[", iterations);
    else printf("%-28s %10s %10s %10s %12s  %s\n", "query", "median_us", "min_us", "max_us", "arena_bytes", "status");
    double total_median = 0;
    int printed = 0;
    for (int f = 0; f < nfiles; f++) {
        StatementList l;
        if (statements_read(files[f], &l) != 0 || l.n == 0) {
            if (l.n == 0) fprintf(stderr, "catalyzer bench: %s: no statement\n", files[f]);
            status = 2;
            continue;
        }
        /* the last statement is the query; earlier ones (if any) run once */
        for (size_t i = 0; i + 1 < l.n; i++) {
            Catalyzer__V1__AnalyzeResponse *resp = NULL;
            if (remote_analyze(&r, l.v[i].sql, l.v[i].len, false, 0, false, NULL, NULL, &resp) == CZC_OK)
                catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
        }
        Statement q = l.v[l.n - 1];
        size_t bytes = 0;
        const char *st = "ok";
        long it;
        for (it = 0; it < iterations; it++) {
            Catalyzer__V1__AnalyzeResponse *resp = NULL;
            double t0 = bench_now_us();
            int rs = remote_analyze(&r, q.sql, q.len, false, 0, false, NULL, NULL, &resp);
            times[it] = bench_now_us() - t0;
            if (rs != CZC_OK) {
                st = "rpc-error";
                break;
            }
            if (it == 0) {
                bytes = (size_t)resp->result->arena_bytes;
                if (!resp->result->ok) st = "error";
            }
            catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
        }
        if (it == 0) {
            status = 1;
            statements_free(&l);
            continue;
        }
        qsort(times, (size_t)it, sizeof(double), bench_cmp_double);
        double med = times[it / 2];
        total_median += med;
        if (json)
            printf("%s{\"query\":\"%s\",\"median_us\":%.2f,\"min_us\":%.2f,\"max_us\":%.2f,\"arena_bytes\":%zu,\"status\":\"%s\"}",
                   printed++ ? "," : "", bench_base_name(files[f]), med, times[0], times[it - 1], bytes, st);
        else
            printf("%-28s %10.2f %10.2f %10.2f %12zu  %s\n", bench_base_name(files[f]), med, times[0], times[it - 1], bytes, st);
        statements_free(&l);
    }
    if (json) printf("],\"total_median_us\":%.2f}\n", total_median);
    else printf("%-28s %10.2f\n", "TOTAL (sum of medians)", total_median);
    free(times);
    free(files);
    remote_close(&r);
    return status;
usage:
    fprintf(stderr, "usage: catalyzer bench [--daemon HOST:PORT] [--schema FILE] [--iterations N] [--conf k=v]... [--json] "
                    "QUERY.sql...\n");
    free(files);
    return 2;
}

/* ---------------------------------------------------------------- parse, functions */

int cmd_functions_daemon(int argc, char **argv) {
    const char *daemon = cli_daemon_arg(argc, argv);
    if (!daemon || !*daemon) {
        fprintf(stderr, "usage: catalyzer functions [--daemon HOST:PORT]\n");
        return 2;
    }
    char err[256];
    CzcClient *cl = cli_client_new(daemon, err, sizeof err);
    if (!cl) {
        fprintf(stderr, "catalyzer functions: --daemon: %s\n", err);
        return 2;
    }
    czc_client_set_timeout(cl, 120000);
    Catalyzer__V1__ListFunctionsRequest rq = CATALYZER__V1__LIST_FUNCTIONS_REQUEST__INIT;
    ProtobufCMessage *out = NULL;
    char msg[512] = "";
    int st = czc_client_unary(cl, "/catalyzer.v1.Analyzer/ListFunctions", &rq.base,
                              &catalyzer__v1__list_functions_response__descriptor, &out, msg, sizeof msg);
    int rc = 0;
    if (st != CZC_OK) {
        fprintf(stderr, "catalyzer: daemon: %s: %s\n", czc_status_name(st), msg);
        rc = 2;
    } else {
        const Catalyzer__V1__ListFunctionsResponse *resp = (const Catalyzer__V1__ListFunctionsResponse *)out;
        for (size_t i = 0; i < resp->n_functions; i++)
            printf("%s\t%s\t%s\n", resp->functions[i]->name, resp->functions[i]->family, resp->functions[i]->kind);
    }
    if (out) protobuf_c_message_free_unpacked(out, NULL);
    czc_client_free(cl);
    return rc;
}
