#ifndef CZ_RULES_LIB_TRANSFORM_SUBQUERIES_H
#define CZ_RULES_LIB_TRANSFORM_SUBQUERIES_H
#include "core/analysis.h"
/* Like plan_transform_up_all (analysed subtrees included), but also rewrites
 * the plans of subquery expressions found in each node's expressions
 * (post-order). */
Node *plan_transform_up_with_subqueries(Analysis *an, Node *plan, KindMask interest, RewriteFn fn, void *ctx);
#endif
