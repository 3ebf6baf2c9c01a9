/* WindowsSubstitution — Spark's Analyzer.WindowsSubstitution: `f() OVER w`
 * with w defined in a WINDOW clause becomes a WindowExpression over a copy
 * of w's definition, and the WithWindowDefinition disappears. A name with no
 * definition is MISSING_WINDOW_SPECIFICATION (Spark raises it here when a
 * WINDOW clause exists, and in CheckAnalysis otherwise; same class).
 *
 * It also marks every WindowSpecDefinition whose frame is not specified
 * NF_PENDING: as in Spark, a window spec is not resolved (so its window
 * expression is not named yet) until ResolveWindowFrame has given it the
 * frame, which is part of its auto-generated name.
 *
 *   'WithWindowDefinition [w=(PARTITION BY 'a)]      'Project [unresolvedalias('sum('b) windowspecdefinition('a, unspecifiedframe$()))]
 *   +- 'Project [unresolvedalias('sum('b) w)]   =>   +- 'UnresolvedRelation [t]
 *      +- 'UnresolvedRelation [t]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/walk.h"

typedef struct Defs {
    Analysis *an;
    Node *const *defs; /* WindowSpecDefinition per name (u.wspec.ref_name) */
    uint32_t n;
} Defs;

static Node *spec_for_use(Analysis *an, const Node *def) {
    /* the definition's name is not part of the spec (the printer would show it) */
    Node *c = node_copy(an->arena, def);
    c->u.wspec.ref_name = NULL;
    return node_finish(c);
}

static Node *subst_expr(Node *e, void *ctx) {
    Defs *d = ctx;
    Analysis *an = d->an;
    if (an_failed(an) || e->kind != NK_UnresolvedWindowExpression || !e->nkids) return e;
    const char *name = e->u.un.name.n ? e->u.un.name.v[0] : "";
    for (uint32_t i = 0; i < d->n; i++) {
        const Node *def = d->defs[i];
        if (def->kind == NK_WindowSpecDefinition && def->u.wspec.ref_name && strcmp(def->u.wspec.ref_name, name) == 0) {
            Node *we = node_new(an->arena, NK_WindowExpression, e->start, e->stop);
            Node *k[2] = {e->kids[0], spec_for_use(an, def)};
            node_set_kids(an->arena, we, k, 2);
            return node_finish(we);
        }
    }
    return an_fail(an, error_make(an->arena, "MISSING_WINDOW_SPECIFICATION", e, "windowName", name, "docroot",
                                  "https://spark.apache.org/docs/latest", NULL));
}

static Node *subst_node(Node *p, void *ctx) {
    Defs *d = ctx;
    if (an_failed(d->an) || !p->nexprs) return p;
    return transform(d->an->arena, p, TX_NODE_EXPRS, KIND_MASK(NK_UnresolvedWindowExpression), subst_expr, d);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind != NK_WithWindowDefinition || !p->nkids) return p;
    Defs d = {an, p->exprs, p->nexprs};
    /* a pipe |> SELECT's WINDOW clause: that SELECT's expressions only */
    if (p->flags & NF_IMPLICIT) return subst_node(p->kids[0], &d);
    return transform(an->arena, p->kids[0], TX_SUBQUERIES | TX_INTO_ANALYZED, KIND_MASK(NK_UnresolvedWindowExpression), subst_node, &d);
}

/* A window reference left without any WINDOW clause. */
static Node *missing(Node *p, void *ctx) {
    Defs d = {ctx, NULL, 0};
    return subst_node(p, &d);
}

static Node *mark_pending(Node *e, void *ctx) {
    Analysis *an = ctx;
    if (e->kind != NK_WindowSpecDefinition || e->u.wspec.has_frame || (e->flags & NF_PENDING)) return e;
    Node *c = node_copy(an->arena, e);
    c->flags |= NF_PENDING;
    return node_finish(c);
}

static Node *pending_node(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (!p->nexprs) return p;
    return transform(an->arena, p, TX_NODE_EXPRS, KIND_MASK(NK_WindowSpecDefinition), mark_pending, an);
}

static Node *apply(Analysis *an, Node *plan) {
    if (kind_mask_has(plan->mask, NK_WithWindowDefinition))
        plan = transform(an->arena, plan, TX_SUBQUERIES | TX_INTO_ANALYZED, KIND_MASK(NK_WithWindowDefinition), rewrite, an);
    if (an_failed(an)) return plan;
    if (kind_mask_has(plan->mask, NK_UnresolvedWindowExpression))
        plan = transform(an->arena, plan, TX_SUBQUERIES | TX_INTO_ANALYZED, KIND_MASK(NK_UnresolvedWindowExpression), missing, an);
    if (an_failed(an)) return plan;
    if (kind_mask_has(plan->mask, NK_WindowSpecDefinition))
        plan = transform(an->arena, plan, TX_SUBQUERIES | TX_INTO_ANALYZED, KIND_MASK(NK_WindowSpecDefinition), pending_node, an);
    return plan;
}

const Rule RULE_WINDOWS_SUBSTITUTION = {
    .name = "WindowsSubstitution",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.WindowsSubstitution",
    .kinds = {NK_WithWindowDefinition, NK_UnresolvedWindowExpression, NK_WindowSpecDefinition},
    .nkinds = 3,
    .apply = apply,
};
