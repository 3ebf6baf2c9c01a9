/* ResolveGenerate — IN PROGRESS: not implemented yet (does nothing). */
#include "rules.h"

static Node *apply(Analysis *an, Node *plan) {
    (void)an;
    return plan;
}

const Rule RULE_RESOLVE_GENERATE = {
    .name = "ResolveGenerate",
    .spark_rule = "ResolveGenerate",
    .nkinds = 0,
    .apply = apply,
};
