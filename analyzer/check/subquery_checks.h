/* Subquery validity checks (subquery_checks.c). Each check returns false after
 * recording Spark's error. */
#ifndef CZ_SUBQUERY_CHECKS_H
#define CZ_SUBQUERY_CHECKS_H

#include "core/analysis.h"
#include "core/ir.h"

/* Where outer references may appear in a resolved subquery plan. */
bool check_subquery_correlations(Analysis *an, const Node *sub, bool lateral);
/* A LateralJoin whose subquery (and condition) are resolved. */
bool check_lateral_join(Analysis *an, const Node *join);

/* A resolved subquery expression e in operator host: correlated scalar
 * subqueries aggregated and in Filter/Aggregate/Project; IN/EXISTS in
 * Filter/Join/Project/Aggregate/Window. */
bool check_subquery_host(Analysis *an, const Node *e, const Node *host);

#endif
