/* The shared session store: each session's journal in Redis (hiredis), so
 * that any replica of catalyzerd serves any session and a replica's death
 * loses none (session_store.h describes the interface it implements).
 *
 * Layout, per session (the id is a credential, so keys carry its SHA-256,
 * never the id; the braces make both keys one Redis Cluster slot):
 *   PREFIX{sha}:m   hash  v = version (batches appended), b = bytes, o = owner
 *   PREFIX{sha}:j   list  the batches, oldest first
 * Every operation is one Lua script, so a version and its batches always
 * change together: append compares the version it was given with v and
 * pushes only when they are equal (compare-and-append: two replicas that
 * both start from version 4 cannot both write a version 5), read returns v
 * with the batches after a version, sync returns v and checks the owner.
 * Each touch renews both keys' time to live (--session-idle-seconds), which
 * is how shared sessions expire: a replica's own idle sweep only forgets its
 * local copy.
 *
 * The calls are synchronous on the loop, over one connection opened at
 * start and reopened after a failure; each waits at most the URL's
 * timeout_ms (default 250) and fails with STORE_ERROR rather than wait
 * longer. A failed connect is not retried for a second, so a Redis that is
 * down costs each request a fast error, not a timeout. */
#ifndef CZ_SESSION_STORE_REDIS_H
#define CZ_SESSION_STORE_REDIS_H

#include <stdbool.h>
#include <stddef.h>

#include "session_store.h"

/* url: redis://[:PASSWORD@]HOST[:PORT][/DB][?timeout_ms=N&prefix=P]
 * (PORT 6379, DB 0, prefix "catalyzer:" by default). ttl_seconds: each
 * session's time to live after its last use; 0 keeps them until dropped.
 * NULL with a message in err for a bad URL; it does not connect yet (the
 * first call does, so a replica may start before its Redis). */
SessionStore *session_store_redis(const char *url, size_t max_session_bytes, unsigned ttl_seconds, char *err,
                                  size_t errlen);

/* Connects now if not connected (AUTH, SELECT, the scripts loaded): false
 * with the reason in err when the server cannot be used. */
bool session_store_redis_connect(SessionStore *st, char *err, size_t errlen);

#endif
