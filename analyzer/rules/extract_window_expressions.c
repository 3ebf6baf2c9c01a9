/* ExtractWindowExpressions — IN PROGRESS: not implemented yet (does nothing). */
#include "rules.h"

static Node *apply(Analysis *an, Node *plan) {
    (void)an;
    return plan;
}

const Rule RULE_EXTRACT_WINDOW_EXPRESSIONS = {
    .name = "ExtractWindowExpressions",
    .spark_rule = "ExtractWindowExpressions",
    .nkinds = 0,
    .apply = apply,
};
