/* ResolveGroupByAll — Spark's ResolveReferences for GROUP BY ALL: when `ALL`
 * is not a column, the grouping expressions are the select items that
 * contain no aggregate function.
 *
 *   'Aggregate ['ALL], [a#1, count(b#2) AS c#3]   =>   Aggregate [a#1], [a#1, count(b#2) AS c#3]
 */
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "rules/lib/plan_inputs.h"
#include "core/walk.h"

static bool is_group_by_all(const Node *p) {
    if (p->kind != NK_Aggregate || p->u.aggregate.ngroup != 1) return false;
    const Node *g = p->exprs[0];
    return g->kind == NK_UnresolvedAttribute && g->u.un.name.n == 1 && strcasecmp(g->u.un.name.v[0], "all") == 0;
}

/* containsAttribute: a column outside any aggregate function */
static bool contains_attribute(const Node *e) {
    if (e->kind == NK_AggregateExpression) return false;
    if (e->kind == NK_AttributeReference) return true;
    if (node_kind_is_subquery(e->kind)) return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (contains_attribute(e->kids[i])) return true;
    return false;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || !is_group_by_all(p) || !children_resolved(p)) return p;
    uint32_t na = p->nexprs - 1;
    for (uint32_t i = 0; i < na; i++)
        if (!node_resolved(p->exprs[1 + i])) return p;
    Node **all = ARENA_ARRAY(an->arena, Node *, 2 * na + 1);
    uint32_t ng = 0;
    for (uint32_t i = 0; i < na; i++) {
        Node *item = p->exprs[1 + i];
        Node *e = item->kind == NK_Alias ? item->kids[0] : item;
        if (expr_has_kind(e, KIND_MASK(NK_AggregateExpression, NK_WindowExpression))) continue;
        all[ng++] = e;
    }
    /* no grouping inferred while a column stands outside the aggregates
       (`i + sum(j)`): the ALL stays, and CheckAnalysis reports it */
    if (!ng)
        for (uint32_t i = 0; i < na; i++)
            if (contains_attribute(p->exprs[1 + i])) return p;
    for (uint32_t i = 0; i < na; i++) all[ng + i] = p->exprs[1 + i];
    Node *c = node_copy(an->arena, p);
    c->u.aggregate.ngroup = ng;
    node_set_exprs(an->arena, c, all, ng + na);
    return node_finish(c);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedAttribute), rewrite, an);
}

const Rule RULE_RESOLVE_GROUP_BY_ALL = {
    .name = "ResolveGroupByAll",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.ResolveReferencesInAggregate (GROUP BY ALL)",
    .kinds = {NK_UnresolvedAttribute},
    .nkinds = 1,
    .apply = apply,
};
