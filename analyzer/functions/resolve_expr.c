/* expr_resolve_typed: typing of the expression kinds that are not calls —
 * Cast (Cast.canAnsiCast), CaseWhen (CaseWhenCoercion), In (InConversion),
 * field / subscript extraction, SortOrder, WindowExpression, lambdas — and
 * re-typing a Call whose arguments changed. */
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"
#include "catalog/conf.h"
#include "print/printer.h"

const FuncDef *func_lookup_arity(const char *name, int nargs);

static Node *finish_typed(Analysis *an, Node *e, Node *const *kids, uint32_t nk, const DataType *t, bool nullable) {
    Node *c = node_copy(an->arena, e);
    node_set_kids(an->arena, c, kids, nk);
    c->type = t;
    c->flags = (c->flags & ~(uint32_t)NF_NULLABLE) | (nullable ? NF_NULLABLE : 0);
    return node_finish(c);
}

static Node *type_cast(Analysis *an, Node *e) {
    Arena *a = an->arena;
    Node *child = e->kids[0];
    const DataType *to = e->type;
    if (!to) return e;
    /* CharVarcharUtils.replaceCharVarcharWithStringForCast: CAST(x AS CHAR(n))
       is a cast to STRING (unless spark.sql.preserveCharVarcharTypeInfo) */
    if ((to->id == T_CHAR || to->id == T_VARCHAR) && !(e->flags & NF_IMPLICIT) && func_char_cast_as_string(an)) {
        Node *c = node_copy(a, e);
        c->type = &TYPE_STRING;
        e = c;
        to = e->type;
    }
    bool ansi = an->conf ? an->conf->ansi : true;
    if (!can_cast(child->type, to, ansi || e->u.cast.try_)) {
        /* Cast.typeCheckFailureMessage: functions to use instead, then the ANSI switch */
        const char *funcs = NULL;
        const DataType *f = child->type;
        if (type_is_numeric(f) && to->id == T_TIMESTAMP) funcs = "`timestamp_seconds`/`timestamp_millis`/`timestamp_micros`";
        else if (f->id == T_TIMESTAMP && type_is_numeric(to)) funcs = "`unix_seconds`/`unix_millis`/`unix_micros`";
        else if (type_is_numeric(f) && to->id == T_DATE) funcs = "`date_from_unix_date`";
        else if (f->id == T_DATE && type_is_numeric(to)) funcs = "`unix_date`";
        if (funcs)
            return an_fail(an, error_make(a, "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION", e, "sqlExpr",
                                          expr_sql_quoted(a, e), "srcType", sql_type_quoted(a, f), "targetType",
                                          sql_type_quoted(a, to), "functionNames", funcs, NULL));
        bool legacy_ok = can_cast(child->type, to, false);
        if (legacy_ok && ansi)
            return an_fail(an, error_make(a, "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION", e, "sqlExpr",
                                          expr_sql_quoted(a, e), "srcType", sql_type_quoted(a, child->type),
                                          "targetType", sql_type_quoted(a, to), "config",
                                          sql_conf(a, "spark.sql.ansi.enabled"), "configVal", "'false'", NULL));
        return an_fail(an, error_make(a, "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", e, "sqlExpr",
                                      expr_sql_quoted(a, e), "srcType", sql_type_quoted(a, child->type), "targetType",
                                      sql_type_quoted(a, to), NULL));
    }
    bool nullable = fn_expr_nullable(child) || e->u.cast.try_ ||
                    (!ansi && !type_is_string(to)) ||
                    (type_is_string(child->type) && !type_is_string(to) && e->u.cast.try_);
    Node *r = finish_typed(an, e, e->kids, e->nkids, to, nullable);
    if (r && (r->flags & NF_PENDING)) {
        /* the user's cast is now checked (the parser leaves it pending) */
        Node *c = node_copy(an->arena, r);
        c->flags &= ~(uint32_t)NF_PENDING;
        r = node_finish(c);
    }
    return r;
}

static const char *types_list(Arena *a, Node *const *v, uint32_t from, uint32_t to, uint32_t step) {
    StrBuf sb;
    sb_init(&sb, a, 64);
    sb_putc(&sb, '[');
    for (uint32_t i = from; i < to; i += step) {
        if (i > from) sb_puts(&sb, ", ");
        sb_puts(&sb, sql_type_quoted(a, v[i]->type));
    }
    sb_putc(&sb, ']');
    return sb_str(&sb);
}

static const char *ordinal(Arena *a, uint32_t i) {
    static const char *const W[] = {"first", "second", "third", "fourth", "fifth",
                                    "sixth", "seventh", "eighth", "ninth", "tenth"};
    return i < 10 ? W[i] : arena_printf(a, "%uth", i + 1);
}

static Node *type_case_when(Analysis *an, Node *e) {
    Arena *a = an->arena;
    uint32_t n = e->nkids;
    bool has_else = e->u.casew.has_else;
    uint32_t npairs = (n - (has_else ? 1 : 0)) / 2;
    Node **k = ARENA_ARRAY(a, Node *, n + 1);
    memcpy(k, e->kids, sizeof(Node *) * n);
    for (uint32_t i = 0; i < npairs; i++) {
        Node *c = k[2 * i];
        if (c->type->id == T_NULL) k[2 * i] = fn_mk_cast(an, c, &TYPE_BOOLEAN);
        else if (c->type->id != T_BOOLEAN)
            return an_fail(an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", e, "sqlExpr",
                                          expr_sql_quoted(a, e), "paramIndex",
                                          ordinal(a, 2 * i), "inputSql", expr_sql_quoted(a, c),
                                          "inputType", sql_type_quoted(a, c->type), "requiredType", "\"BOOLEAN\"",
                                          NULL));
    }
    /* CollationTypeCasts: the values brought to one collation when their types differ */
    Node **vals = ARENA_ARRAY(a, Node *, n + 1);
    int nv = 0;
    bool same = true;
    for (uint32_t i = 0; i < n; i++)
        if ((i % 2 == 1) || (has_else && i == n - 1)) {
            vals[nv++] = k[i];
            same = same && type_same(vals[0]->type, k[i]->type);
        }
    if (!same) {
        if (!fn_collation_coerce_all(an, vals, nv, e)) return NULL;
        for (uint32_t i = 0, j = 0; i < n; i++)
            if ((i % 2 == 1) || (has_else && i == n - 1)) k[i] = vals[j++];
    }
    const DataType *t = &TYPE_NULL;
    bool nullable = !has_else;
    for (uint32_t i = 0; i < n; i++) {
        bool is_value = (i % 2 == 1) || (has_else && i == n - 1);
        if (!is_value) continue;
        const DataType *w = coerce_wider_type(a, t, k[i]->type);
        if (!w) {
            StrBuf sb;
            sb_init(&sb, a, 64);
            sb_putc(&sb, '[');
            bool first = true;
            for (uint32_t j = 0; j < n; j++) {
                if (!((j % 2 == 1) || (has_else && j == n - 1))) continue;
                if (!first) sb_puts(&sb, ", ");
                first = false;
                sb_puts(&sb, sql_type_quoted(a, k[j]->type));
            }
            sb_putc(&sb, ']');
            return an_fail(an, error_make(a, "DATATYPE_MISMATCH.DATA_DIFF_TYPES", e, "sqlExpr", expr_sql_quoted(a, e),
                                          "functionName", "`casewhen`", "dataType", sb_str(&sb), NULL));
        }
        t = w;
        nullable = nullable || fn_expr_nullable(k[i]);
    }
    for (uint32_t i = 0; i < n; i++) {
        bool is_value = (i % 2 == 1) || (has_else && i == n - 1);
        if (is_value) k[i] = fn_mk_cast(an, k[i], t);
    }
    return finish_typed(an, e, k, n, t, nullable);
}

static Node *cast_always(Analysis *an, Node *e, const DataType *t) {
    if (!type_equal(e->type, t)) return fn_mk_cast(an, e, t);
    Node *c = node_new(an->arena, NK_Cast, e->start, e->stop);
    node_set_kids(an->arena, c, &e, 1);
    c->type = t;
    c->u.cast.ansi = an->conf ? an->conf->ansi : true;
    c->flags |= NF_IMPLICIT | (fn_expr_nullable(e) ? NF_NULLABLE : 0);
    return node_finish(c);
}

static Node *type_in(Analysis *an, Node *e) {
    Arena *a = an->arena;
    uint32_t n = e->nkids;
    Node **k = ARENA_ARRAY(a, Node *, n + 1);
    memcpy(k, e->kids, sizeof(Node *) * n);
    if (!fn_collation_coerce_all(an, k, (int)n, e)) return NULL; /* CollationTypeCasts before InConversion */
    bool differ = false;
    for (uint32_t i = 1; i < n; i++) differ = differ || !type_same(k[i]->type, k[0]->type);
    if (differ) {
        const DataType *t = &TYPE_NULL;
        for (uint32_t i = 0; i < n && t; i++) t = coerce_wider_type(a, t, k[i]->type);
        /* InConversion casts every child, even those already of the type */
        if (t)
            for (uint32_t i = 0; i < n; i++) k[i] = cast_always(an, k[i], t);
        else
            return an_fail(an, error_make(a, "DATATYPE_MISMATCH.DATA_DIFF_TYPES", e, "sqlExpr", expr_sql_quoted(a, e),
                                          "functionName", "`in`", "dataType", types_list(a, k, 0, n, 1), NULL));
    }
    bool nullable = false;
    for (uint32_t i = 0; i < n; i++) nullable = nullable || fn_expr_nullable(k[i]);
    return finish_typed(an, e, k, n, &TYPE_BOOLEAN, nullable);
}

/* The output of a subquery plan whose top node lists it (Project, Aggregate). */
static int plan_out(const Node *plan, Node ***out) {
    while (plan && (plan->kind == NK_Sort || plan->kind == NK_Filter || plan->kind == NK_GlobalLimit ||
                    plan->kind == NK_LocalLimit || plan->kind == NK_SubqueryAlias || plan->kind == NK_Distinct))
        plan = plan->nkids ? plan->kids[0] : NULL;
    if (!plan) return -1;
    if (plan->kind == NK_Project) {
        *out = plan->exprs;
        return (int)plan->nexprs;
    }
    if (plan->kind == NK_Aggregate) {
        *out = node_exprs_from(plan, plan->u.aggregate.ngroup);
        return (int)(plan->nexprs - plan->u.aggregate.ngroup);
    }
    return -1;
}

static Node *attr_of(Analysis *an, Node *e) {
    if (e->kind == NK_AttributeReference) return e;
    if (e->kind != NK_Alias) return NULL;
    Node *r = node_new(an->arena, NK_AttributeReference, e->start, e->stop);
    r->u.attr.name = e->u.attr.name;
    r->u.attr.id = e->u.attr.id;
    r->type = e->type ? e->type : (e->nkids ? e->kids[0]->type : NULL);
    r->flags |= e->flags & NF_NULLABLE;
    return r->type ? node_finish(r) : NULL;
}

/* InConversion for `(a, b) IN (SELECT x, y ...)`: values and subquery
 * output widened pairwise; the subquery gets a Project of casts. */
static Node *type_in_subquery(Analysis *an, Node *e) {
    Arena *a = an->arena;
    uint32_t nv = e->u.subq.nvalues;
    Node **outs = NULL;
    int no = plan_out(e->u.subq.plan, &outs);
    if (no < 0) return finish_typed(an, e, e->kids, e->nkids, &TYPE_BOOLEAN, true);
    if ((uint32_t)no != nv) {
        return an_fail(an, error_make(a, "DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH", e, "sqlExpr",
                                      expr_sql_quoted(a, e), "leftLength", arena_printf(a, "%u", nv), "rightLength",
                                      arena_printf(a, "%d", no), "leftColumns", "", "rightColumns", "", NULL));
    }
    Node **k = ARENA_ARRAY(a, Node *, e->nkids + 1);
    memcpy(k, e->kids, sizeof(Node *) * e->nkids);
    Node **proj = ARENA_ARRAY(a, Node *, (size_t)no + 1);
    bool cast_rhs = false;
    for (uint32_t i = 0; i < nv; i++) {
        Node *o = attr_of(an, outs[i]);
        if (!o) return finish_typed(an, e, k, e->nkids, &TYPE_BOOLEAN, true);
        const DataType *coll;
        if (!fn_collation_in_subquery(an, k[i], o->type, e, &coll)) return NULL;
        const DataType *w = coll && k[i]->type->id == T_STRING && o->type->id == T_STRING
                                ? coll
                                : coerce_wider_type(a, k[i]->type, o->type);
        if (!w) {
            return an_fail(an, error_make(a, "DATATYPE_MISMATCH.IN_SUBQUERY_DATA_TYPE_MISMATCH", e, "sqlExpr",
                                          expr_sql_quoted(a, e), "mismatchedColumns",
                                          arena_printf(a, "(%s:%s, %s:%s)", expr_sql_quoted(a, k[i]),
                                                       sql_type_quoted(a, k[i]->type), o->u.attr.name,
                                                       sql_type_quoted(a, o->type)),
                                          "leftType", sql_type_quoted(a, k[i]->type), "rightType",
                                          sql_type_quoted(a, o->type), NULL));
        }
        /* Spark's InConversion runs only when a side's type differs, and
           then puts the subquery under a Project even if only the values
           are cast */
        if (!type_same(k[i]->type, o->type)) cast_rhs = true;
        k[i] = fn_mk_cast(an, k[i], w);
        if (!type_equal(o->type, w)) {
            Node *al = node_new(a, NK_Alias, -1, -1);
            Node *cst = fn_mk_cast(an, o, w);
            node_set_kids(a, al, &cst, 1);
            al->u.attr.name = o->u.attr.name;
            al->u.attr.id = an_new_id(an);
            al->type = w;
            proj[i] = node_finish(al);
        } else {
            proj[i] = o;
        }
    }
    Node *c = node_copy(a, e);
    node_set_kids(a, c, k, e->nkids);
    if (cast_rhs) {
        Node *p = node_new(a, NK_Project, -1, -1);
        node_set_kids(a, p, &c->u.subq.plan, 1);
        node_set_exprs(a, p, proj, (uint32_t)no);
        c->u.subq.plan = node_finish(p);
    }
    c->type = &TYPE_BOOLEAN;
    c->flags |= NF_NULLABLE;
    return node_finish(c);
}

static Node *mk_field(Analysis *an, Node *child, int ordinal, const Node *pos) {
    const StructField *f = &child->type->fields[ordinal];
    Node *g = node_new(an->arena, NK_GetStructField, pos->start, pos->stop);
    node_set_kids(an->arena, g, &child, 1);
    g->u.field.ordinal = ordinal;
    g->u.field.name = f->name;
    g->type = f->type;
    if (f->nullable || fn_expr_nullable(child)) g->flags |= NF_NULLABLE;
    return node_finish(g);
}

static Node *type_extract(Analysis *an, Node *e) {
    Arena *a = an->arena;
    Node *child = e->kids[0], *key = e->kids[1];
    const DataType *t = child->type;
    const char *name = fn_lit_string(key);
    if (t->id == T_STRUCT && name) {
        for (int i = 0; i < t->nfields; i++)
            if (strcasecmp(t->fields[i].name, name) == 0) return mk_field(an, child, i, e);
        StrBuf sb;
        sb_init(&sb, a, 64);
        for (int i = 0; i < t->nfields; i++) {
            if (i) sb_puts(&sb, ", ");
            sb_put_quoted_ident(&sb, t->fields[i].name);
        }
        return an_fail(an, error_make(a, "FIELD_NOT_FOUND", e, "fieldName", sql_ident(a, name), "fields", sb_str(&sb),
                                      NULL));
    }
    if (t->id == T_ARRAY && name && t->elem->id == T_STRUCT) {
        const DataType *st = t->elem;
        for (int i = 0; i < st->nfields; i++)
            if (strcasecmp(st->fields[i].name, name) == 0) {
                Node *args[2] = {child, fn_mk_str_lit(a, st->fields[i].name)};
                const FuncDef *d = func_lookup_arity("@array_field", 2);
                Node *c = fn_mk_call(an, d, d->name, args, 2, type_array(a, st->fields[i].type, true), e);
                return c;
            }
    }
    if (t->id == T_ARRAY || t->id == T_MAP) {
        Node *args[2] = {child, key};
        if (t->id == T_ARRAY) {
            const DataType *it = fn_implicit_cast_type(a, key->type, 'i');
            if (!it || !type_is_integral(it))
                return an_fail(an, error_make(a, "INVALID_EXTRACT_BASE_FIELD_TYPE", e, "base", expr_sql_quoted(a, child),
                                              "other", sql_type_quoted(a, key->type), NULL));
            args[1] = fn_mk_cast(an, key, it);
        } else if (t->elem->id == T_STRING && key->type->id == T_STRING && key->type->collation != t->elem->collation) {
            /* CollationTypeCoercion casts a string literal key to the key type;
               GetMapValue (ExpectsInputTypes) takes no other collation */
            if (key->kind != NK_Literal)
                return an_fail(an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", e, "sqlExpr",
                                              arena_printf(a, "\"%s[%s]\"", expr_sql(a, child), expr_sql(a, key)),
                                              "paramIndex", "second", "inputSql", expr_sql_quoted(a, key), "inputType",
                                              sql_type_quoted(a, key->type), "requiredType",
                                              sql_type_quoted(a, t->elem), NULL));
            args[1] = fn_mk_cast(an, key, t->elem);
        } else {
            const DataType *w = coerce_wider_type(a, t->elem, key->type);
            if (w && type_equal(w, t->elem)) args[1] = fn_mk_cast(an, key, w);
        }
        const FuncDef *d = func_lookup_arity("@subscript", 2);
        Node *c = fn_mk_call(an, d, d->name, args, 2, t->id == T_ARRAY ? t->elem : t->value, e);
        return c;
    }
    return an_fail(an, error_make(a, "INVALID_EXTRACT_BASE_FIELD_TYPE", e, "base", expr_sql_quoted(a, child), "other",
                                  sql_type_quoted(a, t), NULL));
}

static Node *retype_call(Analysis *an, Node *e) {
    const FuncDef *d = e->u.call.def;
    if (!d || !d->typer) return e;
    Node **args = ARENA_ARRAY(an->arena, Node *, e->nkids + 1);
    memcpy(args, e->kids, sizeof(Node *) * e->nkids);
    TypeCtx c = {.an = an, .def = d, .orig = e, .args = args, .nargs = (int)e->nkids, .nullable = -1};
    if (!d->typer(&c)) return NULL;
    if (c.replacement) return c.replacement;
    Node *n = fn_mk_call(an, d, e->u.call.name, c.args, c.nargs, c.result ? c.result : &TYPE_NULL, e);
    if (c.nullable >= 0) n->flags = (n->flags & ~(uint32_t)NF_NULLABLE) | (c.nullable ? NF_NULLABLE : 0);
    return n;
}

static Node *resolve_typed_impl(Analysis *an, Node *e);

Node *expr_resolve_typed(Analysis *an, Node *e) {
    ErrorInfo *before = an->error;
    Node *r = resolve_typed_impl(an, e);
    return fn_defer_type_error_around_generator(an, e, r, before);
}

static Node *resolve_typed_impl(Analysis *an, Node *e) {
    for (uint32_t i = 0; i < e->nkids; i++)
        if (!e->kids[i]->type && e->kind != NK_WindowExpression && e->kind != NK_WindowSpecDefinition) return e;
    switch (e->kind) {
    case NK_Cast: return type_cast(an, e);
    case NK_CaseWhen: return type_case_when(an, e);
    case NK_In: return type_in(an, e);
    case NK_InSubquery: return type_in_subquery(an, e);
    case NK_UnresolvedExtractValue: return type_extract(an, e);
    case NK_GetStructField: {
        Node *child = e->kids[0];
        if (child->type->id != T_STRUCT) return e;
        int ord = e->u.field.ordinal;
        if (ord < 0 || ord >= child->type->nfields) return e;
        return mk_field(an, child, ord, e);
    }
    case NK_SortOrder:
        return finish_typed(an, e, e->kids, e->nkids, e->kids[0]->type, fn_expr_nullable(e->kids[0]));
    case NK_WindowExpression:
        if (!e->nkids || !e->kids[0]->type) return e;
        return finish_typed(an, e, e->kids, e->nkids, e->kids[0]->type, true);
    case NK_LambdaFunction:
        if (!e->nkids) return e;
        return finish_typed(an, e, e->kids, e->nkids, e->kids[0]->type, fn_expr_nullable(e->kids[0]));
    case NK_Call: return retype_call(an, e);
    case NK_NamedArgument:
        if (!e->nkids) return e;
        return finish_typed(an, e, e->kids, e->nkids, e->kids[0]->type, fn_expr_nullable(e->kids[0]));
    case NK_ExprList: {
        /* a tuple: typed as the struct of its items (col1, col2, ...) */
        StructField *fs = ARENA_ARRAY(an->arena, StructField, e->nkids + 1);
        for (uint32_t i = 0; i < e->nkids; i++) {
            fs[i].name = arena_printf(an->arena, "col%u", i + 1);
            fs[i].type = e->kids[i]->type;
            fs[i].nullable = fn_expr_nullable(e->kids[i]);
        }
        return finish_typed(an, e, e->kids, e->nkids, type_struct(an->arena, (int)e->nkids, fs), false);
    }
    case NK_AggregateExpression: {
        if (!e->nkids || e->kids[0]->kind != NK_Call) return e;
        Node *inner = retype_call(an, e->kids[0]);
        if (!inner) return NULL;
        Node **k = ARENA_ARRAY(an->arena, Node *, e->nkids);
        memcpy(k, e->kids, sizeof(Node *) * e->nkids);
        k[0] = inner;
        return finish_typed(an, e, k, e->nkids, inner->type, fn_expr_nullable(inner));
    }
    default: return e;
    }
}
