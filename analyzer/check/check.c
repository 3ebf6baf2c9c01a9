/* CheckAnalysis — Spark's CheckAnalysis: after the last batch, whatever is
 * still unresolved or invalid becomes the error Spark raises for it. Plans
 * are checked bottom-up (children first) and expressions post-order, as
 * Spark's foreachUp does, so the first error reported is Spark's. */
#include <string.h>

#include "check.h"
#include "subquery_checks.h"
#include "core/func_sig.h"
#include "eval/consteval.h"
#include "core/output.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/function_lookup.h"
#include "rules/lib/sql_function.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"
#include "rules/lib/semantic_equal.h"
#include "core/walk.h"

typedef struct Check {
    Analysis *an;
    AttrList input;
    const Node *op;
} Check;

static bool fail(Analysis *an, ErrorInfo *e) {
    an_fail(an, e);
    return false;
}

static bool check_plan(Analysis *an, const Node *p, OuterScope *outer);

static bool unresolved_attribute(Check *c, const Node *e) {
    Analysis *an = c->an;
    /* Spark suggests from the operator's inputSet */
    return fail(an, unresolved_column_error(an, e, e->u.un.name, c->input));
}

static bool check_expr(Check *c, const Node *e) {
    Analysis *an = c->an;
    /* a resolved subtree (no unresolved kind in it) without a generator or a
       subquery plan raises none of the errors below */
    if (node_resolved(e) && !(e->flags & NF_GENERATOR_CALL) &&
        !kind_mask_any(e->mask, KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery, NK_LateralSubquery)))
        return true;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (!check_expr(c, e->kids[i])) return false;
    switch (e->kind) {
    case NK_UnresolvedAttribute: return unresolved_attribute(c, e);
    case NK_Call:
        /* after analysis a generator lives only in a Generate */
        if (e->u.call.def && func_kind(e->u.call.def) == FK_GENERATOR && c->op->kind != NK_Generate) {
            StrBuf sb;
            sb_init(&sb, an->arena, 64);
            plan_node_print(&sb, c->op);
            return fail(an, error_make(an->arena, "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT", e, "plan", sb_str(&sb), NULL));
        }
        break;
    case NK_UnresolvedStar:
        return fail(an, error_make(an->arena, "INVALID_USAGE_OF_STAR_OR_REGEX", e, "elem", "'*'", "prettyName",
                                   node_kind_name(c->op->kind), NULL));
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_ListQuery:
    case NK_InSubquery:
    case NK_LateralSubquery: {
        OuterScope s = {c->input, c->op, an->outer, {0, NULL}};
        if (!check_plan(an, e->u.subq.plan, &s)) return false;
        if (!check_subquery_host(an, e, c->op)) return false; /* rules/subquery_checks.c */
        break;
    }
    default: break;
    }
    if (!node_resolved(e) && !node_kind_is_unresolved(e->kind)) {
        /* children fine, the node itself untyped: the function library explains why */
        bool kids_ok = true;
        for (uint32_t i = 0; i < e->nkids; i++)
            if (!node_resolved(e->kids[i])) kids_ok = false;
        if (kids_ok && !e->type) {
            Node *r = expr_resolve_typed(an, (Node *)e);
            if (an_failed(an)) return false;
            (void)r;
        }
    }
    if (e->kind == NK_UnresolvedFunction) {
        const FuncDef *def = lookup_function(an, e);
        if (def && func_kind(def) == FK_GENERATOR) {
            /* a generator left where no rule could extract it (GROUP BY, a condition, ...) */
            StrBuf sb;
            sb_init(&sb, an->arena, 64);
            plan_node_print(&sb, c->op);
            return fail(an, error_make(an->arena, "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT", e, "plan", sb_str(&sb), NULL));
        }
        /* arguments are resolved but the call is not: typing failed */
        return fail(an, error_make(an->arena, "INTERNAL_ERROR", e, "message",
                                   arena_printf(an->arena, "function %s could not be resolved",
                                                sql_id_parts(an->arena, e->u.un.name)),
                                   NULL));
    }
    return true;
}

/* PlanHelper.specialExpressionsInUnsupportedOperator for a Filter: every
 * window expression, aggregate and generator in e, pre-order (collect goes on
 * below a match), as .sql joined by ", ". */
static void collect_special(StrBuf *sb, const Node *e) {
    if (e->kind == NK_WindowExpression || e->kind == NK_AggregateExpression || (e->flags & NF_GENERATOR_CALL)) {
        if (sb->len) sb_puts(sb, ", ");
        sb_puts(sb, expr_sql(sb->arena, e));
    }
    for (uint32_t i = 0; i < e->nkids; i++) collect_special(sb, e->kids[i]);
}

static const char *special_expressions_sql(Analysis *an, const Node *e) {
    StrBuf sb;
    sb_init(&sb, an->arena, 64);
    collect_special(&sb, e);
    return sb_str(&sb);
}

static bool is_boolean(const Node *e) { return e->type && (e->type->id == T_BOOLEAN || e->type->id == T_NULL); }

static bool check_aggregate(Analysis *an, const Node *p);

static bool check_node(Analysis *an, const Node *p, OuterScope *outer);

/* Checks p with `outer` as the enclosing scopes, restoring the caller's. */
static bool check_plan(Analysis *an, const Node *p, OuterScope *outer) {
    OuterScope *saved = an->outer;
    an->outer = outer;
    bool ok = check_node(an, p, outer);
    an->outer = saved;
    return ok;
}

/* checkLimitLikeClause: LIMIT, OFFSET and TAIL take a constant, non-null,
 * non-negative INT (INVALID_LIMIT_LIKE_EXPRESSION). */
static bool check_limit_like(Analysis *an, const char *name, const Node *e) {
    const char *sql = expr_sql_quoted(an->arena, e);
    if (!expr_is_constant(e))
        return fail(an, error_make(an->arena, "INVALID_LIMIT_LIKE_EXPRESSION.IS_UNFOLDABLE", e, "name", name, "expr",
                                   sql, NULL));
    if (!e->type || e->type->id != T_INT)
        return fail(an, error_make(an->arena, "INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE", e, "name", name, "expr", sql,
                                   "dataType", sql_type_quoted(an->arena, e->type ? e->type : &TYPE_NULL), NULL));
    Value v;
    if (!const_eval(an, e, &v)) return !an_failed(an);
    if (v.is_null)
        return fail(an, error_make(an->arena, "INVALID_LIMIT_LIKE_EXPRESSION.IS_NULL", e, "name", name, "expr", sql,
                                   NULL));
    if (v.u.i < 0)
        return fail(an, error_make(an->arena, "INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE", e, "name", name, "expr", sql,
                                   "v", arena_printf(an->arena, "%lld", (long long)v.u.i), NULL));
    return true;
}

static WalkResult find_window(const Node *n, void *ctx) {
    if (!kind_mask_has(n->mask, NK_WindowExpression)) return WALK_PRUNE;
    if (n->kind == NK_WindowExpression) {
        *(const Node **)ctx = n;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

static const Node *first_window(const Node *e) {
    const Node *w = NULL;
    node_walk(e, 0, find_window, &w);
    return w;
}

static bool check_node(Analysis *an, const Node *p, OuterScope *outer) {
    for (uint32_t i = 0; i < p->nkids; i++)
        if (!check_plan(an, p->kids[i], outer)) return false;
    /* ResolveGroupByAll.checkAnalysis: an ALL whose grouping could not be inferred */
    if (p->kind == NK_Aggregate && p->u.aggregate.ngroup == 1 && p->exprs[0]->kind == NK_UnresolvedAttribute &&
        p->exprs[0]->u.un.name.n == 1 && strcasecmp(p->exprs[0]->u.un.name.v[0], "all") == 0) {
        bool others = true;
        for (uint32_t i = 1; i < p->nexprs; i++) others = others && node_resolved(p->exprs[i]);
        if (others) return fail(an, error_make(an->arena, "UNRESOLVED_ALL_IN_GROUP_BY", p->exprs[0], NULL));
    }
    Check c = {an, plan_input(an, p), p};
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (!check_expr(&c, p->exprs[i])) return false;
    /* specialExpressionsInUnsupportedOperator: a window expression anywhere but a Window (a join condition) */
    if (p->kind == NK_Join) {
        for (uint32_t i = 0; i < p->nexprs; i++) {
            const Node *w = first_window(p->exprs[i]);
            if (w)
                return fail(an, error_make(an->arena, "UNSUPPORTED_EXPR_FOR_OPERATOR", p, "invalidExprSqls",
                                           expr_sql_quoted(an->arena, w), NULL));
        }
    }
    switch (p->kind) {
    case NK_UnresolvedRelation:
        return fail(an, error_make(an->arena, "TABLE_OR_VIEW_NOT_FOUND", p, "relationName",
                                   sql_id_parts(an->arena, p->u.un.name), NULL));
    case NK_Filter:
        if (!is_boolean(p->exprs[0]))
            return fail(an, error_make(an->arena, "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN", p->exprs[0], "sqlExpr",
                                       expr_sql_quoted(an->arena, p->exprs[0]), "filter",
                                       expr_sql_quoted(an->arena, p->exprs[0]), "type",
                                       sql_type_quoted(an->arena, p->exprs[0]->type), NULL));
        if (expr_has_kind(p->exprs[0], KIND_MASK(NK_AggregateExpression, NK_WindowExpression)))
            return fail(an, error_make(an->arena, "INVALID_WHERE_CONDITION", p->exprs[0], "condition",
                                       expr_sql_quoted(an->arena, p->exprs[0]), "expressionList",
                                       special_expressions_sql(an, p->exprs[0]), NULL));
        break;
    case NK_Join:
        if (p->nexprs && !is_boolean(p->exprs[0]))
            return fail(an, error_make(an->arena, "DATATYPE_MISMATCH.JOIN_CONDITION_IS_NOT_BOOLEAN_TYPE", p->exprs[0],
                                       "sqlExpr", expr_sql_quoted(an->arena, p->exprs[0]), NULL));
        break;
    case NK_Aggregate:
        if (!check_aggregate(an, p)) return false;
        break;
    case NK_GlobalLimit:
    case NK_LocalLimit:
    case NK_Offset:
    case NK_Tail:
        if (p->nexprs && !check_limit_like(an, p->kind == NK_Offset ? "offset" : p->kind == NK_Tail ? "tail" : "limit",
                                           p->exprs[0]))
            return false;
        break;
    default: break;
    }
    if (!node_resolved(p) || !plan_is_resolved(p)) {
        if (an_failed(an)) return false;
        return fail(an, error_make(an->arena, "INTERNAL_ERROR", p, "message",
                                   arena_printf(an->arena, "unresolved %s after analysis", node_kind_name(p->kind)),
                                   NULL));
    }
    return true;
}

typedef struct AggCheck {
    Analysis *an;
    const Node *agg;
    const Node *bad;
} AggCheck;

static bool is_grouping(const Node *agg, const Node *e) {
    for (uint32_t i = 0; i < agg->u.aggregate.ngroup; i++)
        if (expr_semantic_equal(agg->exprs[i], e)) return true;
    return false;
}

static WalkResult find_aggregate(const Node *n, void *ctx) {
    if (!kind_mask_has(n->mask, NK_AggregateExpression)) return WALK_PRUNE;
    if (n->kind == NK_AggregateExpression) {
        *(const Node **)ctx = n;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

/* Spark's checks of an aggregate function's arguments: no aggregate inside
 * (NESTED_AGGREGATE_FUNCTION, raised at the inner one) and nothing
 * nondeterministic. */
static bool valid_aggregate_args(AggCheck *c, const Node *ae) {
    Analysis *an = c->an;
    const Node *fn = ae->nkids ? ae->kids[0] : NULL;
    if (!fn) return true;
    for (uint32_t i = 0; i < fn->nkids; i++) {
        const Node *nested = NULL;
        node_walk(fn->kids[i], 0, find_aggregate, &nested);
        if (nested) {
            an_fail(an, error_make(an->arena, "NESTED_AGGREGATE_FUNCTION", nested, NULL));
            return false;
        }
        if (fn->kids[i]->flags & NF_NONDETERMINISTIC) {
            an_fail(an, error_make(an->arena, "AGGREGATE_FUNCTION_WITH_NONDETERMINISTIC_EXPRESSION", fn->kids[i],
                                   "sqlExpr", expr_sql_quoted(an->arena, ae), NULL));
            return false;
        }
    }
    return true;
}

/* Spark's checkValidAggregateExpression: every column outside aggregate
 * functions must be (part of) a grouping expression. */
static bool valid_agg_expr(AggCheck *c, const Node *e) {
    if (e->kind == NK_AggregateExpression) {
        if (!valid_aggregate_args(c, e)) {
            c->bad = NULL;
            return false;
        }
        return true;
    }
    if (e->kind == NK_WindowExpression) return true;
    if (is_grouping(c->agg, e)) return true;
    if (e->kind == NK_AttributeReference) {
        c->bad = e;
        return false;
    }
    if (e->kind == NK_ScalarSubquery && e->nkids) {
        /* a correlated scalar subquery must be grouped by (or aggregated) */
        an_fail(c->an, error_make(c->an->arena, "SCALAR_SUBQUERY_IS_IN_GROUP_BY_OR_AGGREGATE_FUNCTION", e, "sqlExpr",
                                  expr_sql_quoted(c->an->arena, e), NULL));
        c->bad = NULL;
        return false;
    }
    if (e->kind == NK_OuterReference || e->kind == NK_ScalarSubquery || e->kind == NK_Exists ||
        e->kind == NK_InSubquery || e->kind == NK_ListQuery)
        return true;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (!valid_agg_expr(c, e->kids[i])) return false;
    return true;
}

static bool check_aggregate(Analysis *an, const Node *p) {
    uint32_t ng = p->u.aggregate.ngroup;
    for (uint32_t i = 0; i < ng; i++)
        if (expr_has_kind(p->exprs[i], KIND_MASK(NK_AggregateExpression)))
            return fail(an, error_make(an->arena, "GROUP_BY_AGGREGATE", p->exprs[i], "sqlExpr",
                                       expr_sql(an->arena, p->exprs[i]), NULL)); /* expr.sql, unquoted */
    AggCheck c = {an, p, NULL};
    for (uint32_t i = ng; i < p->nexprs; i++) {
        const Node *e = p->exprs[i];
        const Node *inner = e->kind == NK_Alias ? e->kids[0] : e;
        if (!valid_agg_expr(&c, inner)) {
            if (!c.bad) return false; /* error recorded */
            if (ng == 0) {
                return fail(an, error_make(an->arena, "MISSING_GROUP_BY", c.bad, NULL));
            }
            return fail(an, error_make(an->arena, "MISSING_AGGREGATION", c.bad, "expression",
                                       expr_sql_quoted(an->arena, c.bad), "expressionAnyValue",
                                       arena_printf(an->arena, "\"any_value(%s)\"", c.bad->u.attr.name), NULL));
        }
    }
    return true;
}

/* Spark's LookupFunctions: an unknown function is reported before anything else. */
static WalkResult find_unknown_function(const Node *n, void *ctx) {
    Analysis *an = ctx;
    if (!kind_mask_has(n->mask, NK_UnresolvedFunction)) return WALK_PRUNE;
    if (n->kind == NK_UnresolvedFunction && !lookup_function(an, n) && !sql_function_lookup(an, n->u.un.name)) {
        an_fail(an, unresolved_routine(an, n));
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

bool check_analysis(Analysis *an, const Node *plan) {
    if (kind_mask_has(plan->mask, NK_UnresolvedFunction)) {
        node_walk(plan, WALK_EXPRS | WALK_SUBQUERIES, find_unknown_function, an);
        if (an_failed(an)) return false;
    }
    return check_plan(an, plan, NULL);
}
