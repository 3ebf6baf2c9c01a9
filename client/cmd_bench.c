/* `catalyzer bench [--schema FILE] [--iterations N] [--conf k=v]... [--json] [--phases] QUERY.sql...`
 * — a stable interface: parses and analyses each query N times in process
 * (after the schema's statements ran once in the session) and prints per
 * query the median, minimum and maximum microseconds and the arena bytes of
 * one analysis. The primitive the benchmarks and outside tools use.
 *
 * --phases adds, per query, a second series of N runs that produce the full
 * response the daemon sends (tree string, output attributes, structured
 * plan packed as protobuf) and reports the median of each phase: parse,
 * resolve, check, output (schema), tree, plan (structured plan encoded and
 * packed), encode (tree + plan), and the text's size for the parser's
 * µs per KB. The first series' figures stay exactly what they were. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "catalyzer.h"
#include "plan_encode.h"
#include "plan_pack.h"
#include "plan_wire.h"
#include "cli_opts.h"
#include "commands.h"
#include "external_catalogs.h"
#include "input.h"
#include "remote.h"


enum { PH_PARSE, PH_RESOLVE, PH_CHECK, PH_OUTPUT, PH_TREE, PH_PLAN, PH_ENCODE, PH_TOTAL, PH_COUNT_ };
static const char *const PHASE_NAMES[PH_COUNT_] = {"parse", "resolve", "check", "output", "tree", "plan", "encode", "total"};

/* The structured plan and output attributes as the daemon's Analyze response
 * carries them, packed; returns the packed size. Both are encoded from the
 * IR straight to bytes, their depth computed on the way (plan_wire.c), as
 * the daemon's gRPC path does. */
static size_t encode_structured(CzResult *r, PbRevWriter *w) {
    const Node *plan = cz_result_plan(r);
    pb_rev_writer_reset(w);
    if (!plan) return 0;
    Arena *a = cz_result_arena(r);
    size_t nout = 0;
    /* back to front: the attributes after the plan */
    plan_wire_prepend_output(w, a, plan, &nout);
    unsigned depth = plan_wire_prepend_plan(w, a, plan, false);
    if (w->failed || !depth) abort();
    return pb_rev_writer_len(w);
}

/* CATALYZER_BENCH_DUMP=FILE appends, per query, the tree string and the
 * packed structured plan of the first run, so that a change to the printers
 * or the encoder can be proven byte-identical (diff two dumps). */
static void dump_first_run(CzResult *r, const uint8_t *packed, size_t n) {
    const char *path = getenv("CATALYZER_BENCH_DUMP");
    if (!path || !*path) return;
    FILE *f = fopen(path, "ab");
    if (!f) return;
    const char *tree = cz_result_tree(r);
    fprintf(f, "== tree %zu\n%s\n== plan %zu\n", tree ? strlen(tree) : 0, tree ? tree : "", n);
    if (n) fwrite(packed, 1, n, f);
    fputc('\n', f);
    fclose(f);
}

/* The phase series of one query: medians (µs) into med[PH_COUNT_]. */
static void bench_phases(CzSession *s, const Statement *q, long iterations, double *med) {
    double *t[PH_COUNT_];
    for (int p = 0; p < PH_COUNT_; p++) {
        t[p] = malloc(sizeof(double) * (size_t)iterations);
        if (!t[p]) abort();
    }
    PbRevWriter w;
    pb_rev_writer_init(&w);
    for (long it = 0; it < iterations; it++) {
        CzPhaseTimes ph = {0};
        CzRunOptions o = {.want_tree = true, .phases = &ph};
        double t0 = bench_now_us();
        CzResult *r = cz_run_sql(s, q->sql, q->len, &o);
        double t1 = bench_now_us();
        size_t packed = encode_structured(r, &w);
        double t2 = bench_now_us();
        if (it == 0) dump_first_run(r, pb_rev_writer_data(&w), packed);
        cz_result_free(r);
        t[PH_PARSE][it] = (double)ph.parse_ns / 1e3;
        t[PH_RESOLVE][it] = (double)ph.resolve_ns / 1e3;
        t[PH_CHECK][it] = (double)ph.check_ns / 1e3;
        t[PH_OUTPUT][it] = (double)ph.output_ns / 1e3;
        t[PH_TREE][it] = (double)ph.tree_ns / 1e3;
        t[PH_PLAN][it] = t2 - t1;
        t[PH_ENCODE][it] = t[PH_TREE][it] + t[PH_PLAN][it];
        t[PH_TOTAL][it] = t2 - t0;
    }
    for (int p = 0; p < PH_COUNT_; p++) {
        qsort(t[p], (size_t)iterations, sizeof(double), bench_cmp_double);
        med[p] = t[p][iterations / 2];
        free(t[p]);
    }
    pb_rev_writer_free(&w);
}

int cmd_bench(int argc, char **argv) {
    if (cli_daemon_arg(argc, argv)) return cmd_bench_daemon(argc, argv);
    static const char USAGE[] =
        "bench [--schema FILE] [--iterations N] [--conf k=v]... [--json] [--phases] QUERY.sql|-|-e SQL...";
    CliOpts o;
    int prc = cli_getopt(argc, argv, CLI_O_SCHEMA | CLI_O_ITERATIONS | CLI_O_CONF | CLI_O_JSON | CLI_O_EXPR | CLI_O_PHASES,
                         USAGE, false, &o);
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
        double pm[PH_COUNT_];
        if (o.phases) bench_phases(s, &q, iterations, pm);
        if (json) {
            printf("%s{\"query\":\"%s\",\"median_us\":%.2f,\"min_us\":%.2f,\"max_us\":%.2f,\"arena_bytes\":%zu,\"status\":\"%s\"",
                   f ? "," : "", bench_base_name(files[f]), med, times[0], times[iterations - 1], bytes, st);
            if (o.phases) {
                printf(",\"phases\":{\"sql_bytes\":%zu", q.len);
                for (int p = 0; p < PH_COUNT_; p++) printf(",\"%s_us\":%.3f", PHASE_NAMES[p], pm[p]);
                printf("}");
            }
            printf("}");
        } else {
            printf("%-28s %10.2f %10.2f %10.2f %12zu  %s\n", bench_base_name(files[f]), med, times[0], times[iterations - 1], bytes,
                   st);
            if (o.phases) {
                printf("  phases (median us, %zu bytes of SQL):", q.len);
                for (int p = 0; p < PH_COUNT_; p++) printf(" %s %.2f", PHASE_NAMES[p], pm[p]);
                printf("\n");
            }
        }
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
