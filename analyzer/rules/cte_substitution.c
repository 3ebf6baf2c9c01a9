/* CTESubstitution — Spark's CTESubstitution (CORRECTED policy: an inner WITH
 * shadows an outer one): each WITH becomes a WithCTE holding one
 * CTERelationDef per definition, and every table reference that names a CTE
 * in scope (in the main query, later definitions, and subqueries) becomes a
 * CTERelationRef by id. A definition does not see itself (no recursion).
 *
 *   'UnresolvedWith [t]                 WithCTE
 *   :- 'SubqueryAlias t                 :- CTERelationDef 1, false
 *   :  +- 'Project [1 AS a]       =>    :  +- SubqueryAlias t
 *   +- 'Project [*]                     :     +- 'Project [1 AS a]
 *      +- 'UnresolvedRelation [t]       +- 'Project [*]
 *                                          +- CTERelationRef 1, false, [], false
 */
#include <string.h>

#include "rules.h"

typedef struct CteScope {
    const char *name;
    int64_t id;
    const struct CteScope *next;
} CteScope;

static Node *subst_plan(Analysis *an, Node *p, const CteScope *scope);

typedef struct ExprCtx {
    Analysis *an;
    const CteScope *scope;
} ExprCtx;

static Node *subst_expr(Node *e, void *c) {
    ExprCtx *x = c;
    switch (e->kind) {
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_ListQuery:
    case NK_InSubquery:
    case NK_LateralSubquery: {
        Node *p = subst_plan(x->an, e->u.subq.plan, x->scope);
        if (p == e->u.subq.plan) return e;
        Node *n = node_copy(x->an->arena, e);
        n->u.subq.plan = p;
        return node_finish(n);
    }
    default: return e;
    }
}

static const CteScope *lookup(const Analysis *an, const CteScope *s, const char *name) {
    for (; s; s = s->next)
        if (ident_eq(an, s->name, name)) return s;
    return NULL;
}

static Node *make_ref(Analysis *an, const Node *u, const CteScope *def) {
    Node *r = node_new(an->arena, NK_CTERelationRef, u->start, u->stop);
    r->u.cte.id = def->id;
    r->u.cte.name = def->name;
    r->flags |= NF_PENDING;
    /* as Spark: the reference is seen under the CTE's name */
    return make_subquery_alias(an, node_finish(r), name_parts1(an->arena, def->name));
}

static Node *subst_with(Analysis *an, Node *w, const CteScope *scope) {
    uint32_t ndefs = w->nkids - 1;
    /* duplicate names */
    for (uint32_t i = 1; i <= ndefs; i++)
        for (uint32_t j = 1; j < i; j++) {
            const char *a = w->kids[i]->u.alias.name.v[0], *b = w->kids[j]->u.alias.name.v[0];
            if (ident_eq(an, a, b))
                return an_fail(an, error_make(an->arena, "DUPLICATED_CTE_NAMES", w, "duplicateNames",
                                              sql_ident(an->arena, a), NULL));
        }
    Node **kids = ARENA_ARRAY(an->arena, Node *, ndefs + 1);
    const CteScope *s = scope;
    for (uint32_t i = 1; i <= ndefs; i++) {
        Node *alias = w->kids[i];
        Node *body = subst_plan(an, alias, s);
        if (!body) return NULL;
        Node *def = node_new(an->arena, NK_CTERelationDef, alias->start, alias->stop);
        def->u.cte.id = ++an->next_cte_id;
        def->u.cte.name = alias->u.alias.name.v[0];
        node_set_kids(an->arena, def, &body, 1);
        kids[i - 1] = node_finish(def);
        CteScope *ns = ARENA_NEW(an->arena, CteScope);
        ns->name = def->u.cte.name;
        ns->id = def->u.cte.id;
        ns->next = s;
        s = ns;
    }
    Node *main = subst_plan(an, w->kids[0], s);
    if (!main) return NULL;
    kids[ndefs] = main;
    Node *r = node_new(an->arena, NK_WithCTE, w->start, w->stop);
    node_set_kids(an->arena, r, kids, ndefs + 1);
    return node_finish(r);
}

static Node *subst_plan(Analysis *an, Node *p, const CteScope *scope) {
    if (an_failed(an)) return NULL;
    if (p->kind == NK_UnresolvedWith) return subst_with(an, p, scope);
    if (p->kind == NK_UnresolvedRelation && p->u.un.name.n == 1) {
        const CteScope *d = lookup(an, scope, p->u.un.name.v[0]);
        return d ? make_ref(an, p, d) : p;
    }
    KindMask inside = KIND_MASK(NK_UnresolvedWith, NK_UnresolvedRelation);
    if (!kind_mask_any(p->mask, inside)) return p;
    Node *n = p;
    if (p->nexprs) {
        ExprCtx x = {an, scope};
        n = plan_map_exprs_up(an->arena, n, KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery,
                                                       NK_LateralSubquery),
                              subst_expr, &x);
        if (an_failed(an)) return NULL;
    }
    if (n->nkids) {
        Node *stack[8];
        Node **kids = n->nkids <= 8 ? stack : ARENA_ARRAY(an->arena, Node *, n->nkids);
        for (uint32_t i = 0; i < n->nkids; i++) {
            kids[i] = subst_plan(an, n->kids[i], scope);
            if (!kids[i]) return NULL;
        }
        n = node_with_kids(an->arena, n, kids, n->nkids);
    }
    return n;
}

static Node *apply(Analysis *an, Node *plan) {
    Node *r = subst_plan(an, plan, NULL);
    return r ? r : plan;
}

const Rule RULE_CTE_SUBSTITUTION = {
    .name = "CTESubstitution",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.CTESubstitution",
    .kinds = {NK_UnresolvedWith},
    .nkinds = 1,
    .apply = apply,
};
