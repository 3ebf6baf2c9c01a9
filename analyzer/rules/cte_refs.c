/* ResolveCTERefs — the part of Spark's ResolveRelations that resolves a
 * CTERelationRef once its CTERelationDef is resolved: the reference takes
 * the definition's output (fresh expression ids per reference, so a CTE used
 * twice in one query needs no deduplication).
 *
 *   'CTERelationRef 1, false, [], false    =>    CTERelationRef 1, true, [a#7], false
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "rules/lib/cte_registry.h"
#include "core/walk.h"

static WalkResult collect(const Node *n, void *ctx) {
    Analysis *an = ctx;
    if (!kind_mask_has(n->mask, NK_CTERelationDef)) return WALK_PRUNE;
    if (n->kind == NK_CTERelationDef && plan_is_resolved(n->kids[0])) cte_register(an, n);
    return WALK_CONTINUE;
}

static Node *resolve_ref(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (p->kind != NK_CTERelationRef || !(p->flags & NF_PENDING)) return p;
    const Node *def = cte_registry_get(an, p->u.cte.id);
    if (!def) return p;
    AttrList out = plan_output(an, def->kids[0]);
    Node **attrs = ARENA_ARRAY(an->arena, Node *, out.n + 1);
    for (uint32_t i = 0; i < out.n; i++)
        attrs[i] = attr_new(an, out.v[i]->u.attr.name, out.v[i]->type, expr_nullable(out.v[i]), 0, (NameParts){0, NULL},
                            -1, -1);
    Node *r = node_copy(an->arena, p);
    r->flags &= ~(uint32_t)NF_PENDING;
    node_set_exprs(an->arena, r, attrs, out.n);
    return node_finish(r);
}

static Node *apply(Analysis *an, Node *plan) {
    node_walk(plan, WALK_EXPRS | WALK_SUBQUERIES, collect, an);
    if (!an->ctes) return plan;
    return transform(an->arena, plan, TX_SUBQUERIES | TX_INTO_ANALYZED, KIND_MASK(NK_CTERelationRef), resolve_ref, an);
}

const Rule RULE_RESOLVE_CTE_REFS = {
    .name = "ResolveCTERelationRefs",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.ResolveRelations (CTERelationRef)",
    .kinds = {NK_CTERelationRef},
    .nkinds = 1,
    .apply = apply,
};
