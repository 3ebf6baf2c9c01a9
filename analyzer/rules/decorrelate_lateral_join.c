/* DecorrelateLateralJoin — Spark's PullupCorrelatedPredicates +
 * RewriteLateralSubquery for LATERAL joins (an optimizer step in Spark; here
 * an opt-in batch, catalyzer.decorrelate=true). Correlated predicates in the
 * subquery's Filters are pulled up into the join condition, the columns
 * they need are carried up through Projects (and become grouping columns of
 * an Aggregate on the way), and the LateralJoin becomes a plain Join:
 *
 *   LateralJoin lateral-subquery [a], Inner          Project [a, b, c, d]
 *   :  +- Project [c, d]                        =>   +- Join Inner (a = c)
 *   :     +- Filter (outer(a) = c)                      :- Relation [a, b]
 *   :        +- Relation [c, d]                         +- Project [c, d]
 *   +- Relation [a, b]                                     +- Relation [c, d]
 *
 * The COUNT bug (SPARK-15370): a subquery that aggregates without GROUP BY
 * returns one row for every outer row, even when no inner row matches; after
 * grouping by the correlated columns a missing group would lose the row or
 * turn count(*) into NULL. Such a join becomes a LEFT OUTER join and every
 * aggregate that has a value on empty input (func_empty_result: count → 0)
 * is wrapped in coalesce(agg, value) above the join:
 *
 *   LateralJoin [c1], Inner                           Project [c1, c2, coalesce(count(1)#9, 0) AS cnt#5]
 *   :  +- Aggregate [count(1) AS cnt#5]         =>   +- Join LeftOuter (c1#1 = c1#7)
 *   :     +- Filter (c1#7 = outer(c1#1))                :- Relation t1[c1#1,c2#2]
 *   :        +- Relation t2[c1#7,c2#8]                  +- Aggregate [c1#7], [count(1) AS count(1)#9, c1#7]
 *   +- Relation t1[c1#1,c2#2]                              +- Relation t2[c1#7,c2#8]
 *
 * An inner join whose subquery computes outer references in its top Project
 * (`LATERAL (SELECT a + b AS e)`) evaluates that Project above the join.
 *
 * Shapes it cannot rewrite (outer references elsewhere outside Filters,
 * correlation under a join, set operation, limit or window, a non-equality
 * predicate under an Aggregate, an aggregate without GROUP BY below a
 * Project) stay LateralJoins.
 */
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "check/subquery_checks.h"
#include "core/output.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/outer_refs.h"
#include "rules/lib/semantic_equal.h"
#include "core/walk.h"

typedef struct Pull {
    Analysis *an;
    Node **preds;
    uint32_t n, cap;
    bool failed;
} Pull;

static bool is_call(const Node *e, const char *name) {
    return e->kind == NK_Call && e->u.call.def && strcasecmp(func_name(e->u.call.def), name) == 0;
}

static bool has_outer(const Node *e) { return expr_has_kind(e, KIND_MASK(NK_OuterReference)); }

static bool subtree_has_outer(const Node *p) {
    if (!kind_mask_has(p->mask, NK_OuterReference)) return false;
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (has_outer(p->exprs[i])) return true;
    for (uint32_t i = 0; i < p->nkids; i++)
        if (subtree_has_outer(p->kids[i])) return true;
    return false;
}

static void add_pred(Pull *u, Node *e) {
    if (u->n == u->cap) {
        uint32_t cap = u->cap * 2 + 4;
        Node **v = ARENA_ARRAY(u->an->arena, Node *, cap);
        if (u->n) mem_copy(v, u->preds, sizeof(Node *) * u->n);
        u->preds = v;
        u->cap = cap;
    }
    u->preds[u->n++] = e;
}

/* conjuncts of e into out; returns the count */
static uint32_t conjuncts(Node *e, Node **out, uint32_t cap, uint32_t n) {
    if (is_call(e, "and") && e->nkids == 2) {
        n = conjuncts(e->kids[0], out, cap, n);
        return conjuncts(e->kids[1], out, cap, n);
    }
    if (n < cap) out[n] = e;
    return n + 1;
}

static Node *and_all(Analysis *an, Node **v, uint32_t n) {
    if (!n) return NULL;
    Node *acc = v[0];
    for (uint32_t i = 1; i < n && acc; i++) {
        Node *args[2] = {acc, v[i]};
        acc = make_call(an, "and", true, args, 2, args[0]->start, args[1]->stop);
    }
    return acc;
}

/* Local attributes of e (outside OuterReferences). */
static void local_attrs(const Node *e, AttrList *out, uint32_t cap) {
    if (e->kind == NK_OuterReference) return;
    if (e->kind == NK_AttributeReference) {
        for (uint32_t i = 0; i < out->n; i++)
            if (out->v[i]->u.attr.id == e->u.attr.id) return;
        if (out->n < cap) out->v[out->n++] = (Node *)e;
        return;
    }
    for (uint32_t i = 0; i < e->nkids; i++) local_attrs(e->kids[i], out, cap);
}

static bool list_has_id(Node *const *v, uint32_t n, ExprId id) {
    for (uint32_t i = 0; i < n; i++)
        if (named_expr_id(v[i]) == id) return true;
    return false;
}

/* `local = outer(x)`: can go through an Aggregate as a grouping column */
static bool equality_pred(const Node *e) {
    if (!is_call(e, "=") && !is_call(e, "<=>")) return false;
    bool l = has_outer(e->kids[0]), r = has_outer(e->kids[1]);
    return l != r;
}

/* The attributes every pulled predicate needs from below. */
static AttrList needed(Pull *u) {
    uint32_t cap = 64;
    AttrList l = {0, ARENA_ARRAY(u->an->arena, Node *, cap)};
    for (uint32_t i = 0; i < u->n; i++) local_attrs(u->preds[i], &l, cap);
    return l;
}

/* Spark's PullupCorrelatedPredicates over the subquery plan. */
static Node *pull(Pull *u, Node *p) {
    Analysis *an = u->an;
    if (u->failed || !subtree_has_outer(p)) return p;
    switch (p->kind) {
    case NK_SubqueryAlias: return node_with_kid(an->arena, p, 0, pull(u, p->kids[0]));
    case NK_Filter: {
        Node *child = pull(u, p->kids[0]);
        Node *cs[64];
        uint32_t n = conjuncts(p->exprs[0], cs, 64, 0);
        if (n > 64) {
            u->failed = true;
            return p;
        }
        Node *keep[64];
        uint32_t nk = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (has_outer(cs[i])) {
                if (expr_has_kind(cs[i], KIND_MASK(NK_AggregateExpression, NK_ScalarSubquery, NK_Exists,
                                                   NK_InSubquery, NK_ListQuery))) {
                    u->failed = true;
                    return p;
                }
                add_pred(u, cs[i]);
            } else {
                keep[nk++] = cs[i];
            }
        }
        if (!nk) return child;
        Node *cond = and_all(an, keep, nk);
        if (!cond) {
            u->failed = true;
            return p;
        }
        Node *f = node_copy(an->arena, p);
        node_set_exprs(an->arena, f, &cond, 1);
        node_set_kids(an->arena, f, &child, 1);
        return node_finish(f);
    }
    case NK_Project: {
        for (uint32_t i = 0; i < p->nexprs; i++)
            if (has_outer(p->exprs[i])) {
                u->failed = true;
                return p;
            }
        Node *child = pull(u, p->kids[0]);
        if (u->failed) return p;
        AttrList need = needed(u);
        Node **list = ARENA_ARRAY(an->arena, Node *, p->nexprs + need.n + 1);
        if (p->nexprs) mem_copy(list, p->exprs, sizeof(Node *) * p->nexprs);
        uint32_t n = p->nexprs;
        for (uint32_t i = 0; i < need.n; i++)
            if (!list_has_id(list, n, need.v[i]->u.attr.id)) list[n++] = need.v[i];
        Node *c = node_copy(an->arena, p);
        node_set_exprs(an->arena, c, list, n);
        node_set_kids(an->arena, c, &child, 1);
        return node_finish(c);
    }
    case NK_Aggregate: {
        for (uint32_t i = 0; i < p->nexprs; i++)
            if (has_outer(p->exprs[i])) {
                u->failed = true;
                return p;
            }
        uint32_t before = u->n;
        Node *child = pull(u, p->kids[0]);
        if (u->failed) return p;
        for (uint32_t i = before; i < u->n; i++)
            if (!equality_pred(u->preds[i])) {
                u->failed = true; /* would change what the aggregate computes */
                return p;
            }
        AttrList need = needed(u);
        uint32_t ng = p->u.aggregate.ngroup, na = p->nexprs - ng;
        Node **groups = ARENA_ARRAY(an->arena, Node *, ng + need.n + 1);
        if (ng) mem_copy(groups, p->exprs, sizeof(Node *) * ng);
        uint32_t g = ng;
        for (uint32_t i = 0; i < need.n; i++) {
            bool dup = false;
            for (uint32_t k = 0; k < g; k++)
                if (expr_semantic_equal(groups[k], need.v[i])) dup = true;
            if (!dup) groups[g++] = need.v[i];
        }
        Node **aggs = ARENA_ARRAY(an->arena, Node *, na + need.n + 1);
        if (na) mem_copy(aggs, node_exprs_from(p, ng), sizeof(Node *) * na);
        uint32_t k = na;
        for (uint32_t i = 0; i < need.n; i++)
            if (!list_has_id(aggs, k, need.v[i]->u.attr.id)) aggs[k++] = need.v[i];
        Node **all = ARENA_ARRAY(an->arena, Node *, g + k);
        if (g) mem_copy(all, groups, sizeof(Node *) * g);
        if (k) mem_copy(all + g, aggs, sizeof(Node *) * k);
        Node *c = node_copy(an->arena, p);
        c->u.aggregate.ngroup = g;
        node_set_exprs(an->arena, c, all, g + k);
        node_set_kids(an->arena, c, &child, 1);
        return node_finish(c);
    }
    default:
        /* joins, set operations, limits, windows, generators ... on a
           correlation path: not handled */
        u->failed = true;
        return p;
    }
}

/* ---- the COUNT bug ---- */

static Node *empty_value(Analysis *an, const Node *agg) {
    const Node *call = agg->nkids ? agg->kids[0] : NULL;
    if (!call || call->kind != NK_Call || !call->u.call.def) return NULL;
    Node *l = node_new(an->arena, NK_Literal, agg->start, agg->stop);
    switch (func_empty_result(call->u.call.def)) {
    case EMPTY_ZERO:
        if (!type_is_integral(agg->type)) return NULL;
        l->u.lit.v.u.i = 0;
        break;
    case EMPTY_FALSE:
    case EMPTY_TRUE:
        if (agg->type->id != T_BOOLEAN) return NULL;
        l->u.lit.v.u.b = func_empty_result(call->u.call.def) == EMPTY_TRUE;
        break;
    default: return NULL; /* NULL on empty input: the outer join's NULL is right */
    }
    l->type = agg->type;
    l->u.lit.v.type = agg->type;
    return node_finish(l);
}

typedef struct Split {
    Analysis *an;
    Node **aggs; /* the aggregates, aliased, kept in the Aggregate */
    uint32_t n, cap;
    bool failed;
} Split;

/* Replaces each aggregate of e by a reference to its output (coalesced to
 * its empty-input value where it has one). */
static Node *split_expr(Split *s, Node *e) {
    Analysis *an = s->an;
    if (e->kind == NK_AggregateExpression) {
        Node *attr = NULL;
        for (uint32_t i = 0; i < s->n && !attr; i++)
            if (expr_semantic_equal(s->aggs[i]->kids[0], e)) attr = to_attribute(an, s->aggs[i]);
        if (!attr) {
            if (s->n == s->cap) {
                s->failed = true;
                return e;
            }
            Node *a = make_alias(an, e, expr_auto_name(an->arena, e), true);
            s->aggs[s->n++] = a;
            attr = to_attribute(an, a);
        }
        attr = attr_with_nullable(an, attr, true); /* NULL for outer rows without a group */
        Node *z = empty_value(an, e);
        if (!z) return attr;
        Node *args[2] = {attr, z};
        Node *c = make_call(an, "coalesce", false, args, 2, args[0]->start, args[1]->stop);
        if (!c) s->failed = true;
        return c ? c : e;
    }
    if (!e->nkids || e->kind == NK_OuterReference) return e;
    Node **kids = ARENA_ARRAY(an->arena, Node *, e->nkids);
    for (uint32_t i = 0; i < e->nkids; i++) kids[i] = split_expr(s, e->kids[i]);
    return node_with_kids(an->arena, e, kids, e->nkids);
}

/* The subquery's top Aggregate without GROUP BY (under SubqueryAliases only). */
static Node *scalar_aggregate(Node *p) {
    while (p->kind == NK_SubqueryAlias) p = p->kids[0];
    return p->kind == NK_Aggregate && p->u.aggregate.ngroup == 0 ? p : NULL;
}

static bool only_aliases_above_aggregate(const Node *p) {
    while (p->kind == NK_SubqueryAlias) p = p->kids[0];
    return p->kind == NK_Aggregate;
}

static Node *replace_aggregate(Analysis *an, Node *p, Node *old, Node *repl) {
    if (p == old) return repl;
    return node_with_kid(an->arena, p, 0, replace_aggregate(an, p->kids[0], old, repl));
}

static Node *make_join(Analysis *an, const Node *at, Node *l, Node *r, JoinType jt, Node *cond) {
    Node *join = node_new(an->arena, NK_Join, at->start, at->stop);
    Node *kids[2] = {l, r};
    node_set_kids(an->arena, join, kids, 2);
    if (cond) node_set_exprs(an->arena, join, &cond, 1);
    join->u.join.type = jt == JOIN_CROSS && cond ? JOIN_INNER : jt;
    return node_finish(join);
}

/* An inner LATERAL join whose subquery computes outer references in its top
 * Project (`LATERAL (SELECT a + b AS e FROM ...)`): the Project is evaluated
 * above a join with the rest, the ON condition after it:
 *   Filter (b = e) <- Project [a, b, (a + b) AS e] <- Join Inner (pulled predicates) */
static Node *decorrelate_top_project(Analysis *an, Node *j, Node *proj) {
    for (const Node *q = proj->kids[0]; q->nkids; q = q->kids[0])
        if (q->kind == NK_Aggregate && q->u.aggregate.ngroup == 0) return j; /* COUNT bug below a Project */
    Pull u = {an, NULL, 0, 0, false};
    Node *np = pull(&u, proj->kids[0]);
    if (u.failed || an_failed(an) || subtree_has_outer(np)) return j;
    /* the Project also needs the columns the pulled predicates use: they are
       in np's output already (pull carried them up) */
    Node **conds = ARENA_ARRAY(an->arena, Node *, u.n + 1);
    for (uint32_t i = 0; i < u.n; i++) conds[i] = strip_outer_references(an, u.preds[i]);
    Node *jc = u.n ? and_all(an, conds, u.n) : NULL;
    if (u.n && !jc) return j;
    const Node *base = np;
    while (base->kind == NK_SubqueryAlias) base = base->kids[0];
    /* an inner join with a single empty row is a filter */
    Node *join;
    if (base->kind == NK_OneRowRelation) {
        join = j->kids[0];
        if (jc) {
            Node *f = node_new(an->arena, NK_Filter, j->start, j->stop);
            node_set_exprs(an->arena, f, &jc, 1);
            node_set_kids(an->arena, f, &join, 1);
            join = node_finish(f);
        }
    } else {
        join = make_join(an, j, j->kids[0], np, JOIN_INNER, jc);
    }
    AttrList left = plan_output(an, j->kids[0]);
    Node **top = ARENA_ARRAY(an->arena, Node *, left.n + proj->nexprs + 1);
    if (left.n) mem_copy(top, left.v, sizeof(Node *) * left.n);
    for (uint32_t i = 0; i < proj->nexprs; i++) top[left.n + i] = strip_outer_references(an, proj->exprs[i]);
    Node *out = make_project(an, join, top, left.n + proj->nexprs);
    if (j->nexprs > 1) {
        Node *f = node_new(an->arena, NK_Filter, j->start, j->stop);
        node_set_exprs(an->arena, f, &j->exprs[1], 1);
        node_set_kids(an->arena, f, &out, 1);
        out = node_finish(f);
    }
    return out;
}

static Node *decorrelate(Analysis *an, Node *j) {
    Node *sub = j->exprs[0];
    Node *plan = sub->u.subq.plan;
    JoinType jt = j->u.join.type;
    Node *top_project = plan;
    while (top_project->kind == NK_SubqueryAlias) top_project = top_project->kids[0];
    if (top_project->kind == NK_Project && (jt == JOIN_INNER || jt == JOIN_CROSS)) {
        bool outer = false;
        for (uint32_t i = 0; i < top_project->nexprs; i++)
            if (has_outer(top_project->exprs[i])) outer = true;
        if (outer) return decorrelate_top_project(an, j, top_project);
    }
    Node *scalar_agg = scalar_aggregate(plan);
    /* an aggregate without GROUP BY below a Project: its COUNT bug is not handled */
    if (!scalar_agg && !only_aliases_above_aggregate(plan)) {
        for (const Node *q = plan; q->nkids; q = q->kids[0])
            if (q->kind == NK_Aggregate && q->u.aggregate.ngroup == 0) return j;
    }
    Pull u = {an, NULL, 0, 0, false};
    Node *np = pull(&u, plan);
    if (u.failed || an_failed(an) || subtree_has_outer(np)) return j;
    /* the join condition: the original one and the pulled predicates */
    Node **conds = ARENA_ARRAY(an->arena, Node *, u.n + 2);
    uint32_t nc = 0;
    if (j->nexprs > 1) conds[nc++] = j->exprs[1];
    for (uint32_t i = 0; i < u.n; i++) conds[nc++] = strip_outer_references(an, u.preds[i]);
    Node *cond = nc ? and_all(an, conds, nc) : NULL;
    if (nc && !cond) return j;
    AttrList left = plan_output(an, j->kids[0]);
    AttrList right = plan_output(an, plan); /* the lateral output to restore */
    Node **top = ARENA_ARRAY(an->arena, Node *, left.n + right.n + 1);
    if (left.n) mem_copy(top, left.v, sizeof(Node *) * left.n);
    if (scalar_agg && u.n) {
        /* COUNT bug: LEFT OUTER join, aggregates recomputed above it */
        Node *new_agg = scalar_agg;
        Node *p2 = np;
        while (p2->kind == NK_SubqueryAlias) p2 = p2->kids[0];
        new_agg = p2; /* the pulled-up Aggregate (with correlation groups) */
        uint32_t ng = new_agg->u.aggregate.ngroup;
        Split s = {an, ARENA_ARRAY(an->arena, Node *, new_agg->nexprs + 8), 0, new_agg->nexprs + 8, false};
        /* items of the original aggregate list, recomputed above the join */
        uint32_t norig = scalar_agg->nexprs;
        for (uint32_t i = 0; i < norig; i++) {
            Node *item = scalar_agg->exprs[i];
            Node *e = item->kind == NK_Alias ? item->kids[0] : item;
            Node *ne = split_expr(&s, e);
            if (s.failed) return j;
            Node *a = node_copy(an->arena, item->kind == NK_Alias ? item : make_alias(an, e, named_expr_name(item), true));
            node_set_kids(an->arena, a, &ne, 1);
            a->type = ne->type;
            a->flags = (a->flags & ~(uint32_t)NF_NULLABLE) | (ne->flags & NF_NULLABLE);
            top[left.n + i] = node_finish(a);
        }
        Node **list = ARENA_ARRAY(an->arena, Node *, ng * 2 + s.n + 1);
        if (ng) mem_copy(list, new_agg->exprs, sizeof(Node *) * ng);
        if (s.n) mem_copy(list + ng, s.aggs, sizeof(Node *) * s.n);
        uint32_t nl = ng + s.n;
        for (uint32_t g = 0; g < ng; g++)
            if (new_agg->exprs[g]->kind == NK_AttributeReference) list[nl++] = new_agg->exprs[g];
        Node *agg2 = node_copy(an->arena, new_agg);
        node_set_exprs(an->arena, agg2, list, nl);
        agg2 = node_finish(agg2);
        np = replace_aggregate(an, np, new_agg, agg2);
        if (jt == JOIN_INNER || jt == JOIN_CROSS) jt = JOIN_LEFT_OUTER;
    } else {
        if (right.n) mem_copy(top + left.n, right.v, sizeof(Node *) * right.n);
    }
    Node *join = make_join(an, j, j->kids[0], np, jt, cond);
    return make_project(an, join, top, left.n + right.n);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind != NK_LateralJoin || !node_resolved(p)) return p;
    /* an invalid lateral join stays for CheckAnalysis to report */
    if (!check_lateral_join(an, p)) {
        an->error = NULL;
        return p;
    }
    return decorrelate(an, p);
}

static Node *apply(Analysis *an, Node *plan) {
    if (!an->conf->decorrelate) return plan;
    return transform(an->arena, plan, TX_SUBQUERIES | TX_INTO_ANALYZED, KIND_MASK(NK_LateralJoin), rewrite, an);
}

const Rule RULE_DECORRELATE_LATERAL_JOIN = {
    .name = "DecorrelateLateralJoin",
    .spark_rule = "org.apache.spark.sql.catalyst.optimizer.PullupCorrelatedPredicates + RewriteLateralSubquery",
    .kinds = {NK_LateralJoin},
    .nkinds = 1,
    .apply = apply,
};
