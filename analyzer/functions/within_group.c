/* The functions that take WITHIN GROUP (ORDER BY ...): Spark's
 * SupportsOrderingWithinGroup (mode, percentile_cont, percentile_disc,
 * listagg / string_agg). FunctionResolution.validateFunction checks DISTINCT
 * and the ordering against what each function supports, then
 * withOrderingWithinGroup puts the ordering into the function's children:
 *
 *   mode() WITHIN GROUP (ORDER BY x)        Mode(x, reverseOpt = Some(true))
 *   mode() WITHIN GROUP (ORDER BY x DESC)   Mode(x, reverseOpt = Some(false))
 *   percentile_cont(p) WITHIN GROUP (ORDER BY x DESC)
 *                                           PercentileCont(x, p, reverse = true)
 *   listagg(a, d) WITHIN GROUP (ORDER BY b, c)
 *                                           ListAgg(a, d, [b ASC NULLS FIRST, c ASC NULLS FIRST])
 *
 * In a resolved call the ordering is kept as trailing SortOrder kids: for
 * Mode one SortOrder whose direction is reverseOpt (descending = reverse, as
 * ModeBuilder's mode(x, true) is Mode(x, Some(true)) and prints
 * `mode() WITHIN GROUP (ORDER BY x DESC)`), so an ascending WITHIN GROUP
 * becomes a descending SortOrder; for the percentiles one SortOrder after
 * the percentage (reverse = descending); for ListAgg the orderings as given.
 * print/print_call.c prints each as Spark's toString and sql do. */
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"
#include "print/printer.h"

typedef enum WgKind { WG_NONE, WG_MODE, WG_PERCENTILE, WG_LISTAGG } WgKind;

static WgKind wg_kind(const FuncDef *def) {
    if (fn_name_is(def->name, "mode")) return WG_MODE;
    if (fn_name_is(def->name, "percentile_cont") || fn_name_is(def->name, "percentile_disc")) return WG_PERCENTILE;
    if (fn_name_is(def->name, "listagg") || fn_name_is(def->name, "string_agg")) return WG_LISTAGG;
    return WG_NONE;
}

static Node *fail_orderings(Analysis *an, const Node *u, const char *fn, int expected, int actual) {
    Arena *a = an->arena;
    return an_fail(an, error_make(a, "INVALID_WITHIN_GROUP_EXPRESSION.WRONG_NUM_ORDERINGS", u, "funcName",
                                  sql_ident(a, fn), "expectedNum", arena_printf(a, "%d", expected), "actualNum",
                                  arena_printf(a, "%d", actual), NULL));
}

/* ModeBuilder.build for mode(col, deterministic): the flag must be a
 * constant, non-null boolean. */
static bool check_mode_builder(Analysis *an, const Node *u, Node *const *args, int nargs) {
    if (nargs != 2) return true;
    Arena *a = an->arena;
    const Node *d = args[1];
    if (!func_expr_foldable(d)) {
        an_fail(an, error_make(a, "NON_FOLDABLE_ARGUMENT", u, "funcName", sql_ident(a, "mode"), "paramName",
                               sql_ident(a, "deterministic"), "paramType", "\"BOOLEAN\"", NULL));
        return false;
    }
    const Node *v = d;
    while (v->kind == NK_Cast && v->nkids) v = v->kids[0];
    if (v->kind == NK_Literal && v->u.lit.v.is_null) {
        an_fail(an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_NULL", u, "exprName", sql_ident(a, "deterministic"),
                               "sqlExpr", expr_sql_quoted(a, d), NULL));
        return false;
    }
    if (!d->type || d->type->id != T_BOOLEAN) {
        an_fail(an, error_make(a, "UNEXPECTED_INPUT_TYPE", u, "functionName", sql_ident(a, "mode"), "paramIndex",
                               "second", "inputSql", expr_sql_quoted(a, d), "inputType",
                               sql_type_quoted(a, d->type ? d->type : &TYPE_NULL), "requiredType", "\"BOOLEAN\"",
                               NULL));
        return false;
    }
    return true;
}

int fn_within_group_prepare(Analysis *an, const Node *u, const FuncDef **defp, Node **args, int n, int nargs) {
    const FuncDef *def = *defp;
    WgKind k = wg_kind(def);
    int norder = (int)u->u.un.norder;
    if (k == WG_NONE) return n;
    Arena *a = an->arena;
    const char *fn = def->pname ? def->pname : def->name;
    bool distinct = (u->flags & NF_DISTINCT) != 0;
    if (k == WG_MODE && !check_mode_builder(an, u, args, nargs)) return -1;
    /* validateFunction: DISTINCT, a mandatory ordering, an ordering the builder already filled */
    if (distinct && k != WG_LISTAGG) {
        an_fail(an, error_make(a, "INVALID_WITHIN_GROUP_EXPRESSION.DISTINCT_UNSUPPORTED", u, "funcName",
                               sql_ident(a, fn), NULL));
        return -1;
    }
    bool filled = k == WG_MODE && nargs > 0;
    if (k != WG_LISTAGG && !filled && norder == 0) {
        an_fail(an, error_make(a, "INVALID_WITHIN_GROUP_EXPRESSION.WITHIN_GROUP_MISSING", u, "funcName",
                               sql_ident(a, fn), NULL));
        return -1;
    }
    if (filled && norder > 0) {
        fail_orderings(an, u, fn, 0, norder);
        return -1;
    }
    if (norder == 0) return n;
    /* withOrderingWithinGroup */
    if (k != WG_LISTAGG && norder != 1) {
        /* Mode names itself by its class (nodeName), the percentiles by prettyName */
        fail_orderings(an, u, k == WG_MODE ? "Mode" : fn, 1, norder);
        return -1;
    }
    /* the copy withOrderingWithinGroup makes drops the FUNC_ALIAS tag:
       string_agg(...) WITHIN GROUP prints as listagg */
    if (k == WG_LISTAGG && !fn_name_is(def->name, "listagg")) *defp = func_lookup_builtin("listagg");
    uint32_t first = u->u.un.nargs + ((u->flags & NF_HAS_FILTER) ? 1 : 0);
    for (int i = 0; i < norder && first + (uint32_t)i < u->nkids; i++) {
        Node *so = u->kids[first + (uint32_t)i];
        if (k == WG_MODE && so->kind == NK_SortOrder) {
            /* ASC → reverseOpt = Some(true), DESC → Some(false) */
            Node *c = node_copy(a, so);
            c->u.sort_order.descending = !so->u.sort_order.descending;
            so = node_finish(c);
        }
        args[n++] = so;
    }
    return n;
}

/* CheckAnalysis: listagg(DISTINCT a) WITHIN GROUP (ORDER BY b) needs the
 * ordering to be the argument itself (ListAgg.needSaveOrderValue). */
bool fn_within_group_check_distinct(Analysis *an, const Node *u, const Node *call) {
    if (!(u->flags & NF_DISTINCT) || call->kind != NK_Call || !call->u.call.def ||
        wg_kind(call->u.call.def) != WG_LISTAGG || call->nkids < 3)
        return true;
    uint32_t no = call->nkids - 2;
    const Node *child = call->kids[0];
    if (no == 1 && call->kids[2]->nkids && !strcmp(expr_to_string(an->arena, call->kids[2]->kids[0]), expr_to_string(an->arena, child))) return true;
    Arena *a = an->arena;
    StrBuf sb;
    sb_init(&sb, a, 32);
    for (uint32_t i = 2; i < call->nkids; i++) {
        const Node *so = call->kids[i];
        if (i > 2) sb_puts(&sb, ", ");
        sb_puts(&sb, expr_sql_quoted(a, so->kind == NK_SortOrder && so->nkids ? so->kids[0] : so));
    }
    an_fail(an, error_make(a, "INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT", u, "funcName",
                           sql_ident(a, func_name(call->u.call.def)), "funcArg", expr_sql_quoted(a, child),
                           "orderingExpr", sb_str(&sb), NULL));
    return false;
}
