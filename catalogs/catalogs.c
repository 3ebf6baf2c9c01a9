/* The external-catalog provider (catalogs.h): plugin classes to sources, one
 * cache in front of them. */
#include "catalogs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jdbc_postgres.h"
#include "table_cache.h"

struct CzCatalogs {
    CzCatalogProvider provider;
    CzCatalogsOptions opts;
    TableCache *cache;
    JdbcPostgres *pg;
};

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000ull + (uint64_t)ts.tv_nsec / 1000000ull;
}

static bool handles(void *ctx, const char *plugin) {
    (void)ctx;
    return !strcmp(plugin, CZ_JDBC_TABLE_CATALOG);
}

/* What a cached table is keyed by: the catalog, where its tables come from,
 * how they are read, and the table's name. Parts are separated by 0x1f,
 * which no option value from a conf line carries. */
static char *cache_key(const CzCatalogRequest *req) {
    const char *url = catalog_option(req, "url"), *user = catalog_option(req, "user");
    const char *ntz = catalog_option(req, "preferTimestampNTZ");
    size_t len = strlen(req->catalog) + (url ? strlen(url) : 0) + (user ? strlen(user) : 0) + 16 +
                 (ntz ? strlen(ntz) : 0) + strlen(req->table);
    for (int i = 0; i < req->nnamespace; i++) len += strlen(req->ns[i]) + 1;
    char *k = malloc(len + 8);
    if (!k) return NULL;
    size_t o = (size_t)sprintf(k, "%s\x1f%s\x1f%s\x1f%s\x1f", req->catalog, url ? url : "", user ? user : "",
                               ntz ? ntz : "");
    for (int i = 0; i < req->nnamespace; i++) o += (size_t)sprintf(k + o, "%s\x1e", req->ns[i]);
    sprintf(k + o, "\x1f%s", req->table);
    return k;
}

static uint32_t ttl_for(const CzCatalogs *c, const CzCatalogRequest *req) {
    const char *t = catalog_option(req, "cacheTtlSeconds");
    if (t && *t) {
        char *end;
        double s = strtod(t, &end);
        if (!*end && s >= 0 && s < 4e6) return (uint32_t)(s * 1000);
    }
    return c->opts.cache_ttl_ms;
}

static CzCatalogStatus load_table(void *ctx, const CzCatalogRequest *req, CzExternalTable *out,
                                  CzCatalogFailure *f) {
    CzCatalogs *c = ctx;
    memset(out, 0, sizeof *out);
    char *key = cache_key(req);
    if (!key) return CZ_CATALOG_FAILED;
    uint32_t ttl = ttl_for(c, req);
    CachedTable *e = ttl ? table_cache_get(c->cache, key, now_ms()) : NULL;
    if (e) {
        *out = *cached_table(e);
        free(key);
        return CZ_CATALOG_FOUND;
    }
    CzExternalTable loaded;
    CzCatalogStatus st = jdbc_pg_load_table(c->pg, req, &loaded, f);
    if (st != CZ_CATALOG_FOUND) {
        free(key);
        return st;
    }
    e = table_cache_put(c->cache, key, req->catalog, &loaded, now_ms(), ttl);
    jdbc_pg_table_free(&loaded);
    free(key);
    if (!e) {
        snprintf(f->error_class, sizeof f->error_class, "FAILED_JDBC.UNCLASSIFIED");
        return CZ_CATALOG_FAILED;
    }
    *out = *cached_table(e);
    return CZ_CATALOG_FOUND;
}

static void release_table(void *ctx, CzExternalTable *t) {
    CzCatalogs *c = ctx;
    if (t->provider_data) table_cache_release(c->cache, t->provider_data);
    memset(t, 0, sizeof *t);
}

static CzCatalogStatus namespace_exists(void *ctx, const CzCatalogRequest *req, CzCatalogFailure *f) {
    CzCatalogs *c = ctx;
    return jdbc_pg_namespace_exists(c->pg, req, f);
}

CzCatalogs *cz_catalogs_new(const CzCatalogsOptions *opts) {
    CzCatalogs *c = calloc(1, sizeof *c);
    if (!c) abort();
    if (opts) c->opts = *opts;
    if (!c->opts.cache_max_entries) c->opts.cache_max_entries = 10000;
    if (!c->opts.cache_max_bytes) c->opts.cache_max_bytes = 64u << 20;
    if (!c->opts.cache_ttl_ms) c->opts.cache_ttl_ms = 300000;
    c->cache = table_cache_new(c->opts.cache_max_entries, c->opts.cache_max_bytes);
    c->pg = jdbc_pg_new(c->opts.connect_timeout_ms);
    c->provider = (CzCatalogProvider){.ctx = c, .handles = handles, .load_table = load_table,
                                      .release_table = release_table, .namespace_exists = namespace_exists};
    return c;
}

void cz_catalogs_free(CzCatalogs *c) {
    if (!c) return;
    table_cache_free(c->cache);
    jdbc_pg_free(c->pg);
    free(c);
}

const CzCatalogProvider *cz_catalogs_provider(CzCatalogs *c) { return &c->provider; }
