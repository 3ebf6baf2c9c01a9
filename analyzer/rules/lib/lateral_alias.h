/* Helpers of ResolveLateralColumnAlias shared with ResolveAliasInSubquery:
 * both move the aliases a select list uses into a Project below, and lift
 * an Aggregate's select list into a Project above it. */
#ifndef CZ_RULES_LIB_LATERAL_ALIAS_H
#define CZ_RULES_LIB_LATERAL_ALIAS_H

#include "core/analysis.h"
#include "core/ir.h"

/* Project p with the items marked in push[] (Aliases) computed by a new
 * Project below (child output + those aliases) and referenced by attribute
 * above. Returns p when nothing is marked. */
Node *push_aliases_below(Analysis *an, Node *p, const bool *push);

/* Aggregate agg with only grouping expressions and aggregate functions kept
 * and a Project above restoring its select list (Spark's lift in
 * ResolveLateralColumnAliasReference). subqueries: correlated scalar
 * subqueries may go up too. Returns agg when its list is not eligible. */
Node *lca_lift_aggregate(Analysis *an, Node *agg, bool subqueries);

/* The first LateralColumnAliasReference in e (pre-order), or NULL. */
const Node *lca_first(const Node *e);

#endif
