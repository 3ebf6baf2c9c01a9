/* Column references bound in expressions (lib/column_refs.c). */
#ifndef CZ_RULES_LIB_COLUMN_REFS_H
#define CZ_RULES_LIB_COLUMN_REFS_H

#include "scope.h"
#include "core/analysis.h"
#include "core/output.h"

/* The column references of e resolved against input, then outer scopes and
 * session variables; names an earlier item of select_list[0..upto) defines
 * are left for ResolveLateralColumnAlias. Unresolvable names stay. */
Node *resolve_expr_refs(Analysis *an, Node *e, AttrList input, Node *const *select_list, uint32_t upto);
/* A name resolved in the enclosing queries (an OuterReference), or NULL. */
Node *resolve_outer_name(Analysis *an, const Node *at, NameParts name);
/* outer(a) for an attribute resolved in an enclosing query; other expressions unchanged. */
Node *make_outer_reference(Analysis *an, Node *resolved);

#endif
