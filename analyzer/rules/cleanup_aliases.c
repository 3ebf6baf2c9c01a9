/* CleanupAliases — IN PROGRESS: not implemented yet (does nothing). */
#include "rules.h"

static Node *apply(Analysis *an, Node *plan) {
    (void)an;
    return plan;
}

const Rule RULE_CLEANUP_ALIASES = {
    .name = "CleanupAliases",
    .spark_rule = "CleanupAliases",
    .nkinds = 0,
    .apply = apply,
};
