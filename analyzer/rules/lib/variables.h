/* Session variable references (Spark's ColumnResolutionHelper.resolveVariable):
 * `v`, `session.v`, `system.session.v` → VariableReference holding the
 * variable's current value; and the name rules the variable statements
 * share. */
#ifndef CZ_RULES_LIB_VARIABLES_H
#define CZ_RULES_LIB_VARIABLES_H

#include "core/analysis.h"
#include "core/output.h"

struct SessionState;

/* A VariableReference for an UnresolvedAttribute naming a variable, else NULL. */
Node *resolve_variable(Analysis *an, const Node *unresolved_attr);

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

#endif
