/* Analysing one parsed statement in a session: the query path (rule
 * executor + checks) and the command path (applying DDL and session
 * statements to a cloned state). */
#ifndef CZ_ANALYZE_H
#define CZ_ANALYZE_H

#include "analysis.h"
#include "session.h"

/* The mutable copies a command edits; published only if the statement succeeds. */
typedef struct PendingChanges {
    Catalog *catalog;      /* NULL: unchanged */
    SessionState *state;   /* NULL: unchanged */
} PendingChanges;

/* Resolves a query plan completely (batches, then checks). NULL on error. */
Node *analyze_query(Analysis *an, Node *plan);

/* Runs a statement: queries are analysed; commands are analysed and applied
 * to `pending` (cloning catalog/state on first change). Returns the analysed
 * plan, or NULL with an->error set. */
Node *analyze_statement(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pending);

/* CheckAnalysis: turns whatever is unresolved or invalid into Spark's error. */
bool check_analysis(Analysis *an, const Node *plan);



/* Analyses a plan nested in the current one (a view body, a subquery) to a
 * fixed point with the given outer scope; NULL on error. Depth-limited. */
struct OuterScope;
Node *analyze_nested(Analysis *an, Node *plan, struct OuterScope *outer);
#endif
