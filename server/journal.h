/* Journal records: what changed a session, in the order it was applied
 * (session_store.h keeps them, one batch per request). A worker records as
 * it applies each change successfully, so replaying a session's journal into
 * a new session rebuilds the same state, failed statements and refused
 * values included (they left no trace, and have none here):
 *   SQL        a statement that ran as a command (SET, DECLARE, CREATE VIEW,
 *              USE, ...), with its parameter markers' values
 *   CONF_SET   a configuration key set outside SQL (request conf, Connect
 *              Config); CONF_UNSET its removal
 *   TABLE      a catalog table registered (catalyzer.v1.Table, packed)
 *   FUNCTION   a catalog function registered (catalyzer.v1.Function, packed)
 * Catalog views are SQL records (CREATE OR REPLACE TEMPORARY VIEW). What a
 * replayed statement computes from the clock (current_timestamp() in a
 * DECLARE) is computed again. */
#ifndef CZ_JOURNAL_H
#define CZ_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "catalyzer.h"
#include "catalyzer.pb-c.h"
#include "wire.h"

enum { JOURNAL_SQL = 1, JOURNAL_CONF_SET, JOURNAL_CONF_UNSET, JOURNAL_TABLE, JOURNAL_FUNCTION };

/* Recording: jr NULL records nothing (in-process workers: the session is
 * the loop's own). o supplies the statement's parameter values. */
void journal_sql(Buf *jr, const char *sql, size_t len, const CzRunOptions *o);
void journal_conf_set(Buf *jr, const char *key, const char *value);
void journal_conf_unset(Buf *jr, const char *key);

/* Registers a catalog table / function in s (the one way both requests and
 * replays do it) and records it in jr on success. */
bool journal_create_table(Buf *jr, CzSession *s, const Catalyzer__V1__Table *t, char *err, size_t errlen);
bool journal_register_function(Buf *jr, CzSession *s, const Catalyzer__V1__Function *f, char *err, size_t errlen);

/* Configuration changes that code outside the recorders makes (Connect's
 * Config): a snapshot before, then the difference as CONF records. */
typedef struct ConfSnap ConfSnap;
ConfSnap *journal_conf_snapshot(const CzSession *s);
void journal_conf_diff(Buf *jr, ConfSnap *before, const CzSession *s); /* frees before */

/* Applies records in order to s. base supplies limits, deadline and cancel
 * (parameters come from the records). False at the first record that cannot
 * be decoded or applied (message in err); a statement that fails as it did
 * when recorded cannot occur, since only successes are recorded. */
bool journal_replay(CzSession *s, const uint8_t *p, size_t len, const CzRunOptions *base, char *err, size_t errlen);

/* Number of records in a batch (tests, logs); -1 if malformed. */
int journal_count(const uint8_t *p, size_t len);

#endif
