/* The table cache's bound under a large catalog: loads synthetic.t0 ...
 * synthetic.t(N-1) of a catalyzer.remote catalog (an example provider
 * started with --synthetic N) through cz_catalogs' provider, as analyses
 * would, and reports as one JSON line what the cache held at most (entries,
 * bytes, sampled after every load), what it holds at the end and the
 * process' resident memory after the first tenth and at the end.
 *
 * Usage: cache_bound_probe HOST:PORT N MAX_ENTRIES MAX_BYTES
 * (run by test_cache_bound.py). Exit 0 when every load succeeded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalogs.h"

static long rss_kib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, rss = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &rss) != 2) rss = 0;
        fclose(f);
    }
    return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: cache_bound_probe HOST:PORT N MAX_ENTRIES MAX_BYTES\n");
        return 2;
    }
    long n = atol(argv[2]);
    CzCatalogsOptions o = {.cache_max_entries = (size_t)atol(argv[3]), .cache_max_bytes = (size_t)atol(argv[4])};
    CzCatalogs *c = cz_catalogs_new(&o);
    const CzCatalogProvider *p = cz_catalogs_provider(c);
    const char *keys[] = {"uri"};
    const char *values[] = {argv[1]};
    const char *ns[] = {"synthetic"};
    size_t max_entries = 0, max_bytes = 0;
    long rss_tenth = 0, failed = 0, ncols = 0;
    char first_error[600] = "";
    for (long i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%ld", i);
        CzCatalogRequest req = {.catalog = "rc", .plugin_class = CZ_REMOTE_TABLE_CATALOG, .noptions = 1,
                                .option_keys = keys, .option_values = values, .nnamespace = 1, .ns = ns,
                                .table = name};
        CzExternalTable t;
        CzCatalogFailure f = {0};
        CzCatalogStatus st = p->load_table(p->ctx, &req, &t, &f);
        if (st != CZ_CATALOG_FOUND) {
            if (!failed++)
                snprintf(first_error, sizeof first_error, "%s: %.90s %.400s", name, f.error_class,
                         f.nparams ? f.values[f.nparams - 1] : "not found");
            continue;
        }
        ncols += t.ncols;
        p->release_table(p->ctx, &t);
        size_t e, b;
        cz_catalogs_cache_usage(c, &e, &b);
        if (e > max_entries) max_entries = e;
        if (b > max_bytes) max_bytes = b;
        if (i + 1 == n / 10) rss_tenth = rss_kib();
    }
    for (char *q = first_error; *q; q++)
        if (*q == '"' || *q == '\\' || (unsigned char)*q < 0x20) *q = '\'';
    size_t end_entries, end_bytes;
    cz_catalogs_cache_usage(c, &end_entries, &end_bytes);
    printf("{\"loads\": %ld, \"failed\": %ld, \"columns\": %ld, \"max_entries\": %zu, \"max_bytes\": %zu, "
           "\"end_entries\": %zu, \"end_bytes\": %zu, \"rss_kib_tenth\": %ld, \"rss_kib_end\": %ld, "
           "\"first_error\": \"%s\"}\n",
           n, failed, ncols, max_entries, max_bytes, end_entries, end_bytes, rss_tenth, rss_kib(), first_error);
    cz_catalogs_free(c);
    return failed ? 1 : 0;
}
