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

#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "check/check.h"
#include "check/subquery_checks.h"
#include "core/output.h"
#include "functions/functions.h"
#include "rules/lib/builders.h"
#include "rules/lib/column_refs.h"
#include "rules/lib/outer_refs.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"
#include "rules/lib/variables.h"
#include "core/walk.h"

typedef struct OuterCollect {
    Analysis *an;
    AttrList outer, aliases;
    Node **found;
    uint32_t n, cap;
} OuterCollect;

static bool in_list(AttrList l, ExprId id) {
    for (uint32_t i = 0; i < l.n; i++)
        if (l.v[i]->u.attr.id == id) return true;
    return false;
}

static void push_found(OuterCollect *c, Node *e) {
    if (c->n == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 8;
        Node **f = ARENA_ARRAY(c->an->arena, Node *, cap);
        if (c->n) mem_copy(f, c->found, sizeof(Node *) * c->n);
        c->found = f;
        c->cap = cap;
    }
    c->found[c->n++] = e;
}

/* Whether every leaf of e is an outer reference (Spark: an aggregate over
 * outer columns only is evaluated by the outer query). */
static bool leaves_all_outer(const Node *e) {
    if (e->kind == NK_OuterReference) return true;
    if (e->kind == NK_Literal) return false;
    if (!e->nkids) return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (!leaves_all_outer(e->kids[i])) return false;
    return true;
}

/* Spark's SubExprUtils.getOuterReferences(expr), pre-order, duplicates kept. */
static WalkResult collect_outer_expr(const Node *n, void *ctx) {
    OuterCollect *c = ctx;
    if (!kind_mask_has(n->mask, NK_OuterReference)) return WALK_PRUNE;
    if (n->kind == NK_AggregateExpression && leaves_all_outer(n)) {
        push_found(c, strip_outer_references(c->an, (Node *)n));
        return WALK_PRUNE;
    }
    if (n->kind == NK_OuterReference) {
        Node *a = n->kids[0];
        if (a->kind != NK_AttributeReference || in_list(c->outer, a->u.attr.id) || in_list(c->aliases, a->u.attr.id))
            push_found(c, a);
        return WALK_PRUNE;
    }
    return WALK_CONTINUE;
}

/* plan.flatMap(_.expressions.flatMap(getOuterReferences)): plan nodes
 * pre-order, their expressions in order; nested subquery plans are not
 * entered. */
static void collect_outer_plan(OuterCollect *c, const Node *p) {
    if (!kind_mask_has(p->mask, NK_OuterReference)) return;
    for (uint32_t i = 0; i < p->nexprs; i++) node_walk(p->exprs[i], 0, collect_outer_expr, c);
    for (uint32_t i = 0; i < p->nkids; i++) collect_outer_plan(c, p->kids[i]);
}

typedef struct SubCtx {
    Analysis *an;
    OuterScope *scope;
} SubCtx;

/* A subquery plan analysed to a fixed point with its outer scope in place
 * stays as it is: what is still unresolved is an error now (re-analysing it
 * every iteration would never converge). Returns false with the error. */
static WalkResult find_pending(const Node *n, void *ctx) {
    if (n->kind == NK_CTERelationRef && !node_resolved(n)) {
        *(bool *)ctx = true;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

static bool stuck(Analysis *an, const Node *plan) {
    if (plan_is_resolved(plan)) return true;
    /* a reference to an enclosing CTE waits for that CTE's definition */
    bool pending = false;
    if (kind_mask_has(plan->mask, NK_CTERelationRef)) node_walk(plan, WALK_EXPRS | WALK_SUBQUERIES, find_pending, &pending);
    if (pending) return true;
    OuterScope *saved = an->outer;
    bool ok = check_analysis(an, plan);
    an->outer = saved;
    return ok && !an_failed(an);
}

/* How the trace names a subquery's nested analysis: Spark's printed prefix. */
static const char *subquery_kind(NodeKind k) {
    return k == NK_ScalarSubquery ? "scalar-subquery" : k == NK_Exists ? "exists" : "in-subquery";
}

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
        plan = an_analyze_nested(an, plan, s->scope, subquery_kind(e->kind), NULL);
        if (!plan || !stuck(an, plan)) return e;
    }
    Node *n = node_copy(an->arena, e);
    n->u.subq.plan = plan;
    if (!n->u.subq.id) n->u.subq.id = an_new_id(an);
    if (!plan_is_resolved(plan)) return node_finish(n);
    /* outer attributes */
    OuterCollect c = {an, s->scope->attrs, s->scope->aliases, NULL, 0, 0};
    collect_outer_plan(&c, plan);
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
            if (!node_resolved(e->kids[i])) {
                /* the subquery was resolved in an earlier iteration and the
                   values still wait: a fresh copy would be a change every
                   iteration and the batch would never reach its fixed point */
                if (plan == e->u.subq.plan && e->u.subq.id) return e;
                return node_finish(n);
            }
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

/* The struct type of a lateral subquery's output (Spark: plan.schema). */
static const DataType *output_struct(Analysis *an, AttrList out) {
    StructField *f = ARENA_ARRAY(an->arena, StructField, out.n + 1);
    for (uint32_t i = 0; i < out.n; i++)
        f[i] = (StructField){out.v[i]->u.attr.name, out.v[i]->type, expr_nullable(out.v[i]), NULL};
    return type_struct(an->arena, (int)out.n, f);
}

/* References to the ids a dedup renamed, rewritten to the new attributes. */
typedef struct Renamed {
    Analysis *an;
    Node **old_items, **new_items;
    uint32_t n;
} Renamed;

static Node *rename_ref(Node *e, void *ctx) {
    Renamed *r = ctx;
    if (e->kind != NK_AttributeReference) return e;
    for (uint32_t i = 0; i < r->n; i++)
        if (r->new_items[i] != r->old_items[i] && r->old_items[i]->kids[0]->u.attr.id == e->u.attr.id)
            return to_attribute(r->an, r->new_items[i]);
    return e;
}

/* The lateral subquery's output must not reuse the left side's ids: a
 * select item that is just outer(a) becomes outer(a) AS a with a new id
 * (what Spark's deduplication of the join's sides produces), in the Project
 * under the operators that pass its output through; their references follow. */
static Node *dedup_lateral_output(Analysis *an, Node *p, AttrList left, Renamed *r) {
    switch (p->kind) {
    case NK_SubqueryAlias:
    case NK_GlobalLimit:
    case NK_LocalLimit:
    case NK_Offset:
    case NK_Tail:
    case NK_Sort:
    case NK_Filter:
    case NK_Distinct: {
        Node *kid = dedup_lateral_output(an, p->kids[0], left, r);
        if (kid == p->kids[0]) return p;
        Node *c = node_with_kid(an->arena, p, 0, kid);
        if (!c->nexprs) return c;
        Node **ex = ARENA_ARRAY(an->arena, Node *, c->nexprs);
        for (uint32_t i = 0; i < c->nexprs; i++)
            ex[i] = transform(an->arena, c->exprs[i], 0, KIND_MASK(NK_AttributeReference), rename_ref, r);
        return node_with_exprs(an->arena, c, ex, c->nexprs);
    }
    case NK_Project: break;
    default: return p;
    }
    Node **items = NULL;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        Node *e = p->exprs[i];
        if (e->kind != NK_OuterReference || e->kids[0]->kind != NK_AttributeReference ||
            !in_list(left, e->kids[0]->u.attr.id))
            continue;
        if (!items) {
            items = ARENA_ARRAY(an->arena, Node *, p->nexprs);
            mem_copy(items, p->exprs, sizeof(Node *) * p->nexprs);
        }
        items[i] = make_alias(an, e, e->kids[0]->u.attr.name, false);
    }
    if (!items) return p;
    *r = (Renamed){an, p->exprs, items, p->nexprs};
    return node_with_exprs(an->arena, p, items, p->nexprs);
}

/* LateralJoin: the subquery is analysed with the left side's output as its
 * outer scope (Spark's ResolveSubquery on LateralJoin); then the join
 * condition is resolved against left and right together. */
static Node *resolve_lateral_join(Analysis *an, Node *p, OuterScope *scope) {
    Node *sub = p->exprs[0];
    Node *plan = sub->u.subq.plan;
    Node *nsub = sub;
    if (!node_resolved(sub) || !sub->type) {
        if (!plan_is_resolved(plan)) {
            plan = an_analyze_nested(an, plan, scope, "lateral-subquery", NULL);
            if (!plan || !stuck(an, plan)) return p;
        }
        if (!plan_is_resolved(plan)) {
            if (plan == sub->u.subq.plan) return p;
            Node *n = node_copy(an->arena, sub);
            n->u.subq.plan = plan;
            return node_with_exprs(an->arena, p, (Node *[]){node_finish(n), p->nexprs > 1 ? p->exprs[1] : NULL},
                                   p->nexprs);
        }
        Renamed renamed = {an, NULL, NULL, 0};
        plan = dedup_lateral_output(an, plan, plan_output(an, p->kids[0]), &renamed);
        OuterCollect c = {an, scope->attrs, scope->aliases, NULL, 0, 0};
        collect_outer_plan(&c, plan);
        Node *n = node_copy(an->arena, sub);
        n->u.subq.plan = plan;
        if (!n->u.subq.id) n->u.subq.id = an_new_id(an);
        node_set_kids(an->arena, n, c.found, c.n);
        n->type = output_struct(an, plan_output(an, plan));
        nsub = node_finish(n);
    }
    Node *cond = p->nexprs > 1 ? p->exprs[1] : NULL;
    if (cond && kind_mask_has(cond->mask, NK_UnresolvedAttribute)) {
        AttrList l = plan_output(an, p->kids[0]);
        AttrList r = plan_output(an, nsub->u.subq.plan);
        AttrList all = {0, ARENA_ARRAY(an->arena, Node *, l.n + r.n + 1)};
        if (l.n) mem_copy(all.v, l.v, sizeof(Node *) * l.n);
        if (r.n) mem_copy(all.v + l.n, r.v, sizeof(Node *) * r.n);
        all.n = l.n + r.n;
        cond = resolve_expr_refs(an, cond, all, NULL, 0);
        if (an_failed(an)) return p;
    }
    Node *ex[2] = {nsub, cond};
    return node_with_exprs(an->arena, p, ex, p->nexprs);
}

/* catalyzer.aliasInSubquery.enabled: a subquery in select item i also sees
 * the aliases of items 0..i-1 (after the query's own columns). The aliases
 * are pushed below the operator by ResolveAliasInSubquery. */
static Node *resolve_select_list_subqueries(Analysis *an, Node *p, OuterScope *base) {
    uint32_t from = p->kind == NK_Aggregate ? p->u.aggregate.ngroup : 0;
    KindMask subq = KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery);
    Node **out = ARENA_ARRAY(an->arena, Node *, p->nexprs);
    AttrList aliases = {0, ARENA_ARRAY(an->arena, Node *, p->nexprs + 1)};
    bool changed = false, waiting = false;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        Node *e = p->exprs[i];
        /* an earlier alias not typed yet: its subqueries wait for it */
        if (kind_mask_any(e->mask, subq) && !waiting) {
            OuterScope *scope = base;
            if (i >= from && aliases.n) {
                scope = ARENA_NEW(an->arena, OuterScope);
                *scope = *base;
                scope->aliases = (AttrList){aliases.n, aliases.v};
            }
            SubCtx s = {an, scope};
            e = transform(an->arena, e, 0, subq, resolve_subquery_expr, &s);
            if (an_failed(an)) return p;
        }
        if (e != p->exprs[i]) changed = true;
        out[i] = e;
        if (i >= from && e->kind == NK_Alias && !(node_resolved(e) && e->u.attr.id)) waiting = true;
        if (i >= from && e->kind == NK_Alias && node_resolved(e) && e->u.attr.id) {
            aliases.v[aliases.n++] = to_attribute(an, e);
        }
    }
    return changed ? node_with_exprs(an->arena, p, out, p->nexprs) : p;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || !children_resolved(p)) return p;
    OuterScope *scope = ARENA_NEW(an->arena, OuterScope);
    scope->attrs = plan_input(an, p);
    scope->plan = p;
    scope->parent = an->outer;
    if (p->kind == NK_UnresolvedHaving && p->kids[0]->kind == NK_Aggregate) {
        /* Spark: a subquery in HAVING sees the aggregation's input, then its
           output; aggregates over outer columns go to the Aggregate
           (UpdateOuterReferences) */
        scope->attrs = plan_output(an, p->kids[0]->kids[0]);
        scope->aliases = plan_output(an, p->kids[0]);
    }
    if (p->kind == NK_LateralJoin) return resolve_lateral_join(an, p, scope);
    SubCtx s = {an, scope};
    KindMask subq = KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery);
    if (an->conf->alias_in_subquery && (p->kind == NK_Project || p->kind == NK_Aggregate))
        return resolve_select_list_subqueries(an, p, scope);
    return transform(an->arena, p, TX_NODE_EXPRS, subq, resolve_subquery_expr, &s);
}

static Node *apply(Analysis *an, Node *plan) {
    KindMask subq = KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery, NK_LateralJoin);
    return transform(an->arena, plan, 0, subq, rewrite, an);
}

const Rule RULE_RESOLVE_SUBQUERY = {
    .name = "ResolveSubquery",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveSubquery",
    .kinds = {NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery, NK_LateralJoin},
    .nkinds = 5,
    .apply = apply,
};
