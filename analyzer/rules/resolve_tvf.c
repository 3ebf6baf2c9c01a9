/* ResolveTableValuedFunctions — Spark's ResolveTableValuedFunctions for the
 * built-in `range`: range(end), range(start, end[, step[, numSlices]]) with
 * constant integral arguments becomes a Range with one bigint column `id`.
 *
 *   'UnresolvedTableValuedFunction [range], [10]    =>    Range (0, 10, step=1)
 */
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "core/func_sig.h"
#include "core/output.h"
#include "eval/consteval.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "core/walk.h"
#include "rules/lib/builders.h"

static bool const_long(Analysis *an, const Node *e, int64_t *out) {
    if (e->kind == NK_Literal && !e->u.lit.v.is_null && type_is_integral(e->type)) {
        *out = e->u.lit.v.u.i;
        return true;
    }
    if (e->kind == NK_Call && e->nkids == 1 && e->kids[0]->kind == NK_Literal && type_is_integral(e->type) &&
        e->u.call.name && e->u.call.name[0] == '-') {
        int64_t v;
        if (!const_long(an, e->kids[0], &v)) return false;
        *out = -v;
        return true;
    }
    if (e->kind == NK_Cast && e->nkids == 1 && const_long(an, e->kids[0], out)) return true;
    /* any other foldable integral expression (a session variable, 2 * 5): its value */
    Value v;
    if (type_is_integral(e->type) && expr_is_constant(e) && const_eval(an, e, &v) && !v.is_null) {
        *out = v.u.i;
        return true;
    }
    /* Range.toLong: a decimal or floating-point constant is cast to bigint
       (truncated): range(cast(4.0 as decimal(38,18)), -1.5) → Range (4, -1, ...) */
    if ((e->type->id == T_DECIMAL || e->type->id == T_DOUBLE || e->type->id == T_FLOAT) && expr_is_constant(e) &&
        const_eval(an, e, &v) && !v.is_null) {
        if (e->type->id == T_DECIMAL) {
            __int128 u = v.u.dec;
            for (int i = 0; i < e->type->scale; i++) u /= 10;
            if (u > INT64_MAX || u < INT64_MIN) return false;
            *out = (int64_t)u;
        } else {
            if (!(v.u.d > -9.3e18 && v.u.d < 9.3e18)) return false;
            *out = (int64_t)v.u.d;
        }
        return true;
    }
    return false;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (p->kind != NK_UnresolvedTableValuedFunction) return p;
    NameParts n = p->u.un.name;
    const FuncDef *gen = n.n == 1 ? func_lookup_builtin(n.v[0]) : NULL;
    if (gen && func_kind(gen) == FK_GENERATOR) {
        /* a generator in FROM (explode, inline, posexplode, stack, json_tuple, ...):
           Spark's Generate over a one-row relation */
        Node *call = make_unresolved_call(an, n, false, p->exprs, p->nexprs, p->start, p->stop);
        Node *one = node_finish(node_new(an->arena, NK_OneRowRelation, p->start, p->stop));
        Node *g = node_new(an->arena, NK_UnresolvedGenerate, p->start, p->stop);
        node_set_exprs(an->arena, g, &call, 1);
        node_set_kids(an->arena, g, &one, 1);
        return node_finish(g);
    }
    if (!(n.n == 1 && strcasecmp(n.v[0], "range") == 0)) {
        return an_fail(an, error_make(an->arena, "UNRESOLVABLE_TABLE_VALUED_FUNCTION", p, "name",
                                      sql_id_parts(an->arena, n), NULL));
    }
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (!node_resolved(p->exprs[i])) return p;
    if (p->nexprs < 1 || p->nexprs > 4) {
        return an_fail(an, error_make(an->arena, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", p, "functionName",
                                      "`range`", "expectedNum", "[1, 2, 3, 4]", "actualNum",
                                      arena_printf(an->arena, "%u", p->nexprs), "docroot",
                                      "https://spark.apache.org/docs/latest", NULL));
    }
    int64_t v[4] = {0, 0, 1, 0};
    for (uint32_t i = 0; i < p->nexprs; i++) {
        if (!const_long(an, p->exprs[i], &v[i])) {
            if (an_failed(an)) return p;
            return an_fail(an, error_make(an->arena, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", p->exprs[i], "sqlExpr",
                                          expr_sql_quoted(an->arena, p->exprs[i]), NULL));
        }
    }
    if (p->nexprs >= 3 && v[2] == 0) /* Range's require(step != 0) */
        return an_fail(an, error_make(an->arena, "FAILED_FUNCTION_CALL", p, "funcName", "`range`", NULL));
    Node *r = node_new(an->arena, NK_Range, p->start, p->stop);
    if (p->nexprs == 1) {
        r->u.range.start = 0;
        r->u.range.end = v[0];
    } else {
        r->u.range.start = v[0];
        r->u.range.end = v[1];
        r->u.range.step = p->nexprs >= 3 ? v[2] : 1;
    }
    if (p->nexprs == 1) r->u.range.step = 1;
    r->u.range.num_slices = p->nexprs == 4 ? (int32_t)v[3] : -1;
    Node *id = attr_new(an, "id", &TYPE_LONG, false, 0, (NameParts){0, NULL}, p->start, p->stop);
    node_set_exprs(an->arena, r, &id, 1);
    return node_finish(r);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedTableValuedFunction), rewrite, an);
}

const Rule RULE_RESOLVE_TVF = {
    .name = "ResolveTableValuedFunctions",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.ResolveTableValuedFunctions",
    .kinds = {NK_UnresolvedTableValuedFunction},
    .nkinds = 1,
    .apply = apply,
};
