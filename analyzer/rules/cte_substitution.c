/* CTESubstitution — Spark's CTESubstitution, with the three policies of
 * spark.sql.legacy.ctePrecedencePolicy:
 *   CORRECTED (default): an inner WITH shadows an outer one. The
 *     definitions of a query (nested WITHs in FROM included; a subquery
 *     expression is a query of its own) become CTERelationDefs in
 *     dependency order under one WithCTE where its outermost WITH stood; a table
 *     reference naming a CTE in scope (main query, later definitions,
 *     subqueries) becomes SubqueryAlias(name, CTERelationRef id). A
 *     definition does not see itself (no recursion).
 *   EXCEPTION: as CORRECTED, but a nested WITH in a definition or a subquery
 *     expression that redefines an outer name is AMBIGUOUS_ALIAS_IN_NESTED_CTE.
 *   LEGACY: definitions are inlined, and inside a definition or a subquery
 *     expression the outer definitions take precedence (Spark 2's order).
 * An IDENTIFIER(...) relation cannot be bound yet (its name is computed
 * later): it keeps the scope it stands in (u.idplan.ctes) so
 * ResolveIdentifierClause can look the name up among these CTEs first
 * (SPARK-46625).
 *
 *   'UnresolvedWith [t]                 WithCTE
 *   :- 'SubqueryAlias t                 :- CTERelationDef 1, false
 *   :  +- 'Project [1 AS a]       =>    :  +- SubqueryAlias t
 *   +- 'Project [*]                     :     +- 'Project [1 AS a]
 *      +- 'UnresolvedRelation [t]       +- 'Project [*]
 *                                          +- SubqueryAlias t
 *                                             +- CTERelationRef 1, false, [], false
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "rules/lib/cte_scope.h"
#include "rules/lib/scope.h"
#include "core/walk.h"

static KindMask subquery_kinds(void) {
    return KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery, NK_LateralSubquery);
}

/* ---- scope ---- */

static const CteScope *push(Analysis *an, const CteScope *s, const char *name, int64_t id, Node *body) {
    CteScope *ns = ARENA_NEW(an->arena, CteScope);
    ns->name = name;
    ns->id = id;
    ns->inline_body = body;
    ns->next = s;
    return ns;
}

/* first's entries, then second's (copies of first's). */
static const CteScope *scope_append(Analysis *an, const CteScope *first, const CteScope *second) {
    if (!first) return second;
    return push(an, scope_append(an, first->next, second), first->name, first->id, first->inline_body);
}

static Node *with_scope(Analysis *an, Node *idplan, const CteScope *scope) {
    if (idplan->u.idplan.builds != NK_UnresolvedRelation || idplan->u.idplan.ctes == scope || !scope) return idplan;
    Node *c = node_copy(an->arena, idplan);
    c->u.idplan.ctes = scope;
    return node_finish(c);
}

/* ---- CORRECTED (and EXCEPTION after its check) ---- */

/* The definitions of one query (the main query or one subquery
 * expression), in dependency order: Spark groups them under a single
 * WithCTE where the outermost WITH stood. */
typedef struct DefList {
    uint32_t n, cap;
    Node **v;
} DefList;

static void defs_push(Analysis *an, DefList *d, Node *def) {
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 8;
        Node **v = ARENA_ARRAY(an->arena, Node *, cap);
        if (d->n) mem_copy(v, d->v, sizeof(Node *) * d->n);
        d->v = v;
        d->cap = cap;
    }
    d->v[d->n++] = def;
}

static Node *subst_plan_in(Analysis *an, Node *p, const CteScope *scope, DefList *coll);
static Node *subst_plan(Analysis *an, Node *p, const CteScope *scope) { return subst_plan_in(an, p, scope, NULL); }

typedef struct ExprCtx {
    Analysis *an;
    const CteScope *scope;
    Node *(*plan_fn)(Analysis *, Node *, const CteScope *);
} ExprCtx;

static Node *subst_expr(Node *e, void *c) {
    ExprCtx *x = c;
    if (!kind_mask_has(subquery_kinds(), e->kind)) return e;
    Node *p = x->plan_fn(x->an, e->u.subq.plan, x->scope);
    if (!p || p == e->u.subq.plan) return e;
    Node *n = node_copy(x->an->arena, e);
    n->u.subq.plan = p;
    return node_finish(n);
}

/* DUPLICATED_CTE_NAMES: names hashed into a small open-addressing table, so a
 * WITH of n definitions costs n, not n^2. */
static bool duplicate_names(Analysis *an, Node *w) {
    uint32_t n = w->nkids - 1, cap = 16;
    while (cap < n * 2) cap *= 2;
    const char **slots = ARENA_ARRAY(an->arena, const char *, cap);
    for (uint32_t i = 1; i < w->nkids; i++) {
        const char *a = w->kids[i]->u.alias.name.v[0];
        for (uint32_t h = attr_name_hash(a) & (cap - 1);; h = (h + 1) & (cap - 1)) {
            if (!slots[h]) {
                slots[h] = a;
                break;
            }
            if (ident_eq(an, slots[h], a)) {
                an_fail(an, error_make(an->arena, "DUPLICATED_CTE_NAMES", w, "duplicateNames", sql_ident(an->arena, a),
                                       NULL));
                return true;
            }
        }
    }
    return false;
}

/* A definition's body first (its own nested definitions come before it),
 * then the definition, then the main query. The outermost WITH of a query
 * (coll NULL) places the WithCTE holding them all. */
static Node *subst_with(Analysis *an, Node *w, const CteScope *scope, DefList *coll) {
    uint32_t ndefs = w->nkids - 1;
    if (duplicate_names(an, w)) return NULL;
    DefList own = {0, 0, NULL};
    DefList *d = coll ? coll : &own;
    const CteScope *s = scope;
    for (uint32_t i = 1; i <= ndefs; i++) {
        Node *alias = w->kids[i];
        Node *body = subst_plan_in(an, alias, s, d);
        if (!body) return NULL;
        Node *def = node_new(an->arena, NK_CTERelationDef, alias->start, alias->stop);
        def->u.cte.id = ++an->next_cte_id;
        def->u.cte.name = alias->u.alias.name.v[0];
        node_set_kids(an->arena, def, &body, 1);
        def = node_finish(def);
        defs_push(an, d, def);
        s = push(an, s, def->u.cte.name, def->u.cte.id, NULL);
    }
    Node *main = subst_plan_in(an, w->kids[0], s, d);
    if (!main) return NULL;
    if (coll) return main;
    defs_push(an, d, main);
    Node *r = node_new(an->arena, NK_WithCTE, w->start, w->stop);
    node_set_kids(an->arena, r, d->v, d->n);
    return node_finish(r);
}

static Node *subst_plan_in(Analysis *an, Node *p, const CteScope *scope, DefList *coll) {
    if (an_failed(an)) return NULL;
    if (p->kind == NK_UnresolvedWith) return subst_with(an, p, scope, coll);
    if (p->kind == NK_UnresolvedRelation && p->u.un.name.n == 1) {
        const CteScope *d = cte_scope_lookup(an, scope, p->u.un.name.v[0]);
        return d ? cte_scope_make_ref(an, p, p->u.un.name.v[0], d) : p;
    }
    if (p->kind == NK_UnresolvedIdentifierPlan) p = with_scope(an, p, scope);
    KindMask inside = KIND_MASK(NK_UnresolvedWith, NK_UnresolvedRelation, NK_UnresolvedIdentifierPlan);
    if (!kind_mask_any(p->mask, inside)) return p;
    Node *n = p;
    if (p->nexprs) {
        ExprCtx x = {an, scope, subst_plan};
        n = transform(an->arena, n, TX_NODE_EXPRS, subquery_kinds(), subst_expr, &x);
        if (an_failed(an)) return NULL;
    }
    if (n->nkids) {
        Node *stack[8];
        Node **kids = n->nkids <= 8 ? stack : ARENA_ARRAY(an->arena, Node *, n->nkids);
        for (uint32_t i = 0; i < n->nkids; i++) {
            kids[i] = subst_plan_in(an, n->kids[i], scope, coll);
            if (!kids[i]) return NULL;
        }
        n = node_with_kids(an->arena, n, kids, n->nkids);
    }
    return n;
}

/* ---- EXCEPTION: Spark's assertNoNameConflictsInCTE ---- */

typedef struct Names {
    const char *name;
    const struct Names *next;
} Names;

static bool names_has(const Analysis *an, const Names *n, const char *name) {
    for (; n; n = n->next)
        if (ident_eq(an, n->name, name)) return true;
    return false;
}

static bool assert_no_conflicts(Analysis *an, const Node *p, const Names *outer, bool start_of_query);

typedef struct ConflictCtx {
    Analysis *an;
    const Names *outer;
    bool ok;
} ConflictCtx;

static WalkResult conflict_in_subqueries(const Node *e, void *c) {
    ConflictCtx *x = c;
    if (!x->ok) return WALK_ABORT;
    if (kind_mask_has(subquery_kinds(), e->kind)) {
        if (!assert_no_conflicts(x->an, e->u.subq.plan, x->outer, true)) x->ok = false;
        return WALK_PRUNE;
    }
    return WALK_CONTINUE;
}

static bool assert_no_conflicts(Analysis *an, const Node *p, const Names *outer, bool start_of_query) {
    if (p->kind == NK_UnresolvedWith) {
        const Names *names = outer;
        for (uint32_t i = 1; i < p->nkids; i++) {
            const Node *rel = p->kids[i];
            const char *name = rel->u.alias.name.v[0];
            if (start_of_query && names_has(an, outer, name)) {
                an_fail(an, error_make(an->arena, "AMBIGUOUS_ALIAS_IN_NESTED_CTE", rel, "name", sql_ident(an->arena, name),
                                       "config", sql_conf(an->arena, "spark.sql.legacy.ctePrecedencePolicy"), "docroot",
                                       "https://spark.apache.org/docs/latest", NULL));
                return false;
            }
            if (rel->nkids && !assert_no_conflicts(an, rel->kids[0], names, true)) return false;
            Names *nn = ARENA_NEW(an->arena, Names);
            nn->name = name;
            nn->next = names;
            names = nn;
        }
        return assert_no_conflicts(an, p->kids[0], names, false);
    }
    ConflictCtx x = {an, outer, true};
    for (uint32_t i = 0; i < p->nexprs && x.ok; i++) node_walk(p->exprs[i], 0, conflict_in_subqueries, &x);
    if (!x.ok) return false;
    for (uint32_t i = 0; i < p->nkids; i++)
        if (!assert_no_conflicts(an, p->kids[i], outer, false)) return false;
    return true;
}

/* ---- LEGACY: Spark's legacyTraverseAndSubstituteCTE ---- */

static Node *legacy_rule(Analysis *an, Node *plan);
static Node *legacy_subquery(Analysis *an, Node *plan, const CteScope *defs);

/* Spark's substituteCTE with alwaysInline: bottom-up over children (an
 * UnresolvedWith's child only); subquery plans get the outer definitions
 * first, then the whole rule. */
static Node *legacy_subst(Analysis *an, Node *p, const CteScope *defs) {
    if (an_failed(an)) return NULL;
    Node *n = p;
    uint32_t nk = p->kind == NK_UnresolvedWith ? 1 : p->nkids;
    if (nk) {
        Node **kids = ARENA_ARRAY(an->arena, Node *, p->nkids + 1);
        mem_copy(kids, p->kids, sizeof(Node *) * p->nkids);
        for (uint32_t i = 0; i < nk; i++) {
            kids[i] = legacy_subst(an, p->kids[i], defs);
            if (!kids[i]) return NULL;
        }
        n = node_with_kids(an->arena, n, kids, p->nkids);
    }
    if (n->kind == NK_UnresolvedRelation && n->u.un.name.n == 1) {
        const CteScope *d = cte_scope_lookup(an, defs, n->u.un.name.v[0]);
        return d ? d->inline_body : n;
    }
    if (n->kind == NK_UnresolvedIdentifierPlan) {
        /* the definitions seen first (an inner WITH in FROM, processed
           bottom-up) keep precedence over the ones that reach it later */
        if (n->u.idplan.builds != NK_UnresolvedRelation || !defs) return n;
        return with_scope(an, n, scope_append(an, n->u.idplan.ctes, defs));
    }
    if (n->nexprs && kind_mask_any(n->mask, subquery_kinds())) {
        ExprCtx x = {an, defs, legacy_subquery};
        n = transform(an->arena, n, TX_NODE_EXPRS, subquery_kinds(), subst_expr, &x);
        if (an_failed(an)) return NULL;
    }
    return n;
}

/* plan_fn for subquery plans under LEGACY: substitute the outer definitions, then the rule. */
static Node *legacy_subquery(Analysis *an, Node *plan, const CteScope *defs) {
    Node *s = legacy_subst(an, plan, defs);
    return s ? legacy_rule(an, s) : NULL;
}

/* One bottom-up pass over children: each UnresolvedWith's definitions are
 * inlined into its child, a definition seeing the earlier ones. */
static Node *legacy_pass(Analysis *an, Node *p) {
    if (an_failed(an)) return NULL;
    if (p->kind == NK_UnresolvedWith) {
        if (duplicate_names(an, p)) return NULL;
        Node *child = legacy_pass(an, p->kids[0]);
        if (!child) return NULL;
        const CteScope *defs = NULL;
        for (uint32_t i = 1; i < p->nkids; i++) {
            Node *rel = legacy_subst(an, p->kids[i], defs);
            if (!rel) return NULL;
            defs = push(an, defs, rel->u.alias.name.v[0], 0, rel);
        }
        return legacy_subst(an, child, defs);
    }
    if (!kind_mask_has(p->mask, NK_UnresolvedWith) || !p->nkids) return p;
    Node **kids = ARENA_ARRAY(an->arena, Node *, p->nkids + 1);
    for (uint32_t i = 0; i < p->nkids; i++) {
        kids[i] = legacy_pass(an, p->kids[i]);
        if (!kids[i]) return NULL;
    }
    return node_with_kids(an->arena, p, kids, p->nkids);
}

static bool has_with(const Node *p) {
    /* only UnresolvedWith nodes reachable through children count (subquery
       plans are handled when their expressions are substituted) */
    if (p->kind == NK_UnresolvedWith) return true;
    for (uint32_t i = 0; i < p->nkids; i++)
        if (kind_mask_has(p->kids[i]->mask, NK_UnresolvedWith) && has_with(p->kids[i])) return true;
    return false;
}

static Node *legacy_rule(Analysis *an, Node *plan) {
    for (int iter = 0; iter < 100 && plan && has_with(plan); iter++) plan = legacy_pass(an, plan);
    return plan;
}

static Node *apply(Analysis *an, Node *plan) {
    Node *r;
    switch (an->conf->cte_precedence) {
    case CTE_LEGACY: r = legacy_rule(an, plan); break;
    case CTE_EXCEPTION:
        if (!assert_no_conflicts(an, plan, NULL, true)) return plan;
        r = subst_plan(an, plan, NULL);
        break;
    default: r = subst_plan(an, plan, NULL); break;
    }
    return r ? r : plan;
}

const Rule RULE_CTE_SUBSTITUTION = {
    .name = "CTESubstitution",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.CTESubstitution",
    .kinds = {NK_UnresolvedWith, NK_UnresolvedIdentifierPlan},
    .nkinds = 2,
    .apply = apply,
};
