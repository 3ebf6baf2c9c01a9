/* Subquery validity checks (subquery_checks.c) and the outer-reference
 * helpers ResolveSubquery shares with them. Each check returns false after
 * recording Spark's error. */
#ifndef CZ_SUBQUERY_CHECKS_H
#define CZ_SUBQUERY_CHECKS_H

#include "analysis.h"
#include "ir.h"

/* Where outer references may appear in a resolved subquery plan. */
bool check_subquery_correlations(Analysis *an, const Node *sub, bool lateral);
/* A LateralJoin whose subquery (and condition) are resolved. */
bool check_lateral_join(Analysis *an, const Node *join);

/* A resolved subquery expression e in operator host: correlated scalar
 * subqueries aggregated and in Filter/Aggregate/Project; IN/EXISTS in
 * Filter/Join/Project/Aggregate/Window. */
bool check_subquery_host(Analysis *an, const Node *e, const Node *host);

/* e with every OuterReference replaced by the attribute it wraps (arena). */
Node *strip_outer_references(Analysis *an, Node *e);

#endif
