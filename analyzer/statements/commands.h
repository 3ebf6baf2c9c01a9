/* Statements: queries are analysed; commands (CREATE VIEW/TABLE, DROP, USE,
 * SET, DECLARE, SET VAR, EXECUTE IMMEDIATE, INSERT, ...) are analysed and
 * applied to pending copies of the catalog and session state, which the
 * caller publishes only when the statement succeeds. */
#ifndef CZ_STATEMENTS_COMMANDS_H
#define CZ_STATEMENTS_COMMANDS_H

#include "catalog/catalog_manager.h"
#include "catalog/session.h"
#include "core/analysis.h"

struct CzRunOptions;

/* The mutable copies a command edits; published only if the statement succeeds. */
typedef struct PendingChanges {
    Catalog *catalog;      /* NULL: unchanged */
    SessionState *state;   /* NULL: unchanged */
} PendingChanges;

/* Runs one parsed statement in session s: a query is analysed (through the
 * analysis's driver); a command is analysed and applied to `pending`
 * (cloning catalog/state on first change). Returns the analysed plan, or
 * NULL with an->error set. */
Node *run_statement(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pending);

/* The pending copies, cloned on first use. */
Catalog *pending_catalog(CzSession *s, PendingChanges *p);
SessionState *pending_state(CzSession *s, PendingChanges *p);

/* Session variables, EXECUTE IMMEDIATE and IDENTIFIER targets (variables_cmd.c). */
Node *run_variable_command(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

/* The statement with its namespace target resolved (catalog + namespace). */
Node *with_resolved_namespace(Analysis *an, Node *stmt, const QualifiedName *q);

/* Statements on v2 catalogs and the catalog listings (catalog_cmd.c). */
Node *v2_namespace_command(Analysis *an, CzSession *s, Node *stmt, const QualifiedName *q, PendingChanges *pend);
Node *v2_create_table(Analysis *an, CzSession *s, Node *stmt, const QualifiedName *q, PendingChanges *pend);
Node *v2_drop_table(Analysis *an, CzSession *s, Node *stmt, const QualifiedName *q, PendingChanges *pend);
bool is_show_listing(const Node *stmt);
Node *show_listing(Analysis *an, CzSession *s, Node *stmt);

/* Binds the parameter markers (`:name`, `?`) of a parsed statement to the
 * values a client sent with it (CzRunOptions: SQL literal texts); markers
 * left unbound are UNBOUND_SQL_PARAMETER. Returns the statement (itself
 * when it has no markers) or NULL with the error recorded. */
Node *bind_run_parameters(Analysis *an, Node *stmt, const struct CzRunOptions *opts);

#endif
