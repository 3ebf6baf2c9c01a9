/* ResolveAliasInSubquery — Catalyzer's extension (no Spark counterpart; on
 * with catalyzer.aliasInSubquery.enabled, see docs/alias-in-subquery.md).
 * ResolveSubquery lets a subquery in select item i reference the aliases of
 * items before i as outer references bound by expression id. This rule makes
 * those ids available to the subquery the way lateral column aliases are:
 * the aliases are computed by a new Project below, and the select list
 * refers to them by attribute.
 *
 *   Project [(x#1 + 1) AS newX#3, scalar-subquery#4 [newX#3] AS s#5]
 *   :  +- Project [outer(newX#3) AS newX#6]
 *   +- Relation xy[x#1,y#2]
 * =>
 *   Project [newX#3, scalar-subquery#4 [newX#3] AS s#5]
 *   +- Project [x#1, y#2, (x#1 + 1) AS newX#3]
 *      +- Relation xy[x#1,y#2]
 *
 * In an Aggregate the select list first goes up into a Project (as for
 * lateral aliases), so an alias of an aggregate (`sum(x) AS a`) is visible
 * too; the subquery is then evaluated after the aggregation.
 */
#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "rules/lib/lateral_alias.h"
#include "rules/lib/plan_inputs.h"
#include "core/walk.h"

static bool is_subquery(NodeKind k) {
    return k == NK_ScalarSubquery || k == NK_Exists || k == NK_ListQuery || k == NK_InSubquery;
}

typedef struct Refs {
    Node *const *list;
    uint32_t n, from;
    bool *push;
    bool any;
} Refs;

/* Marks the aliases of the list that a subquery expression's outer
 * attributes name. */
static WalkResult mark(const Node *e, void *ctx) {
    Refs *r = ctx;
    if (!is_subquery(e->kind)) return WALK_CONTINUE;
    uint32_t first = e->kind == NK_InSubquery ? e->u.subq.nvalues : 0;
    for (uint32_t k = first; k < e->nkids; k++) {
        const Node *a = e->kids[k];
        if (a->kind != NK_AttributeReference) continue;
        for (uint32_t i = r->from; i < r->n; i++)
            if (r->list[i]->kind == NK_Alias && r->list[i]->u.attr.id == a->u.attr.id) {
                r->push[i] = true;
                r->any = true;
            }
    }
    return WALK_CONTINUE;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || (p->kind != NK_Project && p->kind != NK_Aggregate)) return p;
    if (!children_resolved(p)) return p;
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (!node_resolved(p->exprs[i])) return p;
    uint32_t from = p->kind == NK_Aggregate ? p->u.aggregate.ngroup : 0;
    Refs r = {p->exprs, p->nexprs, from, ARENA_ARRAY(an->arena, bool, p->nexprs + 1), false};
    for (uint32_t i = from; i < p->nexprs; i++)
        if (kind_mask_any(p->exprs[i]->mask, KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery)))
            node_walk(p->exprs[i], 0, mark, &r);
    if (!r.any) return p;
    if (p->kind == NK_Aggregate) {
        /* not liftable: a column outside aggregates that is not grouped,
           which CheckAnalysis reports as MISSING_AGGREGATION */
        return lca_lift_aggregate(an, p, true);
    }
    return push_aliases_below(an, p, r.push);
}

static Node *apply(Analysis *an, Node *plan) {
    if (!an->conf->alias_in_subquery) return plan;
    return transform(an->arena, plan, 0, KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery), rewrite, an);
}

const Rule RULE_RESOLVE_ALIAS_IN_SUBQUERY = {
    .name = "ResolveAliasInSubquery",
    .spark_rule = "(Catalyzer extension: catalyzer.aliasInSubquery.enabled)",
    .kinds = {NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery},
    .nkinds = 4,
    .apply = apply,
};
