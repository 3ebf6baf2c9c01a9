/* ResolvePivot — Spark's Analyzer.ResolvePivot: once the child, the pivot
 * column, the aggregates and the values are resolved, a Pivot becomes
 * aggregations. The grouping columns are the child's columns that neither
 * the pivot column nor an aggregate references. When every aggregate's type
 * is one PivotFirst can collect (numbers, booleans), two aggregations: the
 * first groups by the grouping columns and the pivot column, the second
 * collects one array per aggregate over the pivot values (pivotfirst) and a
 * Project picks each value's element. Otherwise one aggregation with every
 * aggregate function's input wrapped in `if (pivot <=> value) x else null`.
 *
 *   'Pivot course, [sum(e#3)], ['dotNET', 'Java']      Project [y#1, __pivot_sum(t.e) AS `sum(t.e)`#7[0] AS dotNET#8, ...[1] AS Java#9]
 *   +- Relation t[y#1,course#2,e#3]           =>      +- Aggregate [y#1], [y#1, pivotfirst(course#2, sum(t.e)#6, dotNET, Java, 0, 0) AS __pivot_sum(t.e) AS `sum(t.e)`#7]
 *                                                        +- Aggregate [y#1, course#2], [y#1, course#2, sum(e#3) AS sum(t.e)#6]
 *                                                           +- Relation t[y#1,course#2,e#3]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "core/walk.h"
#include "eval/consteval.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/plan_inputs.h"

static Node *strip_alias(Node *e) { return e->kind == NK_Alias && e->nkids ? e->kids[0] : e; }

static Node *fail(Analysis *an, ErrorInfo *e) { return an_fail(an, e); }

/* Spark's checkValidAggregateExpression: every column an aggregate reads
 * must be inside an aggregate function. */
typedef struct AggCheck {
    const Node *bad;
} AggCheck;

static WalkResult find_bare_column(const Node *n, void *ctx) {
    AggCheck *c = ctx;
    if (n->kind == NK_AggregateExpression) return WALK_PRUNE;
    if (n->kind == NK_AttributeReference) {
        c->bad = n;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

/* The attribute ids an expression reads. */
typedef struct Refs {
    Arena *a;
    ExprId *v;
    uint32_t n, cap;
} Refs;

static WalkResult collect_ref(const Node *n, void *ctx) {
    Refs *r = ctx;
    if (n->kind != NK_AttributeReference) return WALK_CONTINUE;
    if (r->n == r->cap) {
        uint32_t cap = r->cap * 2 + 8;
        ExprId *v = ARENA_ARRAY(r->a, ExprId, cap);
        if (r->n) mem_copy(v, r->v, sizeof(ExprId) * r->n);
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = n->u.attr.id;
    return WALK_CONTINUE;
}

static bool refs_has(const Refs *r, ExprId id) {
    for (uint32_t i = 0; i < r->n; i++)
        if (r->v[i] == id) return true;
    return false;
}

/* Expression.sql (qualified attributes) */
static const char *sql_of(Analysis *an, const Node *e) { return expr_sql(an->arena, e); }

/* Spark's quoteIfNeeded */
static const char *quote_if_needed(Analysis *an, const char *s) {
    bool plain = *s != 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            plain = false;
    return plain ? s : sql_ident(an->arena, s);
}

/* Alias(child, name).sql */
static const char *alias_sql(Analysis *an, const char *child_sql, const char *name) {
    return arena_printf(an->arena, "%s AS %s", child_sql, quote_if_needed(an, name));
}

/* The output column name of (value, aggregate). */
static const char *output_name(Analysis *an, const Node *value, const Value *text_of, const Node *agg, bool single) {
    const char *sv;
    if (value->kind == NK_Alias || value->kind == NK_AttributeReference) {
        sv = value->u.attr.name;
    } else {
        const char *t = text_of->is_null ? NULL : const_value_text(an->arena, text_of);
        sv = t ? t : "null";
    }
    if (single) return sv;
    const char *suffix = agg->kind == NK_Alias ? agg->u.attr.name : expr_auto_name(an->arena, agg);
    return arena_printf(an->arena, "%s_%s", sv, suffix);
}

/* Spark's PivotFirst.supportsDataType */
static bool pivot_first_supports(const DataType *t) {
    switch (t->id) {
    case T_BOOLEAN: case T_BYTE: case T_SHORT: case T_INT: case T_LONG: case T_FLOAT: case T_DOUBLE:
    case T_DECIMAL: return true;
    default: return false;
    }
}

static Node *literal_of(Analysis *an, const Value *v) {
    Node *l = node_new(an->arena, NK_Literal, -1, -1);
    l->u.lit.v = *v;
    l->type = v->type;
    if (v->is_null) l->flags |= NF_NULLABLE;
    return node_finish(l);
}

static Node *null_literal(Analysis *an) {
    Node *l = node_new(an->arena, NK_Literal, -1, -1);
    l->u.lit.v.type = &TYPE_NULL;
    l->u.lit.v.is_null = true;
    l->type = &TYPE_NULL;
    l->flags |= NF_NULLABLE;
    return node_finish(l);
}

static Node *bool_literal(Analysis *an, bool b) {
    Node *l = node_new(an->arena, NK_Literal, -1, -1);
    l->u.lit.v.type = &TYPE_BOOLEAN;
    l->u.lit.v.u.b = b;
    l->type = &TYPE_BOOLEAN;
    return node_finish(l);
}

/* ---- the one-aggregation plan: if (pivot <=> value) x else null ---- */

typedef struct IfCtx {
    Analysis *an;
    Node *pivot;
    Node *value; /* Cast(value, pivot type) */
} IfCtx;

static Node *if_expr(IfCtx *c, Node *e) {
    Node *eq_args[2] = {c->pivot, c->value};
    Node *eq = make_call(c->an, "<=>", true, eq_args, 2, -1, -1);
    if (!eq) return NULL;
    Node *if_args[3] = {eq, e, null_literal(c->an)};
    return make_call(c->an, "if", false, if_args, 3, -1, -1);
}

static Node *filter_agg(Node *n, void *ctx) {
    IfCtx *c = ctx;
    if (n->kind != NK_AggregateExpression || !n->nkids || n->kids[0]->kind != NK_Call) return n;
    Node *call = n->kids[0];
    const char *name = func_name(call->u.call.def);
    Node **args = ARENA_ARRAY(c->an->arena, Node *, call->nkids + 1);
    uint32_t nargs = call->nkids;
    mem_copy(args, call->kids, sizeof(Node *) * nargs);
    if (!strcmp(name, "first") || !strcmp(name, "last") || !strcmp(name, "first_value") ||
        !strcmp(name, "last_value")) {
        /* First(ifExpr(expr), ignoreNulls = true) */
        args[0] = if_expr(c, args[0]);
        if (nargs < 2) nargs = 2;
        args[1] = bool_literal(c->an, true);
    } else if (!strcmp(name, "approx_percentile") || !strcmp(name, "percentile_approx")) {
        args[0] = if_expr(c, args[0]);
    } else {
        for (uint32_t i = 0; i < nargs; i++) args[i] = if_expr(c, args[i]);
    }
    for (uint32_t i = 0; i < nargs; i++)
        if (!args[i]) return NULL;
    Node *nc = node_copy(c->an->arena, call);
    node_set_kids(c->an->arena, nc, args, nargs);
    nc = node_finish(nc);
    return node_with_kid(c->an->arena, n, 0, nc);
}

static Node *alias_of(Analysis *an, Node *e, const char *name) { return make_alias(an, e, name, false); }

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind != NK_Pivot || !children_resolved(p)) return p;
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (!node_resolved(p->exprs[i])) return p;
    Arena *a = an->arena;
    Node *child = p->kids[0];
    Node *pivot = p->exprs[0];
    uint32_t nagg = p->u.pivot.nagg, nval = p->u.pivot.nvalues;
    Node **aggs = node_exprs_from(p, 1), **vals = node_exprs_from(p, 1 + nagg);

    if (!type_orderable(pivot->type)) {
        const char *nm = pivot->kind == NK_AttributeReference ? sql_ident(a, pivot->u.attr.name)
                                                              : sql_id_dotted(a, sql_of(an, pivot));
        return fail(an, error_make(a, "INCOMPARABLE_PIVOT_COLUMN", NULL, "columnName", nm, NULL));
    }
    for (uint32_t i = 0; i < nagg; i++) {
        AggCheck c = {NULL};
        node_walk(aggs[i], 0, find_bare_column, &c);
        if (c.bad) return fail(an, error_make(a, "_LEGACY_ERROR_TEMP_1006", NULL, "sql", sql_of(an, c.bad), NULL));
    }
    /* the values: constants castable to the pivot column's type, evaluated */
    Value *ev = ARENA_ARRAY(a, Value, nval + 1);
    Value *text = ARENA_ARRAY(a, Value, nval + 1);
    Node **cast_vals = ARENA_ARRAY(a, Node *, nval + 1);
    for (uint32_t i = 0; i < nval; i++) {
        Node *v = strip_alias(vals[i]);
        if (!expr_is_constant(v))
            return fail(an, error_make(a, "NON_LITERAL_PIVOT_VALUES", NULL, "expression", expr_sql_quoted(a, v), NULL));
        if (!can_cast(v->type, pivot->type, an->conf->ansi))
            return fail(an, error_make(a, "PIVOT_VALUE_DATA_TYPE_MISMATCH", NULL, "value", expr_to_string(a, v),
                                       "valueType", type_catalog_string(a, v->type), "pivotType",
                                       type_catalog_string(a, pivot->type), NULL));
        Node *c = node_new(a, NK_Cast, v->start, v->stop);
        c->type = pivot->type;
        c->u.cast.ansi = an->conf->ansi;
        c->flags |= v->flags & NF_NULLABLE;
        node_set_kids(a, c, &v, 1);
        cast_vals[i] = node_finish(c);
        if (!const_eval(an, cast_vals[i], &ev[i])) return an_failed(an) ? NULL : p;
        Value tv;
        if (!const_eval(an, v, &tv)) return an_failed(an) ? NULL : p;
        text[i] = tv;
    }
    /* grouping: the child's columns neither the pivot column nor an aggregate reads */
    Refs refs = {a, NULL, 0, 0};
    node_walk(pivot, 0, collect_ref, &refs);
    for (uint32_t i = 0; i < nagg; i++) node_walk(aggs[i], 0, collect_ref, &refs);
    AttrList out = plan_output(an, child);
    Node **groups = ARENA_ARRAY(a, Node *, out.n + 1);
    uint32_t ng = 0;
    for (uint32_t i = 0; i < out.n; i++)
        if (!refs_has(&refs, out.v[i]->u.attr.id)) groups[ng++] = out.v[i];
    bool single = nagg == 1;

    bool two_step = true;
    for (uint32_t i = 0; i < nagg; i++)
        if (!pivot_first_supports(aggs[i]->type)) two_step = false;

    if (!two_step) {
        Node **items = ARENA_ARRAY(a, Node *, ng + nval * nagg + 1);
        mem_copy(items, groups, sizeof(Node *) * ng);
        uint32_t n = ng;
        for (uint32_t v = 0; v < nval; v++) {
            IfCtx c = {an, pivot, cast_vals[v]};
            for (uint32_t k = 0; k < nagg; k++) {
                Node *f = transform(a, strip_alias(aggs[k]), 0, KIND_MASK(NK_AggregateExpression), filter_agg, &c);
                if (!f || an_failed(an)) return NULL;
                items[n++] = alias_of(an, f, output_name(an, vals[v], &text[v], aggs[k], single));
            }
        }
        Node *agg = node_new(a, NK_Aggregate, p->start, p->stop);
        agg->u.aggregate.ngroup = ng;
        Node **all = ARENA_ARRAY(a, Node *, ng + n + 1);
        mem_copy(all, groups, sizeof(Node *) * ng);
        mem_copy(all + ng, items, sizeof(Node *) * n);
        node_set_exprs(a, agg, all, ng + n);
        node_set_kids(a, agg, &child, 1);
        return node_finish(agg);
    }

    /* first aggregation: grouping, the pivot column, each aggregate named by its sql */
    Node *named_pivot = pivot->kind == NK_AttributeReference ? pivot : alias_of(an, pivot, "__pivot_col");
    Node *pivot_attr = to_attribute(an, named_pivot);
    Node **named_aggs = ARENA_ARRAY(a, Node *, nagg + 1);
    const char **agg_sql = ARENA_ARRAY(a, const char *, nagg + 1);
    for (uint32_t k = 0; k < nagg; k++) {
        agg_sql[k] = sql_of(an, aggs[k]);
        named_aggs[k] = alias_of(an, strip_alias(aggs[k]), agg_sql[k]);
    }
    uint32_t n1 = ng + 1;
    Node **first = ARENA_ARRAY(a, Node *, 2 * n1 + nagg + 1);
    mem_copy(first, groups, sizeof(Node *) * ng);
    first[ng] = strip_alias(named_pivot);
    mem_copy(first + n1, groups, sizeof(Node *) * ng);
    first[n1 + ng] = named_pivot;
    mem_copy(first + 2 * n1, named_aggs, sizeof(Node *) * nagg);
    Node *agg1 = node_new(a, NK_Aggregate, p->start, p->stop);
    agg1->u.aggregate.ngroup = n1;
    node_set_exprs(a, agg1, first, 2 * n1 + nagg);
    node_set_kids(a, agg1, &child, 1);
    agg1 = node_finish(agg1);

    /* second aggregation: one pivotfirst array per aggregate */
    Node **second = ARENA_ARRAY(a, Node *, 2 * ng + nagg + 1);
    mem_copy(second, groups, sizeof(Node *) * ng);
    mem_copy(second + ng, groups, sizeof(Node *) * ng);
    Node **pivot_attrs = ARENA_ARRAY(a, Node *, nagg + 1);
    for (uint32_t k = 0; k < nagg; k++) {
        Node **args = ARENA_ARRAY(a, Node *, nval + 2);
        args[0] = pivot_attr;
        args[1] = to_attribute(an, named_aggs[k]);
        for (uint32_t v = 0; v < nval; v++) args[2 + v] = literal_of(an, &ev[v]);
        Node *pf = make_call(an, "@pivotfirst", false, args, nval + 2, p->start, p->stop);
        if (!pf) return an_failed(an) ? NULL : p;
        const char *nm = arena_printf(a, "__pivot_%s", alias_sql(an, agg_sql[k], agg_sql[k]));
        Node *al = alias_of(an, pf, nm);
        second[2 * ng + k] = al;
        pivot_attrs[k] = to_attribute(an, al);
    }
    Node *agg2 = node_new(a, NK_Aggregate, p->start, p->stop);
    agg2->u.aggregate.ngroup = ng;
    node_set_exprs(a, agg2, second, 2 * ng + nagg);
    node_set_kids(a, agg2, &agg1, 1);
    agg2 = node_finish(agg2);

    /* the Project: each value's element of each array */
    Node **items = ARENA_ARRAY(a, Node *, ng + nval * nagg + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < ng; i++) items[n++] = groups[i];
    for (uint32_t v = 0; v < nval; v++)
        for (uint32_t k = 0; k < nagg; k++) {
            Node *sub_args[2] = {pivot_attrs[k], make_literal_int(an, v, NULL)};
            Node *get = make_call(an, "@subscript", true, sub_args, 2, -1, -1);
            if (!get) return an_failed(an) ? NULL : p;
            /* GetArrayItem: the element type */
            get = node_copy(a, get);
            get->type = pivot_attrs[k]->type->elem;
            get->flags |= NF_NULLABLE;
            get = node_finish(get);
            items[n++] = alias_of(an, get, output_name(an, vals[v], &text[v], aggs[k], single));
        }
    return make_project(an, agg2, items, n);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_Pivot), rewrite, an);
}

const Rule RULE_RESOLVE_PIVOT = {
    .name = "ResolvePivot",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolvePivot",
    .kinds = {NK_Pivot},
    .nkinds = 1,
    .apply = apply,
};
