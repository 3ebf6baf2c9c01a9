#include <string.h>

#include "transform_subqueries.h"
#include "functions/functions.h"

typedef struct SubCtx {
    Analysis *an;
    KindMask interest;
    RewriteFn fn;
    void *ctx;
} SubCtx;

static bool is_subquery_expr(NodeKind k) {
    return k == NK_ScalarSubquery || k == NK_Exists || k == NK_ListQuery || k == NK_InSubquery ||
           k == NK_LateralSubquery;
}

static Node *rewrite_subquery_expr(Node *e, void *c) {
    SubCtx *s = c;
    if (!is_subquery_expr(e->kind) || !e->u.subq.plan) return e;
    Node *p = plan_transform_up_with_subqueries(s->an, e->u.subq.plan, s->interest, s->fn, s->ctx);
    if (p == e->u.subq.plan) return e;
    Node *n = node_copy(s->an->arena, e);
    n->u.subq.plan = p;
    return node_finish(n);
}

static Node *with_subqueries(Node *n, void *c) {
    SubCtx *s = c;
    KindMask subq = KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery, NK_LateralSubquery);
    if (n->nexprs) n = plan_map_exprs_up(s->an->arena, n, subq, rewrite_subquery_expr, s);
    return s->fn(n, s->ctx);
}

Node *plan_transform_up_with_subqueries(Analysis *an, Node *plan, KindMask interest, RewriteFn fn, void *ctx) {
    SubCtx s = {an, interest, fn, ctx};
    return plan_transform_up_all(an->arena, plan, interest, with_subqueries, &s);
}
