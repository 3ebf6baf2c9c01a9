/* ResolveGroupingAnalytics — IN PROGRESS: not implemented yet (does nothing). */
#include "rules.h"

static Node *apply(Analysis *an, Node *plan) {
    (void)an;
    return plan;
}

const Rule RULE_RESOLVE_GROUPING_ANALYTICS = {
    .name = "ResolveGroupingAnalytics",
    .spark_rule = "ResolveGroupingAnalytics",
    .nkinds = 0,
    .apply = apply,
};
