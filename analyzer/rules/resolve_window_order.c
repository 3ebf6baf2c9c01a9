/* ResolveWindowOrder — Spark's Analyzer.ResolveWindowOrder: a window function
 * (rank, row_number, lag, ...) needs an ordered window
 * (_LEGACY_ERROR_TEMP_1037), and the rank-like functions (rank, dense_rank,
 * percent_rank) take the window's order expressions as their children.
 * A window function outside OVER is WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE (a
 * CheckAnalysis case in Spark, raised here once the expression is resolved).
 *
 *   rank() windowspecdefinition(p#1, o#2 ASC NULLS FIRST, ...)
 *     =>  rank(o#2) windowspecdefinition(p#1, o#2 ASC NULLS FIRST, ...)
 */
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "core/func_sig.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "core/walk.h"

static bool is_rank_like(const char *name) {
    return !strcasecmp(name, "rank") || !strcasecmp(name, "dense_rank") || !strcasecmp(name, "percent_rank");
}

static Node *order_expr(Node *e, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || e->kind != NK_WindowExpression || e->nkids < 2) return e;
    Node *f = e->kids[0], *spec = e->kids[1];
    if (f->kind != NK_Call || !f->u.call.def || func_kind(f->u.call.def) != FK_WINDOW || !node_resolved(f)) return e;
    if (spec->kind != NK_WindowSpecDefinition) return e;
    uint32_t np = spec->u.wspec.npartition, no = spec->u.wspec.norder;
    if (no == 0)
        return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1037", f, "wf", expr_to_string(an->arena, f), NULL));
    if (!is_rank_like(func_name(f->u.call.def))) return e;
    Node **kids = ARENA_ARRAY(an->arena, Node *, no);
    bool same = f->nkids == no;
    for (uint32_t i = 0; i < no; i++) {
        Node *so = spec->kids[np + i];
        if (!node_resolved(so) || !so->nkids) return e;
        kids[i] = so->kids[0];
        if (same && f->kids[i] != kids[i]) same = false;
    }
    if (same) return e;
    Node *nf = node_copy(an->arena, f);
    node_set_kids(an->arena, nf, kids, no);
    nf = node_finish(nf);
    return node_with_kid(an->arena, e, 0, nf);
}

static bool is_window_fn(const Node *e) {
    return e->kind == NK_Call && e->u.call.def && func_kind(e->u.call.def) == FK_WINDOW && node_resolved(e);
}

/* CheckAnalysis: a window function used as the argument of anything but a
 * window expression (`SELECT row_number() FROM t`). */
static bool check_over(Analysis *an, const Node *e) {
    if (!(e->flags & NF_WINDOW_FN_CALL)) return true; /* no window function below (tree pattern) */
    if (e->kind == NK_ScalarSubquery || e->kind == NK_Exists || e->kind == NK_InSubquery || e->kind == NK_ListQuery ||
        e->kind == NK_LateralSubquery)
        return true;
    for (uint32_t i = 0; i < e->nkids; i++) {
        const Node *k = e->kids[i];
        if (is_window_fn(k) && e->kind != NK_WindowExpression && node_resolved(e)) {
            an_fail(an, error_make(an->arena, "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE", e, "funcName",
                                   expr_sql_quoted(an->arena, k), NULL));
            return false;
        }
        if (!check_over(an, k)) return false;
    }
    return true;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || !p->nexprs) return p;
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (kind_mask_has(p->exprs[i]->mask, NK_Call) && !check_over(an, p->exprs[i])) return p;
    if (!kind_mask_has(p->mask, NK_WindowExpression)) return p;
    return transform(an->arena, p, TX_NODE_EXPRS, KIND_MASK(NK_WindowExpression), order_expr, an);
}

static Node *apply(Analysis *an, Node *plan) {
    /* both checks need a window function or a window expression somewhere */
    if (!(plan->flags & NF_WINDOW_FN_CALL) && !kind_mask_has(plan->mask, NK_WindowExpression)) return plan;
    return transform(an->arena, plan, 0, KIND_MASK(NK_WindowExpression, NK_Call), rewrite, an);
}

const Rule RULE_RESOLVE_WINDOW_ORDER = {
    .name = "ResolveWindowOrder",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveWindowOrder",
    .kinds = {NK_WindowExpression, NK_Call},
    .nkinds = 2,
    .apply = apply,
};
