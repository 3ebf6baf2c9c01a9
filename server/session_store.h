/* Session journals: what a session's state is made of, so that any analysis
 * worker (a fresh process after a crash, another worker of this daemon, or a
 * worker of another replica) can rebuild it.
 *
 * A session's state is the ordered list of changes that built it: each
 * request that changed the session appends one *batch* of journal records
 * (journal.h: the successful Execute statements, registered catalogs, conf
 * changes, in the order they were applied). The journal's *version* names
 * its state: each append adds one; 0 is a journal that does not exist. In
 * the in-process store it counts the batches; a shared store starts a new
 * journal at a random base, so that a session dropped and made again under
 * the same id never repeats a version an old copy holds. A worker that holds
 * a session at an older version replays the batches after it (or the whole
 * journal into a new session). Batches are opaque bytes to the store.
 *
 * The loop talks to a SessionStore through the ops table below, always from
 * the loop thread. session_store_memory() is the default: journals in this
 * process, lost with it.
 *
 * A shared store (session_store_redis.h, for replicas) implements the same
 * operations plus sync, and sets `shared`:
 *   - sync, before a job on a session starts (never while one runs on it
 *     here): the journal's version in the store, which another replica may
 *     have moved on (the loop then has its worker replay the batches it
 *     lacks: no stale copy is used), and STORE_FORBIDDEN when the session
 *     belongs to another principal;
 *   - append is the only write and compares versions atomically, so a
 *     replica whose copy went stale between sync and append gets
 *     STORE_CONFLICT and fails the request (ABORTED) rather than fork the
 *     session's history; the loop then drops its workers' copies;
 *   - the loop drops a shared journal only for an explicit DropSession /
 *     ReleaseSession: a replica's idle sweep forgets its own copy, and the
 *     store expires idle sessions itself.
 * The operations are synchronous and called on the loop, so a networked
 * store keeps them short (a connection kept open, a timeout of a few
 * hundred milliseconds at most, failing with STORE_ERROR rather than
 * waiting). */
#ifndef CZ_SESSION_STORE_H
#define CZ_SESSION_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum StoreStatus {
    STORE_OK,
    STORE_CONFLICT,     /* the journal's version is not the expected one */
    STORE_SESSION_FULL, /* the batch would take the session over its byte limit */
    STORE_TOTAL_FULL,   /* ... or all sessions together over theirs */
    STORE_FORBIDDEN,    /* the session belongs to another principal (shared stores) */
    STORE_ERROR,        /* out of memory, store unreachable */
} StoreStatus;

typedef struct SessionStore SessionStore;

typedef struct SessionStoreOps {
    /* Appends one batch to key's journal (created if missing, owned by
     * owner), provided its version is expect; *version becomes the new
     * version (expect + 1), or on STORE_CONFLICT the version found. */
    StoreStatus (*append)(SessionStore *st, const char *key, const char *owner, uint64_t expect, const uint8_t *batch,
                          size_t len, uint64_t *version);
    /* The batches after version `after`, concatenated into a malloc'ed
     * buffer (*out, *len; NULL/0 when none), and the current version. A
     * missing key is version 0 with nothing to replay; after 0 reads it
     * all; an after that is not one of the journal's versions is
     * STORE_CONFLICT. */
    StoreStatus (*read)(SessionStore *st, const char *key, uint64_t after, uint8_t **out, size_t *len,
                        uint64_t *version);
    /* Shared stores only (NULL otherwise): key's current version (0 when
     * missing), STORE_FORBIDDEN if another principal owns it. */
    StoreStatus (*sync)(SessionStore *st, const char *key, const char *owner, uint64_t *version);
    /* Forgets key's journal (dropped or expired session). */
    void (*drop)(SessionStore *st, const char *key);
    /* Journals held and their bytes, for metrics and limits. */
    void (*stats)(SessionStore *st, uint64_t *sessions, uint64_t *bytes);
    void (*free)(SessionStore *st);
} SessionStoreOps;

struct SessionStore {
    const SessionStoreOps *ops;
    size_t max_session_bytes; /* one journal's bytes; 0: unlimited */
    size_t max_total_bytes;   /* all journals' bytes; 0: unlimited */
    bool shared;              /* other replicas use it too (see above) */
};

/* The in-process store (the default). NULL when out of memory. */
SessionStore *session_store_memory(size_t max_session_bytes, size_t max_total_bytes);

const char *store_status_name(StoreStatus s);

static inline StoreStatus store_append(SessionStore *st, const char *key, const char *owner, uint64_t expect,
                                       const uint8_t *batch, size_t len, uint64_t *version) {
    return st->ops->append(st, key, owner, expect, batch, len, version);
}
static inline StoreStatus store_read(SessionStore *st, const char *key, uint64_t after, uint8_t **out, size_t *len,
                                     uint64_t *version) {
    return st->ops->read(st, key, after, out, len, version);
}
/* STORE_OK with *version untouched for a store that is not shared. */
static inline StoreStatus store_sync(SessionStore *st, const char *key, const char *owner, uint64_t *version) {
    return st->ops->sync ? st->ops->sync(st, key, owner, version) : STORE_OK;
}
static inline void store_drop(SessionStore *st, const char *key) { st->ops->drop(st, key); }
static inline void store_stats(SessionStore *st, uint64_t *sessions, uint64_t *bytes) {
    st->ops->stats(st, sessions, bytes);
}
static inline void store_free(SessionStore *st) {
    if (st) st->ops->free(st);
}

#endif
