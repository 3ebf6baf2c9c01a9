/* ResolveInlineTables — Spark's ResolveInlineTables: VALUES rows become a
 * LocalRelation whose column types are the rows' wider types, once every
 * value is resolved and foldable.
 *
 *   'UnresolvedInlineTable [col1, col2], [[1, a], [2, b]]   =>   LocalRelation [col1#1, col2#2]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "core/walk.h"

static bool foldable(const Node *e) {
    switch (e->kind) {
    case NK_Literal: return true;
    case NK_AttributeReference:
    case NK_OuterReference:
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_InSubquery:
    case NK_ListQuery:
    case NK_AggregateExpression:
    case NK_WindowExpression: return false;
    case NK_Call:
        if (e->flags & NF_NONDETERMINISTIC) return false;
        break;
    default: break;
    }
    for (uint32_t i = 0; i < e->nkids; i++)
        if (!foldable(e->kids[i])) return false;
    return true;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (p->kind != NK_UnresolvedInlineTable) return p;
    uint32_t nrows = p->nexprs;
    uint32_t ncols = p->u.cols.ncols;
    if (nrows == 0) return p;
    if (ncols == 0) ncols = p->exprs[0]->nkids;
    for (uint32_t r = 0; r < nrows; r++) {
        if (p->exprs[r]->nkids != ncols) {
            return an_fail(an, error_make(an->arena, "INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH", p->exprs[r],
                                          "expectedNumCols", arena_printf(an->arena, "%u", ncols), "actualNumCols",
                                          arena_printf(an->arena, "%u", p->exprs[r]->nkids), "rowIndex",
                                          arena_printf(an->arena, "%u", r), NULL));
        }
    }
    for (uint32_t r = 0; r < nrows; r++)
        for (uint32_t c = 0; c < ncols; c++) {
            const Node *v = p->exprs[r]->kids[c];
            if (!node_resolved(v)) return p;
            if (!foldable(v)) {
                return an_fail(an, error_make(an->arena,
                                              "INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE", v,
                                              "expr", expr_sql_quoted(an->arena, v), NULL));
            }
        }
    Node **attrs = ARENA_ARRAY(an->arena, Node *, ncols + 1);
    for (uint32_t c = 0; c < ncols; c++) {
        const DataType **types = ARENA_ARRAY(an->arena, const DataType *, nrows);
        bool nullable = false;
        for (uint32_t r = 0; r < nrows; r++) {
            types[r] = p->exprs[r]->kids[c]->type;
            if (p->exprs[r]->kids[c]->flags & NF_NULLABLE) nullable = true;
        }
        const DataType *t = coerce_wider_type_n(an->arena, types, (int)nrows);
        if (!t) {
            return an_fail(an, error_make(an->arena, "INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE", p,
                                          "colName", sql_ident(an->arena, p->u.cols.ncols ? p->u.cols.cols[c]
                                                                                          : arena_printf(an->arena, "col%u", c + 1)),
                                          NULL));
        }
        const char *name = c < p->u.cols.ncols ? p->u.cols.cols[c] : arena_printf(an->arena, "col%u", c + 1);
        attrs[c] = attr_new(an, name, t, nullable, 0, (NameParts){0, NULL}, p->start, p->stop);
    }
    Node *l = node_new(an->arena, NK_LocalRelation, p->start, p->stop);
    node_set_exprs(an->arena, l, attrs, ncols);
    l->u.local.nrows = nrows;
    /* constant rows for the constant evaluator */
    Node **rows = ARENA_ARRAY(an->arena, Node *, nrows);
    for (uint32_t r = 0; r < nrows; r++) {
        Node **vals = ARENA_ARRAY(an->arena, Node *, ncols);
        for (uint32_t c = 0; c < ncols; c++) vals[c] = coerce_cast(an, p->exprs[r]->kids[c], attrs[c]->type);
        Node *row = node_new(an->arena, NK_ExprList, -1, -1);
        node_set_kids(an->arena, row, vals, ncols);
        row->type = &TYPE_NULL;
        rows[r] = node_finish(row);
    }
    l->u.local.row_exprs = rows;
    return node_finish(l);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedInlineTable), rewrite, an);
}

const Rule RULE_RESOLVE_INLINE_TABLES = {
    .name = "ResolveInlineTables",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.ResolveInlineTables",
    .kinds = {NK_UnresolvedInlineTable},
    .nkinds = 1,
    .apply = apply,
};
