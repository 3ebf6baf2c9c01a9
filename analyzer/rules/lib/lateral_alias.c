/* Moving select-list aliases below a Project and lifting an Aggregate's
 * select list above it (lib/lateral_alias.h): the plan surgery
 * ResolveLateralColumnAlias and ResolveAliasInSubquery share. */
#include "lateral_alias.h"

#include "builders.h"
#include "semantic_equal.h"
#include "core/output.h"
#include "print/printer.h"

Node *push_aliases_below(Analysis *an, Node *p, const bool *push) {
    uint32_t n = p->nexprs, k = 0;
    Node *child = p->kids[0];
    AttrList cout = plan_output(an, child);
    Node **list = ARENA_ARRAY(an->arena, Node *, n);
    Node **inner = ARENA_ARRAY(an->arena, Node *, cout.n + n);
    if (cout.n) mem_copy(inner, cout.v, sizeof(Node *) * cout.n);
    for (uint32_t i = 0; i < n; i++) {
        list[i] = p->exprs[i];
        if (!push[i]) continue;
        inner[cout.n + k++] = p->exprs[i];
        list[i] = to_attribute(an, p->exprs[i]);
    }
    if (!k) return p;
    Node *below = make_project(an, child, inner, cout.n + k);
    Node *c = node_copy(an->arena, p);
    node_set_exprs(an->arena, c, list, n);
    node_set_kids(an->arena, c, &below, 1);
    return node_finish(c);
}

typedef struct LiftCtx {
    Analysis *an;
    const Node *agg;
    Node **kept;  /* the new aggregate list */
    uint32_t nkept;
} LiftCtx;

static bool is_grouping(const Node *agg, const Node *e) {
    for (uint32_t i = 0; i < agg->u.aggregate.ngroup; i++)
        if (expr_semantic_equal(agg->exprs[i], e)) return true;
    return false;
}

static bool eligible(const Node *agg, const Node *e, bool subqueries) {
    switch (e->kind) {
    case NK_AggregateExpression: return true;
    case NK_LateralColumnAliasReference:
    case NK_OuterReference:
    case NK_Literal: return true;
    default: break;
    }
    if (is_grouping(agg, e)) return true;
    if (e->kind == NK_AttributeReference) return false;
    if (e->kind == NK_ScalarSubquery && e->nkids && !subqueries) return false;
    if (e->kind == NK_Exists || e->kind == NK_ListQuery || e->kind == NK_InSubquery || e->kind == NK_ScalarSubquery)
        return true;
    if (e->kind == NK_WindowExpression) {
        const Node *f = e->kids[0];
        for (uint32_t i = 0; i < f->nkids; i++)
            if (!eligible(agg, f->kids[i], subqueries)) return false;
        for (uint32_t i = 1; i < e->nkids; i++)
            if (!eligible(agg, e->kids[i], subqueries)) return false;
        return true;
    }
    for (uint32_t i = 0; i < e->nkids; i++)
        if (!eligible(agg, e->kids[i], subqueries)) return false;
    return true;
}

const Node *lca_first(const Node *e) {
    if (e->kind == NK_LateralColumnAliasReference) return e;
    for (uint32_t i = 0; i < e->nkids; i++) {
        const Node *l = lca_first(e->kids[i]);
        if (l) return l;
    }
    return NULL;
}

static Node *map_kids(LiftCtx *x, Node *e, uint32_t from);

static Node *keep(LiftCtx *x, Node *e) {
    Analysis *an = x->an;
    for (uint32_t i = 0; i < x->nkept; i++) {
        Node *k = x->kept[i];
        Node *inner = k->kind == NK_Alias ? k->kids[0] : k;
        if (expr_semantic_equal(inner, e)) return to_attribute(an, k);
    }
    Node *ne = (e->kind == NK_AttributeReference || e->kind == NK_Alias) ? e
                                                                         : make_alias(an, e, expr_auto_name(an->arena, e), true);
    x->kept[x->nkept++] = ne;
    return to_attribute(an, ne);
}

static Node *extract(LiftCtx *x, Node *e) {
    Analysis *an = x->an;
    if (an_failed(an)) return e;
    switch (e->kind) {
    case NK_WindowExpression: {
        /* the window function itself stays; its arguments and spec are extracted */
        Node *f = map_kids(x, e->kids[0], 0);
        Node *w = map_kids(x, e, 1);
        if (f == e->kids[0]) return w;
        return node_with_kid(an->arena, w, 0, f);
    }
    case NK_AggregateExpression: {
        const Node *l = lca_first(e);
        if (l)
            return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_AGGREGATE_FUNC", e,
                                          "lca", sql_id_parts(an->arena, l->u.lca.name), "aggFunc",
                                          expr_sql_quoted(an->arena, e), NULL));
        return keep(x, e);
    }
    case NK_LateralColumnAliasReference:
    case NK_OuterReference: return e;
    default: break;
    }
    if (is_grouping(x->agg, e)) return keep(x, e);
    return map_kids(x, e, 0);
}

static Node *map_kids(LiftCtx *x, Node *e, uint32_t from) {
    if (e->nkids <= from) return e;
    Node **kids = ARENA_ARRAY(x->an->arena, Node *, e->nkids);
    for (uint32_t i = 0; i < e->nkids; i++) kids[i] = i < from ? e->kids[i] : extract(x, e->kids[i]);
    if (an_failed(x->an)) return e;
    return node_with_kids(x->an->arena, e, kids, e->nkids);
}

Node *lca_lift_aggregate(Analysis *an, Node *agg, bool subqueries) {
    uint32_t ng = agg->u.aggregate.ngroup, na = agg->nexprs - ng;
    for (uint32_t i = ng; i < agg->nexprs; i++)
        if (!eligible(agg, agg->exprs[i]->kind == NK_Alias ? agg->exprs[i]->kids[0] : agg->exprs[i], subqueries))
            return agg;
    /* an Alias item: extract its child, keep the alias (name and id) above */
    LiftCtx x = {an, agg, ARENA_ARRAY(an->arena, Node *, 2 * na + ng + 1), 0};
    Node **proj = ARENA_ARRAY(an->arena, Node *, na);
    for (uint32_t i = 0; i < na; i++) {
        Node *item = agg->exprs[ng + i];
        if (item->kind == NK_Alias) {
            Node *c = extract(&x, item->kids[0]);
            if (an_failed(an)) return agg;
            proj[i] = node_with_kid(an->arena, item, 0, c);
        } else {
            proj[i] = extract(&x, item);
        }
        if (an_failed(an)) return agg;
    }
    Node **all = ARENA_ARRAY(an->arena, Node *, ng + x.nkept + 1);
    if (ng) mem_copy(all, agg->exprs, sizeof(Node *) * ng);
    if (x.nkept) mem_copy(all + ng, x.kept, sizeof(Node *) * x.nkept);
    Node *below = node_copy(an->arena, agg);
    node_set_exprs(an->arena, below, all, ng + x.nkept);
    below = node_finish(below);
    return make_project(an, below, proj, na);
}
