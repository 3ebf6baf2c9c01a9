/* The external-catalog provider (catalogs.h): plugin classes to sources, one
 * cache in front of them. */
#include "catalogs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog_request.h"
#include "jdbc_postgres.h"
#include "remote_catalog.h"
#include "table_cache.h"

struct CzCatalogs {
    CzCatalogProvider provider;
    CzCatalogsOptions opts;
    TableCache *cache;
    JdbcPostgres *pg;
    RemoteCatalog *remote;
    CzCatalogsInvalidateFn on_invalidate;
    void *on_invalidate_ud;
};

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000ull + (uint64_t)ts.tv_nsec / 1000000ull;
}

static bool is_remote(const CzCatalogRequest *req) { return !strcmp(req->plugin_class, CZ_REMOTE_TABLE_CATALOG); }

static bool handles(void *ctx, const char *plugin) {
    (void)ctx;
    return !strcmp(plugin, CZ_JDBC_TABLE_CATALOG) || !strcmp(plugin, CZ_REMOTE_TABLE_CATALOG);
}

/* A growing key; parts are separated by 0x1f (0x1e ends each namespace
 * part, 0x1d each option), which no option value from a conf line carries. */
typedef struct Key {
    char *s;
    size_t len, cap;
    bool failed;
} Key;

static void key_put(Key *k, const char *part, size_t n) {
    if (k->failed) return;
    if (k->len + n + 1 > k->cap) {
        size_t cap = (k->len + n + 1) * 2 + 64;
        char *s = realloc(k->s, cap);
        if (!s) {
            k->failed = true;
            return;
        }
        k->s = s;
        k->cap = cap;
    }
    memcpy(k->s + k->len, part, n);
    k->len += n;
    k->s[k->len] = 0;
}
static void key_str(Key *k, const char *part) { key_put(k, part ? part : "", part ? strlen(part) : 0); }
static void key_sep(Key *k, char sep) { key_put(k, &sep, 1); }

/* Every key ends with this: the namespace and the table's name (what
 * invalidation by table matches). */
static void key_table(Key *k, int nns, const char *const *ns, const char *table) {
    key_sep(k, '\x1f');
    for (int i = 0; i < nns; i++) {
        key_str(k, ns[i]);
        key_sep(k, '\x1e');
    }
    key_sep(k, '\x1f');
    key_str(k, table);
}

static int option_order(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The options a remote catalog's provider is sent, sorted: "k=v" each
 * followed by 0x1d. */
static void key_remote_options(Key *k, const CzCatalogRequest *req) {
    char **kv = calloc((size_t)req->noptions + 1, sizeof *kv);
    int n = 0;
    if (!kv) {
        k->failed = true;
        return;
    }
    for (int i = 0; i < req->noptions; i++) {
        if (remote_option_is_own(req->option_keys[i])) continue;
        Key o = {0};
        key_str(&o, req->option_keys[i]);
        key_sep(&o, '=');
        key_str(&o, req->option_values[i]);
        if (o.failed) k->failed = true;
        kv[n++] = o.s;
    }
    if (!k->failed) qsort(kv, (size_t)n, sizeof *kv, option_order);
    for (int i = 0; i < n; i++) {
        key_str(k, kv[i]);
        key_sep(k, '\x1d');
        free(kv[i]);
    }
    free(kv);
}

/* What a cached table is keyed by: the catalog, where its tables come from
 * and how they are read (JDBC: url, user, preferTimestampNTZ; remote: the
 * uri and the options the provider is sent), and the table's name. */
static char *cache_key(const CzCatalogRequest *req) {
    Key k = {0};
    key_str(&k, req->catalog);
    key_sep(&k, '\x1f');
    if (is_remote(req)) {
        key_str(&k, catalog_option(req, "uri"));
        key_sep(&k, '\x1f');
        key_remote_options(&k, req);
    } else {
        key_str(&k, catalog_option(req, "url"));
        key_sep(&k, '\x1f');
        key_str(&k, catalog_option(req, "user"));
        key_sep(&k, '\x1f');
        key_str(&k, catalog_option(req, "preferTimestampNTZ"));
    }
    key_table(&k, req->nnamespace, req->ns, req->table);
    if (k.failed) {
        free(k.s);
        return NULL;
    }
    return k.s;
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

static CzCatalogStatus out_of_memory(CzCatalogFailure *f, const CzCatalogRequest *req) {
    if (is_remote(req)) {
        snprintf(f->error_class, sizeof f->error_class, "REMOTE_CATALOG.FAILED");
        const char *names[4] = {"catalog", "uri", "operation", "reason"};
        const char *uri = catalog_option(req, "uri");
        const char *values[4] = {req->catalog, uri ? uri : "", "LoadTable", "out of memory"};
        for (int i = 0; i < 4; i++) {
            snprintf(f->names[i], sizeof f->names[i], "%s", names[i]);
            snprintf(f->values[i], sizeof f->values[i], "%.*s", (int)sizeof f->values[i] - 1, values[i]);
        }
        f->nparams = 4;
    } else {
        snprintf(f->error_class, sizeof f->error_class, "FAILED_JDBC.UNCLASSIFIED");
    }
    return CZ_CATALOG_FAILED;
}

/* A remote table: the cached copy while it lives; past its time to live
 * the provider is asked with the copy's version and the copy lives on when
 * it is current (no transfer, and sessions keep their converted copies). */
static CzCatalogStatus load_remote(CzCatalogs *c, const CzCatalogRequest *req, const char *key, uint32_t ttl,
                                   CzExternalTable *out, CzCatalogFailure *f) {
    bool fresh = false;
    CachedTable *e = table_cache_lookup(c->cache, key, now_ms(), &fresh);
    if (e && fresh) {
        *out = *cached_table(e);
        return CZ_CATALOG_FOUND;
    }
    uint64_t generation = table_cache_generation(c->cache);
    RemoteTable loaded;
    bool not_modified = false;
    CzCatalogStatus st =
        remote_load_table(c->remote, req, e ? cached_table_source_version(e) : NULL, &not_modified, &loaded, f);
    if (st == CZ_CATALOG_FOUND && not_modified) {
        table_cache_renew(c->cache, e, now_ms(), ttl);
        *out = *cached_table(e);
        return CZ_CATALOG_FOUND;
    }
    if (e) table_cache_release(c->cache, e);
    if (st != CZ_CATALOG_FOUND) return st;
    e = table_cache_put_loaded(c->cache, key, req->catalog, &loaded.table, loaded.version, generation, now_ms(), ttl);
    remote_table_free(&loaded);
    if (!e) return out_of_memory(f, req);
    *out = *cached_table(e);
    return CZ_CATALOG_FOUND;
}

static CzCatalogStatus load_jdbc(CzCatalogs *c, const CzCatalogRequest *req, const char *key, uint32_t ttl,
                                 CzExternalTable *out, CzCatalogFailure *f) {
    CachedTable *e = ttl ? table_cache_get(c->cache, key, now_ms()) : NULL;
    if (e) {
        *out = *cached_table(e);
        return CZ_CATALOG_FOUND;
    }
    uint64_t generation = table_cache_generation(c->cache);
    CzExternalTable loaded;
    CzCatalogStatus st = jdbc_pg_load_table(c->pg, req, &loaded, f);
    if (st != CZ_CATALOG_FOUND) return st;
    e = table_cache_put_loaded(c->cache, key, req->catalog, &loaded, NULL, generation, now_ms(), ttl);
    jdbc_pg_table_free(&loaded);
    if (!e) return out_of_memory(f, req);
    *out = *cached_table(e);
    return CZ_CATALOG_FOUND;
}

static CzCatalogStatus load_table(void *ctx, const CzCatalogRequest *req, CzExternalTable *out,
                                  CzCatalogFailure *f) {
    CzCatalogs *c = ctx;
    memset(out, 0, sizeof *out);
    char *key = cache_key(req);
    if (!key) return out_of_memory(f, req);
    uint32_t ttl = ttl_for(c, req);
    CzCatalogStatus st = is_remote(req) ? load_remote(c, req, key, ttl, out, f) : load_jdbc(c, req, key, ttl, out, f);
    free(key);
    return st;
}

/* Functions (FunctionCatalog.loadFunction) share the table cache: one
 * entry per function, keyed as a table is but after a 0x1c, its arguments
 * as columns "arg" (their types) and a last column whose name says scalar /
 * aggregate, whose type is the result's and whose nullable flag is
 * deterministic. Invalidation by catalog drops them too. JDBC catalogs
 * have none (Spark's PostgreSQL dialect registers no functions). */
typedef struct FunctionHold {
    CachedTable *e;
    const char *types[];
} FunctionHold;

static CzCatalogStatus function_out(const CachedTable *e, CzExternalFunction *out, CzCatalogFailure *f,
                                    const CzCatalogRequest *req) {
    const CzExternalTable *t = cached_table(e);
    FunctionHold *h = malloc(sizeof *h + (size_t)t->ncols * sizeof h->types[0]);
    if (!h) return out_of_memory(f, req);
    h->e = (CachedTable *)e;
    int nargs = t->ncols - 1;
    for (int i = 0; i < nargs; i++) h->types[i] = t->cols[i].type;
    *out = (CzExternalFunction){.name = t->name, .nargs = nargs, .arg_types = h->types,
                                .result_type = t->cols[nargs].type, .deterministic = t->cols[nargs].nullable,
                                .aggregate = !strcmp(t->cols[nargs].name, "aggregate"), .provider_data = h};
    return CZ_CATALOG_FOUND;
}

static CzCatalogStatus load_function(void *ctx, const CzCatalogRequest *req, CzExternalFunction *out,
                                     CzCatalogFailure *f) {
    CzCatalogs *c = ctx;
    memset(out, 0, sizeof *out);
    if (!is_remote(req)) return CZ_CATALOG_NOT_FOUND;
    char *tkey = cache_key(req);
    if (!tkey) return out_of_memory(f, req);
    Key k = {0};
    key_str(&k, "\x1c");
    key_str(&k, tkey);
    free(tkey);
    if (k.failed) {
        free(k.s);
        return out_of_memory(f, req);
    }
    uint32_t ttl = ttl_for(c, req);
    CachedTable *e = ttl ? table_cache_get(c->cache, k.s, now_ms()) : NULL;
    if (!e) {
        uint64_t generation = table_cache_generation(c->cache);
        RemoteFunction fn;
        CzCatalogStatus st = remote_load_function(c->remote, req, &fn, f);
        if (st != CZ_CATALOG_FOUND) {
            free(k.s);
            return st;
        }
        CzExternalColumn *cols = calloc((size_t)fn.nargs + 1, sizeof *cols);
        if (cols) {
            for (int i = 0; i < fn.nargs; i++) cols[i] = (CzExternalColumn){"arg", fn.arg_types[i], true};
            cols[fn.nargs] = (CzExternalColumn){fn.aggregate ? "aggregate" : "scalar", fn.result_type, fn.deterministic};
            CzExternalTable t = {.ncols = fn.nargs + 1, .cols = cols, .name = fn.name};
            e = table_cache_put_loaded(c->cache, k.s, req->catalog, &t, NULL, generation, now_ms(), ttl);
        }
        free(cols);
        remote_function_free(&fn);
    }
    free(k.s);
    if (!e) return out_of_memory(f, req);
    CzCatalogStatus st = function_out(e, out, f, req);
    if (st != CZ_CATALOG_FOUND) table_cache_release(c->cache, e);
    return st;
}

static void release_function(void *ctx, CzExternalFunction *fn) {
    CzCatalogs *c = ctx;
    FunctionHold *h = fn->provider_data;
    if (h) {
        table_cache_release(c->cache, h->e);
        free(h);
    }
    memset(fn, 0, sizeof *fn);
}

static void release_table(void *ctx, CzExternalTable *t) {
    CzCatalogs *c = ctx;
    if (t->provider_data) table_cache_release(c->cache, t->provider_data);
    memset(t, 0, sizeof *t);
}

static CzCatalogStatus namespace_exists(void *ctx, const CzCatalogRequest *req, CzCatalogFailure *f) {
    CzCatalogs *c = ctx;
    return is_remote(req) ? remote_namespace_exists(c->remote, req, f) : jdbc_pg_namespace_exists(c->pg, req, f);
}

size_t cz_catalogs_invalidate(CzCatalogs *c, const char *catalog, int nns, const char *const *ns, const char *table,
                              bool notify) {
    size_t n;
    if (table) {
        Key k = {0};
        key_table(&k, nns, ns, table);
        if (k.failed) { /* cannot say which: drop the catalog's */
            free(k.s);
            n = table_cache_invalidate(c->cache, catalog, NULL);
        } else {
            n = table_cache_invalidate(c->cache, catalog, k.s);
            free(k.s);
        }
    } else {
        n = table_cache_invalidate(c->cache, catalog, NULL);
    }
    if (notify && c->on_invalidate) c->on_invalidate(c->on_invalidate_ud, catalog, nns, ns, table);
    return n;
}

static void invalidate_table(void *ctx, const CzCatalogRequest *req) {
    cz_catalogs_invalidate(ctx, req->catalog, req->nnamespace, req->ns, req->table, true);
}

void cz_catalogs_on_invalidate(CzCatalogs *c, CzCatalogsInvalidateFn fn, void *ud) {
    c->on_invalidate = fn;
    c->on_invalidate_ud = ud;
}

void cz_catalogs_cache_usage(CzCatalogs *c, size_t *entries, size_t *bytes) {
    TableCacheStats st;
    table_cache_stats(c->cache, &st);
    if (entries) *entries = st.entries;
    if (bytes) *bytes = st.bytes;
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
    c->remote = remote_catalog_new();
    c->provider = (CzCatalogProvider){.ctx = c, .handles = handles, .load_table = load_table,
                                      .release_table = release_table, .namespace_exists = namespace_exists,
                                      .invalidate_table = invalidate_table, .load_function = load_function,
                                      .release_function = release_function};
    return c;
}

void cz_catalogs_free(CzCatalogs *c) {
    if (!c) return;
    table_cache_free(c->cache);
    jdbc_pg_free(c->pg);
    remote_catalog_free(c->remote);
    free(c);
}

const CzCatalogProvider *cz_catalogs_provider(CzCatalogs *c) { return &c->provider; }
