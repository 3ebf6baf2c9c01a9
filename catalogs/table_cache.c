/* The bounded table cache (table_cache.h): a chained hash table over an LRU list. */
#include "table_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct CachedTable {
    char *key;
    char *group;
    char *source_version;    /* the source's own version of the table ("" if none) */
    CzExternalTable table;   /* cols and strings live in the same block as the entry */
    size_t bytes;
    uint64_t expires_ms;
    int refs;                /* the cache's own (while in the table) + one per user */
    CachedTable *hnext;      /* hash chain */
    CachedTable *prev, *next;/* LRU: head most recent */
};

struct TableCache {
    pthread_mutex_t mu;
    uint64_t next_version;   /* each entry's copy gets a new one */
    uint64_t generation;     /* counts invalidations */
    size_t max_entries, max_bytes;
    size_t nbuckets;
    CachedTable **buckets;
    CachedTable *head, *tail;
    size_t entries, bytes;
    uint64_t evictions;
};

static uint64_t hash_key(const char *s) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

TableCache *table_cache_new(size_t max_entries, size_t max_bytes) {
    TableCache *c = calloc(1, sizeof *c);
    if (!c) abort();
    pthread_mutex_init(&c->mu, NULL);
    c->max_entries = max_entries;
    c->max_bytes = max_bytes;
    c->nbuckets = 1024;
    c->buckets = calloc(c->nbuckets, sizeof *c->buckets);
    if (!c->buckets) abort();
    return c;
}

static void entry_free(CachedTable *e) { free(e); }

static void unref_locked(CachedTable *e) {
    if (--e->refs == 0) entry_free(e);
}

/* Takes e off the hash chain and the LRU list; drops the cache's reference. */
static void unlist_locked(TableCache *c, CachedTable *e) {
    CachedTable **pp = &c->buckets[hash_key(e->key) & (c->nbuckets - 1)];
    while (*pp && *pp != e) pp = &(*pp)->hnext;
    if (*pp) *pp = e->hnext;
    if (e->prev) e->prev->next = e->next;
    else c->head = e->next;
    if (e->next) e->next->prev = e->prev;
    else c->tail = e->prev;
    c->entries--;
    c->bytes -= e->bytes;
    unref_locked(e);
}

void table_cache_free(TableCache *c) {
    if (!c) return;
    while (c->head) unlist_locked(c, c->head);
    free(c->buckets);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

static void grow_locked(TableCache *c) {
    size_t n = c->nbuckets * 2;
    CachedTable **b = calloc(n, sizeof *b);
    if (!b) return; /* stays slower, still correct */
    for (size_t i = 0; i < c->nbuckets; i++)
        for (CachedTable *e = c->buckets[i], *next; e; e = next) {
            next = e->hnext;
            CachedTable **slot = &b[hash_key(e->key) & (n - 1)];
            e->hnext = *slot;
            *slot = e;
        }
    free(c->buckets);
    c->buckets = b;
    c->nbuckets = n;
}

static CachedTable *find_locked(TableCache *c, const char *key) {
    for (CachedTable *e = c->buckets[hash_key(key) & (c->nbuckets - 1)]; e; e = e->hnext)
        if (!strcmp(e->key, key)) return e;
    return NULL;
}

static void touch_locked(TableCache *c, CachedTable *e) {
    if (c->head == e) return;
    e->prev->next = e->next;
    if (e->next) e->next->prev = e->prev;
    else c->tail = e->prev;
    e->prev = NULL;
    e->next = c->head;
    c->head->prev = e;
    c->head = e;
}

CachedTable *table_cache_lookup(TableCache *c, const char *key, uint64_t now_ms, bool *fresh) {
    pthread_mutex_lock(&c->mu);
    CachedTable *e = find_locked(c, key);
    if (e) {
        touch_locked(c, e);
        e->refs++;
        *fresh = e->expires_ms > now_ms;
    }
    pthread_mutex_unlock(&c->mu);
    return e;
}

CachedTable *table_cache_get(TableCache *c, const char *key, uint64_t now_ms) {
    pthread_mutex_lock(&c->mu);
    CachedTable *e = find_locked(c, key);
    if (e && e->expires_ms <= now_ms) {
        unlist_locked(c, e);
        e = NULL;
    }
    if (e) {
        touch_locked(c, e);
        e->refs++;
    }
    pthread_mutex_unlock(&c->mu);
    return e;
}

void table_cache_renew(TableCache *c, CachedTable *e, uint64_t now_ms, uint32_t ttl_ms) {
    pthread_mutex_lock(&c->mu);
    e->expires_ms = now_ms + ttl_ms;
    pthread_mutex_unlock(&c->mu);
}

uint64_t table_cache_generation(TableCache *c) {
    pthread_mutex_lock(&c->mu);
    uint64_t g = c->generation;
    pthread_mutex_unlock(&c->mu);
    return g;
}

/* One block: the entry, the columns, then every string. */
static CachedTable *entry_new(const char *key, const char *group, const CzExternalTable *t, const char *source_version) {
    if (!source_version) source_version = "";
    size_t strings = strlen(key) + 1 + strlen(group) + 1 + (t->name ? strlen(t->name) + 1 : 0) +
                     strlen(source_version) + 1;
    for (int i = 0; i < t->ncols; i++) strings += strlen(t->cols[i].name) + 1 + strlen(t->cols[i].type) + 1;
    size_t bytes = sizeof(CachedTable) + (size_t)t->ncols * sizeof(CzExternalColumn) + strings;
    CachedTable *e = calloc(1, bytes);
    if (!e) return NULL;
    CzExternalColumn *cols = (CzExternalColumn *)(e + 1);
    char *p = (char *)(cols + t->ncols);
#define COPY(dst, src) do { size_t n_ = strlen(src) + 1; memcpy(p, (src), n_); (dst) = p; p += n_; } while (0)
    COPY(e->key, key);
    COPY(e->group, group);
    COPY(e->source_version, source_version);
    if (t->name) COPY(e->table.name, t->name);
    for (int i = 0; i < t->ncols; i++) {
        COPY(cols[i].name, t->cols[i].name);
        COPY(cols[i].type, t->cols[i].type);
        cols[i].nullable = t->cols[i].nullable;
    }
#undef COPY
    e->table.ncols = t->ncols;
    e->table.cols = cols;
    e->table.provider_data = e;
    e->bytes = bytes;
    return e;
}

CachedTable *table_cache_put(TableCache *c, const char *key, const char *group, const CzExternalTable *t,
                             uint64_t now_ms, uint32_t ttl_ms) {
    return table_cache_put_loaded(c, key, group, t, NULL, table_cache_generation(c), now_ms, ttl_ms);
}

CachedTable *table_cache_put_loaded(TableCache *c, const char *key, const char *group, const CzExternalTable *t,
                                    const char *source_version, uint64_t generation, uint64_t now_ms,
                                    uint32_t ttl_ms) {
    CachedTable *e = entry_new(key, group, t, source_version);
    if (!e) return NULL;
    e->expires_ms = now_ms + ttl_ms;
    e->refs = 2; /* the cache's and the caller's */
    pthread_mutex_lock(&c->mu);
    e->table.version = ++c->next_version;
    if (c->generation != generation) { /* invalidated while it loaded: it may be the old table */
        e->refs = 1;
        pthread_mutex_unlock(&c->mu);
        return e;
    }
    CachedTable *old = find_locked(c, key);
    if (old) unlist_locked(c, old);
    if (e->bytes > c->max_bytes || c->max_entries == 0) {
        e->refs = 1; /* too big to keep: the caller's only */
        pthread_mutex_unlock(&c->mu);
        return e;
    }
    while (c->tail && (c->entries + 1 > c->max_entries || c->bytes + e->bytes > c->max_bytes)) {
        unlist_locked(c, c->tail);
        c->evictions++;
    }
    if (c->entries + 1 > c->nbuckets) grow_locked(c);
    CachedTable **slot = &c->buckets[hash_key(key) & (c->nbuckets - 1)];
    e->hnext = *slot;
    *slot = e;
    e->next = c->head;
    if (c->head) c->head->prev = e;
    c->head = e;
    if (!c->tail) c->tail = e;
    c->entries++;
    c->bytes += e->bytes;
    pthread_mutex_unlock(&c->mu);
    return e;
}

void table_cache_release(TableCache *c, CachedTable *e) {
    if (!e) return;
    pthread_mutex_lock(&c->mu);
    unref_locked(e);
    pthread_mutex_unlock(&c->mu);
}

const CzExternalTable *cached_table(const CachedTable *e) { return &e->table; }
const char *cached_table_source_version(const CachedTable *e) { return e->source_version; }

size_t table_cache_invalidate(TableCache *c, const char *group, const char *suffix) {
    size_t n = 0, slen = suffix ? strlen(suffix) : 0;
    pthread_mutex_lock(&c->mu);
    c->generation++;
    for (CachedTable *e = c->head, *next; e; e = next) {
        next = e->next;
        if (group && strcmp(e->group, group)) continue;
        size_t klen = strlen(e->key);
        if (slen && (klen < slen || strcmp(e->key + klen - slen, suffix))) continue;
        unlist_locked(c, e);
        n++;
    }
    pthread_mutex_unlock(&c->mu);
    return n;
}

void table_cache_stats(TableCache *c, TableCacheStats *out) {
    pthread_mutex_lock(&c->mu);
    out->entries = c->entries;
    out->bytes = c->bytes;
    out->evictions = c->evictions;
    pthread_mutex_unlock(&c->mu);
}
