/* Spark's "Finish Analysis" as its Connect plan tests apply it to an
 * analysed plan (catalyzer.explain.finishAnalysis=true): the optimizer rules
 * ReplaceExpressions (every RuntimeReplaceable expression becomes its
 * replacement, functions/replacements.c) and RewriteWithExpression (the
 * common expression of a With that is not cheap is evaluated once, in a
 * Project below the operator), then, for printing, the tests' expression-id
 * normalisation.
 *
 *   Project [between(rand(123), 0.1, 0.2) AS b#2]
 *   +- LocalRelation [id#1]
 *                      =>
 *   Project [((_common_expr_0#3 >= 0.1) AND (_common_expr_0#3 <= 0.2)) AS b#2]
 *   +- Project [id#1, rand(123) AS _common_expr_0#3]
 *      +- LocalRelation [id#1]
 *
 * Subquery plans are left as they are (the tests run the two rules on the
 * outer plan only).
 */
#include <string.h>

#include "rules.h"
#include "core/output.h"
#include "core/walk.h"
#include "functions/functions.h"
#include "rules/lib/builders.h"

typedef struct WithState {
    Node *child;           /* the operator's child the common expressions go below */
    Node **aliases;        /* `_common_expr_N` aliases to add there */
    uint32_t n, cap;
} WithState;

/* CollapseProject.isCheap: attributes, outer references and constants. */
static bool is_cheap(const Node *e) {
    switch (e->kind) {
    case NK_AttributeReference:
    case NK_OuterReference:
    case NK_Literal:
    case NK_NamedLambdaVariable: return true;
    case NK_Alias:
    case NK_GetStructField:
        for (uint32_t i = 0; i < e->nkids; i++)
            if (!is_cheap(e->kids[i])) return false;
        return true;
    default: return func_expr_foldable(e);
    }
}

typedef struct RefCheck {
    AttrList out;
    bool ok;
} RefCheck;

static bool output_has(AttrList out, ExprId id) {
    for (uint32_t i = 0; i < out.n; i++)
        if (out.v[i]->u.attr.id == id) return true;
    return false;
}

static WalkResult refs_in_output(const Node *n, void *ctx) {
    RefCheck *r = ctx;
    if (n->kind == NK_AttributeReference && !output_has(r->out, n->u.attr.id)) {
        r->ok = false;
        return WALK_ABORT;
    }
    if (n->kind == NK_AggregateExpression || n->kind == NK_WindowExpression || n->kind == NK_NamedLambdaVariable) {
        r->ok = false;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

/* With(e): e itself when cheap (or when it cannot move below the operator),
   else a reference to `_common_expr_0` computed below it. */
static Node *common(ReplaceCtx *c, Node *e) {
    WithState *w = c->state;
    if (!e || is_cheap(e) || !w->child) return e;
    RefCheck rc = {plan_output(c->an, w->child), true};
    node_walk(e, 0, refs_in_output, &rc);
    if (!rc.ok) return e;
    Node *alias = make_alias(c->an, e, "_common_expr_0", false);
    if (w->n == w->cap) {
        uint32_t cap = w->cap ? w->cap * 2 : 4;
        Node **g = ARENA_ARRAY(c->an->arena, Node *, cap);
        if (w->n) memcpy(g, w->aliases, sizeof(Node *) * w->n);
        w->aliases = g;
        w->cap = cap;
    }
    w->aliases[w->n++] = alias;
    return to_attribute(c->an, alias);
}

static Node *replace_expr(Node *e, void *ctx) {
    ReplaceCtx *c = ctx;
    for (int guard = 0; guard < 16 && e->kind == NK_Call; guard++) {
        Node *r = fn_runtime_replacement(c, e);
        if (!r) break;
        e = r;
    }
    return e;
}

static Node *replace_in_operator(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (!p->nexprs || node_kind_is_command(p->kind)) return p;
    WithState w = {.child = p->nkids == 1 && p->kind != NK_Aggregate ? p->kids[0] : NULL};
    ReplaceCtx rc = {.an = an, .common = common, .state = &w};
    Node **exprs = ARENA_ARRAY(an->arena, Node *, p->nexprs);
    bool changed = false;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        exprs[i] = transform(an->arena, p->exprs[i], TX_PRE_ORDER, KIND_MASK(NK_Call), replace_expr, &rc);
        changed = changed || exprs[i] != p->exprs[i];
    }
    if (!changed) return p;
    Node *n = node_copy(an->arena, p);
    node_set_exprs(an->arena, n, exprs, p->nexprs);
    if (w.n) {
        AttrList out = plan_output(an, w.child);
        Node **items = ARENA_ARRAY(an->arena, Node *, out.n + w.n);
        for (uint32_t i = 0; i < out.n; i++) items[i] = out.v[i];
        for (uint32_t i = 0; i < w.n; i++) items[out.n + i] = w.aliases[i];
        Node *below = make_project(an, w.child, items, out.n + w.n);
        node_set_kids(an->arena, n, &below, 1);
    }
    return node_finish(n);
}

Node *finish_analysis(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_INTO_ANALYZED, KIND_MASK_ALL, replace_in_operator, an);
}

/* ---- printing as the tests print: expression ids normalised ---- */

static bool is_set_op_or_join(NodeKind k) { return k == NK_Join || k == NK_Intersect || k == NK_Except; }

static Node *zero_ids(Node *e, void *ctx) {
    Analysis *an = ctx;
    switch (e->kind) {
    case NK_AttributeReference:
    case NK_Alias:
    case NK_NamedLambdaVariable:
    case NK_OuterReference:
        if (e->kind == NK_OuterReference || e->u.attr.id == 0) return e;
        break;
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_ListQuery:
    case NK_InSubquery:
    case NK_LateralSubquery:
        if (e->u.subq.id == 0) return e;
        break;
    default: return e;
    }
    Node *c = node_copy(an->arena, e);
    if (e->kind == NK_ScalarSubquery || e->kind == NK_Exists || e->kind == NK_ListQuery || e->kind == NK_InSubquery ||
        e->kind == NK_LateralSubquery)
        c->u.subq.id = 0;
    else c->u.attr.id = 0;
    return node_finish(c);
}

static Node *normalize_operator(Node *p, void *ctx) {
    Analysis *an = ctx;
    Node *n = p;
    if (p->nexprs) {
        Node **exprs = ARENA_ARRAY(an->arena, Node *, p->nexprs);
        bool changed = false;
        for (uint32_t i = 0; i < p->nexprs; i++) {
            exprs[i] = transform(an->arena, p->exprs[i], TX_SUBQUERIES, KIND_MASK_ALL, zero_ids, an);
            changed = changed || exprs[i] != p->exprs[i];
        }
        if (changed) {
            n = node_copy(an->arena, p);
            node_set_exprs(an->arena, n, exprs, p->nexprs);
            n = node_finish(n);
        }
    }
    /* with every id 0, a join or set operation's sides share attributes:
       Spark's duplicateResolved fails, and it and its ancestors print unresolved */
    if (is_set_op_or_join(p->kind) && p->nkids == 2 && plan_output(an, p->kids[0]).n && plan_output(an, p->kids[1]).n) {
        if (n == p) n = node_finish(node_copy(an->arena, p));
        n->flags &= ~(uint32_t)NF_RESOLVED;
    }
    return n;
}

Node *normalize_expr_ids(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_INTO_ANALYZED | TX_SUBQUERIES, KIND_MASK_ALL, normalize_operator, an);
}
