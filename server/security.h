/* The daemon's security set-up from its flags (see server/README.md,
 * "Security"): TLS contexts for both ports, the bearer-token table, and the
 * line after "listening" that says how callers are checked. */
#ifndef CZ_SECURITY_H
#define CZ_SECURITY_H

#include "server.h"

/* Before listening: 0, or -1 after logging why (bad certificate, key, CA or token file). */
int security_setup(Server *srv);
void security_announce(Server *srv);
void security_free(Server *srv);

#endif
