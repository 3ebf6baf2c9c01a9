/* ResolveLateralColumnAliasReference — IN PROGRESS: not implemented yet (does nothing). */
#include "rules.h"

static Node *apply(Analysis *an, Node *plan) {
    (void)an;
    return plan;
}

const Rule RULE_RESOLVE_LATERAL_COLUMN_ALIAS = {
    .name = "ResolveLateralColumnAliasReference",
    .spark_rule = "ResolveLateralColumnAliasReference",
    .nkinds = 0,
    .apply = apply,
};
