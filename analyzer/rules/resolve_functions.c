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
#include "core/strbuf.h"
#include "rules/lib/function_lookup.h"
#include "rules/lib/sql_function.h"
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

/* A call of a SQL function: SQLFunctionExpression(name, function, inputs),
 * typed by the declared return type; ResolveSQLFunctions inlines it once the
 * operator is resolved. Spark's makeSQLFunctionPlan checks the count. */
static Node *sql_function_call(Analysis *an, Node *e, const SqlFunction *f) {
    uint32_t nargs = e->u.un.nargs;
    int required = 0;
    for (int i = 0; i < f->nparams; i++)
        if (!f->param_defaults || !f->param_defaults[i]) required = i + 1;
    if ((int)nargs > f->nparams || (int)nargs < required || (int)nargs < f->nparams) {
        const char *name = sql_function_name(an, f);
        StrBuf sb;
        sb_init(&sb, an->arena, 32);
        for (const char *p = name, *dot; p; p = dot ? dot + 1 : NULL) {
            dot = strchr(p, '.');
            if (p != name) sb_putc(&sb, '.');
            sb_putc(&sb, '`');
            sb_putn(&sb, p, dot ? (size_t)(dot - p) : strlen(p));
            sb_putc(&sb, '`');
        }
        return an_fail(an, error_make(an->arena, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", e, "functionName", sb_str(&sb),
                                      "expectedNum", arena_printf(an->arena, "%d", f->nparams), "actualNum",
                                      arena_printf(an->arena, "%u", nargs), "docroot",
                                      "https://spark.apache.org/docs/latest", NULL));
    }
    Node *r = node_new(an->arena, NK_SQLFunctionExpression, e->start, e->stop);
    r->u.sqlfn.fn = f;
    r->u.sqlfn.name = sql_function_name(an, f);
    node_set_kids(an->arena, r, e->kids, nargs);
    r->type = f->ret_type;
    r->flags |= NF_NULLABLE;
    return node_finish(r);
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
        if (!def && !e->u.un.is_operator) {
            const SqlFunction *sf = sql_function_lookup(an, e->u.un.name);
            if (sf) return sql_function_call(an, e, sf);
        }
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

/* An operator call (a > 0, a + 1), a CAST, CASE or IN whose arguments are
 * resolved: Spark builds these as expressions of their own, resolved the
 * moment their children are, so the operator that holds them is resolved in
 * the same pass. (A function call waits for ResolveFunctions, as in Spark.) */
static Node *resolve_operator(Node *e, void *ctx) {
    bool direct = e->kind == NK_Cast || e->kind == NK_CaseWhen || e->kind == NK_In;
    if (!direct && (e->kind != NK_UnresolvedFunction || !e->u.un.is_operator)) return e;
    return resolve_expr(e, ctx);
}

Node *resolve_operator_calls(Analysis *an, Node *p) {
    if (an_failed(an)) return p;
    return transform(an->arena, p, TX_NODE_EXPRS | TX_SKIP_RESOLVED,
                     KIND_MASK(NK_UnresolvedFunction, NK_Cast, NK_CaseWhen, NK_In), resolve_operator, an);
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
