/* UpdateOuterReferences — Spark's Analyzer.UpdateOuterReferences. An
 * aggregate inside a subquery whose arguments are all outer columns is
 * evaluated by the outer query: ResolveSubquery lists it among the subquery
 * expression's outer attributes, ResolveAggregateFunctions adds it to the
 * outer Aggregate; this rule then points the subquery at that Aggregate's
 * output by expression id.
 *
 *   Filter exists#1 [min(b)#9]                      Filter exists#1 [min(b)#9]
 *   :  +- Filter (d#5 < min(outer(b#3)))      =>    :  +- Filter (d#5 < outer(min(b)#9))
 *   +- Aggregate [a#2], [a#2, min(b#3) AS min(b)#9] +- Aggregate [a#2], [a#2, min(b#3) AS min(b)#9]
 */
#include "rule.h"
#include "rules.h"
#include "check/subquery_checks.h"
#include "core/output.h"
#include "rules/lib/outer_refs.h"
#include "rules/lib/semantic_equal.h"
#include "core/walk.h"

typedef struct Upd {
    Analysis *an;
    Node *const *aliases; /* the Aggregate's aliased outputs */
    uint32_t n;
} Upd;

static bool is_subquery_kind(NodeKind k) {
    return k == NK_ScalarSubquery || k == NK_Exists || k == NK_ListQuery || k == NK_InSubquery ||
           k == NK_LateralSubquery;
}

/* Top-down over one expression: the largest subexpression that, without its
 * outer references, is one of the aliased outputs becomes outer(attr). */
static Node *update_expr(Upd *u, Node *e) {
    if (!kind_mask_has(e->mask, NK_OuterReference) || is_subquery_kind(e->kind)) return e;
    if (e->kind == NK_AggregateExpression) {
        Node *stripped = strip_outer_references(u->an, e);
        for (uint32_t i = 0; i < u->n; i++) {
            if (!expr_semantic_equal(u->aliases[i]->kids[0], stripped)) continue;
            Node *attr = to_attribute(u->an, u->aliases[i]);
            Node *o = node_new(u->an->arena, NK_OuterReference, e->start, e->stop);
            o->type = attr->type;
            o->flags |= attr->flags & NF_NULLABLE;
            node_set_kids(u->an->arena, o, &attr, 1);
            return node_finish(o);
        }
        return e;
    }
    if (!e->nkids) return e;
    Node **kids = ARENA_ARRAY(u->an->arena, Node *, e->nkids);
    for (uint32_t i = 0; i < e->nkids; i++) kids[i] = update_expr(u, e->kids[i]);
    return node_with_kids(u->an->arena, e, kids, e->nkids);
}

static Node *update_plan(Upd *u, Node *p) {
    if (!kind_mask_has(p->mask, NK_OuterReference)) return p;
    Node *n = p;
    if (p->nkids) {
        Node **kids = ARENA_ARRAY(u->an->arena, Node *, p->nkids);
        for (uint32_t i = 0; i < p->nkids; i++) kids[i] = update_plan(u, p->kids[i]);
        n = node_with_kids(u->an->arena, p, kids, p->nkids);
    }
    if (!n->nexprs) return n;
    Node **ex = ARENA_ARRAY(u->an->arena, Node *, n->nexprs);
    for (uint32_t i = 0; i < n->nexprs; i++) ex[i] = update_expr(u, n->exprs[i]);
    return node_with_exprs(u->an->arena, n, ex, n->nexprs);
}

static Node *update_subquery(Node *e, void *ctx) {
    Upd *u = ctx;
    if (!is_subquery_kind(e->kind) || !e->nkids || !e->u.subq.plan) return e;
    Node *plan = update_plan(u, e->u.subq.plan);
    if (plan == e->u.subq.plan) return e;
    Node *c = node_copy(u->an->arena, e);
    c->u.subq.plan = plan;
    return node_finish(c);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (p->kind != NK_Filter || p->kids[0]->kind != NK_Aggregate || !node_resolved(p)) return p;
    const Node *agg = p->kids[0];
    uint32_t ng = agg->u.aggregate.ngroup;
    Node **aliases = ARENA_ARRAY(an->arena, Node *, agg->nexprs - ng + 1);
    uint32_t n = 0;
    for (uint32_t i = ng; i < agg->nexprs; i++)
        if (agg->exprs[i]->kind == NK_Alias) aliases[n++] = agg->exprs[i];
    if (!n) return p;
    Upd u = {an, aliases, n};
    KindMask subq = KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery);
    return transform(an->arena, p, TX_NODE_EXPRS, subq, update_subquery, &u);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_Filter), rewrite, an);
}

const Rule RULE_UPDATE_OUTER_REFERENCES = {
    .name = "UpdateOuterReferences",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.UpdateOuterReferences",
    .kinds = {NK_Filter},
    .nkinds = 1,
    .apply = apply,
};
