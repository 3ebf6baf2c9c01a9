/* ResolveAggregateFunctions — Spark's Analyzer.ResolveAggregateFunctions:
 * HAVING and ORDER BY over an aggregation may name select-list aliases,
 * grouping columns that are not selected, and aggregate functions that are
 * not in the select list. ORDER BY names resolve against the aggregation's
 * output first, then its input; HAVING names against the input first where
 * that column is a grouping column or an aggregate's argument, then the
 * output (Spark's TempResolvedColumn). Aggregates and missing grouping columns are added
 * to the Aggregate as extra outputs and a Project restores its output.
 *
 *   'UnresolvedHaving ('max('id) > 0)          Project [1#1]
 *   +- Aggregate [1 AS 1#1]              =>    +- Filter (max(id)#2L > cast(0 as bigint))
 *      +- Range (0, 10, step=1)                   +- Aggregate [1 AS 1#1, max(id#0L) AS max(id)#2L]
 *                                                    +- Range (0, 10, step=1)
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/column_refs.h"
#include "rules/lib/function_lookup.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"
#include "rules/lib/semantic_equal.h"
#include "rules/lib/variables.h"
#include "core/walk.h"

typedef struct AggExt {
    Analysis *an;
    Node *agg;
    Node **list;     /* the Aggregate's aggregate list, growing */
    uint32_t n, cap;
    uint32_t original;
    AttrList input;  /* the Aggregate's child output */
    const Node *dangling; /* a column of the input that is neither grouped nor aggregated */
    int in_grouping_fn;   /* inside grouping()/grouping_id(): ResolveGroupingAnalytics checks those */
} AggExt;

static Node *add_output(AggExt *x, Node *e, const char *name) {
    Analysis *an = x->an;
    for (uint32_t i = 0; i < x->n; i++) {
        Node *item = x->list[i];
        Node *inner = item->kind == NK_Alias ? item->kids[0] : item;
        if (expr_semantic_equal(inner, e)) return to_attribute(an, item);
    }
    if (x->n == x->cap) {
        uint32_t cap = x->cap * 2 + 4;
        Node **l = ARENA_ARRAY(an->arena, Node *, cap);
        mem_copy(l, x->list, sizeof(Node *) * x->n);
        x->list = l;
        x->cap = cap;
    }
    Node *item = e->kind == NK_AttributeReference ? e : make_alias(an, e, name, true);
    x->list[x->n++] = item;
    return to_attribute(an, item);
}

static bool is_grouping_expr(AggExt *x, const Node *e) {
    for (uint32_t i = 0; i < x->agg->u.aggregate.ngroup; i++)
        if (expr_semantic_equal(x->agg->exprs[i], e)) return true;
    return false;
}

/* Rewrites e so it only uses the Aggregate's outputs. */
static Node *extract(AggExt *x, Node *e) {
    Analysis *an = x->an;
    if (e->kind == NK_AggregateExpression) return add_output(x, e, expr_to_string(an->arena, e));
    if (e->kind == NK_AttributeReference) {
        /* an output of the aggregate already? */
        for (uint32_t i = 0; i < x->n; i++)
            if (named_expr_id(x->list[i]) == e->u.attr.id) return e;
        if (is_grouping_expr(x, e)) return add_output(x, e, e->u.attr.name);
        for (uint32_t i = 0; i < x->input.n; i++)
            if (x->input.v[i]->u.attr.id == e->u.attr.id && !x->dangling && !x->in_grouping_fn) x->dangling = e;
        return e; /* CheckAnalysis reports it */
    }
    if (e->nkids && is_grouping_expr(x, e) && !kind_mask_has(e->mask, NK_AggregateExpression))
        return add_output(x, e, expr_to_string(an->arena, e));
    if (!e->nkids) return e;
    bool gfn = e->kind == NK_Call && e->u.call.name &&
               (strcasecmp(e->u.call.name, "grouping") == 0 || strcasecmp(e->u.call.name, "grouping_id") == 0);
    x->in_grouping_fn += gfn;
    Node *stack[8];
    Node **kids = e->nkids <= 8 ? stack : ARENA_ARRAY(an->arena, Node *, e->nkids);
    for (uint32_t i = 0; i < e->nkids; i++) kids[i] = extract(x, e->kids[i]);
    x->in_grouping_fn -= gfn;
    return node_with_kids(an->arena, e, kids, e->nkids);
}

typedef struct OutputRefs {
    Analysis *an;
    AttrList attrs;
} OutputRefs;

/* Names against the aggregation's output only: no outer references or
 * variables yet (Spark resolves by the plan's output, then its child, and
 * only then outer references). */
static Node *resolve_output_ref(Node *e, void *ctx) {
    OutputRefs *o = ctx;
    if (an_failed(o->an) || e->kind != NK_UnresolvedAttribute) return e;
    Node *found = NULL;
    ErrorInfo *before = o->an->error;
    ResolveStatus st = resolve_name(o->an, e, e->u.un.name, o->attrs, &found);
    /* ambiguous in the output (`avg(b) AS a, a`): Spark goes on to the input */
    if (st == RS_AMBIGUOUS) o->an->error = before;
    return st == RS_FOUND ? found : e;
}

/* HAVING names the aggregation's input first (Spark's resolveColWithAgg:
 * a TempResolvedColumn) and keeps that column where it is valid — a grouping
 * column or inside an aggregate function; elsewhere the name is the select
 * list's (ResolveAggregateFunctions undoes the TempResolvedColumn). */
typedef struct HavingInput {
    AggExt *x;
    AttrList ain;
} HavingInput;

static Node *prefer_input(HavingInput *h, Node *e, bool in_aggregate) {
    Analysis *an = h->x->an;
    if (an_failed(an)) return e;
    if (e->kind == NK_UnresolvedAttribute) {
        Node *found = NULL;
        ErrorInfo *before = an->error;
        ResolveStatus st = resolve_name(an, e, e->u.un.name, h->ain, &found);
        an->error = before;
        if (st != RS_FOUND) return e;
        /* nested fields keep the usual order */
        if (found->kind != NK_AttributeReference || (!in_aggregate && !is_grouping_expr(h->x, found))) return e;
        Node *p = node_copy(an->arena, visible_attr(an, found));
        p->start = e->start;
        p->stop = e->stop;
        return node_finish(p);
    }
    if (!e->nkids || !kind_mask_has(e->mask, NK_UnresolvedAttribute) || node_kind_is_subquery(e->kind)) return e;
    if (e->kind == NK_AggregateExpression) in_aggregate = true;
    else if (e->kind == NK_UnresolvedFunction) {
        const FuncDef *def = lookup_function(an, e);
        if (def && func_kind(def) == FK_AGGREGATE) in_aggregate = true;
    }
    Node *stack[8];
    Node **kids = e->nkids <= 8 ? stack : ARENA_ARRAY(an->arena, Node *, e->nkids);
    for (uint32_t i = 0; i < e->nkids; i++) kids[i] = prefer_input(h, e->kids[i], in_aggregate);
    return node_with_kids(an->arena, e, kids, e->nkids);
}

static Node *resolve_against(Analysis *an, Node *e, AttrList first, AttrList second) {
    OutputRefs o = {an, first};
    e = transform(an->arena, e, 0, KIND_MASK(NK_UnresolvedAttribute), resolve_output_ref, &o);
    if (!an_failed(an) && kind_mask_has(e->mask, NK_UnresolvedAttribute)) e = resolve_expr_refs(an, e, second, NULL, 0);
    return e;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an)) return p;
    bool having = p->kind == NK_UnresolvedHaving;
    if (!having && p->kind != NK_Sort) return p;
    Node *agg = p->kids[0];
    Node *proj = NULL;   /* ORDER BY over a HAVING that restored the select list:
                            Sort over Project (of attributes) over Filter over Aggregate */
    if (!having && agg->kind == NK_Project && plan_is_resolved(agg) && agg->kids[0]->kind == NK_Filter &&
        agg->kids[0]->kids[0]->kind == NK_Aggregate) {
        bool plain = true;
        for (uint32_t i = 0; i < agg->nexprs; i++)
            if (agg->exprs[i]->kind != NK_AttributeReference) plain = false;
        if (plain) {
            proj = agg;
            agg = agg->kids[0];
        }
    }
    Node *filter = NULL; /* ORDER BY over HAVING: Sort over Filter over Aggregate */
    if (!having && agg->kind == NK_Filter && agg->kids[0]->kind == NK_Aggregate && plan_is_resolved(agg)) {
        filter = agg;
        agg = agg->kids[0];
    }
    if (agg->kind != NK_Aggregate || !plan_is_resolved(agg)) return p;
    if (!having && node_resolved(p)) {
        /* a resolved ORDER BY over an aggregation may still need aggregates pushed down */
        bool needs = false;
        for (uint32_t i = 0; i < p->nexprs; i++)
            if (expr_has_kind(p->exprs[i], KIND_MASK(NK_AggregateExpression))) needs = true;
        if (!needs)
            for (uint32_t i = 0; i < p->nexprs && !needs; i++)
                if (!expr_refs_within(p->exprs[i], plan_output(an, proj ? proj : agg))) needs = true;
        if (!needs) return p;
    }
    AttrList aout = plan_output(an, agg);
    AttrList ain = plan_output(an, agg->kids[0]);
    Node **exprs = ARENA_ARRAY(an->arena, Node *, p->nexprs + 1);
    bool resolved = true, changed = false;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        exprs[i] = p->exprs[i];
        if (proj) {
            /* the restored select list first */
            OutputRefs o = {an, plan_output(an, proj)};
            exprs[i] = transform(an->arena, exprs[i], 0, KIND_MASK(NK_UnresolvedAttribute), resolve_output_ref, &o);
        }
        if (having && kind_mask_has(exprs[i]->mask, NK_UnresolvedAttribute)) {
            AggExt gx = {.an = an, .agg = agg};
            HavingInput h = {&gx, ain};
            exprs[i] = prefer_input(&h, exprs[i], false);
        }
        exprs[i] = resolve_against(an, exprs[i], aout, ain);
        if (exprs[i] != p->exprs[i]) changed = true;
        if (!node_resolved(exprs[i])) resolved = false;
    }
    if (an_failed(an)) return p;
    if (!resolved) return changed ? node_with_exprs(an->arena, p, exprs, p->nexprs) : p;
    uint32_t ng = agg->u.aggregate.ngroup;
    AggExt x = {an, agg, NULL, agg->nexprs - ng, agg->nexprs - ng + 8, agg->nexprs - ng, ain};
    x.list = ARENA_ARRAY(an->arena, Node *, x.cap);
    mem_copy(x.list, node_exprs_from(agg, ng), sizeof(Node *) * x.n);
    for (uint32_t i = 0; i < p->nexprs; i++) exprs[i] = extract(&x, exprs[i]);
    /* resolveExprsWithAggregate: a column neither grouped nor aggregated
       stays unresolved (UNRESOLVED_COLUMN, suggesting the aggregate's output) */
    if (x.dangling) {
        const Node *d = x.dangling;
        return an_fail(an, unresolved_column_error(an, d, name_parts1(an->arena, d->u.attr.name), aout));
    }
    Node *new_agg = agg;
    if (x.n != x.original) {
        Node **all = ARENA_ARRAY(an->arena, Node *, ng + x.n);
        mem_copy(all, agg->exprs, sizeof(Node *) * ng);
        mem_copy(all + ng, x.list, sizeof(Node *) * x.n);
        new_agg = node_with_exprs(an->arena, agg, all, ng + x.n);
    }
    if (proj && new_agg == agg) return node_with_exprs(an->arena, p, exprs, p->nexprs);
    Node *op;
    if (having) {
        op = node_new(an->arena, NK_Filter, p->start, p->stop);
        node_set_exprs(an->arena, op, exprs, p->nexprs);
        node_set_kids(an->arena, op, &new_agg, 1);
        op = node_finish(op);
    } else {
        Node *child = filter ? node_with_kid(an->arena, filter, 0, new_agg) : new_agg;
        if (proj) {
            /* the Project passes the aggregate's new outputs up to the Sort */
            AttrList pout = plan_output(an, proj);
            AttrList nout = plan_output(an, new_agg);
            Node **items = ARENA_ARRAY(an->arena, Node *, pout.n + nout.n + 1);
            uint32_t n = 0;
            for (uint32_t i = 0; i < pout.n; i++) items[n++] = pout.v[i];
            for (uint32_t i = 0; i < nout.n; i++) {
                bool have = false;
                for (uint32_t k = 0; k < pout.n; k++)
                    if (pout.v[k]->u.attr.id == nout.v[i]->u.attr.id) have = true;
                if (!have) items[n++] = nout.v[i];
            }
            child = make_project(an, child, items, n);
        }
        op = node_copy(an->arena, p);
        node_set_exprs(an->arena, op, exprs, p->nexprs);
        node_set_kids(an->arena, op, &child, 1);
        op = node_finish(op);
    }
    if (new_agg == agg && !proj) return op;
    AttrList orig = proj ? plan_output(an, proj) : aout;
    return make_project(an, op, orig.v, orig.n);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_UnresolvedHaving, NK_Sort), rewrite, an);
}

const Rule RULE_RESOLVE_AGGREGATE_FUNCTIONS = {
    .name = "ResolveAggregateFunctions",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveAggregateFunctions",
    .kinds = {NK_UnresolvedHaving, NK_Sort},
    .nkinds = 2,
    .apply = apply,
};
