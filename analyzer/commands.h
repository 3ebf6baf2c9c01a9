/* Statements that change the session or the catalog (CREATE VIEW/TABLE,
 * DROP, USE, SET, DECLARE, SET VAR, EXECUTE IMMEDIATE, INSERT, ...): each is
 * analysed and then applied to the pending copies. */
#ifndef CZ_COMMANDS_H
#define CZ_COMMANDS_H

#include "analyze.h"

Node *run_command(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pending);

/* The pending copies, cloned on first use. */
Catalog *pending_catalog(CzSession *s, PendingChanges *p);
SessionState *pending_state(CzSession *s, PendingChanges *p);

#endif
