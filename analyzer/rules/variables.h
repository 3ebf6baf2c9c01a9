/* Session variable references (Spark's ColumnResolutionHelper.resolveVariable):
 * `v`, `session.v`, `system.session.v` → VariableReference holding the
 * variable's current value; and the name rules the variable statements
 * share. */
#ifndef CZ_VARIABLES_H
#define CZ_VARIABLES_H

#include "analysis.h"
#include "output.h"

struct SessionState;

/* A VariableReference for an UnresolvedAttribute naming a variable, else NULL. */
Node *resolve_variable(Analysis *an, const Node *unresolved_attr);
/* Resolution of a name in the enclosing queries (outer references). */
Node *resolve_outer_name(Analysis *an, const Node *at, NameParts name);
/* Column references of e resolved against input (used by several rules). */
Node *resolve_expr_refs(Analysis *an, Node *e, AttrList input, Node *const *select_list, uint32_t upto);

/* The variable a DECLARE / SET VAR / DROP target names: the last part of
 * `v`, `session.v` or `system.session.v` (case-insensitive); NULL for any
 * other qualification. */
const char *variable_target_name(NameParts name);
/* UNRESOLVED_VARIABLE for a target. Spark prints the search path in upper
 * case for SET VAR targets, in lower case elsewhere. Returns NULL. */
Node *variable_unresolved(Analysis *an, const Node *at, NameParts name, bool upper_path);
/* `system`.`session`.`v` as Spark prints a variable in errors. */
const char *variable_sql_name(Analysis *an, const char *name);
/* Whether `SET key = value` names a session variable (`v`, `session.v`,
 * `system.session.v`): Spark refuses it (SET_VARIABLE_USING_SET). */
bool variable_is_config_key(const struct SessionState *s, const char *key);
/* A SET key as Spark quotes it in errors: `session`.`v`. */
const char *variable_key_sql(Analysis *an, const char *key);

/* The first session variable a resolved plan references (subqueries
 * included), or NULL: a persistent view may not (INVALID_TEMP_OBJ_REFERENCE). */
const Node *plan_find_variable(const Node *plan);

/* IDENTIFIER(expr): expr (resolved) must be a constant STRING; its value
 * parsed as a multi-part name into *out. false with the error recorded
 * (NOT_A_CONSTANT_STRING.*, the parser's error). */
bool identifier_name_parts(Analysis *an, const Node *expr, NameParts *out);

/* Binds the parameter markers (`:name`, `?`) of a parsed statement to the
 * values a client sent with it (CzRunOptions: SQL literal texts); markers
 * left unbound are UNBOUND_SQL_PARAMETER. Returns the statement (itself
 * when it has no markers) or NULL with the error recorded. */
struct CzRunOptions;
Node *bind_run_parameters(Analysis *an, Node *stmt, const struct CzRunOptions *opts);

#endif
