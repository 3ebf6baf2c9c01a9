/* `catalyzer bench [--schema FILE] [--iterations N] [--conf k=v]... [--json] QUERY.sql...`
 * — a stable interface: parses and analyses each query N times in process
 * (after the schema's statements ran once in the session) and prints per
 * query the median, minimum and maximum microseconds and the arena bytes of
 * one analysis. The primitive the benchmarks and outside tools use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "catalyzer.h"
#include "cli_opts.h"
#include "commands.h"
#include "external_catalogs.h"
#include "input.h"
#include "remote.h"


int cmd_bench(int argc, char **argv) {
    if (cli_daemon_arg(argc, argv)) return cmd_bench_daemon(argc, argv);
    static const char USAGE[] = "bench [--schema FILE] [--iterations N] [--conf k=v]... [--json] QUERY.sql|-|-e SQL...";
    CliOpts o;
    int prc = cli_getopt(argc, argv, CLI_O_SCHEMA | CLI_O_ITERATIONS | CLI_O_CONF | CLI_O_JSON | CLI_O_EXPR, USAGE, false, &o);
    if (prc == 1) return 0;
    if (prc != 0 || !o.nfiles) {
        fprintf(stderr, "usage: catalyzer %s\n", USAGE);
        return 2;
    }
    const char *schema = o.schema;
    long iterations = o.iterations ? o.iterations : 1000;
    bool json = o.json;
    const char *const *files = o.files;
    int nfiles = o.nfiles;
    CzSession *s = cli_session_new(false);
    for (int i = 0; i < o.nconfs; i++) {
        char key[512];
        const char *kv = o.confs[i], *eq = strchr(kv, '=');
        if (!eq || (size_t)(eq - kv) >= sizeof key) goto usage;
        memcpy(key, kv, (size_t)(eq - kv));
        key[eq - kv] = 0;
        if (!cz_session_set_conf(s, key, eq + 1)) goto usage;
    }
    if (schema) {
        StatementList l;
        if (statements_read(schema, &l) != 0) {
            cz_session_free(s);
            return 2;
        }
        for (size_t i = 0; i < l.n; i++) {
            CzResult *r = cz_run_sql(s, l.v[i].sql, l.v[i].len, NULL);
            if (cz_result_status(r) != CZ_OK)
                fprintf(stderr, "catalyzer bench: schema statement %zu: %s\n", i, cz_result_error(r)->message);
            cz_result_free(r);
        }
        statements_free(&l);
    }
    double *times = malloc(sizeof(double) * (size_t)iterations);
    if (!times) abort();
    if (json) printf("{\"iterations\":%ld,\"queries\":[", iterations);
    else printf("%-28s %10s %10s %10s %12s  %s\n", "query", "median_us", "min_us", "max_us", "arena_bytes", "status");
    double total_median = 0;
    int status = 0;
    for (int f = 0; f < nfiles; f++) {
        StatementList l;
        if (statements_read(files[f], &l) != 0 || l.n == 0) {
            if (l.n == 0) fprintf(stderr, "catalyzer bench: %s: no statement\n", files[f]);
            status = 2;
            continue;
        }
        /* the last statement is the query; earlier ones (if any) run once */
        for (size_t i = 0; i + 1 < l.n; i++) cz_result_free(cz_run_sql(s, l.v[i].sql, l.v[i].len, NULL));
        Statement q = l.v[l.n - 1];
        size_t bytes = 0;
        const char *st = "ok";
        for (long it = 0; it < iterations; it++) {
            double t0 = bench_now_us();
            CzResult *r = cz_run_sql(s, q.sql, q.len, NULL);
            times[it] = bench_now_us() - t0;
            if (it == 0) {
                bytes = cz_result_arena_bytes(r);
                if (cz_result_status(r) != CZ_OK) st = "error";
            }
            cz_result_free(r);
        }
        qsort(times, (size_t)iterations, sizeof(double), bench_cmp_double);
        double med = times[iterations / 2];
        total_median += med;
        if (json)
            printf("%s{\"query\":\"%s\",\"median_us\":%.2f,\"min_us\":%.2f,\"max_us\":%.2f,\"arena_bytes\":%zu,\"status\":\"%s\"}",
                   f ? "," : "", bench_base_name(files[f]), med, times[0], times[iterations - 1], bytes, st);
        else
            printf("%-28s %10.2f %10.2f %10.2f %12zu  %s\n", bench_base_name(files[f]), med, times[0], times[iterations - 1], bytes,
                   st);
        statements_free(&l);
    }
    if (json) printf("],\"total_median_us\":%.2f}\n", total_median);
    else printf("%-28s %10.2f\n", "TOTAL (sum of medians)", total_median);
    free(times);
    cz_session_free(s);
    return status;
usage:
    fprintf(stderr, "usage: catalyzer bench [--schema FILE] [--iterations N] [--conf k=v]... [--json] QUERY.sql...\n");
    cz_session_free(s);
    return 2;
}
