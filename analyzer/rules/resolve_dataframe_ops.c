/* ResolveDataFrameOps — the Dataset operations Spark Connect's planner
 * (SparkConnectPlanner) runs for relations that need their input's schema:
 * it analyses the input and calls Dataset.drop, na.fill, withColumns, ...,
 * which build ordinary plans from the input's output. Here the operation
 * waits, as a DataFrameOp, until its input (and its own expressions) are
 * resolved, then becomes that plan:
 *
 *   'DataFrameOp drop [b]             Project [id#1, a#2]
 *   +- LocalRelation [id#1,a#2,b#3]  =>  +- LocalRelation [id#1, a#2, b#3]
 *
 *   DF_DROP                 exprs: columns; names: column names (Dataset.drop)
 *   DF_DROP_NA              names: columns (none: all); n: minNonNulls (-1: all of them)
 *   DF_FILL_NA              names: columns; exprs: values (one value, or one a column)
 *   DF_REPLACE              names: columns (none: all); exprs: old, new, old, new, ...
 *   DF_WITH_COLUMNS         names: columns; exprs: their expressions
 *   DF_WITH_COLUMNS_RENAMED names: old names; names2: new names
 *   DF_TO_DF                names: the new names
 *   DF_DEDUPLICATE          names: key columns; flag: all columns are keys
 *   DF_UNPIVOT              exprs: ids then values; n: number of ids; flag: values given;
 *                           names: variable column, value column (ResolveUnpivot)
 *   DF_FREQ_ITEMS           names: columns; number: support (StatFunctions.freqItems)
 *   DF_DESCRIBE             names: columns (none: all)
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "print/printer.h"
#include "core/walk.h"
#include "functions/functions.h"
#include "rules/lib/builders.h"
#include "rules/lib/column_refs.h"
#include "rules/lib/dataframe_columns.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"

static Node *str_lit(Analysis *an, const char *s) {
    Node *n = node_new(an->arena, NK_Literal, -1, -1);
    n->u.lit.v.type = &TYPE_STRING;
    n->u.lit.v.u.s.p = arena_strdup(an->arena, s);
    n->u.lit.v.u.s.len = (uint32_t)strlen(s);
    n->type = &TYPE_STRING;
    return node_finish(n);
}

static Node *null_lit(Analysis *an) {
    Node *n = node_new(an->arena, NK_Literal, -1, -1);
    n->u.lit.v.type = &TYPE_NULL;
    n->u.lit.v.is_null = true;
    n->type = &TYPE_NULL;
    n->flags |= NF_NULLABLE;
    return node_finish(n);
}

/* An explicit Cast (Column.cast): typed once its child is */
static Node *cast_to(Analysis *an, Node *e, const DataType *t) {
    Node *c = node_new(an->arena, NK_Cast, -1, -1);
    node_set_kids(an->arena, c, &e, 1);
    c->type = t;
    c->u.cast.ansi = an->conf->ansi;
    c->flags |= NF_NULLABLE;
    return node_finish(c);
}

static Node *call(Analysis *an, const char *name, Node **args, uint32_t n) {
    return make_unresolved_call(an, name_parts1(an->arena, name), false, args, n, -1, -1);
}

static Node *op(Analysis *an, const char *name, Node *a, Node *b) {
    Node *args[2] = {a, b};
    return make_unresolved_call(an, name_parts1(an->arena, name), true, args, 2, -1, -1);
}

/* The input column `name` resolves to (the session's resolver), or NULL. */
static Node *column(Analysis *an, AttrList in, const char *name) {
    for (uint32_t i = 0; i < in.n; i++)
        if (ident_eq(an, in.v[i]->u.attr.name, name)) return in.v[i];
    return NULL;
}

static Node *fail_column(Analysis *an, const Node *at, AttrList in, const char *name) {
    StrBuf sb;
    sb_init(&sb, an->arena, 64);
    for (uint32_t i = 0; i < in.n; i++) {
        if (i) sb_puts(&sb, ", ");
        sb_puts(&sb, in.v[i]->u.attr.name);
    }
    return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1201", at, "colName", name, "fieldNames",
                                  sb.data, NULL));
}

static bool in_names(Analysis *an, const Node *p, const char *name) {
    for (uint32_t i = 0; i < p->u.dfop.nnames; i++)
        if (ident_eq(an, p->u.dfop.names[i], name)) return true;
    return false;
}

/* Dataset.drop: the input without the columns named or referred to */
static Node *drop(Analysis *an, Node *p, AttrList in) {
    /* the columns given as expressions, resolved here against the input as
       Spark's ResolveDataFrameDropColumns does (df("c") by its plan id first);
       one that resolves to no attribute drops nothing */
    Node **cols = ARENA_ARRAY(an->arena, Node *, p->nexprs + 1);
    for (uint32_t k = 0; k < p->nexprs; k++) {
        Node *e = p->exprs[k];
        if (e->kind == NK_UnresolvedAttribute) {
            e = resolve_dataframe_columns(an, e, p->kids, p->nkids);
            if (e->kind == NK_UnresolvedAttribute) e = resolve_expr_refs(an, e, plan_input(an, p), NULL, 0);
            if (an_failed(an)) return p;
        }
        cols[k] = e;
    }
    Node **keep = ARENA_ARRAY(an->arena, Node *, in.n + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < in.n; i++) {
        bool gone = in_names(an, p, in.v[i]->u.attr.name);
        for (uint32_t k = 0; k < p->nexprs && !gone; k++)
            gone = cols[k]->kind == NK_AttributeReference && cols[k]->u.attr.id == in.v[i]->u.attr.id;
        if (!gone) keep[n++] = in.v[i];
    }
    return n == in.n ? p->kids[0] : make_project(an, p->kids[0], keep, n);
}

/* na.drop: Filter(AtLeastNNonNulls(minNonNulls, columns)) */
static Node *drop_na(Analysis *an, Node *p, AttrList in) {
    uint32_t nc = p->u.dfop.nnames ? p->u.dfop.nnames : in.n;
    Node **args = ARENA_ARRAY(an->arena, Node *, nc + 1);
    for (uint32_t i = 0; i < nc; i++) {
        Node *c = p->u.dfop.nnames ? column(an, in, p->u.dfop.names[i]) : in.v[i];
        if (!c) return fail_column(an, p, in, p->u.dfop.names[i]);
        args[i + 1] = c;
    }
    args[0] = make_literal_int(an, p->u.dfop.n >= 0 ? p->u.dfop.n : (int64_t)nc, NULL);
    Node *f = node_new(an->arena, NK_Filter, -1, -1);
    Node *cond = call(an, "@atleastnnonnulls", args, nc + 1);
    node_set_exprs(an->arena, f, &cond, 1);
    node_set_kids(an->arena, f, &p->kids[0], 1);
    return node_finish(f);
}

typedef enum FillKind { FILL_NUMERIC, FILL_STRING, FILL_BOOLEAN, FILL_NONE } FillKind;

static FillKind fill_kind(const DataType *t) {
    if (type_is_numeric(t)) return FILL_NUMERIC;
    if (type_is_string(t)) return FILL_STRING;
    if (t->id == T_BOOLEAN) return FILL_BOOLEAN;
    return FILL_NONE;
}

/* coalesce(col (nanvl(col, null) for float/double), cast(value as col's type)) AS col */
static Node *fill_col(Analysis *an, Node *col, Node *value) {
    Node *v = col;
    if (col->type->id == T_DOUBLE || col->type->id == T_FLOAT) {
        Node *args[2] = {col, null_lit(an)};
        v = call(an, "nanvl", args, 2);
    }
    Node *args[2] = {v, cast_to(an, value, col->type)};
    return make_alias(an, call(an, "coalesce", args, 2), col->u.attr.name, false);
}

/* na.fill: one value for every column of its kind (of the named ones), or a value a column */
static Node *fill_na(Analysis *an, Node *p, AttrList in) {
    Node **items = ARENA_ARRAY(an->arena, Node *, in.n + 1);
    bool per_column = p->nexprs > 1;
    if (p->nexprs == 0) return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP", p, "message", "fill_na needs a value", NULL));
    if (per_column && p->nexprs != p->u.dfop.nnames)
        return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP", p, "message",
                                      "fill_na: the values must be one, or one a column", NULL));
    for (uint32_t k = 0; per_column && k < p->u.dfop.nnames; k++)
        if (!column(an, in, p->u.dfop.names[k])) return fail_column(an, p, in, p->u.dfop.names[k]);
    for (uint32_t i = 0; i < in.n; i++) {
        Node *col = in.v[i];
        items[i] = col;
        if (per_column) {
            for (uint32_t k = 0; k < p->u.dfop.nnames; k++)
                if (ident_eq(an, col->u.attr.name, p->u.dfop.names[k])) items[i] = fill_col(an, col, p->exprs[k]);
            continue;
        }
        Node *value = p->exprs[0];
        FillKind want = fill_kind(value->type);
        if (want == FILL_NONE)
            return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP", value, "message",
                                          "fill_na takes a number, a string or a boolean", NULL));
        bool named = !p->u.dfop.nnames || in_names(an, p, col->u.attr.name);
        if (named && fill_kind(col->type) == want) items[i] = fill_col(an, col, value);
    }
    return make_project(an, p->kids[0], items, in.n);
}

/* na.replace: CASE WHEN col = old THEN cast(new as col's type) ... ELSE col END AS col,
   for the columns of the first old value's kind (numbers compare as doubles) */
static Node *replace(Analysis *an, Node *p, AttrList in) {
    if (p->nexprs < 2) return p->kids[0];
    FillKind want = fill_kind(p->exprs[0]->type);
    for (uint32_t k = 0; k < p->u.dfop.nnames; k++)
        if (!column(an, in, p->u.dfop.names[k])) return fail_column(an, p, in, p->u.dfop.names[k]);
    Node **items = ARENA_ARRAY(an->arena, Node *, in.n + 1);
    for (uint32_t i = 0; i < in.n; i++) {
        Node *col = in.v[i];
        items[i] = col;
        bool named = !p->u.dfop.nnames || in_names(an, p, col->u.attr.name);
        if (!named || fill_kind(col->type) != want) continue;
        uint32_t npairs = p->nexprs / 2;
        Node **kids = ARENA_ARRAY(an->arena, Node *, 2 * npairs + 1);
        for (uint32_t k = 0; k < npairs; k++) {
            Node *old = p->exprs[2 * k], *new_ = p->exprs[2 * k + 1];
            if (want == FILL_NUMERIC) {
                old = old->type->id == T_DOUBLE ? old : cast_to(an, old, &TYPE_DOUBLE);
                if (new_->type->id != T_NULL && new_->type->id != T_DOUBLE) new_ = cast_to(an, new_, &TYPE_DOUBLE);
            }
            kids[2 * k] = op(an, "=", col, old);
            kids[2 * k + 1] = cast_to(an, new_, col->type);
        }
        kids[2 * npairs] = col;
        Node *cw = node_new(an->arena, NK_CaseWhen, -1, -1);
        cw->u.casew.has_else = true;
        node_set_kids(an->arena, cw, kids, 2 * npairs + 1);
        items[i] = make_alias(an, node_finish(cw), col->u.attr.name, false);
    }
    return make_project(an, p->kids[0], items, in.n);
}

/* withColumns: a named column replaced in place, the others appended */
static Node *with_columns(Analysis *an, Node *p, AttrList in) {
    uint32_t nn = p->u.dfop.nnames;
    Node **items = ARENA_ARRAY(an->arena, Node *, in.n + nn + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < in.n; i++) {
        items[n] = in.v[i];
        for (uint32_t k = 0; k < nn; k++)
            if (ident_eq(an, in.v[i]->u.attr.name, p->u.dfop.names[k]))
                items[n] = make_alias(an, p->exprs[k], p->u.dfop.names[k], false);
        n++;
    }
    for (uint32_t k = 0; k < nn; k++)
        if (!column(an, in, p->u.dfop.names[k])) items[n++] = make_alias(an, p->exprs[k], p->u.dfop.names[k], false);
    return make_project(an, p->kids[0], items, n);
}

/* withColumnsRenamed: each rename applied in turn to the names so far */
static Node *with_columns_renamed(Analysis *an, Node *p, AttrList in) {
    Node **items = ARENA_ARRAY(an->arena, Node *, in.n + 1);
    for (uint32_t i = 0; i < in.n; i++) items[i] = in.v[i];
    for (uint32_t k = 0; k < p->u.dfop.nnames; k++)
        for (uint32_t i = 0; i < in.n; i++)
            if (ident_eq(an, items[i]->u.attr.name, p->u.dfop.names[k]))
                items[i] = make_alias(an, items[i]->kind == NK_Alias ? items[i]->kids[0] : items[i], p->u.dfop.names2[k],
                                      false);
    return make_project(an, p->kids[0], items, in.n);
}

/* toDF(names): every column renamed */
static Node *to_df(Analysis *an, Node *p, AttrList in) {
    if (p->u.dfop.nnames != in.n) {
        StrBuf sb;
        sb_init(&sb, an->arena, 64);
        sb_printf(&sb, "requirement failed: The number of columns doesn't match.\nOld column names (%u): ", in.n);
        for (uint32_t i = 0; i < in.n; i++) sb_printf(&sb, "%s%s", i ? ", " : "", in.v[i]->u.attr.name);
        sb_printf(&sb, "\nNew column names (%u): ", p->u.dfop.nnames);
        for (uint32_t i = 0; i < p->u.dfop.nnames; i++) sb_printf(&sb, "%s%s", i ? ", " : "", p->u.dfop.names[i]);
        return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP", p, "message", sb.data, NULL));
    }
    Node **items = ARENA_ARRAY(an->arena, Node *, in.n + 1);
    for (uint32_t i = 0; i < in.n; i++) items[i] = make_alias(an, in.v[i], p->u.dfop.names[i], false);
    return make_project(an, p->kids[0], items, in.n);
}

/* dropDuplicates: Deduplicate on the named columns (every column of a name) or all */
static Node *deduplicate(Analysis *an, Node *p, AttrList in) {
    Node **keys = ARENA_ARRAY(an->arena, Node *, in.n + 1);
    uint32_t n = 0;
    if (p->u.dfop.flag || !p->u.dfop.nnames) {
        for (uint32_t i = 0; i < in.n; i++) keys[n++] = in.v[i];
    } else {
        for (uint32_t k = 0; k < p->u.dfop.nnames; k++) {
            bool dup = false, found = false;
            for (uint32_t j = 0; j < k; j++) dup = dup || !strcmp(p->u.dfop.names[j], p->u.dfop.names[k]);
            if (dup) continue;
            for (uint32_t i = 0; i < in.n; i++)
                if (ident_eq(an, in.v[i]->u.attr.name, p->u.dfop.names[k])) {
                    bool seen = false;
                    for (uint32_t j = 0; j < n; j++) seen = seen || keys[j]->u.attr.id == in.v[i]->u.attr.id;
                    if (!seen) keys[n++] = in.v[i];
                    found = true;
                }
            if (!found) return fail_column(an, p, in, p->u.dfop.names[k]);
        }
    }
    Node *d = node_new(an->arena, NK_Deduplicate, -1, -1);
    node_set_exprs(an->arena, d, keys, n);
    node_set_kids(an->arena, d, &p->kids[0], 1);
    return node_finish(d);
}

/* ResolveUnpivot: Expand with a row per value column: the ids, the value's name, the value
   (values widened to one type); the values default to the columns that are not ids */
static Node *unpivot(Analysis *an, Node *p, AttrList in) {
    uint32_t nids = (uint32_t)p->u.dfop.n;
    Node **ids = p->exprs;
    Node **vals;
    uint32_t nvals = 0;
    if (p->u.dfop.flag) {
        vals = node_exprs_from(p, nids);
        nvals = p->nexprs - nids;
    } else {
        vals = ARENA_ARRAY(an->arena, Node *, in.n + 1);
        for (uint32_t i = 0; i < in.n; i++) {
            bool is_id = false;
            for (uint32_t k = 0; k < nids; k++)
                is_id = is_id || (ids[k]->kind == NK_AttributeReference && ids[k]->u.attr.id == in.v[i]->u.attr.id);
            if (!is_id) vals[nvals++] = in.v[i];
        }
    }
    if (!nvals) return an_fail(an, error_make(an->arena, "UNPIVOT_REQUIRES_VALUE_COLUMNS", p, NULL));
    const DataType **types = ARENA_ARRAY(an->arena, const DataType *, nvals);
    for (uint32_t i = 0; i < nvals; i++) types[i] = vals[i]->type;
    const DataType *common = coerce_wider_type_n(an->arena, types, (int)nvals);
    if (!common) {
        StrBuf sb;
        sb_init(&sb, an->arena, 64);
        for (uint32_t i = 0; i < nvals; i++) {
            if (i) sb_puts(&sb, ", ");
            sb_printf(&sb, "%s %s", expr_to_string(an->arena, vals[i]), sql_type_quoted(an->arena, vals[i]->type));
        }
        return an_fail(an, error_make(an->arena, "UNPIVOT_VALUE_DATA_TYPE_MISMATCH", p, "types", sb.data, NULL));
    }
    bool nullable = false;
    for (uint32_t i = 0; i < nvals; i++) nullable = nullable || expr_nullable(vals[i]);
    uint32_t nout = nids + 2;
    Node **exprs = ARENA_ARRAY(an->arena, Node *, nout + nvals);
    for (uint32_t k = 0; k < nids; k++) exprs[k] = to_attribute(an, ids[k]);
    const char *var_name = p->u.dfop.nnames > 0 ? p->u.dfop.names[0] : "variable";
    const char *val_name = p->u.dfop.nnames > 1 ? p->u.dfop.names[1] : "value";
    exprs[nids] = attr_new(an, var_name, &TYPE_STRING, false, 0, (NameParts){0, NULL}, -1, -1);
    exprs[nids + 1] = attr_new(an, val_name, common, nullable, 0, (NameParts){0, NULL}, -1, -1);
    for (uint32_t i = 0; i < nvals; i++) {
        Node **row = ARENA_ARRAY(an->arena, Node *, nids + 2);
        for (uint32_t k = 0; k < nids; k++) row[k] = ids[k];
        const char *name = named_expr_name(vals[i]);
        row[nids] = str_lit(an, name ? name : expr_to_string(an->arena, vals[i]));
        row[nids + 1] = type_same(vals[i]->type, common) ? vals[i] : make_cast(an, vals[i], common);
        Node *list = node_new(an->arena, NK_ExprList, -1, -1);
        node_set_kids(an->arena, list, row, nids + 2);
        exprs[nout + i] = node_finish(list);
    }
    Node *e = node_new(an->arena, NK_Expand, -1, -1);
    e->u.expand.noutput = nout;
    e->u.expand.nprojections = nvals;
    node_set_exprs(an->arena, e, exprs, nout + nvals);
    node_set_kids(an->arena, e, &p->kids[0], 1);
    return node_finish(e);
}

/* freqItems: Aggregate [collect_frequent_items(col, 1 / support) AS col_freqItems, ...] */
static Node *freq_items(Analysis *an, Node *p, AttrList in) {
    double support = p->u.dfop.number;
    if (!(support >= 1e-4 && support <= 1))
        return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP", p, "message",
                                      arena_printf(an->arena, "requirement failed: Support must be in [1e-4, 1], but got %g.",
                                                   support),
                                      NULL));
    int size = (int)(1 / support);
    Node **items = ARENA_ARRAY(an->arena, Node *, p->u.dfop.nnames + 1);
    for (uint32_t k = 0; k < p->u.dfop.nnames; k++) {
        Node *c = column(an, in, p->u.dfop.names[k]);
        if (!c) return fail_column(an, p, in, p->u.dfop.names[k]);
        Node *args[2] = {c, make_literal_int(an, size, NULL)};
        items[k] = make_alias(an, call(an, "@collect_frequent_items", args, 2),
                              arena_printf(an->arena, "%s_freqItems", p->u.dfop.names[k]), false);
    }
    Node *g = node_new(an->arena, NK_Aggregate, -1, -1);
    g->u.aggregate.ngroup = 0;
    node_set_exprs(an->arena, g, items, p->u.dfop.nnames);
    node_set_kids(an->arena, g, &p->kids[0], 1);
    return node_finish(g);
}

static bool exprs_resolved(const Node *p) {
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (!node_resolved(p->exprs[i])) return false;
    return true;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind != NK_DataFrameOp || !p->nkids || !plan_is_resolved(p->kids[0])) return p;
    /* drop ignores the columns that resolve to nothing; the others wait for their expressions */
    if (p->u.dfop.op != DF_DROP && !exprs_resolved(p)) return p;
    AttrList in = plan_output(an, p->kids[0]);
    switch ((DataFrameOpKind)p->u.dfop.op) {
    case DF_DROP: return drop(an, p, in);
    case DF_DROP_NA: return drop_na(an, p, in);
    case DF_FILL_NA: return fill_na(an, p, in);
    case DF_REPLACE: return replace(an, p, in);
    case DF_WITH_COLUMNS: return with_columns(an, p, in);
    case DF_WITH_COLUMNS_RENAMED: return with_columns_renamed(an, p, in);
    case DF_TO_DF: return to_df(an, p, in);
    case DF_DEDUPLICATE: return deduplicate(an, p, in);
    case DF_UNPIVOT: return unpivot(an, p, in);
    case DF_FREQ_ITEMS: return freq_items(an, p, in);
    default:
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE", p, NULL));
    }
}

static Node *apply(Analysis *an, Node *plan) {
    Node *r = transform(an->arena, plan, 0, KIND_MASK(NK_DataFrameOp), rewrite, an);
    return r ? r : plan;
}

const Rule RULE_RESOLVE_DATAFRAME_OPS = {
    .name = "ResolveDataFrameOps",
    .spark_rule = "org.apache.spark.sql.connect.planner.SparkConnectPlanner (Dataset operations)",
    .kinds = {NK_DataFrameOp},
    .nkinds = 1,
    .apply = apply,
};
