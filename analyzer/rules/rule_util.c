#include <string.h>

#include "functions/functions.h"
#include "rules.h"

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

Node *make_alias(Analysis *an, Node *e, const char *name, bool generated) {
    Node *a = node_new(an->arena, NK_Alias, e->start, e->stop);
    a->u.attr.name = name;
    a->u.attr.id = an_new_id(an);
    a->type = e->type;
    a->flags |= (e->flags & NF_NULLABLE) | (generated ? NF_GENERATED_ALIAS : 0);
    node_set_kids(an->arena, a, &e, 1);
    return node_finish(a);
}

Node *make_project(Analysis *an, Node *child, Node *const *exprs, uint32_t n) {
    Node *p = node_new(an->arena, NK_Project, child->start, child->stop);
    node_set_exprs(an->arena, p, exprs, n);
    node_set_kids(an->arena, p, &child, 1);
    return node_finish(p);
}

Node *make_subquery_alias(Analysis *an, Node *child, NameParts name) {
    Node *p = node_new(an->arena, NK_SubqueryAlias, child->start, child->stop);
    p->u.alias.name = name;
    node_set_kids(an->arena, p, &child, 1);
    return node_finish(p);
}

Node *make_literal_int(Analysis *an, int64_t v, const Node *pos) {
    Node *l = node_new(an->arena, NK_Literal, pos ? pos->start : -1, pos ? pos->stop : -1);
    l->type = &TYPE_INT;
    l->u.lit.v.type = &TYPE_INT;
    l->u.lit.v.u.i = v;
    return node_finish(l);
}

Node *make_cast(Analysis *an, Node *e, const DataType *t) {
    Node *c = node_new(an->arena, NK_Cast, e->start, e->stop);
    c->type = t;
    c->u.cast.ansi = an->conf->ansi;
    c->flags |= NF_IMPLICIT | (e->flags & NF_NULLABLE);
    node_set_kids(an->arena, c, &e, 1);
    return node_finish(c);
}

bool children_resolved(const Node *plan) {
    for (uint32_t i = 0; i < plan->nkids; i++)
        if (!plan_is_resolved(plan->kids[i])) return false;
    return true;
}

AttrList plan_input(Analysis *an, const Node *plan) {
    if (plan->nkids == 0) return (AttrList){0, NULL};
    if (plan->nkids == 1) return plan_output(an, plan->kids[0]);
    uint32_t n = 0;
    for (uint32_t i = 0; i < plan->nkids; i++) n += plan_output(an, plan->kids[i]).n;
    AttrList l = {0, ARENA_ARRAY(an->arena, Node *, n + 1)};
    for (uint32_t i = 0; i < plan->nkids; i++) {
        AttrList c = plan_output(an, plan->kids[i]);
        if (c.n) mem_copy(l.v + l.n, c.v, sizeof(Node *) * c.n);
        l.n += c.n;
    }
    return l;
}

static bool value_equal(const Value *a, const Value *b) {
    if (a->is_null != b->is_null || !type_equal(a->type, b->type)) return false;
    if (a->is_null) return true;
    switch (a->type->id) {
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR:
    case T_BINARY: return a->u.s.len == b->u.s.len && memcmp(a->u.s.p, b->u.s.p, a->u.s.len) == 0;
    case T_FLOAT:
    case T_DOUBLE: return a->u.d == b->u.d;
    case T_DECIMAL: return a->u.dec == b->u.dec;
    case T_BOOLEAN: return a->u.b == b->u.b;
    case T_CALENDAR_INTERVAL:
        return a->u.iv.months == b->u.iv.months && a->u.iv.days == b->u.iv.days && a->u.iv.micros == b->u.iv.micros;
    case T_DT_INTERVAL: return a->u.iv.micros == b->u.iv.micros;
    case T_ARRAY:
    case T_MAP:
    case T_STRUCT: return false;
    default: return a->u.i == b->u.i;
    }
}

bool expr_semantic_equal(const Node *a, const Node *b) {
    if (a == b) return true;
    if (a->kind != b->kind || a->nkids != b->nkids) return false;
    if ((a->flags & (NF_DISTINCT | NF_HAS_FILTER)) != (b->flags & (NF_DISTINCT | NF_HAS_FILTER))) return false;
    if (a->type && b->type && !type_equal(a->type, b->type)) return false;
    switch (a->kind) {
    case NK_AttributeReference:
    case NK_NamedLambdaVariable: return a->u.attr.id == b->u.attr.id;
    case NK_Alias:
        if (strcmp(a->u.attr.name, b->u.attr.name) != 0) return false;
        break;
    case NK_Literal: return value_equal(&a->u.lit.v, &b->u.lit.v);
    case NK_Call:
        if (a->u.call.def != b->u.call.def) return false;
        break;
    case NK_Cast:
        if (a->u.cast.try_ != b->u.cast.try_) return false;
        break;
    case NK_SortOrder:
        if (a->u.sort_order.descending != b->u.sort_order.descending ||
            a->u.sort_order.nulls_first != b->u.sort_order.nulls_first)
            return false;
        break;
    case NK_GetStructField:
        if (a->u.field.ordinal != b->u.field.ordinal) return false;
        break;
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_ListQuery:
    case NK_InSubquery:
    case NK_LateralSubquery: return a->u.subq.id && a->u.subq.id == b->u.subq.id;
    case NK_VariableReference: return strcmp(a->u.attr.name, b->u.attr.name) == 0;
    case NK_SpecifiedWindowFrame:
        if (a->u.frame.type != b->u.frame.type) return false;
        break;
    case NK_FrameBoundary: return a->u.bound.type == b->u.bound.type;
    case NK_WindowSpecDefinition:
        if (a->u.wspec.npartition != b->u.wspec.npartition || a->u.wspec.norder != b->u.wspec.norder) return false;
        break;
    default:
        if (node_kind_is_unresolved(a->kind)) return false;
        break;
    }
    for (uint32_t i = 0; i < a->nkids; i++)
        if (!expr_semantic_equal(a->kids[i], b->kids[i])) return false;
    return true;
}

typedef struct Within {
    AttrList attrs;
    bool ok;
} Within;

static WalkResult check_within(const Node *n, void *ctx) {
    Within *w = ctx;
    if (!kind_mask_has(n->mask, NK_AttributeReference)) return WALK_PRUNE;
    if (n->kind == NK_OuterReference || n->kind == NK_LambdaFunction) return WALK_PRUNE;
    if (n->kind == NK_AttributeReference) {
        for (uint32_t i = 0; i < w->attrs.n; i++)
            if (w->attrs.v[i]->u.attr.id == n->u.attr.id) return WALK_CONTINUE;
        w->ok = false;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

bool expr_refs_within(const Node *e, AttrList attrs) {
    Within w = {attrs, true};
    node_walk(e, 0, check_within, &w);
    return w.ok;
}
