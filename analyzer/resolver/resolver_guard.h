/* ResolverGuard (Spark 4's analysis/resolver/ResolverGuard): whether the
 * single-pass resolver covers a plan. A plan it does not cover goes, whole,
 * to the fixed-point batches. */
#ifndef CZ_RESOLVER_GUARD_H
#define CZ_RESOLVER_GUARD_H

#include "core/analysis.h"
#include "core/ir.h"

/* NULL when the single pass covers plan (its operators, expressions and the
 * plans of its subquery expressions); else why not ("operator Pivot"). */
const char *resolver_guard_declines(const Analysis *an, const Node *plan);

#endif
