/* ResolveSubquery — Spark's Analyzer.ResolveSubquery: once an operator's
 * children are resolved, each subquery expression in it (scalar, EXISTS,
 * IN, LATERAL) is analysed on its own with the operator's input as the outer
 * scope; names the subquery cannot resolve itself become OuterReferences.
 * The outer attributes it uses become the expression's children (Spark's
 * outerAttrs), which is also what its printed name lists.
 *
 *   Filter exists#1 []                          Filter exists#1 [c1#2]
 *   :  +- 'Filter ('c1 = 'd)              =>    :  +- Filter (outer(c1#2) = d#5)
 *   :     +- 'UnresolvedRelation [r]            :     +- Relation r[d#5]
 *   +- Relation l[c1#2]                         +- Relation l[c1#2]
 */
#include <string.h>

#include "analyze.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules.h"

typedef struct OuterCollect {
    Analysis *an;
    AttrList outer;
    Node **found;
    uint32_t n, cap;
} OuterCollect;

static bool in_list(AttrList l, ExprId id) {
    for (uint32_t i = 0; i < l.n; i++)
        if (l.v[i]->u.attr.id == id) return true;
    return false;
}

static WalkResult collect_outer(const Node *n, void *ctx) {
    OuterCollect *c = ctx;
    if (!kind_mask_has(n->mask, NK_OuterReference)) return WALK_PRUNE;
    if (n->kind == NK_OuterReference && n->kids[0]->kind == NK_AttributeReference) {
        Node *a = n->kids[0];
        if (!in_list(c->outer, a->u.attr.id)) return WALK_CONTINUE;
        for (uint32_t i = 0; i < c->n; i++)
            if (c->found[i]->u.attr.id == a->u.attr.id) return WALK_CONTINUE;
        if (c->n == c->cap) {
            uint32_t cap = c->cap ? c->cap * 2 : 8;
            Node **f = ARENA_ARRAY(c->an->arena, Node *, cap);
            if (c->n) memcpy(f, c->found, sizeof(Node *) * c->n);
            c->found = f;
            c->cap = cap;
        }
        c->found[c->n++] = a;
    }
    return WALK_CONTINUE;
}

typedef struct SubCtx {
    Analysis *an;
    OuterScope *scope;
} SubCtx;

static Node *resolve_subquery_expr(Node *e, void *ctx) {
    SubCtx *s = ctx;
    Analysis *an = s->an;
    if (an_failed(an)) return e;
    bool is_sub = e->kind == NK_ScalarSubquery || e->kind == NK_Exists || e->kind == NK_ListQuery ||
                  e->kind == NK_InSubquery;
    if (!is_sub) return e;
    if (e->type && node_resolved(e)) return e;
    Node *plan = e->u.subq.plan;
    if (!plan_is_resolved(plan)) {
        plan = analyze_nested(an, plan, s->scope);
        if (!plan) return e;
    }
    Node *n = node_copy(an->arena, e);
    n->u.subq.plan = plan;
    if (!n->u.subq.id) n->u.subq.id = an_new_id(an);
    if (!plan_is_resolved(plan)) return node_finish(n);
    /* outer attributes */
    OuterCollect c = {an, s->scope->attrs, NULL, 0, 0};
    node_walk(plan, WALK_EXPRS | WALK_SUBQUERIES, collect_outer, &c);
    uint32_t nvalues = e->kind == NK_InSubquery ? e->u.subq.nvalues : 0;
    Node **kids = ARENA_ARRAY(an->arena, Node *, nvalues + c.n + 1);
    for (uint32_t i = 0; i < nvalues; i++) kids[i] = e->kids[i];
    for (uint32_t i = 0; i < c.n; i++) kids[nvalues + i] = c.found[i];
    node_set_kids(an->arena, n, kids, nvalues + c.n);
    AttrList out = plan_output(an, plan);
    switch (e->kind) {
    case NK_ScalarSubquery:
        if (out.n != 1) {
            return an_fail(an, error_make(an->arena,
                                          "INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN",
                                          e, "number", arena_printf(an->arena, "%u", out.n), NULL));
        }
        n->type = out.v[0]->type;
        n->flags |= NF_NULLABLE;
        break;
    case NK_Exists: n->type = &TYPE_BOOLEAN; break;
    case NK_ListQuery: n->type = out.n ? out.v[0]->type : &TYPE_NULL; break;
    case NK_InSubquery: {
        for (uint32_t i = 0; i < nvalues; i++)
            if (!node_resolved(e->kids[i])) return node_finish(n);
        n->type = &TYPE_BOOLEAN;
        n->flags |= NF_NULLABLE;
        Node *typed = node_finish(n);
        /* the function library coerces values and subquery output together */
        Node *r = expr_resolve_typed(an, typed);
        return r ? r : typed;
    }
    default: break;
    }
    return node_finish(n);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind == NK_LateralJoin || !children_resolved(p)) return p;
    OuterScope *scope = ARENA_NEW(an->arena, OuterScope);
    scope->attrs = plan_input(an, p);
    scope->plan = p;
    scope->parent = an->outer;
    SubCtx s = {an, scope};
    KindMask subq = KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery);
    return plan_map_exprs_up(an->arena, p, subq, resolve_subquery_expr, &s);
}

static Node *apply(Analysis *an, Node *plan) {
    KindMask subq = KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery);
    return plan_transform_up(an->arena, plan, subq, rewrite, an);
}

const Rule RULE_RESOLVE_SUBQUERY = {
    .name = "ResolveSubquery",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveSubquery",
    .kinds = {NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery},
    .nkinds = 4,
    .apply = apply,
};
