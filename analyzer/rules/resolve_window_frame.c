/* ResolveWindowFrame — Spark's Analyzer.ResolveWindowFrame, with the checks
 * Spark makes on window specs (SpecifiedWindowFrame / WindowSpecDefinition
 * checkInputDataTypes, WindowFrameCoercion, the window-expression cases of
 * CheckAnalysis): once a window expression's function and spec are resolved,
 * an unspecified frame becomes the function's own frame (row_number, rank,
 * ntile: ROWS UNBOUNDED PRECEDING..CURRENT ROW; cume_dist: RANGE ...; lag and
 * lead: ROWS BETWEEN offset FOLLOWING AND offset FOLLOWING) or the default
 * (RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with an ORDER BY, ROWS
 * BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING without). Only then is
 * the spec typed (its NF_PENDING cleared), so the expression's auto-generated
 * name shows the frame.
 *
 *   sum(b#2) windowspecdefinition(a#1 ASC NULLS FIRST, unspecifiedframe$())
 *     =>  sum(b#2) windowspecdefinition(a#1 ASC NULLS FIRST,
 *             specifiedwindowframe(RangeFrame, unboundedpreceding$(), currentrow$()))
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "catalog/conf.h"
#include "rules.h"
#include "core/func_sig.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/semantic_equal.h"
#include "core/walk.h"

/* memcpy that accepts an empty (possibly NULL) source */
#define MEMCPY(d, s, n) \
    do { \
        if ((n) != 0) mem_copy((d), (s), (n)); \
    } while (0)

static Node *boundary(Analysis *an, FrameBoundType t) {
    Node *b = node_new(an->arena, NK_FrameBoundary, -1, -1);
    b->u.bound.type = t;
    b->type = &TYPE_NULL;
    return node_finish(b);
}

static Node *typed_boundary(Analysis *an, Node *b) {
    if (b->kind != NK_FrameBoundary || b->type) return b;
    Node *c = node_copy(an->arena, b);
    c->type = &TYPE_NULL;
    return node_finish(c);
}

static Node *frame_node(Analysis *an, FrameType t, Node *lo, Node *hi, const Node *pos) {
    Node *f = node_new(an->arena, NK_SpecifiedWindowFrame, pos ? pos->start : -1, pos ? pos->stop : -1);
    f->u.frame.type = t;
    f->type = &TYPE_NULL;
    Node *k[2] = {typed_boundary(an, lo), typed_boundary(an, hi)};
    node_set_kids(an->arena, f, k, 2);
    return node_finish(f);
}

static bool is_special(const Node *b) { return b->kind == NK_FrameBoundary; }
static bool is_bound(const Node *b, FrameBoundType t) { return b->kind == NK_FrameBoundary && b->u.bound.type == t; }

static bool frames_equal(const Node *a, const Node *b) {
    if (a->u.frame.type != b->u.frame.type) return false;
    for (int i = 0; i < 2; i++) {
        const Node *x = a->kids[i], *y = b->kids[i];
        if (is_special(x) || is_special(y)) {
            if (!is_special(x) || !is_special(y) || x->u.bound.type != y->u.bound.type) return false;
        } else if (!expr_semantic_equal(x, y)) return false;
    }
    return true;
}

static bool is_negation(const Node *e) {
    return e->kind == NK_Call && e->nkids == 1 && e->u.call.name &&
           (!strcmp(e->u.call.name, "-") || !strcasecmp(e->u.call.name, "negative"));
}
static bool is_positive(const Node *e) {
    return e->kind == NK_Call && e->nkids == 1 && e->u.call.name &&
           (!strcmp(e->u.call.name, "+") || !strcasecmp(e->u.call.name, "positive"));
}

/* The value of a constant numeric or interval bound (for the lower <= upper
 * check and lag's offset); false when it is not a simple constant. */
static bool const_value(const Node *e, double *out) {
    if (e->kind == NK_Literal) {
        const Value *v = &e->u.lit.v;
        if (v->is_null) return false;
        switch (v->type->id) {
        case T_BYTE:
        case T_SHORT:
        case T_INT:
        case T_LONG:
        case T_YM_INTERVAL: *out = (double)v->u.i; return true;
        case T_FLOAT:
        case T_DOUBLE: *out = v->u.d; return true;
        case T_DECIMAL: *out = (double)v->u.dec / pow(10.0, v->type->scale); return true;
        case T_DT_INTERVAL: *out = (double)v->u.iv.micros; return true;
        case T_CALENDAR_INTERVAL:
            *out = ((double)v->u.iv.months * 31.0 + v->u.iv.days) * 86400e6 + (double)v->u.iv.micros;
            return true;
        default: return false;
        }
    }
    if (e->kind == NK_Cast && e->nkids == 1) return const_value(e->kids[0], out);
    if (is_negation(e)) {
        if (!const_value(e->kids[0], out)) return false;
        *out = -*out;
        return true;
    }
    if (is_positive(e)) return const_value(e->kids[0], out);
    return false;
}

static bool is_foldable(const Node *e) {
    switch (e->kind) {
    case NK_Literal: return true;
    case NK_Cast: return e->nkids == 1 && is_foldable(e->kids[0]);
    case NK_Call:
        if (!e->u.call.def || func_kind(e->u.call.def) != FK_SCALAR || (e->flags & NF_NONDETERMINISTIC) || !e->nkids)
            return false;
        for (uint32_t i = 0; i < e->nkids; i++)
            if (!is_foldable(e->kids[i])) return false;
        return true;
    default: return false;
    }
}

static Node *mk_int_literal(Analysis *an, int64_t v) {
    Node *l = node_new(an->arena, NK_Literal, -1, -1);
    l->type = &TYPE_INT;
    l->u.lit.v.type = &TYPE_INT;
    l->u.lit.v.u.i = v;
    return node_finish(l);
}

typedef enum WinFn { WF_NONE, WF_ROWS_RUNNING, WF_RANGE_RUNNING, WF_LAG, WF_LEAD, WF_OTHER } WinFn;

static WinFn window_fn(const Node *f) {
    if (f->kind != NK_Call || !f->u.call.def || func_kind(f->u.call.def) != FK_WINDOW) return WF_NONE;
    const char *n = func_name(f->u.call.def);
    if (!strcasecmp(n, "row_number") || !strcasecmp(n, "rank") || !strcasecmp(n, "dense_rank") ||
        !strcasecmp(n, "percent_rank") || !strcasecmp(n, "ntile"))
        return WF_ROWS_RUNNING;
    if (!strcasecmp(n, "cume_dist")) return WF_RANGE_RUNNING;
    if (!strcasecmp(n, "lag")) return WF_LAG;
    if (!strcasecmp(n, "lead")) return WF_LEAD;
    return WF_OTHER;
}

/* The frame a window function imposes (Spark's WindowFunction.frame), or NULL. */
static Node *required_frame(Analysis *an, const Node *f, WinFn k) {
    switch (k) {
    case WF_ROWS_RUNNING:
        return frame_node(an, FRAME_ROWS, boundary(an, BOUND_UNBOUNDED_PRECEDING), boundary(an, BOUND_CURRENT_ROW), NULL);
    case WF_RANGE_RUNNING:
        return frame_node(an, FRAME_RANGE, boundary(an, BOUND_UNBOUNDED_PRECEDING), boundary(an, BOUND_CURRENT_ROW), NULL);
    case WF_LAG:
    case WF_LEAD: {
        Node *off = f->nkids > 1 ? f->kids[1] : NULL;
        double v = 1;
        Node *b;
        if (!off || const_value(off, &v)) b = mk_int_literal(an, (int64_t)(k == WF_LAG ? -v : v));
        else b = off;
        return frame_node(an, FRAME_ROWS, b, b, NULL);
    }
    default: return NULL;
    }
}

static bool check_bound(Analysis *an, const Node *frame, const Node *b, const char *location) {
    if (is_special(b)) return true;
    if (!is_foldable(b)) {
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WITHOUT_FOLDABLE", b, "sqlExpr",
                               expr_sql_quoted(an->arena, frame), "location", location, "expression",
                               expr_sql_quoted(an->arena, b), NULL));
        return false;
    }
    bool rows = frame->u.frame.type == FRAME_ROWS;
    bool ok = rows ? b->type->id == T_INT : (type_is_numeric(b->type) || type_is_interval(b->type));
    if (!ok) {
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE", b, "sqlExpr",
                               expr_sql_quoted(an->arena, frame), "location", location, "exprType",
                               sql_type_quoted(an->arena, b->type), "expectedType",
                               rows ? "\"INT\""
                                    : "(\"NUMERIC\" or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\" or "
                                      "\"INTERVAL\")",
                               NULL));
        return false;
    }
    return true;
}

/* SpecifiedWindowFrame.checkInputDataTypes */
static bool check_frame(Analysis *an, const Node *frame) {
    const Node *lo = frame->kids[0], *hi = frame->kids[1];
    if (!check_bound(an, frame, lo, "lower") || !check_bound(an, frame, hi, "upper")) return false;
    const char *sql = expr_sql_quoted(an->arena, frame);
    if (is_bound(lo, BOUND_UNBOUNDED_FOLLOWING) || is_bound(hi, BOUND_UNBOUNDED_PRECEDING)) {
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_INVALID_BOUND", frame, "sqlExpr",
                               sql, "upper", expr_sql_quoted(an->arena, hi), "lower", expr_sql_quoted(an->arena, lo),
                               NULL));
        return false;
    }
    if (is_special(lo) || is_special(hi)) return true;
    if (!type_equal(lo->type, hi->type)) {
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_DIFF_TYPES", frame, "sqlExpr", sql,
                               "lower", expr_sql_quoted(an->arena, lo), "upper", expr_sql_quoted(an->arena, hi),
                               "lowerType", sql_type_quoted(an->arena, lo->type), "upperType",
                               sql_type_quoted(an->arena, hi->type), NULL));
        return false;
    }
    double l, u;
    if (const_value(lo, &l) && const_value(hi, &u) && l > u) {
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON", frame, "sqlExpr",
                               sql, "comparison", "less than or equal", NULL));
        return false;
    }
    return true;
}

static bool valid_range_type(const DataType *order, const DataType *b) {
    switch (order->id) {
    case T_DATE:
        return b->id == T_INT || b->id == T_YM_INTERVAL ||
               (b->id == T_DT_INTERVAL && b->start_field == IF_DAY && b->end_field == IF_DAY);
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ: return type_is_interval(b);
    default: return type_equal(order, b);
    }
}

/* WindowSpecDefinition.checkInputDataTypes; spec is the finished spec. */
static bool check_spec(Analysis *an, const Node *spec, const Node *frame) {
    uint32_t np = spec->u.wspec.npartition, no = spec->u.wspec.norder;
    if (frame->u.frame.type != FRAME_RANGE) return true;
    const Node *lo = frame->kids[0], *hi = frame->kids[1];
    bool unbounded = is_bound(lo, BOUND_UNBOUNDED_PRECEDING) && is_bound(hi, BOUND_UNBOUNDED_FOLLOWING);
    const Node *value = !is_special(lo) ? lo : !is_special(hi) ? hi : NULL;
    if (!unbounded && no == 0) {
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.RANGE_FRAME_WITHOUT_ORDER", spec, "sqlExpr",
                               expr_sql_quoted(an->arena, spec), NULL));
        return false;
    }
    if (value && no > 1) {
        StrBuf sb;
        sb_init(&sb, an->arena, 64);
        for (uint32_t i = 0; i < no; i++) {
            if (i) sb_putc(&sb, ',');
            expr_print(&sb, spec->kids[np + i]);
        }
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER", spec, "sqlExpr",
                               expr_sql_quoted(an->arena, spec), "orderSpec", sb_str(&sb), NULL));
        return false;
    }
    if (value && no == 1 && !valid_range_type(spec->kids[np]->type, value->type)) {
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.RANGE_FRAME_INVALID_TYPE", spec, "sqlExpr",
                               expr_sql_quoted(an->arena, spec), "orderSpecType",
                               sql_type_quoted(an->arena, spec->kids[np]->type), "valueBoundaryType",
                               sql_type_quoted(an->arena, value->type), NULL));
        return false;
    }
    return true;
}

/* WindowFrameCoercion: value bounds of a RANGE frame take the order type
 * where the mode's cast allows it (AnsiTypeCoercion: canAnsiCast). */
static Node *coerce_frame(Analysis *an, Node *frame, const Node *spec) {
    if (frame->u.frame.type != FRAME_RANGE || spec->u.wspec.norder != 1) return frame;
    const DataType *t = spec->kids[spec->u.wspec.npartition]->type;
    if (!t || t->id == T_DATE || t->id == T_TIMESTAMP) return frame;
    Node *k[2];
    bool changed = false;
    for (int i = 0; i < 2; i++) {
        k[i] = frame->kids[i];
        if (!is_special(k[i]) && !type_equal(k[i]->type, t) && can_cast(k[i]->type, t, an->conf->ansi)) {
            k[i] = make_cast(an, k[i], t);
            changed = true;
        }
    }
    return changed ? node_with_kids(an->arena, frame, k, 2) : frame;
}

/* NTile / NthValue checkInputDataTypes: a constant, positive bucket count or offset. */
static bool check_arguments(Analysis *an, const Node *f) {
    if (f->kind != NK_Call || !f->u.call.def || func_kind(f->u.call.def) != FK_WINDOW) return true;
    const char *n = func_name(f->u.call.def);
    bool ntile = !strcasecmp(n, "ntile"), nth = !strcasecmp(n, "nth_value");
    if ((!ntile && !nth) || f->nkids < (ntile ? 1u : 2u)) return true;
    const Node *arg = f->kids[ntile ? 0 : 1];
    const char *input = ntile ? "`buckets`" : "`offset`";
    if (!is_foldable(arg)) {
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", f, "sqlExpr",
                               expr_sql_quoted(an->arena, f), "inputName", input, "inputType",
                               sql_type_quoted(an->arena, arg->type), "inputExpr", expr_sql_quoted(an->arena, arg), NULL));
        return false;
    }
    double v;
    const Node *lit = arg;
    while (lit->kind == NK_Cast && lit->nkids == 1) lit = lit->kids[0];
    bool null_arg = lit->kind == NK_Literal && lit->u.lit.v.is_null;
    if (null_arg && ntile) v = 0; /* NTile evaluates a NULL bucket count as 0 */
    if ((null_arg && ntile) || (const_value(arg, &v) && v <= 0)) {
        an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE", f, "sqlExpr",
                               expr_sql_quoted(an->arena, f), "exprName", ntile ? "buckets" : "offset", /* unquoted, as Spark */
                               "valueRange",
                               ntile ? "(0, 2147483647]" : "(0, 9223372036854775807]", "currentValue",
                               arena_printf(an->arena, ntile ? "%lld" : "%lldL", (long long)v), NULL));
        return false;
    }
    return true;
}

/* RowOrdering.isOrderable: what a PARTITION BY can hash-and-sort on. */
static bool orderable(const DataType *t) {
    switch (t->id) {
    case T_MAP:
    case T_VARIANT:
    case T_CALENDAR_INTERVAL: return false;
    case T_ARRAY: return orderable(t->elem);
    case T_STRUCT:
        for (int i = 0; i < t->nfields; i++)
            if (!orderable(t->fields[i].type)) return false;
        return true;
    default: return true;
    }
}

/* CheckAnalysis on window expressions and Window operators. */
static bool check_window(Analysis *an, const Node *f, const Node *spec, const Node *frame) {
    uint32_t np = spec->u.wspec.npartition, no = spec->u.wspec.norder;
    if (f->kind == NK_AggregateExpression && f->nkids && f->kids[0]->kind == NK_Call && f->kids[0]->u.call.def) {
        const char *n = func_name(f->kids[0]->u.call.def);
        bool whole = frame->u.frame.type == FRAME_ROWS && is_bound(frame->kids[0], BOUND_UNBOUNDED_PRECEDING) &&
                     is_bound(frame->kids[1], BOUND_UNBOUNDED_FOLLOWING);
        /* listagg(...) WITHIN GROUP (ORDER BY ...) has its own order */
        bool ordered_listagg = false;
        if (!strcasecmp(n, "listagg") || !strcasecmp(n, "string_agg"))
            for (uint32_t i = 0; i < f->kids[0]->nkids; i++)
                if (f->kids[0]->kids[i]->kind == NK_SortOrder) ordered_listagg = true;
        if ((ordered_listagg || !strcasecmp(n, "percentile_cont") || !strcasecmp(n, "percentile_disc") ||
             !strcasecmp(n, "median")) &&
            (no || !whole)) {
            an_fail(an, error_make(an->arena, "INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC", f, "aggFunc",
                                   expr_sql_quoted(an->arena, f->kids[0]), NULL));
            return false;
        }
    }
    for (uint32_t i = 0; i < np; i++) {
        const Node *p = spec->kids[i];
        if (p->type && !orderable(p->type)) {
            an_fail(an, error_make(an->arena, "EXPRESSION_TYPE_IS_NOT_ORDERABLE", p, "expr",
                                   expr_sql_quoted(an->arena, p), "exprType", sql_type_quoted(an->arena, p->type),
                                   NULL));
            return false;
        }
    }
    return true;
}

static Node *frame_expr(Node *e, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || e->kind != NK_WindowExpression || e->nkids < 2) return e;
    Node *f = e->kids[0], *spec = e->kids[1];
    if (spec->kind != NK_WindowSpecDefinition || spec->type || !node_resolved(f)) return e;
    uint32_t np = spec->u.wspec.npartition, no = spec->u.wspec.norder;
    bool has_frame = spec->u.wspec.has_frame && spec->nkids > np + no;
    for (uint32_t i = 0; i < np + no; i++)
        if (!node_resolved(spec->kids[i])) return e;
    Node *user = has_frame ? spec->kids[np + no] : NULL;
    if (user)
        for (int i = 0; i < 2; i++)
            if (!is_special(user->kids[i]) && !node_resolved(user->kids[i])) return e;

    /* what may be windowed (CheckAnalysis) */
    WinFn k = window_fn(f);
    if (f->kind == NK_AggregateExpression) {
        if (f->flags & NF_HAS_FILTER) return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1030", f, NULL));
        if (f->flags & NF_DISTINCT)
            return an_fail(an, error_make(an->arena, "DISTINCT_WINDOW_FUNCTION_UNSUPPORTED", e, "windowExpr",
                                          expr_sql_quoted(an->arena, e), NULL));
    } else if (k == WF_NONE) {
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_EXPR_FOR_WINDOW", f, "sqlExpr",
                                      expr_sql_quoted(an->arena, f), NULL));
    }
    if (k != WF_NONE && no == 0)
        return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1037", f, "wf", expr_to_string(an->arena, f), NULL));

    if (!check_arguments(an, f)) return e;
    Node *req = required_frame(an, f, k);
    if (k == WF_LAG && f->nkids > 1 && req->kids[0]->kind == NK_Literal) {
        /* Spark's Lag holds the negated, folded offset: lag(v#1, -1, null) */
        f = node_with_kid(an->arena, f, 1, req->kids[0]);
    }
    Node *frame;
    if (user) {
        Node *typed = frame_node(an, user->u.frame.type, user->kids[0], user->kids[1], user);
        if (req && !frames_equal(req, typed)) {
            if (k == WF_LAG || k == WF_LEAD)
                return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1035", user, "prettyName",
                                              func_name(f->u.call.def), NULL));
            return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1036", user, "wf",
                                          expr_to_string(an->arena, typed), "required",
                                          expr_to_string(an->arena, req), NULL));
        }
        frame = typed;
    } else if (req) {
        frame = req;
    } else if (no) {
        frame = frame_node(an, FRAME_RANGE, boundary(an, BOUND_UNBOUNDED_PRECEDING), boundary(an, BOUND_CURRENT_ROW),
                           NULL);
    } else {
        frame = frame_node(an, FRAME_ROWS, boundary(an, BOUND_UNBOUNDED_PRECEDING),
                           boundary(an, BOUND_UNBOUNDED_FOLLOWING), NULL);
    }
    frame = coerce_frame(an, frame, spec);
    if (!check_frame(an, frame)) return e;

    Node **kids = ARENA_ARRAY(an->arena, Node *, np + no + 1);
    MEMCPY(kids, spec->kids, sizeof(Node *) * (np + no));
    kids[np + no] = frame;
    Node *ns = node_copy(an->arena, spec);
    ns->flags &= ~(uint32_t)NF_PENDING;
    ns->u.wspec.has_frame = true;
    ns->type = &TYPE_NULL;
    node_set_kids(an->arena, ns, kids, np + no + 1);
    ns = node_finish(ns);
    if (!check_spec(an, ns, frame) || !check_window(an, f, ns, frame)) return e;

    Node *we = node_copy(an->arena, e);
    Node *wk[2] = {f, ns};
    node_set_kids(an->arena, we, wk, 2);
    we->type = f->type;
    we->flags = (we->flags & ~(uint32_t)NF_NULLABLE) | (f->flags & NF_NULLABLE);
    return node_finish(we);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || !p->nexprs) return p;
    return transform(an->arena, p, TX_NODE_EXPRS, KIND_MASK(NK_WindowExpression), frame_expr, an);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_WindowExpression), rewrite, an);
}

const Rule RULE_RESOLVE_WINDOW_FRAME = {
    .name = "ResolveWindowFrame",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveWindowFrame",
    .kinds = {NK_WindowExpression},
    .nkinds = 1,
    .apply = apply,
};
