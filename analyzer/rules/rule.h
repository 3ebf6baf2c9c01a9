/* An analyzer rule: a named function from a plan to a plan, with the node
 * kinds it can act on so the executor skips it on plans without them (as
 * DuckDB's rule matchers do). Spark's Rule[LogicalPlan]. */
#ifndef CZ_RULES_RULE_H
#define CZ_RULES_RULE_H

#include "core/analysis.h"
#include "core/ir.h"

typedef struct Rule {
    const char *name;        /* our name, e.g. "ResolveRelations" */
    const char *spark_rule;  /* the Spark rule it mirrors */
    NodeKind kinds[8];       /* the rule can only act on plans containing one of these ... */
    int nkinds;              /* ... (0: always run) */
    Node *(*apply)(Analysis *an, Node *plan);
} Rule;

#endif
