/* The in-process session store (see session_store.h): a hash table of
 * journals, each an array of batches. */
#include "session_store.h"

#include <stdlib.h>
#include <string.h>

typedef struct Batch {
    uint8_t *data;
    size_t len;
} Batch;

typedef struct Journal {
    char *key;
    Batch *batches;
    uint64_t n, cap; /* n is the version */
    size_t bytes;
    struct Journal *next;
} Journal;

enum { MEM_BUCKETS = 4096 };

typedef struct MemStore {
    SessionStore base;
    Journal *buckets[MEM_BUCKETS];
    uint64_t njournals;
    size_t bytes;
} MemStore;

static uint32_t key_hash(const char *s) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h % MEM_BUCKETS;
}

static Journal **find(MemStore *m, const char *key) {
    Journal **pp = &m->buckets[key_hash(key)];
    while (*pp && strcmp((*pp)->key, key) != 0) pp = &(*pp)->next;
    return pp;
}

static StoreStatus mem_append(SessionStore *st, const char *key, const char *owner, uint64_t expect,
                              const uint8_t *batch, size_t len, uint64_t *version) {
    MemStore *m = (MemStore *)st;
    (void)owner; /* the loop's own session table holds the owner */
    Journal **pp = find(m, key), *j = *pp;
    uint64_t have = j ? j->n : 0;
    if (have != expect) {
        *version = have;
        return STORE_CONFLICT;
    }
    size_t cur = j ? j->bytes : 0;
    if (st->max_session_bytes && cur + len > st->max_session_bytes) return STORE_SESSION_FULL;
    if (st->max_total_bytes && m->bytes + len > st->max_total_bytes) return STORE_TOTAL_FULL;
    if (!j) {
        j = calloc(1, sizeof *j);
        if (!j || !(j->key = strdup(key))) {
            free(j);
            return STORE_ERROR;
        }
        *pp = j;
        m->njournals++;
    }
    if (j->n == j->cap) {
        uint64_t cap = j->cap ? j->cap * 2 : 8;
        Batch *b = realloc(j->batches, cap * sizeof *b);
        if (!b) return STORE_ERROR;
        j->batches = b;
        j->cap = cap;
    }
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) return STORE_ERROR;
    if (len) memcpy(copy, batch, len);
    j->batches[j->n++] = (Batch){copy, len};
    j->bytes += len;
    m->bytes += len;
    *version = j->n;
    return STORE_OK;
}

static StoreStatus mem_read(SessionStore *st, const char *key, uint64_t after, uint8_t **out, size_t *len,
                            uint64_t *version) {
    MemStore *m = (MemStore *)st;
    Journal *j = *find(m, key);
    *out = NULL;
    *len = 0;
    *version = j ? j->n : 0;
    if (after > *version) return STORE_CONFLICT;
    if (!j || after == j->n) return STORE_OK;
    size_t total = 0;
    for (uint64_t i = after; i < j->n; i++) total += j->batches[i].len;
    uint8_t *buf = malloc(total ? total : 1);
    if (!buf) return STORE_ERROR;
    size_t o = 0;
    for (uint64_t i = after; i < j->n; i++) {
        if (j->batches[i].len) memcpy(buf + o, j->batches[i].data, j->batches[i].len);
        o += j->batches[i].len;
    }
    *out = buf;
    *len = total;
    return STORE_OK;
}

static void journal_free(Journal *j) {
    for (uint64_t i = 0; i < j->n; i++) free(j->batches[i].data);
    free(j->batches);
    free(j->key);
    free(j);
}

static void mem_drop(SessionStore *st, const char *key) {
    MemStore *m = (MemStore *)st;
    Journal **pp = find(m, key), *j = *pp;
    if (!j) return;
    *pp = j->next;
    m->bytes -= j->bytes;
    m->njournals--;
    journal_free(j);
}

static void mem_stats(SessionStore *st, uint64_t *sessions, uint64_t *bytes) {
    MemStore *m = (MemStore *)st;
    *sessions = m->njournals;
    *bytes = m->bytes;
}

static void mem_free(SessionStore *st) {
    MemStore *m = (MemStore *)st;
    for (int b = 0; b < MEM_BUCKETS; b++)
        for (Journal *j = m->buckets[b], *n; j; j = n) {
            n = j->next;
            journal_free(j);
        }
    free(m);
}

static const SessionStoreOps MEM_OPS = {mem_append, mem_read, NULL, mem_drop, mem_stats, mem_free};

SessionStore *session_store_memory(size_t max_session_bytes, size_t max_total_bytes) {
    MemStore *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->base.ops = &MEM_OPS;
    m->base.max_session_bytes = max_session_bytes;
    m->base.max_total_bytes = max_total_bytes;
    return &m->base;
}

const char *store_status_name(StoreStatus s) {
    switch (s) {
    case STORE_OK: return "ok";
    case STORE_CONFLICT: return "conflict";
    case STORE_SESSION_FULL: return "session full";
    case STORE_TOTAL_FULL: return "total full";
    case STORE_FORBIDDEN: return "forbidden";
    default: return "error";
    }
}
