/* Session variable references (Spark's ColumnResolutionHelper.resolveVariable):
 * `v`, `session.v`, `system.session.v` → VariableReference holding the
 * variable's current value. */
#ifndef CZ_VARIABLES_H
#define CZ_VARIABLES_H

#include "analysis.h"
#include "output.h"

/* A VariableReference for an UnresolvedAttribute naming a variable, else NULL. */
Node *resolve_variable(Analysis *an, const Node *unresolved_attr);
/* Resolution of a name in the enclosing queries (outer references). */
Node *resolve_outer_name(Analysis *an, const Node *at, NameParts name);
/* Column references of e resolved against input (used by several rules). */
Node *resolve_expr_refs(Analysis *an, Node *e, AttrList input, Node *const *select_list, uint32_t upto);

#endif
