/* ResolveSQLFunctions — Spark's Analyzer.ResolveSQLFunctions: once an
 * operator is resolved, each call of a SQL function in it is inlined as
 * SQLScalarFunction(inputs, body): its arguments, cast to the parameters'
 * types and aliased to their names, are computed by a Project put under the
 * operator (its child's output, then the aliases), and the body, analysed
 * against the parameters, reads those aliases. An operator whose output is
 * not its expressions' gets a Project restoring its output on top. In an
 * Aggregate, calls outside aggregate functions are first lifted into a
 * Project above it (their aggregate arguments computed by the Aggregate).
 *
 *   Project [f(c1) AS f(c1)#3]            Project [f(a#4) AS f(c1)#3]
 *   +- Relation t[c1#1]            =>     +- Project [c1#1, cast(c1#1 as int) AS a#4]
 *                                            +- Relation t[c1#1]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "core/walk.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/sql_function.h"

typedef struct Vec {
    Node **v;
    uint32_t n, cap;
} Vec;

static void push(Analysis *an, Vec *v, Node *x) {
    if (v->n == v->cap) {
        uint32_t cap = v->cap ? v->cap * 2 : 8;
        Node **nv = ARENA_ARRAY(an->arena, Node *, cap);
        if (v->n) memcpy(nv, v->v, sizeof(Node *) * v->n);
        v->v = nv;
        v->cap = cap;
    }
    v->v[v->n++] = x;
}

/* the expression, not entering subquery plans, has a SQLFunctionExpression */
static WalkResult find_call(const Node *n, void *ctx) {
    if (!kind_mask_has(n->mask, NK_SQLFunctionExpression)) return WALK_PRUNE;
    if (n->kind == NK_SQLFunctionExpression) {
        *(bool *)ctx = true;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

static bool has_call(const Node *e) {
    bool found = false;
    node_walk(e, 0, find_call, &found);
    return found;
}

static bool any_call(Node *const *v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (has_call(v[i])) return true;
    return false;
}

/* rewriteSQLFunctions: calls whose inputs hold no other call are inlined,
   their aliases collected in inputs */
static Node *inline_calls(Analysis *an, Node *e, Vec *inputs, bool *changed) {
    if (an_failed(an) || !has_call(e)) return e;
    if (e->kind == NK_SQLFunctionExpression && !any_call(e->kids, e->nkids) &&
        !expr_has_kind(e, KIND_MASK(NK_LateralColumnAliasReference))) {
        Node **aliases = NULL;
        const SqlFunction *f = e->u.sqlfn.fn;
        Node *r = sql_function_inline(an, f, e->kids, e->nkids, e, &aliases);
        if (!r) return e;
        for (int i = 0; i < f->nparams; i++) push(an, inputs, aliases[i]);
        *changed = true;
        return r;
    }
    if (node_kind_is_subquery(e->kind)) return e;
    Node **kids = ARENA_ARRAY(an->arena, Node *, e->nkids + 1);
    for (uint32_t i = 0; i < e->nkids; i++) kids[i] = inline_calls(an, e->kids[i], inputs, changed);
    return node_with_kids(an->arena, e, kids, e->nkids);
}

/* shouldExtract: a call not inside an aggregate function */
static bool should_extract(const Node *e) {
    if (e->kind == NK_AggregateExpression) return false;
    if (e->kind == NK_SQLFunctionExpression) return true;
    if (node_kind_is_subquery(e->kind)) return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (should_extract(e->kids[i])) return true;
    return false;
}

/* extractAndRewrite: what the Aggregate must compute, replaced by its attribute */
static Node *extract(Analysis *an, Node *e, Vec *out) {
    if (!should_extract(e)) {
        Node *add;
        if (e->kind == NK_OuterReference && e->nkids) add = make_alias(an, e, expr_auto_name(an->arena, e->kids[0]), false);
        else if (e->kind == NK_Alias || e->kind == NK_AttributeReference) add = e;
        else add = make_alias(an, e, expr_auto_name(an->arena, e), false);
        push(an, out, add);
        return to_attribute(an, add);
    }
    Node **kids = ARENA_ARRAY(an->arena, Node *, e->nkids + 1);
    for (uint32_t i = 0; i < e->nkids; i++) kids[i] = extract(an, e->kids[i], out);
    return node_with_kids(an->arena, e, kids, e->nkids);
}

static Node *rewrite_aggregate(Analysis *an, Node *a) {
    uint32_t ng = a->u.aggregate.ngroup;
    Vec extracted = {0};
    Node **top = ARENA_ARRAY(an->arena, Node *, a->nexprs - ng + 1);
    for (uint32_t i = ng; i < a->nexprs; i++) {
        Node *e = a->exprs[i];
        if (e->kind == NK_Alias && should_extract(e)) {
            Node *k = extract(an, e->kids[0], &extracted);
            top[i - ng] = node_with_kids(an->arena, e, &k, 1);
        } else {
            top[i - ng] = extract(an, e, &extracted);
        }
    }
    Node **exprs = ARENA_ARRAY(an->arena, Node *, ng + extracted.n + 1);
    for (uint32_t i = 0; i < ng; i++) exprs[i] = a->exprs[i];
    for (uint32_t i = 0; i < extracted.n; i++) exprs[ng + i] = extracted.v[i];
    Node *agg = node_copy(an->arena, a);
    node_set_exprs(an->arena, agg, exprs, ng + extracted.n);
    return make_project(an, node_finish(agg), top, a->nexprs - ng);
}

static bool any_aggregate(const Node *p) {
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (expr_has_kind(p->exprs[i], KIND_MASK(NK_AggregateExpression)) &&
            !expr_has_kind(p->exprs[i], KIND_MASK(NK_WindowExpression)))
            return true;
    return false;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || !node_is_plan(p) || !node_resolved(p) || !any_call(p->exprs, p->nexprs))
        return p;
    /* HAVING over an aggregation waits for ResolveAggregateFunctions */
    if (p->kind == NK_Filter && p->kids[0]->kind == NK_Aggregate &&
        expr_has_kind(p->exprs[0], KIND_MASK(NK_AggregateExpression)))
        return p;
    /* a SELECT with aggregates waits for GlobalAggregates */
    if (p->kind == NK_Project && any_aggregate(p)) return p;
    if (p->kind == NK_Aggregate) {
        for (uint32_t i = p->u.aggregate.ngroup; i < p->nexprs; i++)
            if (should_extract(p->exprs[i])) return rewrite_aggregate(an, p);
    }
    if (p->nkids != 1) return p;
    Vec inputs = {0};
    Node **exprs = ARENA_ARRAY(an->arena, Node *, p->nexprs + 1);
    bool changed = false;
    for (uint32_t i = 0; i < p->nexprs; i++) exprs[i] = inline_calls(an, p->exprs[i], &inputs, &changed);
    if (an_failed(an) || !changed) return p;
    Node *child = p->kids[0];
    AttrList co = plan_output(an, child);
    Node **below = ARENA_ARRAY(an->arena, Node *, co.n + inputs.n + 1);
    for (uint32_t i = 0; i < co.n; i++) below[i] = co.v[i];
    for (uint32_t i = 0; i < inputs.n; i++) below[co.n + i] = inputs.v[i];
    Node *np = node_copy(an->arena, p);
    node_set_exprs(an->arena, np, exprs, p->nexprs);
    Node *nc = make_project(an, child, below, co.n + inputs.n);
    node_set_kids(an->arena, np, &nc, 1);
    np = node_finish(np);
    if (p->kind == NK_Project || p->kind == NK_Aggregate) return np;
    AttrList out = plan_output(an, p);
    return make_project(an, np, out.v, out.n);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SUBQUERIES, KIND_MASK(NK_SQLFunctionExpression), rewrite, an);
}

const Rule RULE_RESOLVE_SQL_FUNCTIONS = {
    .name = "ResolveSQLFunctions",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveSQLFunctions",
    .kinds = {NK_SQLFunctionExpression},
    .nkinds = 1,
    .apply = apply,
};
