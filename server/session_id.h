/* The one session-id rule, the same on every transport (gRPC, JSON, Spark
 * Connect): 1 to SESSION_ID_MAX bytes of visible ASCII (0x21-0x7e). Ids that
 * break it are refused, never truncated: two different long ids must never
 * name one session. An empty id means "no session" and is not checked here. */
#ifndef CZ_SESSION_ID_H
#define CZ_SESSION_ID_H

#include <stdbool.h>
#include <stddef.h>

enum { SESSION_ID_MAX = 128 };

/* The INVALID_ARGUMENT message for an id that breaks the rule. */
extern const char SESSION_ID_RULE[];

bool session_id_valid(const char *id, size_t len);

#endif
