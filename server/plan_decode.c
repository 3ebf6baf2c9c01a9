/* Protobuf → IR decoder (see plan_decode.h). Mirrors Spark Connect's
 * SparkConnectPlanner: each Relation / Expression case builds the node the
 * SQL parser would build for the same query. */
#include "plan_decode.h"

#include <stdio.h>
#include <string.h>

#include "parser/parser.h"

typedef Catalyzer__V1__Relation Rel;
typedef Catalyzer__V1__Expression Expr;

typedef struct Dec {
    Arena *a;
    const DecodeLimits *lim;
    uint32_t nodes;
    char *err;
    size_t errlen;
    bool failed;
} Dec;

static void *dfail(Dec *d, const char *fmt, const char *arg) {
    if (!d->failed) snprintf(d->err, d->errlen, fmt, arg);
    d->failed = true;
    return NULL;
}

static bool enter(Dec *d, uint32_t depth) {
    if (depth > d->lim->max_depth) {
        char n[16];
        snprintf(n, sizeof n, "%u", d->lim->max_depth);
        dfail(d, "plan nesting exceeds the maximum depth of %s", n);
        return false;
    }
    if (d->lim->max_nodes && ++d->nodes > d->lim->max_nodes) {
        char n[16];
        snprintf(n, sizeof n, "%u", d->lim->max_nodes);
        dfail(d, "plan exceeds the maximum of %s nodes", n);
        return false;
    }
    return true;
}

static void origin_of(const Catalyzer__V1__Origin *o, int32_t *start, int32_t *stop) {
    *start = o ? o->start : -1;
    *stop = o ? o->stop : -1;
}

static bool name_from(Dec *d, const char *unparsed, size_t nparts, char *const *parts, NameParts *out, const char *what) {
    if (nparts > 0) {
        const char **copy = ARENA_ARRAY(d->a, const char *, nparts);
        for (size_t i = 0; i < nparts; i++) copy[i] = arena_strdup(d->a, parts[i]);
        *out = name_parts(d->a, (uint32_t)nparts, copy);
        return true;
    }
    if (!unparsed || !*unparsed) {
        dfail(d, "%s: empty identifier", what);
        return false;
    }
    ErrorInfo *e = NULL;
    if (!parse_multipart_identifier(d->a, unparsed, strlen(unparsed), out, &e)) {
        dfail(d, "invalid identifier \"%s\"", unparsed);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- types */

static const DataType *dtype(Dec *d, const Catalyzer__V1__DataType *t, uint32_t depth);

const DataType *datatype_decode(Arena *a, const Catalyzer__V1__DataType *t, char *err, size_t errlen) {
    DecodeLimits lim = {1000, 0};
    Dec d = {a, &lim, 0, err, errlen, false};
    return dtype(&d, t, 0);
}

static const DataType *dtype(Dec *d, const Catalyzer__V1__DataType *t, uint32_t depth) {
    if (!t) return dfail(d, "missing data type%s", "");
    if (!enter(d, depth)) return NULL;
    if (t->catalog_string && *t->catalog_string) {
        const char *why = NULL;
        const DataType *r = type_parse(d->a, t->catalog_string, strlen(t->catalog_string), NULL, &why);
        if (!r) return dfail(d, "invalid data type \"%s\"", t->catalog_string);
        return r;
    }
    switch (t->kind) {
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_NULL: return &TYPE_NULL;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_BOOLEAN: return &TYPE_BOOLEAN;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_BYTE: return &TYPE_BYTE;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_SHORT: return &TYPE_SHORT;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_INTEGER: return &TYPE_INT;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_LONG: return &TYPE_LONG;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_FLOAT: return &TYPE_FLOAT;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_DOUBLE: return &TYPE_DOUBLE;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_STRING: return &TYPE_STRING;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_BINARY: return &TYPE_BINARY;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_DATE: return &TYPE_DATE;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_TIMESTAMP: return &TYPE_TIMESTAMP;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_TIMESTAMP_NTZ: return &TYPE_TIMESTAMP_NTZ;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_CALENDAR_INTERVAL: return &TYPE_CALENDAR_INTERVAL;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_VARIANT: return &TYPE_VARIANT;
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_DECIMAL:
        if (t->precision < 1 || t->precision > 38 || t->scale < 0 || t->scale > t->precision)
            return dfail(d, "invalid decimal precision/scale%s", "");
        return type_decimal(d->a, t->precision, t->scale);
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_CHAR:
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_VARCHAR:
        if (t->length < 1) return dfail(d, "invalid char/varchar length%s", "");
        return type_char(d->a, t->kind == CATALYZER__V1__DATA_TYPE__KIND__KIND_CHAR ? T_CHAR : T_VARCHAR, t->length);
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_YEAR_MONTH_INTERVAL:
        if (t->start_field < 0 || t->end_field < t->start_field || t->end_field > 1)
            return dfail(d, "invalid interval fields%s", "");
        return type_ym_interval(d->a, t->start_field, t->end_field);
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_DAY_TIME_INTERVAL:
        if (t->start_field < 0 || t->end_field < t->start_field || t->end_field > 3)
            return dfail(d, "invalid interval fields%s", "");
        return type_dt_interval(d->a, t->start_field, t->end_field);
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_ARRAY: {
        const DataType *e = dtype(d, t->element_type, depth + 1);
        return e ? type_array(d->a, e, t->contains_null) : NULL;
    }
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_MAP: {
        const DataType *k = dtype(d, t->element_type, depth + 1);
        const DataType *v = k ? dtype(d, t->value_type, depth + 1) : NULL;
        return v ? type_map(d->a, k, v, t->contains_null) : NULL;
    }
    case CATALYZER__V1__DATA_TYPE__KIND__KIND_STRUCT: {
        StructField *f = ARENA_ARRAY(d->a, StructField, t->n_fields ? t->n_fields : 1);
        for (size_t i = 0; i < t->n_fields; i++) {
            const Catalyzer__V1__DataType__StructField *sf = t->fields[i];
            if (!sf->name || !*sf->name) return dfail(d, "struct field without a name%s", "");
            f[i].name = arena_strdup(d->a, sf->name);
            f[i].type = dtype(d, sf->type, depth + 1);
            if (!f[i].type) return NULL;
            f[i].nullable = sf->nullable;
        }
        return type_struct(d->a, (int)t->n_fields, f);
    }
    default: return dfail(d, "data type without kind or catalog_string%s", "");
    }
}

/* ---------------------------------------------------------------- expressions */

static Node *expr(Dec *d, const Expr *e, uint32_t depth);

static bool exprs(Dec *d, Expr *const *in, size_t n, uint32_t depth, Node ***out) {
    Node **v = ARENA_ARRAY(d->a, Node *, n ? n : 1);
    for (size_t i = 0; i < n; i++)
        if (!(v[i] = expr(d, in[i], depth))) return false;
    *out = v;
    return true;
}

/* Parses "12.50" into an unscaled integer and scale. */
static bool parse_decimal(const char *s, __int128 *unscaled, int *precision, int *scale) {
    bool neg = false, dot = false;
    int digits = 0, sc = 0;
    __int128 v = 0;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    if (!*s) return false;
    for (; *s; s++) {
        if (*s == '.' && !dot) {
            dot = true;
            continue;
        }
        if (*s < '0' || *s > '9') return false;
        if (digits > 0 || *s != '0') digits++;
        if (digits > 38) return false;
        v = v * 10 + (*s - '0');
        if (dot) sc++;
    }
    *unscaled = neg ? -v : v;
    *scale = sc;
    *precision = digits > sc ? digits : sc;
    if (*precision == 0) *precision = 1;
    return true;
}

static Node *literal(Dec *d, const Catalyzer__V1__Expression__Literal *l, int32_t start, int32_t stop, uint32_t depth) {
    Node *n = node_new(d->a, NK_Literal, start, stop);
    Value *v = &n->u.lit.v;
    switch (l->literal_type_case) {
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_NULL:
        v->is_null = true;
        v->type = l->null ? dtype(d, l->null, depth + 1) : &TYPE_NULL;
        if (!v->type) return NULL;
        break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_BOOLEAN: v->type = &TYPE_BOOLEAN; v->u.b = l->boolean; break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_BYTE:
        if (l->byte < -128 || l->byte > 127) return dfail(d, "byte literal out of range%s", "");
        v->type = &TYPE_BYTE;
        v->u.i = l->byte;
        break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_SHORT:
        if (l->short_ < -32768 || l->short_ > 32767) return dfail(d, "short literal out of range%s", "");
        v->type = &TYPE_SHORT;
        v->u.i = l->short_;
        break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_INTEGER: v->type = &TYPE_INT; v->u.i = l->integer; break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_LONG: v->type = &TYPE_LONG; v->u.i = l->long_; break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_FLOAT: v->type = &TYPE_FLOAT; v->u.d = l->float_; break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_DOUBLE: v->type = &TYPE_DOUBLE; v->u.d = l->double_; break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_DECIMAL: {
        int p, s;
        if (!l->decimal || !parse_decimal(l->decimal->value, &v->u.dec, &p, &s))
            return dfail(d, "invalid decimal literal \"%s\"", l->decimal ? l->decimal->value : "");
        if (l->decimal->precision > 0) {
            if (l->decimal->precision > 38 || l->decimal->scale != s || l->decimal->precision < p)
                return dfail(d, "decimal literal \"%s\" does not fit its precision/scale", l->decimal->value);
            p = l->decimal->precision;
        }
        v->type = type_decimal(d->a, p, s);
        break;
    }
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_STRING:
        v->type = &TYPE_STRING;
        v->u.s.p = arena_strdup(d->a, l->string);
        v->u.s.len = (uint32_t)strlen(l->string);
        break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_BINARY: {
        char *p = arena_alloc(d->a, l->binary.len + 1);
        if (l->binary.len) memcpy(p, l->binary.data, l->binary.len);
        v->type = &TYPE_BINARY;
        v->u.s.p = p;
        v->u.s.len = (uint32_t)l->binary.len;
        break;
    }
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_DATE: v->type = &TYPE_DATE; v->u.i = l->date; break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_TIMESTAMP: v->type = &TYPE_TIMESTAMP; v->u.i = l->timestamp; break;
    case CATALYZER__V1__EXPRESSION__LITERAL__LITERAL_TYPE_TIMESTAMP_NTZ:
        v->type = &TYPE_TIMESTAMP_NTZ;
        v->u.i = l->timestamp_ntz;
        break;
    default: return dfail(d, "literal without a value%s", "");
    }
    n->type = v->type;
    return node_finish(n);
}

/* Spark Connect spells operators as function names; these are the ones the
 * SQL parser builds as operators rather than calls. */
static bool is_operator_name(const char *s) {
    static const char *const OPS[] = {"+", "-", "*", "/", "%", "=", "==", "<=>", "<", "<=", ">", ">=", "!=", "<>",
                                      "&", "|", "^", "~", "||", "and", "or", "not", "negative", "div", NULL};
    for (int i = 0; OPS[i]; i++)
        if (strcmp(OPS[i], s) == 0) return true;
    return false;
}

static Node *expr(Dec *d, const Expr *e, uint32_t depth) {
    if (!e) return dfail(d, "missing expression%s", "");
    if (!enter(d, depth)) return NULL;
    int32_t start, stop;
    origin_of(e->origin, &start, &stop);
    Node *n = NULL;
    switch (e->expr_type_case) {
    case CATALYZER__V1__EXPRESSION__EXPR_TYPE_LITERAL:
        n = literal(d, e->literal, start, stop, depth);
        if (!n) return NULL;
        break;
    case CATALYZER__V1__EXPRESSION__EXPR_TYPE_UNRESOLVED_ATTRIBUTE: {
        const Catalyzer__V1__Expression__UnresolvedAttribute *u = e->unresolved_attribute;
        n = node_new(d->a, NK_UnresolvedAttribute, start, stop);
        if (!name_from(d, u->unparsed_identifier, u->n_name_parts, u->name_parts, &n->u.un.name, "attribute"))
            return NULL;
        break;
    }
    case CATALYZER__V1__EXPRESSION__EXPR_TYPE_UNRESOLVED_FUNCTION: {
        const Catalyzer__V1__Expression__UnresolvedFunction *f = e->unresolved_function;
        if (!f->function_name || !*f->function_name) return dfail(d, "function without a name%s", "");
        Node **args;
        if (!exprs(d, f->arguments, f->n_arguments, depth + 1, &args)) return NULL;
        n = node_new(d->a, NK_UnresolvedFunction, start, stop);
        if (is_operator_name(f->function_name)) {
            n->u.un.name = name_parts1(d->a, arena_strdup(d->a, f->function_name));
            n->u.un.is_operator = true;
        } else if (!name_from(d, f->function_name, 0, NULL, &n->u.un.name, "function")) {
            return NULL;
        }
        n->u.un.nargs = (uint32_t)f->n_arguments;
        if (f->is_distinct) n->flags |= NF_DISTINCT;
        node_set_kids(d->a, n, args, (uint32_t)f->n_arguments);
        break;
    }
    case CATALYZER__V1__EXPRESSION__EXPR_TYPE_UNRESOLVED_STAR: {
        const char *t = e->unresolved_star->unparsed_target;
        n = node_new(d->a, NK_UnresolvedStar, start, stop);
        size_t len = t ? strlen(t) : 0;
        if (len >= 2 && strcmp(t + len - 2, ".*") == 0) len -= 2;
        if (len == 1 && t[0] == '*') len = 0;
        if (len > 0) {
            ErrorInfo *err = NULL;
            if (!parse_multipart_identifier(d->a, t, len, &n->u.un.name, &err))
                return dfail(d, "invalid star target \"%s\"", t);
        }
        break;
    }
    case CATALYZER__V1__EXPRESSION__EXPR_TYPE_ALIAS: {
        const Catalyzer__V1__Expression__Alias *al = e->alias;
        if (al->n_name != 1) return dfail(d, "alias needs exactly one name%s", "");
        Node *c = expr(d, al->expr, depth + 1);
        if (!c) return NULL;
        n = node_new(d->a, NK_Alias, start, stop);
        n->u.attr.name = arena_strdup(d->a, al->name[0]);
        node_set_kids(d->a, n, &c, 1);
        break;
    }
    case CATALYZER__V1__EXPRESSION__EXPR_TYPE_CAST: {
        Node *c = expr(d, e->cast->expr, depth + 1);
        if (!c) return NULL;
        const DataType *t = dtype(d, e->cast->type, depth + 1);
        if (!t) return NULL;
        n = node_new(d->a, NK_Cast, start, stop);
        n->type = t;
        n->u.cast.try_ = e->cast->try_;
        n->u.cast.ansi = true;
        node_set_kids(d->a, n, &c, 1);
        break;
    }
    case CATALYZER__V1__EXPRESSION__EXPR_TYPE_SORT_ORDER: {
        const Catalyzer__V1__Expression__SortOrder *so = e->sort_order;
        Node *c = expr(d, so->child, depth + 1);
        if (!c) return NULL;
        n = node_new(d->a, NK_SortOrder, start, stop);
        n->u.sort_order.descending = so->direction == CATALYZER__V1__EXPRESSION__SORT_ORDER__SORT_DIRECTION__SORT_DIRECTION_DESCENDING;
        /* Spark's defaults: ASC NULLS FIRST, DESC NULLS LAST. */
        n->u.sort_order.nulls_first =
            so->null_ordering == CATALYZER__V1__EXPRESSION__SORT_ORDER__NULL_ORDERING__SORT_NULLS_UNSPECIFIED
                ? !n->u.sort_order.descending
                : so->null_ordering == CATALYZER__V1__EXPRESSION__SORT_ORDER__NULL_ORDERING__SORT_NULLS_FIRST;
        node_set_kids(d->a, n, &c, 1);
        break;
    }
    case CATALYZER__V1__EXPRESSION__EXPR_TYPE_EXPRESSION_STRING: {
        const char *s = e->expression_string->expression;
        ParserOptions po = {0};
        po.max_depth = d->lim->max_depth;
        ErrorInfo *err = NULL;
        n = parse_expression(d->a, s, strlen(s), &po, &err);
        if (!n) return dfail(d, "cannot parse expression: %s", err && err->message ? err->message : s);
        return n; /* finished by the parser */
    }
    case CATALYZER__V1__EXPRESSION__EXPR_TYPE_UNRESOLVED_EXTRACT_VALUE: {
        Node *k[2];
        if (!(k[0] = expr(d, e->unresolved_extract_value->child, depth + 1))) return NULL;
        if (!(k[1] = expr(d, e->unresolved_extract_value->extraction, depth + 1))) return NULL;
        n = node_new(d->a, NK_UnresolvedExtractValue, start, stop);
        node_set_kids(d->a, n, k, 2);
        break;
    }
    default: return dfail(d, "expression without a type%s", "");
    }
    if (e->plan_id_present_case == CATALYZER__V1__EXPRESSION__PLAN_ID_PRESENT_PLAN_ID) n->plan_id = (int32_t)e->plan_id;
    return node_finish(n);
}

/* ---------------------------------------------------------------- relations */

static Node *rel(Dec *d, const Rel *r, uint32_t depth);

static Node *lit_int(Dec *d, int64_t v, const DataType *t) {
    Node *n = node_new(d->a, NK_Literal, -1, -1);
    n->u.lit.v.type = t;
    n->u.lit.v.u.i = v;
    n->type = t;
    return node_finish(n);
}

static Node *unary(Dec *d, NodeKind k, const Rel *input, int32_t start, int32_t stop, uint32_t depth) {
    Node *c = rel(d, input, depth + 1);
    if (!c) return NULL;
    Node *n = node_new(d->a, k, start, stop);
    node_set_kids(d->a, n, &c, 1);
    return n;
}

static Node *rel(Dec *d, const Rel *r, uint32_t depth) {
    if (!r) return dfail(d, "missing relation%s", "");
    if (!enter(d, depth)) return NULL;
    int32_t start = -1, stop = -1;
    if (r->common) origin_of(r->common->origin, &start, &stop);
    Node *n = NULL;
    switch (r->rel_type_case) {
    case CATALYZER__V1__RELATION__REL_TYPE_READ: {
        const Catalyzer__V1__Read__NamedTable *t = r->read->named_table;
        if (!t) return dfail(d, "read without named_table%s", "");
        n = node_new(d->a, NK_UnresolvedRelation, start, stop);
        if (!name_from(d, t->unparsed_identifier, t->n_name_parts, t->name_parts, &n->u.un.name, "table")) return NULL;
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_PROJECT: {
        const Catalyzer__V1__Project *p = r->project;
        Node *c;
        if (p->input) {
            if (!(c = rel(d, p->input, depth + 1))) return NULL;
        } else {
            c = node_finish(node_new(d->a, NK_OneRowRelation, -1, -1)); /* SELECT without FROM */
        }
        Node **es;
        if (!exprs(d, p->expressions, p->n_expressions, depth + 1, &es)) return NULL;
        n = node_new(d->a, NK_Project, start, stop);
        node_set_kids(d->a, n, &c, 1);
        node_set_exprs(d->a, n, es, (uint32_t)p->n_expressions);
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_FILTER: {
        Node *cond = expr(d, r->filter->condition, depth + 1);
        if (!cond || !(n = unary(d, NK_Filter, r->filter->input, start, stop, depth))) return NULL;
        node_set_exprs(d->a, n, &cond, 1);
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_AGGREGATE: {
        const Catalyzer__V1__Aggregate *ag = r->aggregate;
        Node **g, **aggs;
        if (!exprs(d, ag->grouping_expressions, ag->n_grouping_expressions, depth + 1, &g)) return NULL;
        if (!exprs(d, ag->aggregate_expressions, ag->n_aggregate_expressions, depth + 1, &aggs)) return NULL;
        size_t ng = ag->n_grouping_expressions;
        if (ag->group_type == CATALYZER__V1__AGGREGATE__GROUP_TYPE__GROUP_TYPE_ROLLUP ||
            ag->group_type == CATALYZER__V1__AGGREGATE__GROUP_TYPE__GROUP_TYPE_CUBE) {
            Node *w = node_new(d->a,
                               ag->group_type == CATALYZER__V1__AGGREGATE__GROUP_TYPE__GROUP_TYPE_ROLLUP ? NK_Rollup : NK_Cube,
                               -1, -1);
            node_set_kids(d->a, w, g, (uint32_t)ng);
            g[0] = node_finish(w);
            ng = 1;
        }
        if (!(n = unary(d, NK_Aggregate, ag->input, start, stop, depth))) return NULL;
        Node **all = ARENA_ARRAY(d->a, Node *, ng + ag->n_aggregate_expressions + 1);
        memcpy(all, g, ng * sizeof(Node *));
        memcpy(all + ng, aggs, ag->n_aggregate_expressions * sizeof(Node *));
        node_set_exprs(d->a, n, all, (uint32_t)(ng + ag->n_aggregate_expressions));
        n->u.aggregate.ngroup = (uint32_t)ng;
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_SORT: {
        const Catalyzer__V1__Sort *s = r->sort;
        Node **o = ARENA_ARRAY(d->a, Node *, s->n_order ? s->n_order : 1);
        for (size_t i = 0; i < s->n_order; i++) {
            Expr wrap = CATALYZER__V1__EXPRESSION__INIT;
            wrap.expr_type_case = CATALYZER__V1__EXPRESSION__EXPR_TYPE_SORT_ORDER;
            wrap.sort_order = s->order[i];
            if (!(o[i] = expr(d, &wrap, depth + 1))) return NULL;
        }
        if (!(n = unary(d, NK_Sort, s->input, start, stop, depth))) return NULL;
        node_set_exprs(d->a, n, o, (uint32_t)s->n_order);
        n->u.sort.global = s->is_global;
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_LIMIT: {
        if (r->limit->limit < 0) return dfail(d, "negative limit%s", "");
        /* Spark's Limit(n, child) = GlobalLimit(n, LocalLimit(n, child)). */
        Node *local = unary(d, NK_LocalLimit, r->limit->input, start, stop, depth);
        if (!local) return NULL;
        Node *l1 = lit_int(d, r->limit->limit, &TYPE_INT);
        node_set_exprs(d->a, local, &l1, 1);
        node_finish(local);
        n = node_new(d->a, NK_GlobalLimit, start, stop);
        node_set_kids(d->a, n, &local, 1);
        Node *l2 = lit_int(d, r->limit->limit, &TYPE_INT);
        node_set_exprs(d->a, n, &l2, 1);
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_OFFSET: {
        if (r->offset->offset < 0) return dfail(d, "negative offset%s", "");
        if (!(n = unary(d, NK_Offset, r->offset->input, start, stop, depth))) return NULL;
        Node *l = lit_int(d, r->offset->offset, &TYPE_INT);
        node_set_exprs(d->a, n, &l, 1);
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_JOIN: {
        const Catalyzer__V1__Join *j = r->join;
        Node *k[2];
        if (!(k[0] = rel(d, j->left, depth + 1)) || !(k[1] = rel(d, j->right, depth + 1))) return NULL;
        Node *cond = NULL;
        if (j->join_condition && !(cond = expr(d, j->join_condition, depth + 1))) return NULL;
        n = node_new(d->a, NK_Join, start, stop);
        node_set_kids(d->a, n, k, 2);
        if (cond) node_set_exprs(d->a, n, &cond, 1);
        static const JoinType JT[] = {JOIN_INNER,    JOIN_INNER,     JOIN_FULL_OUTER, JOIN_LEFT_OUTER,
                                      JOIN_RIGHT_OUTER, JOIN_LEFT_ANTI, JOIN_LEFT_SEMI,  JOIN_CROSS};
        n->u.join.type = JT[j->join_type]; /* enum range validated by pb_validate */
        if (j->n_using_columns) {
            if (cond) return dfail(d, "join with both a condition and using_columns%s", "");
            n->u.join.nusing = (uint32_t)j->n_using_columns;
            n->u.join.using_cols = ARENA_ARRAY(d->a, const char *, j->n_using_columns);
            for (size_t i = 0; i < j->n_using_columns; i++)
                n->u.join.using_cols[i] = arena_strdup(d->a, j->using_columns[i]);
        }
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_SET_OP: {
        const Catalyzer__V1__SetOperation *s = r->set_op;
        NodeKind k;
        switch (s->set_op_type) {
        case CATALYZER__V1__SET_OPERATION__SET_OP_TYPE__SET_OP_TYPE_UNION: k = NK_Union; break;
        case CATALYZER__V1__SET_OPERATION__SET_OP_TYPE__SET_OP_TYPE_INTERSECT: k = NK_Intersect; break;
        case CATALYZER__V1__SET_OPERATION__SET_OP_TYPE__SET_OP_TYPE_EXCEPT: k = NK_Except; break;
        default: return dfail(d, "set operation without a type%s", "");
        }
        Node *kk[2];
        if (!(kk[0] = rel(d, s->left_input, depth + 1)) || !(kk[1] = rel(d, s->right_input, depth + 1))) return NULL;
        n = node_new(d->a, k, start, stop);
        node_set_kids(d->a, n, kk, 2);
        n->u.setop.is_all = s->is_all;
        n->u.setop.by_name = s->by_name;
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_SUBQUERY_ALIAS: {
        const Catalyzer__V1__SubqueryAlias *s = r->subquery_alias;
        if (!s->alias || !*s->alias) return dfail(d, "subquery alias without a name%s", "");
        if (!(n = unary(d, NK_SubqueryAlias, s->input, start, stop, depth))) return NULL;
        const char **parts = ARENA_ARRAY(d->a, const char *, s->n_qualifier + 1);
        for (size_t i = 0; i < s->n_qualifier; i++) parts[i] = arena_strdup(d->a, s->qualifier[i]);
        parts[s->n_qualifier] = arena_strdup(d->a, s->alias);
        n->u.alias.name = name_parts(d->a, (uint32_t)s->n_qualifier + 1, parts);
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_RANGE: {
        /* As the parser does for FROM range(...): a table-valued function call. */
        const Catalyzer__V1__Range *rg = r->range;
        Node *args[3] = {lit_int(d, rg->start, &TYPE_LONG), lit_int(d, rg->end, &TYPE_LONG),
                         lit_int(d, rg->step ? rg->step : 1, &TYPE_LONG)};
        n = node_new(d->a, NK_UnresolvedTableValuedFunction, start, stop);
        n->u.un.name = name_parts1(d->a, "range");
        n->u.un.nargs = 3;
        node_set_exprs(d->a, n, args, 3);
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_DEDUPLICATE: {
        const Catalyzer__V1__Deduplicate *dd = r->deduplicate;
        if (dd->n_column_names && !dd->all_columns_as_keys)
            return dfail(d, "Deduplicate by a column subset is not supported; use Aggregate%s", "");
        n = unary(d, NK_Distinct, dd->input, start, stop, depth);
        if (!n) return NULL;
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_ONE_ROW: n = node_new(d->a, NK_OneRowRelation, start, stop); break;
    case CATALYZER__V1__RELATION__REL_TYPE_LOCAL_RELATION: {
        const Catalyzer__V1__LocalRelation *lr = r->local_relation;
        if (lr->n_rows == 0) return dfail(d, "local relation without rows%s", "");
        Node **rows = ARENA_ARRAY(d->a, Node *, lr->n_rows);
        for (size_t i = 0; i < lr->n_rows; i++) {
            const Catalyzer__V1__LocalRelation__Row *row = lr->rows[i];
            if (lr->n_columns && row->n_values != lr->n_columns)
                return dfail(d, "local relation row width differs from its column list%s", "");
            Node **vals = ARENA_ARRAY(d->a, Node *, row->n_values ? row->n_values : 1);
            for (size_t k = 0; k < row->n_values; k++) {
                if (!enter(d, depth + 1)) return NULL;
                if (!(vals[k] = literal(d, row->values[k], -1, -1, depth + 1))) return NULL;
            }
            Node *t = node_new(d->a, NK_ExprList, -1, -1);
            node_set_kids(d->a, t, vals, (uint32_t)row->n_values);
            rows[i] = node_finish(t);
        }
        n = node_new(d->a, NK_UnresolvedInlineTable, start, stop);
        node_set_exprs(d->a, n, rows, (uint32_t)lr->n_rows);
        n->u.cols.ncols = (uint32_t)lr->n_columns;
        if (lr->n_columns) {
            n->u.cols.cols = ARENA_ARRAY(d->a, const char *, lr->n_columns);
            for (size_t i = 0; i < lr->n_columns; i++) n->u.cols.cols[i] = arena_strdup(d->a, lr->columns[i]);
        }
        break;
    }
    case CATALYZER__V1__RELATION__REL_TYPE_SQL: {
        const char *q = r->sql->query;
        ParserOptions po = {0};
        po.max_depth = d->lim->max_depth;
        ErrorInfo *err = NULL;
        n = parse_statement(d->a, q, strlen(q), &po, &err);
        if (!n) return dfail(d, "cannot parse SQL relation: %s", err && err->message ? err->message : q);
        if (!node_kind_is_plan(n->kind) || node_kind_is_command(n->kind))
            return dfail(d, "SQL relation is not a query: %s", q);
        if (r->common && r->common->plan_id_present_case == CATALYZER__V1__RELATION_COMMON__PLAN_ID_PRESENT_PLAN_ID) {
            n = node_copy(d->a, n);
            n->plan_id = (int32_t)r->common->plan_id;
            return node_finish(n);
        }
        return n; /* finished by the parser */
    }
    default: return dfail(d, "relation without a type%s", "");
    }
    if (r->common && r->common->plan_id_present_case == CATALYZER__V1__RELATION_COMMON__PLAN_ID_PRESENT_PLAN_ID)
        n->plan_id = (int32_t)r->common->plan_id;
    return node_finish(n);
}

Node *plan_decode(Arena *a, const Rel *r, const DecodeLimits *lim, char *err, size_t errlen) {
    Dec d = {a, lim, 0, err, errlen, false};
    err[0] = '\0';
    Node *n = rel(&d, r, 1);
    return d.failed ? NULL : n;
}
