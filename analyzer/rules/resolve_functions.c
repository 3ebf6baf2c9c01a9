/* ResolveFunctions — Spark's Analyzer.ResolveFunctions and LookupFunctions,
 * with the typing of the type-coercion batch folded in: a function call is
 * looked up as soon as it is seen (UNRESOLVED_ROUTINE at once, as
 * LookupFunctions does) and, once its arguments are resolved, typed by the
 * function library (functions/), which inserts Spark's implicit casts. Other
 * computed expressions (CAST, CASE, IN, field access) are typed the same way.
 *
 *   'Project [unresolvedalias('sum('b))]      'Project [unresolvedalias(sum(b#2))]
 *   +- Relation t[a#1,b#2]               =>   +- Relation t[a#1,b#2]
 */
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "catalog/catalog.h"
#include "catalog/conf.h"
#include "functions/functions.h"
#include "rules/lib/function_lookup.h"
#include "core/walk.h"

static bool args_resolved(const Node *f) {
    for (uint32_t i = 0; i < f->nkids; i++) {
        const Node *k = f->kids[i];
        if (k->kind == NK_UnresolvedStar) continue; /* count(*) */
        if (k->kind == NK_LambdaFunction) continue; /* typed with the call */
        if (!node_resolved(k)) return false;
    }
    return true;
}

static Node *resolve_expr(Node *e, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an)) return e;
    switch (e->kind) {
    case NK_UnresolvedFunction: {
        /* unknown names are reported by CheckAnalysis (before anything else, as
           Spark's LookupFunctions does), so a call is looked up once, when its
           arguments are ready */
        if (!args_resolved(e)) return e;
        const FuncDef *def = lookup_function(an, e);
        if (!def) {
            return an_fail(an, unresolved_routine(an, e));
        }
        Node *r = func_resolve_call(an, e, def);
        return r ? r : e;
    }
    case NK_Cast:
        if (e->flags & NF_PENDING) {
            /* a user's CAST: checked (CAST_* / DATATYPE_MISMATCH) once its child is typed */
            if (!node_resolved(e->kids[0])) return e;
            Node *r = expr_resolve_typed(an, e);
            if (!r) return e;
            Node *c = node_copy(an->arena, r);
            c->flags &= ~(uint32_t)NF_PENDING;
            c->u.cast.ansi = an->conf->ansi;
            return node_finish(c);
        }
        /* fall through */
    case NK_CaseWhen:
    case NK_In:
    case NK_UnresolvedExtractValue:
    case NK_SortOrder:
    case NK_WindowExpression:
    case NK_WindowSpecDefinition:
    case NK_SpecifiedWindowFrame:
    case NK_FrameBoundary:
    case NK_ExprList:
    case NK_NamedArgument: {
        if (e->type) return e;
        for (uint32_t i = 0; i < e->nkids; i++)
            if (!node_resolved(e->kids[i])) return e;
        Node *r = expr_resolve_typed(an, e);
        return r ? r : e;
    }
    default: return e;
    }
}

static Node *resolve_plan_exprs(Node *p, void *ctx) {
    Analysis *an = ctx;
    KindMask want = KIND_MASK(NK_UnresolvedFunction, NK_Cast, NK_CaseWhen, NK_In, NK_UnresolvedExtractValue,
                              NK_SortOrder, NK_WindowExpression, NK_WindowSpecDefinition, NK_SpecifiedWindowFrame,
                              NK_FrameBoundary, NK_ExprList, NK_NamedArgument);
    return transform(an->arena, p, TX_NODE_EXPRS | TX_SKIP_RESOLVED, want, resolve_expr, an);
}

static Node *apply(Analysis *an, Node *plan) {
    KindMask want = KIND_MASK(NK_UnresolvedFunction, NK_Cast, NK_CaseWhen, NK_In, NK_UnresolvedExtractValue,
                              NK_SortOrder, NK_WindowExpression, NK_WindowSpecDefinition, NK_SpecifiedWindowFrame,
                              NK_FrameBoundary, NK_ExprList, NK_NamedArgument);
    return transform(an->arena, plan, TX_SKIP_RESOLVED, want, resolve_plan_exprs, an);
}

const Rule RULE_RESOLVE_FUNCTIONS = {
    .name = "ResolveFunctions",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveFunctions",
    .kinds = {NK_UnresolvedFunction, NK_Cast, NK_CaseWhen, NK_In, NK_UnresolvedExtractValue, NK_SortOrder,
              NK_WindowExpression, NK_ExprList},
    .nkinds = 8,
    .apply = apply,
};
