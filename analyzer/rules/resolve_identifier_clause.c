/* ResolveIdentifierClause — IN PROGRESS: not implemented yet (does nothing). */
#include "rules.h"

static Node *apply(Analysis *an, Node *plan) {
    (void)an;
    return plan;
}

const Rule RULE_RESOLVE_IDENTIFIER_CLAUSE = {
    .name = "ResolveIdentifierClause",
    .spark_rule = "ResolveIdentifierClause",
    .nkinds = 0,
    .apply = apply,
};
