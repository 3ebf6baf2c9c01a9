/* WidenSetOperationTypes — Spark's TypeCoercion.WidenSetOperationTypes plus
 * the column-count check of CheckAnalysis: the children of UNION, INTERSECT
 * and EXCEPT are matched by position and each column is cast to the wider
 * type of the children's columns.
 *
 *   Union false, false                   Union false, false
 *   :- Project [a#1]          =>         :- Project [cast(a#1 as bigint) AS a#3L]
 *   :  +- ... a: int                     :  +- ...
 *   +- Project [b#2L]                    +- Project [b#2L]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "functions/functions.h"
#include "rules/lib/builders.h"
#include "rules/lib/plan_inputs.h"
#include "core/walk.h"

/* the operator as Spark's set-operation errors name it: EXCEPT ALL, INTERSECT ALL
   (a UNION's ALL is no operator of its own: UNION DISTINCT is a Distinct above it) */
static const char *op_name(const Node *p) {
    switch (p->kind) {
    case NK_Union: return "UNION";
    case NK_Intersect: return p->u.setop.is_all ? "INTERSECT ALL" : "INTERSECT";
    default: return p->u.setop.is_all ? "EXCEPT ALL" : "EXCEPT";
    }
}

static const char *ordinal(Arena *a, uint32_t i) {
    static const char *const names[] = {"first", "second", "third"};
    if (i < 3) return names[i];
    uint32_t n = i + 1;
    const char *suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    return arena_printf(a, "%u%s", n, suffix);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || (p->kind != NK_Union && p->kind != NK_Intersect && p->kind != NK_Except)) return p;
    if (!children_resolved(p)) return p;
    AttrList first = plan_output(an, p->kids[0]);
    for (uint32_t k = 1; k < p->nkids; k++) {
        AttrList o = plan_output(an, p->kids[k]);
        if (o.n != first.n) {
            return an_fail(an, error_make(an->arena, "NUM_COLUMNS_MISMATCH", p, "operator", op_name(p),
                                          "firstNumColumns", arena_printf(an->arena, "%u", first.n),
                                          "invalidOrdinalNum", ordinal(an->arena, k), "invalidNumColumns",
                                          arena_printf(an->arena, "%u", o.n), NULL));
        }
    }
    const DataType **wide = ARENA_ARRAY(an->arena, const DataType *, first.n + 1);
    bool differ = false;
    for (uint32_t c = 0; c < first.n; c++) {
        const DataType *t = first.v[c]->type;
        for (uint32_t k = 1; k < p->nkids; k++) {
            const DataType *o = plan_output(an, p->kids[k]).v[c]->type;
            const DataType *w = coerce_wider_type(an->arena, t, o);
            if (!w) {
                return an_fail(an, error_make(an->arena, "INCOMPATIBLE_COLUMN_TYPE", p, "operator", op_name(p),
                                              "columnOrdinalNumber", ordinal(an->arena, c), "tableOrdinalNumber",
                                              ordinal(an->arena, k), "dataType1", sql_type_quoted(an->arena, o),
                                              "dataType2", sql_type_quoted(an->arena, t), "hint", "", NULL));
            }
            t = w;
        }
        wide[c] = t;
    }
    Node **kids = ARENA_ARRAY(an->arena, Node *, p->nkids);
    for (uint32_t k = 0; k < p->nkids; k++) {
        AttrList o = plan_output(an, p->kids[k]);
        bool need = false;
        /* Spark casts when dt != attr.dataType: an element's nullability counts */
        for (uint32_t c = 0; c < o.n; c++)
            if (!type_equal(o.v[c]->type, wide[c])) need = true;
        if (!need) {
            kids[k] = p->kids[k];
            continue;
        }
        differ = true;
        Node **items = ARENA_ARRAY(an->arena, Node *, o.n + 1);
        for (uint32_t c = 0; c < o.n; c++)
            items[c] = type_equal(o.v[c]->type, wide[c])
                           ? o.v[c]
                           : make_alias(an, make_cast(an, o.v[c], wide[c]), o.v[c]->u.attr.name, false);
        kids[k] = make_project(an, p->kids[k], items, o.n);
    }
    return differ ? node_with_kids(an->arena, p, kids, p->nkids) : p;
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_Union, NK_Intersect, NK_Except), rewrite, an);
}

const Rule RULE_WIDEN_SET_OPERATION_TYPES = {
    .name = "WidenSetOperationTypes",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.TypeCoercion$WidenSetOperationTypes",
    .kinds = {NK_Union, NK_Intersect, NK_Except},
    .nkinds = 3,
    .apply = apply,
};
