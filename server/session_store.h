/* Session journals: what a session's state is made of, so that any analysis
 * worker (a fresh process after a crash, another worker of this daemon, or a
 * worker of another replica) can rebuild it.
 *
 * A session's state is the ordered list of changes that built it: each
 * request that changed the session appends one *batch* of journal records
 * (journal.h: the successful Execute statements, registered catalogs, conf
 * changes, in the order they were applied). The journal's *version* is the
 * number of batches appended to it; a worker that holds a session at an older
 * version replays the batches after it (or the whole journal into a new
 * session). Batches are opaque bytes to the store.
 *
 * The loop talks to a SessionStore through the ops table below, always from
 * the loop thread. session_store_memory() is the default: journals in this
 * process, lost with it.
 *
 * A shared store (Redis for replicas: the deploy issue) plugs in by
 * implementing the same five operations and being passed to the server in
 * place of session_store_memory():
 *   - key: the client's session id (owner checks stay in the loop);
 *   - append: one atomic compare-and-append, e.g. a Lua script or
 *     WATCH/MULTI on `LLEN key == expect` then `RPUSH key batch` plus an
 *     `INCRBY` of the byte totals, refusing with STORE_CONFLICT when another
 *     replica appended first (the caller then fails the request rather than
 *     fork the session's history) and with STORE_SESSION_FULL /
 *     STORE_TOTAL_FULL against the same two limits;
 *   - read: `LRANGE key after -1` concatenated, with the list length as the
 *     version;
 *   - drop: `DEL key` (and the totals adjusted);
 *   - expiry: `EXPIRE key` on each append mirrors --session-idle-seconds.
 * The operations are synchronous and called on the loop, so a networked
 * store keeps them short (a connection kept open, a timeout of a few
 * milliseconds, failing with STORE_ERROR rather than waiting), or wraps
 * session_store_memory() as a write-through cache and reads the shared copy
 * only for a session this replica has never seen. */
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
    STORE_ERROR,        /* out of memory, store unreachable */
} StoreStatus;

typedef struct SessionStore SessionStore;

typedef struct SessionStoreOps {
    /* Appends one batch to key's journal (created if missing), provided its
     * version is expect; *version becomes the new version (expect + 1). */
    StoreStatus (*append)(SessionStore *st, const char *key, uint64_t expect, const uint8_t *batch, size_t len,
                          uint64_t *version);
    /* The batches after version `after`, concatenated into a malloc'ed
     * buffer (*out, *len; NULL/0 when none), and the current version. A
     * missing key is version 0 with nothing to replay; after greater than
     * the version is STORE_CONFLICT. */
    StoreStatus (*read)(SessionStore *st, const char *key, uint64_t after, uint8_t **out, size_t *len,
                        uint64_t *version);
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
};

/* The in-process store (the default). NULL when out of memory. */
SessionStore *session_store_memory(size_t max_session_bytes, size_t max_total_bytes);

const char *store_status_name(StoreStatus s);

static inline StoreStatus store_append(SessionStore *st, const char *key, uint64_t expect, const uint8_t *batch,
                                       size_t len, uint64_t *version) {
    return st->ops->append(st, key, expect, batch, len, version);
}
static inline StoreStatus store_read(SessionStore *st, const char *key, uint64_t after, uint8_t **out, size_t *len,
                                     uint64_t *version) {
    return st->ops->read(st, key, after, out, len, version);
}
static inline void store_drop(SessionStore *st, const char *key) { st->ops->drop(st, key); }
static inline void store_stats(SessionStore *st, uint64_t *sessions, uint64_t *bytes) {
    st->ops->stats(st, sessions, bytes);
}
static inline void store_free(SessionStore *st) {
    if (st) st->ops->free(st);
}

#endif
