/* WindowsSubstitution — IN PROGRESS: not implemented yet (does nothing). */
#include "rules.h"

static Node *apply(Analysis *an, Node *plan) {
    (void)an;
    return plan;
}

const Rule RULE_WINDOWS_SUBSTITUTION = {
    .name = "WindowsSubstitution",
    .spark_rule = "WindowsSubstitution",
    .nkinds = 0,
    .apply = apply,
};
