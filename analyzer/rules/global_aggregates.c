/* GlobalAggregates — Spark's Analyzer.GlobalAggregates: a SELECT with
 * aggregate functions and no GROUP BY is a global aggregation.
 *
 *   Project [count(1) AS count(1)#2L]       Aggregate [count(1) AS count(1)#2L]
 *   +- Relation t[a#1]                =>    +- Relation t[a#1]
 */
#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "core/walk.h"

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (p->kind != NK_Project || !node_resolved(p)) return p;
    bool has_agg = false, has_window_only = true;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        if (expr_has_kind(p->exprs[i], KIND_MASK(NK_AggregateExpression))) {
            has_agg = true;
            /* aggregates that only occur inside window expressions do not make an aggregation */
            if (!expr_has_kind(p->exprs[i], KIND_MASK(NK_WindowExpression))) has_window_only = false;
        }
    }
    if (!has_agg || has_window_only) return p;
    Node *a = node_new(an->arena, NK_Aggregate, p->start, p->stop);
    a->u.aggregate.ngroup = 0;
    node_set_exprs(an->arena, a, p->exprs, p->nexprs);
    node_set_kids(an->arena, a, p->kids, 1);
    return node_finish(a);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_AggregateExpression), rewrite, an);
}

const Rule RULE_GLOBAL_AGGREGATES = {
    .name = "GlobalAggregates",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$GlobalAggregates",
    .kinds = {NK_AggregateExpression},
    .nkinds = 1,
    .apply = apply,
};
