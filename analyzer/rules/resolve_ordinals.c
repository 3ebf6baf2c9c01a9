/* ResolveOrdinals — Spark's SubstituteUnresolvedOrdinals + the ordinal part
 * of ResolveReferences: an integer literal in GROUP BY or ORDER BY means the
 * select item at that position (when spark.sql.groupByOrdinal /
 * orderByOrdinal are on).
 *
 *   Sort [2 ASC NULLS FIRST], true           Sort [b#2 ASC NULLS FIRST], true
 *   +- Project [a#1, b#2]             =>     +- Project [a#1, b#2]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "print/printer.h"
#include "core/walk.h"

static bool int_literal(const Node *e, int64_t *v) {
    if (e->kind != NK_Literal || e->u.lit.v.is_null || e->type->id != T_INT || (e->flags & NF_IMPLICIT)) return false;
    *v = e->u.lit.v.u.i;
    return true;
}

static Node *sort_ordinals(Analysis *an, Node *p) {
    if (!an->conf->order_by_ordinal || !plan_is_resolved(p->kids[0])) return p;
    AttrList out = plan_output(an, p->kids[0]);
    Node **orders = NULL;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        Node *o = p->exprs[i];
        int64_t v;
        if (o->kind != NK_SortOrder || !int_literal(o->kids[0], &v) || (o->kids[0]->flags & NF_IMPLICIT)) continue;
        if (v < 1 || (uint64_t)v > out.n) {
            return an_fail(an, error_make(an->arena, "ORDER_BY_POS_OUT_OF_RANGE", o->kids[0], "index",
                                          arena_printf(an->arena, "%lld", (long long)v), "size",
                                          arena_printf(an->arena, "%u", out.n), NULL));
        }
        if (!orders) {
            orders = ARENA_ARRAY(an->arena, Node *, p->nexprs);
            mem_copy(orders, p->exprs, sizeof(Node *) * p->nexprs);
        }
        orders[i] = node_with_kid(an->arena, o, 0, out.v[v - 1]);
        if (o->type) {
            /* a SortOrder typed while it held the literal takes its column's
               type and nullability (Spark's SortOrder.dataType is its child's) */
            Node *so = node_copy(an->arena, orders[i]);
            so->type = out.v[v - 1]->type;
            so->flags = (so->flags & ~(uint32_t)NF_NULLABLE) | (out.v[v - 1]->flags & NF_NULLABLE);
            orders[i] = node_finish(so);
        }
    }
    return orders ? node_with_exprs(an->arena, p, orders, p->nexprs) : p;
}

/* |> AGGREGATE ... GROUP BY n: the n-th column of the input, which is also
 * the n-th output column (the grouping expressions come first) */
static Node *pipe_group_ordinals(Analysis *an, Node *p) {
    if (!node_resolved(p->kids[0])) return p;
    AttrList in = plan_output(an, p->kids[0]);
    uint32_t ng = p->u.aggregate.ngroup;
    Node **exprs = NULL;
    for (uint32_t i = 0; i < ng; i++) {
        int64_t v;
        Node *g = p->exprs[i];
        if (!int_literal(g, &v) || (g->flags & NF_IMPLICIT)) continue;
        if (v < 1 || (uint64_t)v > in.n)
            return an_fail(an, error_make(an->arena, "GROUP_BY_POS_OUT_OF_RANGE", g, "index",
                                          arena_printf(an->arena, "%lld", (long long)v), "size",
                                          arena_printf(an->arena, "%u", in.n), NULL));
        if (!exprs) {
            exprs = ARENA_ARRAY(an->arena, Node *, p->nexprs);
            mem_copy(exprs, p->exprs, sizeof(Node *) * p->nexprs);
        }
        exprs[i] = in.v[v - 1];
        /* its output copy, aliased or not yet (the name Spark gives it is the column's) */
        Node *o = ng + i < p->nexprs ? p->exprs[ng + i] : NULL;
        int64_t ov;
        if (o && (o == g || ((o->kind == NK_UnresolvedAlias || (o->kind == NK_Alias && (o->flags & NF_GENERATED_ALIAS))) &&
                             o->nkids && int_literal(o->kids[0], &ov) && ov == v)))
            exprs[ng + i] = in.v[v - 1];
    }
    return exprs ? node_with_exprs(an->arena, p, exprs, p->nexprs) : p;
}

/* Whether an expression is a grouping-by-position candidate. */
static Node *group_ordinals(Analysis *an, Node *p) {
    if (!an->conf->group_by_ordinal) return p;
    if (p->u.aggregate.pipe) return pipe_group_ordinals(an, p);
    uint32_t ng = p->u.aggregate.ngroup;
    uint32_t na = p->nexprs - ng;
    Node **exprs = NULL;
    for (uint32_t i = 0; i < ng; i++) {
        int64_t v;
        Node *g = p->exprs[i];
        if (!int_literal(g, &v)) continue;
        for (uint32_t k = 0; k < na; k++)
            if (p->exprs[ng + k]->kind == NK_UnresolvedStar)
                return an_fail(an, error_make(an->arena, "STAR_GROUP_BY_POS", g, NULL));
        if (v < 1 || (uint64_t)v > na) {
            return an_fail(an, error_make(an->arena, "GROUP_BY_POS_OUT_OF_RANGE", g, "index",
                                          arena_printf(an->arena, "%lld", (long long)v), "size",
                                          arena_printf(an->arena, "%u", na), NULL));
        }
        Node *item = p->exprs[ng + v - 1];
        if (!node_resolved(item)) return p; /* wait for the select item */
        Node *target = item->kind == NK_Alias ? item->kids[0] : item;
        if (expr_has_kind(target, KIND_MASK(NK_AggregateExpression))) {
            /* groupByPositionRefersToAggregateFunctionError: the select item's .sql, alias and all */
            return an_fail(an, error_make(an->arena, "GROUP_BY_POS_AGGREGATE", g, "index",
                                          arena_printf(an->arena, "%lld", (long long)v), "aggExpr",
                                          expr_sql(an->arena, item), NULL));
        }
        if (!exprs) {
            exprs = ARENA_ARRAY(an->arena, Node *, p->nexprs);
            mem_copy(exprs, p->exprs, sizeof(Node *) * p->nexprs);
        }
        if (target->kind == NK_Literal && target->type->id == T_INT) {
            /* grouping by a position that holds an integer constant: Spark keeps
               the constant grouping (printed as the position); marked so it is not
               taken for a position again */
            Node *k = node_copy(an->arena, g);
            k->flags |= NF_IMPLICIT;
            target = node_finish(k);
        }
        exprs[i] = target;
    }
    return exprs ? node_with_exprs(an->arena, p, exprs, p->nexprs) : p;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an)) return p;
    if (p->kind == NK_Sort) return sort_ordinals(an, p);
    if (p->kind == NK_Aggregate) return group_ordinals(an, p);
    return p;
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_Sort, NK_Aggregate), rewrite, an);
}

const Rule RULE_RESOLVE_ORDINALS = {
    .name = "ResolveOrdinals",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.SubstituteUnresolvedOrdinals",
    .kinds = {NK_Sort, NK_Aggregate},
    .nkinds = 2,
    .apply = apply,
};
