/* Expressions as Spark prints them, in three styles (see PrintStyle):
 * toString inside plans (`(a#1 + 1) AS b#2`, `'count('x)`), the pretty SQL
 * that names unaliased select items (`(a + 1)`, `CAST(x AS INT)`,
 * `scalarsubquery(c1)`), and plain Expression.sql. Resolved calls are printed
 * by the function library (func_print); everything else is here. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "print_internal.h"
#include "printer.h"

/* ---- names ---- */

static bool plain_ident(const char *s) {
    if (!*s) return false;
    if (!(isalpha((unsigned char)*s) || *s == '_')) return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
    return true;
}

void ident_print_if_needed(StrBuf *sb, const char *s) {
    if (plain_ident(s))
        pr_puts(sb, s);
    else
        sb_put_quoted_ident(sb, s);
}

void name_parts_print(StrBuf *sb, NameParts np, bool quote_if_needed) {
    for (uint32_t i = 0; i < np.n; i++) {
        if (i) pr_putc(sb, '.');
        if (quote_if_needed)
            ident_print_if_needed(sb, np.v[i]);
        else
            pr_puts(sb, np.v[i]);
    }
}

/* UnresolvedAttribute.name: parts containing '.' are backquoted. */
static void unresolved_name_print(StrBuf *sb, NameParts np) {
    for (uint32_t i = 0; i < np.n; i++) {
        if (i) pr_putc(sb, '.');
        if (strchr(np.v[i], '.'))
            sb_put_quoted_ident(sb, np.v[i]);
        else
            pr_puts(sb, np.v[i]);
    }
}

/* ---- helpers ---- */

static void args_print(StrBuf *sb, Node *const *v, uint32_t n, PrintStyle st, const char *sep) {
    for (uint32_t i = 0; i < n; i++) {
        if (i) pr_puts(sb, sep);
        expr_print_style(sb, v[i], st);
    }
}

void expr_list_print(StrBuf *sb, Node *const *v, uint32_t n, PrintStyle st) {
    /* Spark's truncatedString: at most maxToStringFields items, then a count */
    uint32_t shown = n > PRINT_MAX_FIELDS ? PRINT_MAX_FIELDS : n;
    pr_putc(sb, '[');
    args_print(sb, v, shown, st, ", ");
    if (shown < n) sb_printf(sb, ", ... %u more fields", n - shown);
    pr_putc(sb, ']');
}

static void type_suffix(StrBuf *sb, const Node *e, const DataType *t) {
    if (node_resolved(e) && t && t->id == T_LONG) pr_putc(sb, 'L');
}

/* "#<id>" without printf: ids are printed once per attribute, and the
 * format machinery was a large part of the tree string's cost. */
static void id_print(StrBuf *sb, ExprId id) {
    char digits[24];
    size_t at = sizeof digits;
    unsigned long long v = (unsigned long long)id;
    do {
        digits[--at] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    digits[--at] = '#';
    pr_putn(sb, digits + at, sizeof digits - at);
}

static void print_arg_cb(StrBuf *sb, const Node *arg, void *ctx) {
    expr_print_style(sb, arg, *(const PrintStyle *)ctx);
}

static void call_print(StrBuf *sb, const Node *call, PrintStyle st) {
    func_print(sb, call, st != PS_STRING, print_arg_cb, &st);
}

/* ---- operators of the parsed form (UnresolvedFunction with is_operator) ---- */

typedef enum OpShape {
    OP_BINARY,     /* (l op r) in both forms */
    OP_NOT,        /* NOT x / (NOT x) */
    OP_NEG,        /* -x / (- x) */
    OP_POS,        /* positive(x) / (+ x) */
    OP_BITNOT,     /* ~x */
    OP_NOT_EQ,     /* NOT (l = r) / (NOT (l = r)) */
    OP_POSTFIX,    /* isnull(x) / (x IS NULL) */
    OP_LIKE,       /* l LIKE r */
    OP_RLIKE,      /* RLIKE(l, r) / l RLIKE r */
    OP_IN,         /* v IN (a,b) / (v IN (a, b)) */
    OP_CONCAT,     /* concat(l, r) */
} OpShape;

typedef struct OpInfo {
    const char *name; /* as the parser names it (case-insensitive) */
    OpShape shape;
    const char *sym;  /* printed symbol / keyword */
} OpInfo;

static const OpInfo OPS[] = {
    {"+", OP_BINARY, "+"},       {"-", OP_BINARY, "-"},        {"*", OP_BINARY, "*"},
    {"/", OP_BINARY, "/"},       {"%", OP_BINARY, "%"},        {"mod", OP_BINARY, "%"},
    {"div", OP_BINARY, "div"},   {"&", OP_BINARY, "&"},        {"|", OP_BINARY, "|"},
    {"^", OP_BINARY, "^"},       {"=", OP_BINARY, "="},        {"==", OP_BINARY, "="},
    {"<=>", OP_BINARY, "<=>"},   {"<", OP_BINARY, "<"},        {"<=", OP_BINARY, "<="},
    {">", OP_BINARY, ">"},       {">=", OP_BINARY, ">="},      {"and", OP_BINARY, "AND"},
    {"or", OP_BINARY, "OR"},     {"<<", OP_BINARY, "<<"},      {">>", OP_BINARY, ">>"},
    {">>>", OP_BINARY, ">>>"},   {"<>", OP_NOT_EQ, "="},       {"!=", OP_NOT_EQ, "="},
    {"not", OP_NOT, "NOT"},      {"!", OP_NOT, "NOT"},         {"~", OP_BITNOT, "~"},
    {"isnull", OP_POSTFIX, "IS NULL"}, {"isnotnull", OP_POSTFIX, "IS NOT NULL"},
    {"like", OP_LIKE, "LIKE"},   {"ilike", OP_LIKE, "ILIKE"},  {"rlike", OP_RLIKE, "RLIKE"},
    {"regexp", OP_RLIKE, "RLIKE"}, {"in", OP_IN, "IN"},        {"||", OP_CONCAT, "concat"},
    {"concat", OP_CONCAT, "concat"},
};

static const OpInfo *op_lookup(const Node *f) {
    if (f->u.un.name.n != 1) return NULL;
    const char *name = f->u.un.name.v[0];
    uint32_t nargs = f->u.un.nargs && f->u.un.nargs < f->nkids ? f->u.un.nargs : f->nkids;
    if (nargs == 1 && (!strcmp(name, "-") || !strcasecmp(name, "negative"))) {
        static const OpInfo neg = {"-", OP_NEG, "-"};
        return &neg;
    }
    if (nargs == 1 && (!strcmp(name, "+") || !strcasecmp(name, "positive"))) {
        static const OpInfo pos = {"+", OP_POS, "+"};
        return &pos;
    }
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
        if (!strcasecmp(OPS[i].name, name)) return &OPS[i];
    return NULL;
}

static void operator_print(StrBuf *sb, const Node *f, const OpInfo *op, PrintStyle st) {
    Node *const *k = f->kids;
    uint32_t n = f->u.un.nargs && f->u.un.nargs < f->nkids ? f->u.un.nargs : f->nkids;
    bool s = st != PS_STRING;
    switch (op->shape) {
    case OP_BINARY:
        if (n < 2) break;
        /* `a AND b AND c` with n > 2 arguments folds left as Spark's parser builds it */
        for (uint32_t i = 1; i < n; i++) pr_putc(sb, '(');
        expr_print_style(sb, k[0], st);
        for (uint32_t i = 1; i < n; i++) {
            { pr_putc(sb, ' '); pr_puts(sb, op->sym); pr_putc(sb, ' '); }
            expr_print_style(sb, k[i], st);
            pr_putc(sb, ')');
        }
        return;
    case OP_NOT_EQ:
        if (n < 2) break;
        pr_puts(sb, s ? "(NOT (" : "NOT (");
        expr_print_style(sb, k[0], st);
        pr_puts(sb, " = ");
        expr_print_style(sb, k[1], st);
        pr_puts(sb, s ? "))" : ")");
        return;
    case OP_NOT:
        if (n < 1) break;
        pr_puts(sb, s ? "(NOT " : "NOT ");
        expr_print_style(sb, k[0], st);
        if (s) pr_putc(sb, ')');
        return;
    case OP_NEG:
        if (n < 1) break;
        pr_puts(sb, s ? "(- " : "-");
        expr_print_style(sb, k[0], st);
        if (s) pr_putc(sb, ')');
        return;
    case OP_POS:
        if (n < 1) break;
        pr_puts(sb, s ? "(+ " : "positive(");
        expr_print_style(sb, k[0], st);
        pr_putc(sb, ')');
        return;
    case OP_BITNOT:
        if (n < 1) break;
        pr_putc(sb, '~');
        expr_print_style(sb, k[0], st);
        return;
    case OP_POSTFIX:
        if (n < 1) break;
        if (s) {
            pr_putc(sb, '(');
            expr_print_style(sb, k[0], st);
            { pr_putc(sb, ' '); pr_puts(sb, op->sym); pr_putc(sb, ')'); }
        } else {
            pr_puts(sb, strcmp(op->sym, "IS NULL") ? "isnotnull(" : "isnull(");
            expr_print_style(sb, k[0], st);
            pr_putc(sb, ')');
        }
        return;
    case OP_LIKE:
        if (n < 2) break;
        expr_print_style(sb, k[0], st);
        { pr_putc(sb, ' '); pr_puts(sb, op->sym); pr_putc(sb, ' '); }
        expr_print_style(sb, k[1], st);
        if (n > 2) {
            /* Spark keeps the escape as a char and shows it only when it is not `\` */
            const Node *esc = k[2];
            if (esc->kind == NK_Literal && !esc->u.lit.v.is_null && esc->u.lit.v.type &&
                type_is_string(esc->u.lit.v.type)) {
                const Value *v = &esc->u.lit.v;
                if (!(v->u.s.len == 1 && v->u.s.p[0] == '\\')) {
                    pr_puts(sb, " ESCAPE '");
                    pr_putn(sb, v->u.s.p, v->u.s.len);
                    pr_putc(sb, '\'');
                }
            } else {
                pr_puts(sb, " ESCAPE ");
                expr_print_style(sb, esc, st);
            }
        }
        return;
    case OP_RLIKE:
        if (n < 2) break;
        if (s) {
            expr_print_style(sb, k[0], st);
            pr_puts(sb, " RLIKE ");
            expr_print_style(sb, k[1], st);
        } else {
            pr_puts(sb, "RLIKE(");
            expr_print_style(sb, k[0], st);
            pr_puts(sb, ", ");
            expr_print_style(sb, k[1], st);
            pr_putc(sb, ')');
        }
        return;
    case OP_IN:
        if (n < 1) break;
        if (s) pr_putc(sb, '(');
        expr_print_style(sb, k[0], st);
        pr_puts(sb, " IN (");
        args_print(sb, k + 1, n - 1, st, s ? ", " : ",");
        pr_putc(sb, ')');
        if (s) pr_putc(sb, ')');
        return;
    case OP_CONCAT:
        pr_puts(sb, "concat(");
        args_print(sb, k, n, st, ", ");
        pr_putc(sb, ')');
        return;
    }
    /* wrong arity: print it as a plain call */
    pr_puts(sb, s ? "" : "'");
    pr_puts(sb, op->name);
    pr_putc(sb, '(');
    args_print(sb, k, n, st, ", ");
    pr_putc(sb, ')');
}

static void unresolved_function_print(StrBuf *sb, const Node *f, PrintStyle st) {
    if (f->u.un.is_operator) {
        const OpInfo *op = op_lookup(f);
        if (op) {
            operator_print(sb, f, op, st);
            return;
        }
    }
    bool s = st != PS_STRING;
    if (!s) pr_putc(sb, '\'');
    if (s)
        name_parts_print(sb, f->u.un.name, true);
    else
        name_parts_print(sb, f->u.un.name, false);
    pr_putc(sb, '(');
    if (f->flags & NF_DISTINCT) pr_puts(sb, s ? "DISTINCT " : "distinct ");
    if (s) {
        /* sql: arguments only; FILTER and WITHIN GROUP after */
        uint32_t nargs = f->u.un.nargs;
        if (nargs > f->nkids) nargs = f->nkids;
        args_print(sb, f->kids, nargs, st, ", ");
        pr_putc(sb, ')');
        uint32_t i = nargs;
        if ((f->flags & NF_HAS_FILTER) && i < f->nkids) {
            pr_puts(sb, " FILTER (WHERE ");
            expr_print_style(sb, f->kids[i++], st);
            pr_putc(sb, ')');
        }
        if (f->u.un.norder && i < f->nkids) {
            pr_puts(sb, " WITHIN GROUP (ORDER BY ");
            args_print(sb, node_kids_from(f, i), f->nkids - i, st, ", ");
            pr_putc(sb, ')');
        }
        if (f->u.un.ignore_nulls) pr_puts(sb, " IGNORE NULLS");
        return;
    }
    /* toString: Spark prints children = arguments ++ filter ++ ordering */
    args_print(sb, f->kids, f->nkids, st, ", ");
    pr_putc(sb, ')');
}

/* ---- literals ---- */

static void literal_print(StrBuf *sb, const Value *v, PrintStyle st) {
    if (st == PS_STRING) {
        value_print(sb, v);
        return;
    }
    if (st == PS_PRETTY) {
        /* usePrettyExpression: strings bare, numbers in toString form, NULL */
        const DataType *t = v->type ? v->type : &TYPE_NULL;
        if (v->is_null) {
            pr_puts(sb, "NULL");
            return;
        }
        if (type_is_string(t) || type_is_numeric(t)) {
            value_print(sb, v);
            return;
        }
    }
    value_print_sql(sb, v);
}

/* ---- windows ---- */

static bool is_unary_minus(const Node *e, const Node **operand) {
    if (e->kind == NK_UnresolvedFunction && e->u.un.is_operator && e->nkids == 1 && e->u.un.name.n == 1 &&
        (!strcmp(e->u.un.name.v[0], "-") || !strcasecmp(e->u.un.name.v[0], "negative"))) {
        *operand = e->kids[0];
        return true;
    }
    if (e->kind == NK_Call && e->nkids == 1 && e->u.call.name &&
        (!strcmp(e->u.call.name, "-") || !strcasecmp(e->u.call.name, "negative") ||
         !strcasecmp(e->u.call.name, "unary_minus"))) {
        *operand = e->kids[0];
        return true;
    }
    return false;
}

static void frame_bound_sql(StrBuf *sb, const Node *b, PrintStyle st) {
    const Node *operand;
    if (b->kind == NK_FrameBoundary) {
        expr_print_style(sb, b, st);
    } else if (is_unary_minus(b, &operand)) {
        expr_print_style(sb, operand, st);
        pr_puts(sb, " PRECEDING");
    } else {
        expr_print_style(sb, b, st);
        pr_puts(sb, " FOLLOWING");
    }
}

static void window_spec_print(StrBuf *sb, const Node *w, PrintStyle st) {
    uint32_t np = w->u.wspec.npartition, no = w->u.wspec.norder;
    if (np + no > w->nkids) np = no = 0;
    if (st == PS_STRING) {
        /* children = partitionSpec ++ orderSpec :+ frameSpecification */
        pr_puts(sb, "windowspecdefinition(");
        args_print(sb, w->kids, w->nkids, st, ", ");
        if (!w->u.wspec.has_frame) pr_puts(sb, w->nkids ? ", unspecifiedframe$()" : "unspecifiedframe$()");
        pr_putc(sb, ')');
        return;
    }
    pr_putc(sb, '(');
    bool any = false;
    if (np) {
        pr_puts(sb, "PARTITION BY ");
        args_print(sb, w->kids, np, st, ", ");
        any = true;
    }
    if (no) {
        if (any) pr_putc(sb, ' ');
        pr_puts(sb, "ORDER BY ");
        args_print(sb, node_kids_from(w, np), no, st, ", ");
        any = true;
    }
    if (w->u.wspec.has_frame && np + no < w->nkids) {
        if (any) pr_putc(sb, ' ');
        expr_print_style(sb, w->kids[np + no], st);
    }
    pr_putc(sb, ')');
}

/* ---- subqueries ---- */

static void subquery_print(StrBuf *sb, const Node *e, PrintStyle st) {
    uint32_t first = e->kind == NK_InSubquery ? e->u.subq.nvalues : 0;
    if (first > e->nkids) first = e->nkids;
    if (st == PS_STRING) {
        const char *tag = e->kind == NK_ScalarSubquery ? "scalar-subquery"
                          : e->kind == NK_Exists       ? "exists"
                          : e->kind == NK_LateralSubquery ? "lateral-subquery"
                                                       : "list";
        pr_puts(sb, tag);
        pr_putc(sb, '#');
        print_uint64(sb, (unsigned long long)e->u.subq.id);
        pr_puts(sb, " [");
        args_print(sb, node_kids_from(e, first), e->nkids - first, st, " && ");
        pr_putc(sb, ']');
        return;
    }
    const char *name = e->kind == NK_ScalarSubquery ? "scalarsubquery"
                       : e->kind == NK_Exists       ? "exists"
                       : e->kind == NK_LateralSubquery ? "lateralsubquery"
                                                    : "listquery";
    pr_puts(sb, name);
    pr_putc(sb, '(');
    args_print(sb, node_kids_from(e, first), e->nkids - first, st, ", ");
    pr_putc(sb, ')');
}

static void in_subquery_print(StrBuf *sb, const Node *e, PrintStyle st) {
    uint32_t nv = e->u.subq.nvalues;
    if (nv > e->nkids) nv = e->nkids;
    if (st == PS_STRING) {
        if (nv == 1) {
            expr_print_style(sb, e->kids[0], st);
        } else {
            pr_puts(sb, "named_struct(");
            for (uint32_t i = 0; i < nv; i++) {
                if (i) pr_puts(sb, ", ");
                /* Spark's InSubquery.value: a named value is keyed by its name */
                const Node *k = e->kids[i];
                if (k->kind == NK_AttributeReference || k->kind == NK_Alias) sb_printf(sb, "%s, ", k->u.attr.name);
                else if (k->kind == NK_UnresolvedAttribute) {
                    for (uint32_t j = 0; j < k->u.un.name.n; j++) sb_printf(sb, "%s%s", j ? "." : "", k->u.un.name.v[j]);
                    pr_puts(sb, ", ");
                } else sb_printf(sb, "_%u, ", i);
                expr_print_style(sb, k, st);
            }
            pr_putc(sb, ')');
        }
        pr_puts(sb, " IN (");
        subquery_print(sb, e, st);
        pr_putc(sb, ')');
        return;
    }
    pr_putc(sb, '(');
    if (nv == 1) {
        expr_print_style(sb, e->kids[0], st);
    } else {
        pr_putc(sb, '(');
        args_print(sb, e->kids, nv, st, ", ");
        pr_putc(sb, ')');
    }
    pr_puts(sb, " IN (");
    subquery_print(sb, e, st);
    pr_puts(sb, "))");
}

/* ---- the dispatcher ---- */

void expr_print_style(StrBuf *sb, const Node *e, PrintStyle st) {
    if (!e) {
        pr_puts(sb, "null");
        return;
    }
    bool s = st != PS_STRING;
    switch (e->kind) {
    case NK_Literal: literal_print(sb, &e->u.lit.v, st); return;

    case NK_UnresolvedAttribute:
        if (s) {
            name_parts_print(sb, e->u.un.name, true);
        } else {
            pr_putc(sb, '\'');
            unresolved_name_print(sb, e->u.un.name);
        }
        return;
    case NK_UnresolvedStar:
        if (e->u.un.name.n) {
            name_parts_print(sb, e->u.un.name, s);
            pr_putc(sb, '.');
        }
        pr_putc(sb, '*');
        if (e->nkids) {
            pr_puts(sb, " EXCEPT (");
            args_print(sb, e->kids, e->nkids, st, ", ");
            pr_putc(sb, ')');
        }
        return;
    case NK_UnresolvedAlias:
        if (s) {
            if (e->nkids) expr_print_style(sb, e->kids[0], st);
            return;
        }
        pr_puts(sb, "unresolvedalias(");
        if (e->nkids) expr_print_style(sb, e->kids[0], st);
        pr_putc(sb, ')');
        return;
    case NK_UnresolvedFunction: unresolved_function_print(sb, e, st); return;
    case NK_UnresolvedExtractValue:
        if (e->nkids < 2) break;
        expr_print_style(sb, e->kids[0], st);
        pr_putc(sb, '[');
        expr_print_style(sb, e->kids[1], st);
        pr_putc(sb, ']');
        return;
    case NK_UnresolvedOrdinal: sb_printf(sb, "unresolvedordinal(%d)", e->u.ordinal.ordinal); return;
    case NK_UnresolvedIdentifierExpr:
        pr_puts(sb, s ? "IDENTIFIER(" : "'IDENTIFIER(");
        if (e->nkids) expr_print_style(sb, e->kids[0], st);
        pr_putc(sb, ')');
        if (e->u.idexpr.is_function) {
            pr_putc(sb, '(');
            if (e->u.idexpr.distinct) pr_puts(sb, s ? "DISTINCT " : "distinct ");
            if (e->nkids > 1) args_print(sb, node_kids_from(e, 1), e->nkids - 1, st, ", ");
            pr_putc(sb, ')');
        }
        return;
    case NK_UnresolvedNamedLambdaVariable:
        if (!s) pr_puts(sb, "lambda '");
        name_parts_print(sb, e->u.un.name, false);
        return;
    case NK_UnresolvedWindowExpression:
        if (s) {
            if (e->nkids) expr_print_style(sb, e->kids[0], st);
            pr_puts(sb, " OVER ");
            name_parts_print(sb, e->u.un.name, true);
            return;
        }
        pr_puts(sb, "unresolvedwindowexpression(");
        if (e->nkids) expr_print_style(sb, e->kids[0], st);
        pr_puts(sb, ", WindowSpecReference(");
        name_parts_print(sb, e->u.un.name, false);
        pr_puts(sb, "))");
        return;
    case NK_NamedParameter:
        if (s)
            sb_printf(sb, ":%s", e->u.named.name ? e->u.named.name : "");
        else
            sb_printf(sb, "namedparameter(%s)", e->u.named.name ? e->u.named.name : "");
        return;
    case NK_PosParameter:
        if (s)
            pr_putc(sb, '?');
        else
            sb_printf(sb, "posparameter(%d)", e->u.pos.index);
        return;

    case NK_Alias:
        if (e->nkids) expr_print_style(sb, e->kids[0], st);
        pr_puts(sb, " AS ");
        if (s) {
            ident_print_if_needed(sb, e->u.attr.name ? e->u.attr.name : "");
            return;
        }
        pr_puts(sb, e->u.attr.name ? e->u.attr.name : "");
        id_print(sb, e->u.attr.id);
        type_suffix(sb, e, e->nkids && e->kids[0] ? e->kids[0]->type : e->type);
        return;
    case NK_AttributeReference:
        if (st == PS_PRETTY) {
            pr_puts(sb, e->u.attr.name ? e->u.attr.name : "");
        } else if (st == PS_SQL) {
            for (uint32_t i = 0; i < e->u.attr.qualifier.n; i++) {
                ident_print_if_needed(sb, e->u.attr.qualifier.v[i]);
                pr_putc(sb, '.');
            }
            ident_print_if_needed(sb, e->u.attr.name ? e->u.attr.name : "");
        } else {
            pr_puts(sb, e->u.attr.name ? e->u.attr.name : "");
            id_print(sb, e->u.attr.id);
            type_suffix(sb, e, e->type);
        }
        return;
    case NK_OuterReference:
        pr_puts(sb, "outer(");
        /* OuterReference is not an Attribute: the pretty rewrite does not reach
           inside, so Spark shows the qualified sql of the attribute */
        if (e->nkids) expr_print_style(sb, e->kids[0], s ? PS_SQL : PS_STRING);
        pr_putc(sb, ')');
        return;
    case NK_LateralColumnAliasReference: {
        pr_puts(sb, "lateralAliasReference(");
        /* Spark: the name parts as written, quoted if needed (`foo.a`, `New_Salary`) */
        if (e->u.lca.name.n)
            name_parts_print(sb, e->u.lca.name, true);
        else if (e->nkids && e->kids[0] && e->kids[0]->kind == NK_AttributeReference && e->kids[0]->u.attr.name)
            pr_puts(sb, e->kids[0]->u.attr.name);
        pr_putc(sb, ')');
        return;
    }
    case NK_VariableReference:
        pr_puts(sb, "variablereference(");
        name_parts_print(sb, e->u.attr.qualifier, false);
        if (e->u.attr.qualifier.n) pr_putc(sb, '.');
        pr_puts(sb, e->u.attr.name ? e->u.attr.name : "");
        pr_putc(sb, '=');
        if (e->u.attr.value)
            value_print_sql(sb, e->u.attr.value);
        else
            pr_puts(sb, "NULL");
        pr_putc(sb, ')');
        return;

    case NK_Call:
        /* a call a coercion rule put in (ApplyCharTypePadding's rpad) is named by its input */
        if (st == PS_PRETTY && (e->flags & NF_IMPLICIT) && e->nkids) {
            expr_print_style(sb, e->kids[0], st);
            return;
        }
        call_print(sb, e, st);
        return;
    case NK_SQLFunctionExpression:
    case NK_SQLScalarFunction: {
        /* Spark: name(inputs) — a SQLScalarFunction shows its inputs, not its body */
        uint32_t n = e->kind == NK_SQLScalarFunction && e->nkids ? e->nkids - 1 : e->nkids;
        pr_puts(sb, e->u.sqlfn.name ? e->u.sqlfn.name : "");
        pr_putc(sb, '(');
        args_print(sb, e->kids, n, st, ", ");
        pr_putc(sb, ')');
        return;
    }
    case NK_AggregateExpression:
        /* the function library prints DISTINCT and FILTER with the call */
        call_print(sb, e, st);
        return;
    case NK_Cast: {
        if (!e->nkids) break;
        if (st == PS_PRETTY && (e->flags & NF_IMPLICIT)) {
            expr_print_style(sb, e->kids[0], st);
            return;
        }
        const DataType *t = e->type ? e->type : &TYPE_NULL;
        if (s && !e->u.cast.try_ && type_is_complex(t)) {
            /* Spark's Cast.sql omits casts to ARRAY/MAP/STRUCT */
            expr_print_style(sb, e->kids[0], st);
            return;
        }
        if (s) {
            pr_puts(sb, e->u.cast.try_ ? "TRY_CAST(" : "CAST(");
            expr_print_style(sb, e->kids[0], st);
            pr_puts(sb, " AS ");
            type_print_sql(sb, t);
        } else {
            pr_puts(sb, e->u.cast.try_ ? "try_cast(" : "cast(");
            expr_print_style(sb, e->kids[0], st);
            pr_puts(sb, " as ");
            type_print_catalog(sb, t);
        }
        pr_putc(sb, ')');
        return;
    }
    case NK_CaseWhen: {
        uint32_t n = e->nkids, nb = (e->u.casew.has_else && n ? n - 1 : n) / 2;
        pr_puts(sb, "CASE");
        for (uint32_t i = 0; i < nb; i++) {
            pr_puts(sb, " WHEN ");
            expr_print_style(sb, e->kids[2 * i], st);
            pr_puts(sb, " THEN ");
            expr_print_style(sb, e->kids[2 * i + 1], st);
        }
        if (e->u.casew.has_else && n) {
            pr_puts(sb, " ELSE ");
            expr_print_style(sb, e->kids[n - 1], st);
        }
        pr_puts(sb, " END");
        return;
    }
    case NK_In:
        if (!e->nkids) break;
        if (s) pr_putc(sb, '(');
        expr_print_style(sb, e->kids[0], st);
        pr_puts(sb, " IN (");
        args_print(sb, node_kids_from(e, 1), e->nkids - 1, st, s ? ", " : ",");
        pr_putc(sb, ')');
        if (s) pr_putc(sb, ')');
        return;
    case NK_InSubquery: in_subquery_print(sb, e, st); return;
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_ListQuery:
    case NK_LateralSubquery: subquery_print(sb, e, st); return;
    case NK_GetStructField: {
        if (!e->nkids) break;
        expr_print_style(sb, e->kids[0], st);
        pr_putc(sb, '.');
        const char *name = e->u.field.name;
        if (!name && e->kids[0] && e->kids[0]->type && e->kids[0]->type->id == T_STRUCT && e->u.field.ordinal >= 0 &&
            e->u.field.ordinal < e->kids[0]->type->nfields)
            name = e->kids[0]->type->fields[e->u.field.ordinal].name;
        if (!name) name = "";
        if (st == PS_SQL)
            ident_print_if_needed(sb, name);
        else
            pr_puts(sb, name);
        return;
    }
    case NK_SortOrder:
        if (!e->nkids) break;
        expr_print_style(sb, e->kids[0], st);
        pr_puts(sb, e->u.sort_order.descending ? " DESC" : " ASC");
        pr_puts(sb, e->u.sort_order.nulls_first ? " NULLS FIRST" : " NULLS LAST");
        return;
    case NK_WindowExpression:
        if (e->nkids < 2) break;
        expr_print_style(sb, e->kids[0], st);
        pr_puts(sb, s ? " OVER " : " ");
        expr_print_style(sb, e->kids[1], st);
        return;
    case NK_WindowSpecDefinition:
        if (e->u.wspec.ref_name && !e->nkids) {
            pr_puts(sb, e->u.wspec.ref_name);
            return;
        }
        window_spec_print(sb, e, st);
        return;
    case NK_SpecifiedWindowFrame:
        if (e->nkids < 2) break;
        if (!s) {
            pr_puts(sb, e->u.frame.type == FRAME_ROWS ? "specifiedwindowframe(RowFrame, "
                                                      : "specifiedwindowframe(RangeFrame, ");
            expr_print_style(sb, e->kids[0], st);
            pr_puts(sb, ", ");
            expr_print_style(sb, e->kids[1], st);
            pr_putc(sb, ')');
            return;
        }
        pr_puts(sb, e->u.frame.type == FRAME_ROWS ? "ROWS BETWEEN " : "RANGE BETWEEN ");
        frame_bound_sql(sb, e->kids[0], st);
        pr_puts(sb, " AND ");
        frame_bound_sql(sb, e->kids[1], st);
        return;
    case NK_FrameBoundary:
        switch (e->u.bound.type) {
        case BOUND_UNBOUNDED_PRECEDING: pr_puts(sb, s ? "UNBOUNDED PRECEDING" : "unboundedpreceding$()"); return;
        case BOUND_UNBOUNDED_FOLLOWING: pr_puts(sb, s ? "UNBOUNDED FOLLOWING" : "unboundedfollowing$()"); return;
        case BOUND_CURRENT_ROW: pr_puts(sb, s ? "CURRENT ROW" : "currentrow$()"); return;
        }
        return;
    case NK_LambdaFunction:
        pr_puts(sb, "lambdafunction(");
        args_print(sb, e->kids, e->nkids, st, ", ");
        /* LambdaFunction(function, arguments, hidden): hidden for a plain expression in a function slot */
        if (!s) pr_puts(sb, (e->flags & NF_IMPLICIT) ? (e->nkids ? ", true" : "true") : (e->nkids ? ", false" : "false"));
        pr_putc(sb, ')');
        return;
    case NK_NamedLambdaVariable:
        if (s) {
            pr_puts(sb, "namedlambdavariable()");
            return;
        }
        pr_puts(sb, "lambda ");
        pr_puts(sb, e->u.attr.name ? e->u.attr.name : "");
        id_print(sb, e->u.attr.id);
        type_suffix(sb, e, e->type);
        return;
    case NK_NamedArgument:
        pr_puts(sb, e->u.named.name ? e->u.named.name : "");
        pr_puts(sb, " => ");
        if (e->nkids) expr_print_style(sb, e->kids[0], st);
        return;
    case NK_ExprList:
        pr_putc(sb, '(');
        args_print(sb, e->kids, e->nkids, st, ", ");
        pr_putc(sb, ')');
        return;
    case NK_GroupingSets:
    case NK_Cube:
    case NK_Rollup:
        pr_puts(sb, e->kind == NK_Cube ? "cube(" : e->kind == NK_Rollup ? "rollup(" : "groupingsets(");
        args_print(sb, e->kids, e->nkids, st, ", ");
        pr_putc(sb, ')');
        return;
    case NK_Star: pr_putc(sb, '*'); return;
    default: break;
    }
    /* a plan where an expression was expected, or a malformed node */
    pr_puts(sb, node_kind_name(e->kind));
}

void expr_print(StrBuf *sb, const Node *e) { expr_print_style(sb, e, PS_STRING); }

const char *expr_to_string(Arena *a, const Node *e) {
    StrBuf sb;
    sb_init(&sb, a, 64);
    expr_print_style(&sb, e, PS_STRING);
    return sb_str(&sb);
}

void expr_print_sql(StrBuf *sb, const Node *e) { expr_print_style(sb, e, PS_PRETTY); }

/* The name of a NamedExpression (Spark's `ne.name`), or NULL. */
static const char *named_name(const Node *e) {
    if (!e) return NULL;
    switch (e->kind) {
    case NK_AttributeReference:
    case NK_Alias:
    case NK_NamedLambdaVariable: return e->u.attr.name;
    case NK_OuterReference: return e->nkids ? named_name(e->kids[0]) : NULL;
    case NK_LateralColumnAliasReference:
        if (e->nkids && e->kids[0] && e->kids[0]->kind == NK_AttributeReference) return e->kids[0]->u.attr.name;
        return e->u.lca.name.n ? e->u.lca.name.v[e->u.lca.name.n - 1] : NULL;
    default: return NULL;
    }
}

/* ResolveAliases: a named expression keeps its name, so does a cast of one
 * (`CAST(a AS BIGINT)` is named `a`); anything else gets toPrettySQL. */
const char *expr_auto_name(Arena *a, const Node *e) {
    const char *name = named_name(e);
    if (!name && e && e->kind == NK_Cast && e->nkids) name = named_name(e->kids[0]);
    if (name) return name;
    StrBuf sb;
    sb_init(&sb, a, 64);
    expr_print_style(&sb, e, PS_PRETTY);
    return sb_str(&sb);
}

const char *expr_sql(Arena *a, const Node *e) {
    StrBuf sb;
    sb_init(&sb, a, 64);
    expr_print_style(&sb, e, PS_SQL);
    return sb_str(&sb);
}

const char *sql_id_dotted(Arena *a, const char *s) {
    StrBuf sb;
    sb_init(&sb, a, 64);
    pr_putc(&sb, '`');
    for (const char *p = s; *p; p++) {
        if (*p == '.') pr_puts(&sb, "`.`");
        else if (*p == '`') pr_puts(&sb, "``");
        else pr_putc(&sb, *p);
    }
    pr_putc(&sb, '`');
    return sb_str(&sb);
}

const char *expr_sql_quoted(Arena *a, const Node *e) {
    StrBuf sb;
    sb_init(&sb, a, 64);
    pr_putc(&sb, '"');
    expr_print_style(&sb, e, PS_PRETTY);
    pr_putc(&sb, '"');
    return sb_str(&sb);
}
