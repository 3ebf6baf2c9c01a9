/* External v2 catalogs through the session's provider (external_catalog.h). */
#include "external_catalog.h"

#include <stdlib.h>
#include <string.h>

#include "core/output.h"

#define MEMO_MAX_BYTES (16u << 20) /* converted copies a session keeps before starting afresh */
#define MEMO_BUCKETS 256

typedef struct MemoEntry {
    const char *key;    /* catalog \x1f namespace key \x1f name */
    uint64_t version;
    const TableDef *table;
    struct MemoEntry *next;
} MemoEntry;

struct ExternalTableMemo {
    Arena *arena;
    MemoEntry *buckets[MEMO_BUCKETS];
};

ExternalTableMemo *external_memo_new(void) {
    ExternalTableMemo *m = calloc(1, sizeof *m);
    if (!m) abort();
    m->arena = arena_new(16384);
    return m;
}

void external_memo_free(ExternalTableMemo *m) {
    if (!m) return;
    arena_free(m->arena);
    free(m);
}

Arena *external_memo_trim(ExternalTableMemo *m) {
    if (!m || arena_used(m->arena) < MEMO_MAX_BYTES) return NULL;
    Arena *old = m->arena;
    m->arena = arena_new(16384);
    memset(m->buckets, 0, sizeof m->buckets);
    return old;
}

static uint32_t memo_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h % MEMO_BUCKETS;
}

#define CATALOG_CONF_PREFIX "spark.sql.catalog."

bool external_catalog_handles(const SessionState *s, const char *plugin_class) {
    const CzCatalogProvider *p = s ? s->catalog_provider : NULL;
    return p && p->handles && plugin_class && p->handles(p->ctx, plugin_class);
}

/* The request: the catalog's options (spark.sql.catalog.NAME.<key>, in the
 * order they were set) and the name. */
static CzCatalogRequest request_for(Arena *a, const SessionState *s, const CatalogRef *cat, NameParts ns,
                                    const char *name, uint64_t deadline_ns, const volatile int *cancel) {
    CzCatalogRequest r = {.catalog = cat->name, .plugin_class = cat->plugin, .table = name,
                          .deadline_ns = deadline_ns, .cancel = cancel};
    size_t plen = strlen(CATALOG_CONF_PREFIX), nlen = strlen(cat->name);
    const char **keys = ARENA_ARRAY(a, const char *, s->conf.nentries + 1);
    const char **values = ARENA_ARRAY(a, const char *, s->conf.nentries + 1);
    for (int i = 0; i < s->conf.nentries; i++) {
        const char *k = s->conf.keys[i];
        if (strncmp(k, CATALOG_CONF_PREFIX, plen) || strncmp(k + plen, cat->name, nlen) || k[plen + nlen] != '.')
            continue;
        keys[r.noptions] = k + plen + nlen + 1;
        values[r.noptions++] = s->conf.values[i];
    }
    r.option_keys = keys;
    r.option_values = values;
    r.nnamespace = (int)ns.n;
    r.ns = ns.v;
    return r;
}

static ErrorInfo *failure_error(Arena *a, const CzCatalogFailure *f, const CatalogRef *cat) {
    if (!f->error_class[0]) /* a provider that said nothing: still say which catalog failed */
        return error_make(a, "FAILED_JDBC.UNCLASSIFIED", NULL, "url", cat->name, "message",
                          "the catalog provider failed without a reason", NULL);
    int n = f->nparams < 0 ? 0 : f->nparams > 4 ? 4 : f->nparams;
    const char *names[4], *values[4];
    for (int i = 0; i < n; i++) {
        names[i] = arena_strdup(a, f->names[i]);
        values[i] = arena_strdup(a, f->values[i]);
    }
    return error_make_v(a, arena_strdup(a, f->error_class), -1, -1, n, names, values);
}

ErrorInfo *external_load_table(Arena *a, const SessionState *s, const CatalogRef *cat, NameParts ns, const char *name,
                               uint64_t deadline_ns, const volatile int *cancel, const TableDef **out) {
    *out = NULL;
    const CzCatalogProvider *p = s->catalog_provider;
    CzCatalogRequest req = request_for(a, s, cat, ns, name, deadline_ns, cancel);
    CzExternalTable t = {0};
    CzCatalogFailure f = {0};
    CzCatalogStatus st = p->load_table(p->ctx, &req, &t, &f);
    if (st == CZ_CATALOG_NOT_FOUND) return NULL;
    if (st != CZ_CATALOG_FOUND) return failure_error(a, &f, cat);
    ExternalTableMemo *memo = t.version ? s->external_memo : NULL;
    const char *key = NULL;
    uint32_t b = 0;
    if (memo) {
        key = arena_printf(a, "%s\x1f%s\x1f%s", cat->name, catalog_namespace_key(a, ns), name);
        b = memo_hash(key);
        for (MemoEntry *e = memo->buckets[b]; e; e = e->next)
            if (e->version == t.version && !strcmp(e->key, key)) {
                if (p->release_table) p->release_table(p->ctx, &t);
                *out = e->table;
                return NULL;
            }
        a = memo->arena; /* the copy outlives this analysis */
    }
    TableDef *d = ARENA_NEW(a, TableDef);
    d->catalog = arena_strdup(a, cat->name); /* the memo's copy outlives the request and the state */
    d->ns = catalog_namespace_key(a, ns);
    const char **parts = ARENA_ARRAY(a, const char *, ns.n + 1);
    for (uint32_t i = 0; i < ns.n; i++) parts[i] = arena_strdup(a, ns.v[i]);
    d->ns_parts = (NameParts){ns.n, parts};
    d->v2 = true;
    d->name = arena_strdup(a, name);
    d->table_name = t.name ? arena_strdup(a, t.name) : NULL;
    d->provider = arena_strdup(a, cat->plugin);
    d->ncols = t.ncols;
    d->cols = ARENA_ARRAY(a, ColumnDef, t.ncols + 1);
    ErrorInfo *e = NULL;
    for (int i = 0; i < t.ncols && !e; i++) {
        const char *why = NULL;
        size_t used = 0, len = strlen(t.cols[i].type);
        const DataType *ty = type_parse(a, t.cols[i].type, len, &used, &why);
        if (!ty || used != len) {
            e = error_make(a, "FAILED_JDBC.UNCLASSIFIED", NULL, "url", cat->name, "message",
                           arena_printf(a, "column %s of %s has a type the analyzer cannot read: %s", t.cols[i].name,
                                        name, t.cols[i].type),
                           NULL);
            break;
        }
        d->cols[i].name = arena_strdup(a, t.cols[i].name);
        d->cols[i].type = ty;
        d->cols[i].nullable = t.cols[i].nullable;
        d->cols[i].name_hash = attr_name_hash(d->cols[i].name);
    }
    uint64_t version = t.version; /* release_table clears t */
    if (p->release_table) p->release_table(p->ctx, &t);
    if (e) return e;
    if (memo) {
        MemoEntry *me = ARENA_NEW(memo->arena, MemoEntry);
        *me = (MemoEntry){arena_strdup(memo->arena, key), version, d, memo->buckets[b]};
        memo->buckets[b] = me; /* an older version of the same table stays until the memo is trimmed */
    }
    *out = d;
    return NULL;
}

ErrorInfo *external_load_function(Arena *a, const SessionState *s, const CatalogRef *cat, NameParts ns,
                                  const char *name, uint64_t deadline_ns, const volatile int *cancel,
                                  ExternalFunction *out, bool *found) {
    memset(out, 0, sizeof *out);
    *found = false;
    const CzCatalogProvider *p = s->catalog_provider;
    if (!p->load_function) return NULL;
    CzCatalogRequest req = request_for(a, s, cat, ns, name, deadline_ns, cancel);
    CzExternalFunction fn = {0};
    CzCatalogFailure f = {0};
    CzCatalogStatus st = p->load_function(p->ctx, &req, &fn, &f);
    if (st == CZ_CATALOG_NOT_FOUND) return NULL;
    if (st != CZ_CATALOG_FOUND) return failure_error(a, &f, cat);
    ErrorInfo *e = NULL;
    const DataType **types = ARENA_ARRAY(a, const DataType *, fn.nargs + 1);
    const DataType *result = NULL;
    for (int i = 0; i <= fn.nargs && !e; i++) {
        const char *t = i < fn.nargs ? fn.arg_types[i] : fn.result_type;
        const char *why = NULL;
        size_t used = 0, len = t ? strlen(t) : 0;
        const DataType *ty = t ? type_parse(a, t, len, &used, &why) : NULL;
        if (!ty || used != len)
            e = error_make(a, "REMOTE_CATALOG.INVALID_RESPONSE", NULL, "catalog", cat->name, "uri", "", "operation",
                           arena_printf(a, "LoadFunction %s", name), "reason",
                           arena_printf(a, "the %s type \"%s\" is not a Spark type string",
                                        i < fn.nargs ? "argument" : "result", t ? t : ""),
                           NULL);
        else if (i < fn.nargs)
            types[i] = ty;
        else
            result = ty;
    }
    if (!e) {
        *out = (ExternalFunction){arena_strdup(a, fn.name && fn.name[0] ? fn.name : name), fn.nargs, types, result,
                                  fn.deterministic, fn.aggregate};
        *found = true;
    }
    if (p->release_function) p->release_function(p->ctx, &fn);
    return e;
}

void external_invalidate_table(Arena *a, const SessionState *s, const CatalogRef *cat, NameParts ns, const char *name) {
    const CzCatalogProvider *p = s->catalog_provider;
    if (!p->invalidate_table) return;
    CzCatalogRequest req = request_for(a, s, cat, ns, name, 0, NULL);
    p->invalidate_table(p->ctx, &req);
}

ErrorInfo *external_namespace_exists(Arena *a, const SessionState *s, const CatalogRef *cat, NameParts ns,
                                     uint64_t deadline_ns, const volatile int *cancel, bool *exists) {
    *exists = false;
    const CzCatalogProvider *p = s->catalog_provider;
    if (!p->namespace_exists) return NULL;
    CzCatalogRequest req = request_for(a, s, cat, ns, NULL, deadline_ns, cancel);
    CzCatalogFailure f = {0};
    CzCatalogStatus st = p->namespace_exists(p->ctx, &req, &f);
    if (st == CZ_CATALOG_FAILED) return failure_error(a, &f, cat);
    *exists = st == CZ_CATALOG_FOUND;
    return NULL;
}
