/* Typing helpers shared by the function families: fixed result types,
 * "same as an argument", common (wider) types, decimal results of rounding
 * and aggregates, collections, generators, schema-taking functions. Each
 * takes the arguments after the generic implicit casts of the row's spec. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "core/func_sig.h"
#include "registry.h"
#include "catalog/conf.h"
#include "print/printer.h"

/* A boolean conf key set to true (the last setting wins). */
static bool conf_true(const Analysis *an, const char *key) {
    const Conf *cf = an->conf;
    for (int i = cf ? cf->nentries - 1 : -1; i >= 0; i--)
        if (cf->keys[i] && strcasecmp(cf->keys[i], key) == 0) return cf->values[i] && strcasecmp(cf->values[i], "true") == 0;
    return false;
}

static const DataType *parse_type(Arena *a, const char *s) {
    const char *err = NULL;
    return s ? type_parse(a, s, strlen(s), NULL, &err) : NULL;
}

bool ty_fixed(TypeCtx *c) {
    c->result = parse_type(c->an->arena, c->def->out);
    if (!c->result) c->result = &TYPE_NULL;
    return true;
}

/* signum and width_bucket take TypeCollection(DoubleType,
 * YearMonthIntervalType, DayTimeIntervalType): an ANSI interval stays as it
 * is (width_bucket's value and bounds all of one interval family, their
 * fields may differ), anything else is cast to double; the result is the
 * row's type.
 *     signum(INTERVAL '-10' YEAR)         → SIGNUM(INTERVAL '-10' YEAR)
 *     width_bucket(5.3, 0.2, 10.6, 5)     → width_bucket(cast(5.3 as double), ...) */
bool ty_double_or_interval(TypeCtx *c) {
    int n = c->nargs < 3 ? c->nargs : 3;
    TypeId fam = c->args[0]->type->id;
    bool interval = fam == T_YM_INTERVAL || fam == T_DT_INTERVAL;
    for (int i = 1; i < n && interval; i++) interval = c->args[i]->type->id == fam;
    for (int i = 0; i < n && !interval; i++) {
        const DataType *t = fn_implicit_cast_type(c->an->arena, c->args[i]->type, 'd');
        if (!t && !c->an->conf->ansi) t = fn_legacy_implicit_cast_type(c->an->arena, c->args[i]->type, 'd');
        if (!t) {
            fn_typer_error(c, i, 'd');
            return false;
        }
        c->args[i] = fn_mk_cast(c->an, c->args[i], t);
    }
    return ty_fixed(c);
}

bool ty_arg0(TypeCtx *c) {
    c->result = c->nargs ? c->args[0]->type : &TYPE_NULL;
    return true;
}

bool ty_arg_last(TypeCtx *c) {
    c->result = c->nargs ? c->args[c->nargs - 1]->type : &TYPE_NULL;
    return true;
}

/* ---- common types ---- */

static bool fail_diff_class(TypeCtx *c, const char *cls, int from, int to, int step, bool brackets) {
    Arena *a = c->an->arena;
    StrBuf sb;
    sb_init(&sb, a, 64);
    sb_putc(&sb, brackets ? '[' : '(');
    for (int i = from; i < to; i += step) {
        if (i > from) sb_puts(&sb, brackets ? ", " : " or ");
        sb_puts(&sb, sql_type_quoted(a, c->args[i]->type));
    }
    sb_putc(&sb, brackets ? ']' : ')');
    an_fail(c->an, error_make(a, cls, c->orig, "sqlExpr", fn_call_sql_quoted(c), "functionName",
                              sql_ident(a, c->def->pname ? c->def->pname : c->def->name), "dataType", sb_str(&sb),
                              NULL));
    return false;
}

static bool fail_data_diff(TypeCtx *c, int from, int to) {
    Arena *a = c->an->arena;
    StrBuf sb;
    sb_init(&sb, a, 64);
    sb_putc(&sb, '(');
    for (int i = from; i < to; i++) {
        if (i > from) sb_puts(&sb, " or ");
        sb_puts(&sb, sql_type_quoted(a, c->args[i]->type));
    }
    sb_putc(&sb, ')');
    an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.DATA_DIFF_TYPES", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                              "functionName", sql_ident(a, c->def->pname ? c->def->pname : c->def->name), "dataType",
                              sb_str(&sb), NULL));
    return false;
}

/* Casts args[from..to) (every `step`-th) to their wider type; NULL on failure (error recorded). */
static const DataType *widen_args(TypeCtx *c, int from, int to, int step) {
    const DataType *t = &TYPE_NULL;
    for (int i = from; i < to; i += step) {
        t = coerce_wider_type(c->an->arena, t, c->args[i]->type);
        if (!t) {
            fail_data_diff(c, from, to);
            return NULL;
        }
    }
    /* castIfNotSameType: types that differ only in nullability stay as they are */
    for (int i = from; i < to; i += step)
        if (!type_same(c->args[i]->type, t)) c->args[i] = fn_mk_cast(c->an, c->args[i], t);
    return t;
}

static bool any_nullable(TypeCtx *c, int from, int to, int step) {
    for (int i = from; i < to; i += step)
        if (fn_expr_nullable(c->args[i])) return true;
    return false;
}

bool ty_common(TypeCtx *c) {
    c->result = widen_args(c, 0, c->nargs, 1);
    if (!c->result) return false;
    /* coalesce is null only when every argument is */
    if (strcasecmp(c->def->name, "coalesce") == 0 || strcasecmp(c->def->name, "nvl") == 0 ||
        strcasecmp(c->def->name, "ifnull") == 0) {
        bool all = true;
        for (int i = 0; i < c->nargs; i++) all = all && fn_expr_nullable(c->args[i]);
        c->nullable = all;
    }
    return true;
}

bool ty_least_greatest(TypeCtx *c) {
    if (c->nargs < 2) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", c->orig, "functionName", sql_ident(a, c->def->name),
                                  "expectedNum", "> 1", "actualNum", arena_printf(a, "%d", c->nargs), "docroot",
                                  "https://spark.apache.org/docs/latest", NULL));
        return false;
    }
    if (!ty_common(c)) return false;
    bool all = true;
    for (int i = 0; i < c->nargs; i++) all = all && fn_expr_nullable(c->args[i]);
    c->nullable = all;
    return true;
}

/* nullif(a, b): the type of a; a and b must be comparable */
bool ty_nullif(TypeCtx *c) {
    if (!coerce_wider_type(c->an->arena, c->args[0]->type, c->args[1]->type))
        return fn_fail_binary_diff(c, c->args[0]->type, c->args[1]->type) != NULL;
    c->result = c->args[0]->type;
    c->nullable = 1;
    return true;
}

bool ty_nvl2(TypeCtx *c) {
    c->result = widen_args(c, 1, 3, 1);
    c->nullable = any_nullable(c, 1, 3, 1);
    return c->result != NULL;
}

bool ty_if(TypeCtx *c) {
    const DataType *p = c->args[0]->type;
    if (p->id == T_NULL) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_BOOLEAN);
    else if (p->id != T_BOOLEAN) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "paramIndex", "first", "inputSql",
                                  expr_sql_quoted(a, c->args[0]), "inputType", sql_type_quoted(a, p), "requiredType",
                                  "\"BOOLEAN\"", NULL));
        return false;
    }
    c->result = widen_args(c, 1, 3, 1);
    c->nullable = any_nullable(c, 1, 3, 1);
    return c->result != NULL;
}

/* between(x, lo, hi): boolean; the three must be comparable */
bool ty_between(TypeCtx *c) {
    if (!coerce_wider_type_n(c->an->arena, (const DataType *[]){c->args[0]->type, c->args[1]->type, c->args[2]->type}, 3))
        return fail_data_diff(c, 0, 3);
    c->result = &TYPE_BOOLEAN;
    return true;
}

/* ---- collections ---- */

bool ty_array(TypeCtx *c) {
    const DataType *e = widen_args(c, 0, c->nargs, 1);
    if (!e) return false;
    c->result = type_array(c->an->arena, e, any_nullable(c, 0, c->nargs, 1));
    c->nullable = 0;
    return true;
}

bool ty_map(TypeCtx *c) {
    Arena *a = c->an->arena;
    if (c->nargs % 2) {
        an_fail(c->an, error_make(a, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", c->orig, "functionName", sql_ident(a, "map"),
                                  "expectedNum", "2n (n > 0)", "actualNum", arena_printf(a, "%d", c->nargs), "docroot",
                                  "https://spark.apache.org/docs/latest", NULL));
        return false;
    }
    const DataType *k = &TYPE_NULL, *v = &TYPE_NULL;
    for (int i = 0; i < c->nargs && k; i += 2) k = coerce_wider_type(a, k, c->args[i]->type);
    if (!k) return fail_diff_class(c, "DATATYPE_MISMATCH.CREATE_MAP_KEY_DIFF_TYPES", 0, c->nargs, 2, true);
    for (int i = 1; i < c->nargs && v; i += 2) v = coerce_wider_type(a, v, c->args[i]->type);
    if (!v) return fail_diff_class(c, "DATATYPE_MISMATCH.CREATE_MAP_VALUE_DIFF_TYPES", 1, c->nargs, 2, true);
    for (int i = 0; i < c->nargs; i++) c->args[i] = fn_mk_cast(c->an, c->args[i], i % 2 ? v : k);
    c->result = type_map(a, k, v, any_nullable(c, 1, c->nargs, 2));
    c->nullable = 0;
    return true;
}

static const char *field_name_of(Arena *a, const Node *e, int i) {
    while (e->kind == NK_Cast && (e->flags & NF_IMPLICIT) && e->nkids) e = e->kids[0];
    switch (e->kind) {
    case NK_AttributeReference: case NK_Alias: case NK_NamedLambdaVariable: return e->u.attr.name;
    case NK_GetStructField: return e->u.field.name;
    default: return arena_printf(a, "col%d", i + 1);
    }
}

bool ty_named_struct(TypeCtx *c) {
    Arena *a = c->an->arena;
    if (c->nargs % 2) { /* named_struct() is the empty struct (CreateNamedStruct(Nil)) */
        an_fail(c->an, error_make(a, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", c->orig, "functionName", sql_ident(a, "named_struct"),
                                  "expectedNum", "2n (n > 0)", "actualNum", arena_printf(a, "%d", c->nargs), "docroot",
                                  "https://spark.apache.org/docs/latest", NULL));
        return false;
    }
    int n = c->nargs / 2;
    StructField *fs = ARENA_ARRAY(a, StructField, n);
    for (int i = 0; i < n; i++) {
        const char *nm = fn_lit_string(c->args[2 * i]);
        if (!nm) {
            an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING", c->orig,
                                      "sqlExpr", fn_call_sql_quoted(c), "inputExprs",
                                      expr_sql_quoted(a, c->args[2 * i]), NULL));
            return false;
        }
        fs[i].name = nm;
        fs[i].type = c->args[2 * i + 1]->type;
        fs[i].nullable = fn_expr_nullable(c->args[2 * i + 1]);
    }
    c->result = type_struct(a, n, fs);
    c->nullable = 0;
    return true;
}

/* struct(a, b): named_struct with names from the arguments (col1, ...) */
bool ty_struct(TypeCtx *c) {
    Arena *a = c->an->arena;
    int n = c->nargs;
    Node **kids = ARENA_ARRAY(a, Node *, 2 * n + 1);
    for (int i = 0; i < n; i++) {
        kids[2 * i] = fn_mk_str_lit(a, field_name_of(a, c->args[i], i));
        /* CreateStruct takes an alias's name and keeps the alias as the
           value (it shows in the generated column name; CleanupAliases drops
           it from the plan) */
        kids[2 * i + 1] = c->args[i];
    }
    c->args = kids;
    c->nargs = 2 * n;
    /* a row constructor `(a, b)` is CreateStruct, printed as named_struct */
    const Node *o = c->orig;
    if (o && o->start >= 0 && c->an->sql && (size_t)o->start < c->an->sql_len && c->an->sql[o->start] == '(')
        c->def = func_lookup_arity("named_struct", 2 * n);
    return ty_named_struct(c);
}

static bool fail_map_key(TypeCtx *c) {
    Arena *a = c->an->arena;
    an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                              "functionName", sql_ident(a, c->def->name), "dataType", "\"MAP\"", "leftType",
                              sql_type_quoted(a, c->args[0]->type), "rightType", sql_type_quoted(a, c->args[1]->type),
                              NULL));
    return false;
}

/* array_max, array_min, get, try_element_at / element_at over arrays; maps give the value */
bool ty_elem(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (t->id == T_MAP) {
        if (c->nargs > 1) {
            const DataType *w = fn_wider_no_string(c->an->arena, t->elem, c->args[1]->type);
            if (!w || !type_same(w, t->elem)) return fail_map_key(c);
            c->args[1] = fn_mk_cast(c->an, c->args[1], t->elem);
        }
        c->result = t->value;
    } else if (t->id == T_ARRAY) {
        if (c->nargs > 1) {
            const DataType *it = fn_implicit_cast_type(c->an->arena, c->args[1]->type, 'i');
            if (!it) return fn_typer_error(c, 1, 'i') != NULL;
            c->args[1] = fn_mk_cast(c->an, c->args[1], it);
        }
        c->result = t->elem;
    } else {
        if (strncmp(c->def->name, "get", 3) == 0) return fn_typer_error(c, 0, 'A') != NULL;
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "paramIndex", "first", "inputSql",
                                  expr_sql_quoted(a, c->args[0]), "inputType", sql_type_quoted(a, t), "requiredType",
                                  "(\"ARRAY\" or \"MAP\")", NULL));
        return false;
    }
    c->nullable = 1;
    return true;
}

/* array_contains/array_position/array_remove/array_append/array_prepend:
 * the element argument and the array's element type are widened together;
 * `out` gives a fixed result (boolean, bigint), else the (widened) array. */
static bool array_elem_op(TypeCtx *c, int ai, int ei) {
    Arena *a = c->an->arena;
    const DataType *at = c->args[ai]->type;
    if (at->id == T_NULL) at = type_array(a, &TYPE_NULL, true);
    if (at->id != T_ARRAY) return fn_typer_error(c, ai, 'A') != NULL;
    const DataType *w = fn_wider_no_string(a, at->elem, c->args[ei]->type);
    if (!w) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "functionName", sql_ident(a, c->def->name), "dataType",
                                  "\"ARRAY\"", "leftType", sql_type_quoted(a, at), "rightType",
                                  sql_type_quoted(a, c->args[ei]->type), NULL));
        return false;
    }
    bool cn = at->contains_null || (c->def->out == NULL && fn_expr_nullable(c->args[ei]));
    c->args[ai] = fn_mk_cast(c->an, c->args[ai], type_array(a, w, at->contains_null));
    c->args[ei] = fn_mk_cast(c->an, c->args[ei], w);
    if (c->def->out) return ty_fixed(c);
    c->result = type_array(a, w, cn);
    return true;
}

bool ty_array_elem_op(TypeCtx *c) { return array_elem_op(c, 0, 1); }

/* array_insert(arr, pos, elem) */
bool ty_array_insert(TypeCtx *c) {
    bool ok = array_elem_op(c, 0, 2);
    if (ok) c->result = type_array(c->an->arena, c->result->elem, true);
    return ok;
}

/* array_union/intersect/except/arrays_overlap: arrays widened together */
bool ty_array_setop(TypeCtx *c) {
    for (int i = 0; i < c->nargs; i++)
        if (c->args[i]->type->id != T_ARRAY && c->args[i]->type->id != T_NULL) return fn_typer_error(c, i, 'A') != NULL;
    const DataType *t = widen_args(c, 0, c->nargs, 1);
    if (!t) return false;
    if (c->def->out) return ty_fixed(c);
    c->result = t;
    return true;
}

/* lpad/rpad: BinaryPad when the input (and the pad, if given) are binary
 * (the default pad then is X'00'); otherwise StringLPad/StringRPad */
static bool cast_or_fail(TypeCtx *c, int i, char code) {
    const DataType *t = fn_implicit_cast_type(c->an->arena, c->args[i]->type, code);
    if (!t) return fn_typer_error(c, i, code) != NULL;
    c->args[i] = fn_mk_cast(c->an, c->args[i], t);
    return true;
}

bool ty_pad(TypeCtx *c) {
    Arena *a = c->an->arena;
    bool given_pad = c->orig && c->orig->kind == NK_UnresolvedFunction && c->orig->u.un.nargs >= 3;
    bool binary = c->args[0]->type->id == T_BINARY && (!given_pad || c->args[2]->type->id == T_BINARY);
    if (binary && !given_pad) {
        Node *z = fn_mk_literal(a, &TYPE_BINARY, false);
        char *b = arena_alloc(a, 1);
        b[0] = 0;
        z->u.lit.v.u.s.p = b;
        z->u.lit.v.u.s.len = 1;
        c->args[2] = node_finish(z);
    }
    char code = binary ? 'B' : 's';
    if (!cast_or_fail(c, 0, code) || !cast_or_fail(c, 1, 'i') || !cast_or_fail(c, 2, code)) return false;
    c->result = binary ? &TYPE_BINARY : &TYPE_STRING;
    return true;
}

/* contains/startswith/endswith: two binaries compare as bytes (a
 * StaticInvoke), anything else as strings */
bool ty_str_pred(TypeCtx *c) {
    if (c->args[0]->type->id == T_BINARY && c->args[1]->type->id == T_BINARY) {
        c->result = &TYPE_BOOLEAN;
        return true;
    }
    if (!cast_or_fail(c, 0, 's') || !cast_or_fail(c, 1, 's')) return false;
    c->result = &TYPE_BOOLEAN;
    return true;
}

/* concat: strings, binaries or arrays (ConcatCoercion casts the rest to string) */
bool ty_concat(TypeCtx *c) {
    bool all_bin = c->nargs > 0, all_arr = c->nargs > 0;
    for (int i = 0; i < c->nargs; i++) {
        TypeId id = c->args[i]->type->id;
        all_bin = all_bin && (id == T_BINARY);
        all_arr = all_arr && (id == T_ARRAY || id == T_NULL);
    }
    bool any_arr = false;
    for (int i = 0; i < c->nargs; i++) any_arr = any_arr || c->args[i]->type->id == T_ARRAY;
    if (all_arr && any_arr) {
        c->result = widen_args(c, 0, c->nargs, 1);
        return c->result != NULL;
    }
    /* ConcatCoercion: binaries stay binary unless
       spark.sql.function.concatBinaryAsString casts them to string */
    if (all_bin && !conf_true(c->an, "spark.sql.function.concatBinaryAsString")) {
        c->result = &TYPE_BINARY;
        return true;
    }
    for (int i = 0; i < c->nargs; i++) {
        const DataType *t = fn_implicit_cast_type(c->an->arena, c->args[i]->type, 's');
        if (!t) return fn_typer_error(c, i, 's') != NULL;
        c->args[i] = fn_mk_cast(c->an, c->args[i], t);
    }
    c->result = &TYPE_STRING;
    return true;
}

/* concat_ws(sep, string or array<string>...) */
bool ty_concat_ws(TypeCtx *c) {
    Arena *a = c->an->arena;
    for (int i = 0; i < c->nargs; i++) {
        const DataType *t = c->args[i]->type;
        if (i > 0 && t->id == T_ARRAY) {
            if (!type_is_string(t->elem)) c->args[i] = fn_mk_cast(c->an, c->args[i], type_array(a, &TYPE_STRING, true));
            continue;
        }
        const DataType *s = fn_implicit_cast_type(a, t, 's');
        if (!s) return fn_typer_error(c, i, 's') != NULL;
        c->args[i] = fn_mk_cast(c->an, c->args[i], s);
    }
    c->result = &TYPE_STRING;
    c->nullable = fn_expr_nullable(c->args[0]);
    return true;
}

/* elt(n, str...): string (binary when all inputs are binary) */
bool ty_elt(TypeCtx *c) {
    bool all_bin = true;
    for (int i = 1; i < c->nargs; i++) all_bin = all_bin && c->args[i]->type->id == T_BINARY;
    if (all_bin && c->nargs > 1) {
        c->result = &TYPE_BINARY;
        return true;
    }
    for (int i = 1; i < c->nargs; i++) {
        const DataType *t = fn_implicit_cast_type(c->an->arena, c->args[i]->type, 's');
        if (!t) return fn_typer_error(c, i, 's') != NULL;
        c->args[i] = fn_mk_cast(c->an, c->args[i], t);
    }
    c->result = &TYPE_STRING;
    c->nullable = 1;
    return true;
}

/* reverse: string or array */
bool ty_reverse(TypeCtx *c) {
    if (c->args[0]->type->id == T_ARRAY) return ty_arg0(c);
    const DataType *t = fn_implicit_cast_type(c->an->arena, c->args[0]->type, 's');
    if (!t) return fn_typer_error(c, 0, 's') != NULL;
    c->args[0] = fn_mk_cast(c->an, c->args[0], t);
    c->result = &TYPE_STRING;
    return true;
}

/* size/cardinality: array or map */
bool ty_size(TypeCtx *c) {
    TypeId id = c->args[0]->type->id;
    if (id != T_ARRAY && id != T_MAP && id != T_NULL) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "paramIndex", "first", "inputSql", expr_sql_quoted(a, c->args[0]),
                                  "inputType", sql_type_quoted(a, c->args[0]->type), "requiredType",
                                  "(\"ARRAY\" or \"MAP\")", NULL));
        return false;
    }
    c->result = &TYPE_INT;
    c->nullable = 0;
    return true;
}

bool ty_flatten(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (t->id != T_ARRAY || t->elem->id != T_ARRAY) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "paramIndex", "first", "inputSql", expr_sql_quoted(a, c->args[0]),
                                  "inputType", sql_type_quoted(a, t), "requiredType", "\"ARRAY\" of \"ARRAY\"", NULL));
        return false;
    }
    c->result = t->elem;
    return true;
}

static bool need_map(TypeCtx *c) {
    if (c->args[0]->type->id == T_MAP) return true;
    fn_typer_error(c, 0, 'm');
    return false;
}

bool ty_map_keys(TypeCtx *c) {
    if (!need_map(c)) return false;
    c->result = type_array(c->an->arena, c->args[0]->type->elem, false);
    return true;
}

bool ty_map_values(TypeCtx *c) {
    if (!need_map(c)) return false;
    const DataType *m = c->args[0]->type;
    c->result = type_array(c->an->arena, m->value, m->contains_null);
    return true;
}

bool ty_map_entries(TypeCtx *c) {
    if (!need_map(c)) return false;
    const DataType *m = c->args[0]->type;
    StructField fs[2] = {{"key", m->elem, false, NULL}, {"value", m->value, m->contains_null, NULL}};
    c->result = type_array(c->an->arena, type_struct(c->an->arena, 2, fs), false);
    return true;
}

/* map_contains_key(map, key) */
bool ty_map_key_op(TypeCtx *c) {
    if (!need_map(c)) return false;
    const DataType *m = c->args[0]->type;
    const DataType *w = fn_wider_no_string(c->an->arena, m->elem, c->args[1]->type);
    if (!w) return fail_map_key(c);
    c->args[0] = fn_mk_cast(c->an, c->args[0], type_map(c->an->arena, w, m->value, m->contains_null));
    c->args[1] = fn_mk_cast(c->an, c->args[1], w);
    c->result = &TYPE_BOOLEAN;
    return true;
}

bool ty_map_from_arrays(TypeCtx *c) {
    for (int i = 0; i < 2; i++)
        if (c->args[i]->type->id != T_ARRAY) return fn_typer_error(c, i, 'A') != NULL;
    const DataType *k = c->args[0]->type->elem, *v = c->args[1]->type;
    c->result = type_map(c->an->arena, k, v->elem, v->contains_null);
    return true;
}

bool ty_map_from_entries(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (t->id != T_ARRAY || t->elem->id != T_STRUCT || t->elem->nfields != 2) return fn_typer_error(c, 0, 'A') != NULL;
    const DataType *s = t->elem;
    c->result = type_map(c->an->arena, s->fields[0].type, s->fields[1].type, s->fields[1].nullable);
    return true;
}

/* Whether casting `from` to `to` keeps every string a string and makes no
 * other type one (NULL parts excepted). */
static bool same_string_places(const DataType *from, const DataType *to) {
    if (from->id == T_NULL) return true;
    if (type_is_string(from) || type_is_string(to)) return type_is_string(from) && type_is_string(to);
    if (from->id != to->id) return true;
    switch (from->id) {
    case T_ARRAY: return same_string_places(from->elem, to->elem);
    case T_MAP: return same_string_places(from->elem, to->elem) && same_string_places(from->value, to->value);
    case T_STRUCT:
        for (int i = 0; i < from->nfields && i < to->nfields; i++)
            if (!same_string_places(from->fields[i].type, to->fields[i].type)) return false;
        return true;
    default: return true;
    }
}

bool ty_map_concat(TypeCtx *c) {
    if (c->nargs == 0) {
        c->result = type_map(c->an->arena, &TYPE_STRING, &TYPE_STRING, false);
        return true;
    }
    for (int i = 0; i < c->nargs; i++)
        if (c->args[i]->type->id != T_MAP && c->args[i]->type->id != T_NULL) return fn_typer_error(c, i, 'm') != NULL;
    const DataType *t = &TYPE_NULL;
    for (int i = 0; i < c->nargs && t; i++) t = coerce_wider_type(c->an->arena, t, c->args[i]->type);
    /* the maps widen without string promotion: map<string,string> beside
       map<date,date> keeps its types and fails MapConcat's same-type check */
    for (int i = 0; i < c->nargs && t; i++)
        if (!same_string_places(c->args[i]->type, t)) t = NULL;
    if (!t) return fail_data_diff(c, 0, c->nargs);
    /* castIfNotSameType: maps that differ only in nullability are not cast */
    for (int i = 0; i < c->nargs; i++)
        if (!type_same(c->args[i]->type, t)) c->args[i] = fn_mk_cast(c->an, c->args[i], t);
    c->result = t;
    return true;
}

/* A field operation of UpdateFields: WithField(name, value) has the value's
 * type, DropField(name) none (they are not values of their own). */
bool ty_field_op(TypeCtx *c) {
    c->result = c->nargs == 2 ? c->args[1]->type : &TYPE_NULL;
    return true;
}

static const char *field_op_name(const Node *op) {
    const Node *n = op->nkids ? op->kids[0] : NULL;
    while (n && n->kind == NK_Cast && n->nkids) n = n->kids[0];
    return n && n->kind == NK_Literal && !n->u.lit.v.is_null ? n->u.lit.v.u.s.p : NULL;
}

/* UpdateFields(struct, ops).dataType: the struct's fields after each
 * operation in turn — WithField replaces every field of its name (taking
 * the name as written) or appends one, DropField removes them. */
bool ty_update_fields(TypeCtx *c) {
    const DataType *st = c->args[0]->type;
    if (st->id != T_STRUCT) return fn_typer_error(c, 0, 'S') != NULL;
    StructField *fs = ARENA_ARRAY(c->an->arena, StructField, st->nfields + c->nargs + 1);
    int n = st->nfields;
    for (int i = 0; i < n; i++) fs[i] = st->fields[i];
    bool cs = c->an->conf && c->an->conf->case_sensitive;
    for (int i = 1; i < c->nargs; i++) {
        const Node *op = c->args[i];
        const FuncSig *sig = op->kind == NK_Call ? call_sig(op) : NULL;
        const char *name = field_op_name(op);
        bool with = sig && strcmp(sig->name, "@withfield") == 0;
        if (!sig || !name || (!with && strcmp(sig->name, "@dropfield") != 0)) return fn_typer_error(c, i, 'S') != NULL;
        int m = 0;
        bool found = false;
        for (int k = 0; k < n; k++) {
            bool same = cs ? strcmp(fs[k].name, name) == 0 : strcasecmp(fs[k].name, name) == 0;
            if (!same) {
                fs[m++] = fs[k];
            } else if (with) {
                fs[m++] = (StructField){.name = name, .type = op->kids[1]->type,
                                        .nullable = fn_expr_nullable(op->kids[1])};
                found = true;
            }
        }
        n = m;
        if (with && !found)
            fs[n++] = (StructField){.name = name, .type = op->kids[1]->type, .nullable = fn_expr_nullable(op->kids[1])};
    }
    c->result = type_struct(c->an->arena, n, fs);
    c->nullable = fn_expr_nullable(c->args[0]);
    return true;
}

bool ty_str_to_map(TypeCtx *c) {
    c->result = type_map(c->an->arena, &TYPE_STRING, &TYPE_STRING, true);
    return true;
}

bool ty_arrays_zip(TypeCtx *c) {
    Arena *a = c->an->arena;
    StructField *fs = ARENA_ARRAY(a, StructField, c->nargs + 1);
    for (int i = 0; i < c->nargs; i++) {
        const DataType *t = c->args[i]->type;
        if (t->id != T_ARRAY) return fn_typer_error(c, i, 'A') != NULL;
        const Node *e = c->args[i];
        fs[i].name = (e->kind == NK_AttributeReference || e->kind == NK_Alias) ? e->u.attr.name
                                                                                 : arena_printf(a, "%d", i);
        fs[i].type = t->elem;
        fs[i].nullable = true;
    }
    c->result = type_array(a, type_struct(a, c->nargs, fs), false);
    return true;
}

/* sequence(start, stop[, step]) */
bool ty_sequence(TypeCtx *c) {
    const DataType *t = widen_args(c, 0, 2, 1);
    if (!t) return false;
    if (!type_is_integral(t) && !type_is_datetime(t)) return fn_typer_error(c, 0, 'I') != NULL;
    c->result = type_array(c->an->arena, t, false);
    return true;
}

bool ty_array_repeat(TypeCtx *c) {
    c->result = type_array(c->an->arena, c->args[0]->type, fn_expr_nullable(c->args[0]));
    c->nullable = 0;
    return true;
}

bool ty_sort_array(TypeCtx *c) {
    if (c->args[0]->type->id != T_ARRAY) return fn_typer_error(c, 0, 'A') != NULL;
    c->result = c->args[0]->type;
    return true;
}

bool ty_split(TypeCtx *c) {
    c->result = type_array(c->an->arena, &TYPE_STRING, false);
    return true;
}

/* ---- generators: the result type is a struct of the output columns ---- */

static const DataType *struct_of(Arena *a, int n, const char *const *names, const DataType *const *types,
                                 const bool *nullable) {
    StructField *fs = ARENA_ARRAY(a, StructField, n + 1);
    for (int i = 0; i < n; i++) {
        fs[i].name = names[i];
        fs[i].type = types[i];
        fs[i].nullable = nullable ? nullable[i] : true;
    }
    return type_struct(a, n, fs);
}

static bool generator_input(TypeCtx *c) {
    TypeId id = c->args[0]->type->id;
    if (id == T_ARRAY || id == T_MAP) return true;
    Arena *a = c->an->arena;
    an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                              "paramIndex", "first", "inputSql", expr_sql_quoted(a, c->args[0]), "inputType",
                              sql_type_quoted(a, c->args[0]->type), "requiredType", "(\"ARRAY\" or \"MAP\")", NULL));
    return false;
}

bool ty_explode(TypeCtx *c) {
    if (!generator_input(c)) return false;
    const DataType *t = c->args[0]->type;
    Arena *a = c->an->arena;
    if (t->id == T_ARRAY) {
        const char *n[] = {"col"};
        const DataType *ty[] = {t->elem};
        bool nl[] = {t->contains_null};
        c->result = struct_of(a, 1, n, ty, nl);
    } else {
        const char *n[] = {"key", "value"};
        const DataType *ty[] = {t->elem, t->value};
        bool nl[] = {false, t->contains_null};
        c->result = struct_of(a, 2, n, ty, nl);
    }
    return true;
}

bool ty_posexplode(TypeCtx *c) {
    if (!generator_input(c)) return false;
    const DataType *t = c->args[0]->type;
    Arena *a = c->an->arena;
    if (t->id == T_ARRAY) {
        const char *n[] = {"pos", "col"};
        const DataType *ty[] = {&TYPE_INT, t->elem};
        bool nl[] = {false, t->contains_null};
        c->result = struct_of(a, 2, n, ty, nl);
    } else {
        const char *n[] = {"pos", "key", "value"};
        const DataType *ty[] = {&TYPE_INT, t->elem, t->value};
        bool nl[] = {false, false, t->contains_null};
        c->result = struct_of(a, 3, n, ty, nl);
    }
    return true;
}

bool ty_inline(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (t->id != T_ARRAY || t->elem->id != T_STRUCT) return fn_typer_error(c, 0, 'A') != NULL;
    c->result = t->elem;
    return true;
}

/* stack(n, v...): n rows of ceil(k/n) columns col0.. each of the common type */
bool ty_stack(TypeCtx *c) {
    Arena *a = c->an->arena;
    const Node *n0 = c->args[0];
    if (n0->kind != NK_Literal || !type_is_integral(n0->type) || n0->u.lit.v.is_null) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "inputName", "`n`", "inputType", "\"INT\"", "inputExpr",
                                  expr_sql_quoted(a, n0), NULL));
        return false;
    }
    int rows = (int)n0->u.lit.v.u.i;
    if (rows <= 0) rows = 1;
    int k = c->nargs - 1;
    int cols = (k + rows - 1) / rows;
    const char **names = ARENA_ARRAY(a, const char *, cols + 1);
    const DataType **types = ARENA_ARRAY(a, const DataType *, cols + 1);
    for (int j = 0; j < cols; j++) {
        names[j] = arena_printf(a, "col%d", j);
        const DataType *t = &TYPE_NULL;
        for (int i = 1 + j; i < c->nargs; i += cols) {
            t = coerce_wider_type(a, t, c->args[i]->type);
            if (!t) return fail_data_diff(c, 1, c->nargs);
        }
        for (int i = 1 + j; i < c->nargs; i += cols) c->args[i] = fn_mk_cast(c->an, c->args[i], t);
        types[j] = t->id == T_NULL ? &TYPE_NULL : t;
    }
    c->result = struct_of(a, cols, names, types, NULL);
    return true;
}

bool ty_json_tuple(TypeCtx *c) {
    Arena *a = c->an->arena;
    int n = c->nargs - 1;
    const char **names = ARENA_ARRAY(a, const char *, n + 1);
    const DataType **types = ARENA_ARRAY(a, const DataType *, n + 1);
    for (int i = 0; i < n; i++) {
        names[i] = arena_printf(a, "c%d", i);
        types[i] = &TYPE_STRING;
    }
    c->result = struct_of(a, n, names, types, NULL);
    return true;
}

/* ---- math ---- */

static int int_lit_value(const Node *n, int dflt) {
    while (n->kind == NK_Cast && n->nkids) n = n->kids[0];
    if (n->kind == NK_Literal && !n->u.lit.v.is_null && type_is_integral(n->type)) return (int)n->u.lit.v.u.i;
    return dflt;
}

/* round/bround/ceil/floor with a scale: RoundBase.dataType */
bool ty_round(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    int scale = c->nargs > 1 ? int_lit_value(c->args[1], 0) : 0;
    if (t->id == T_DECIMAL) {
        int p = t->precision, s = t->scale;
        int ild = p - s + 1;
        if (scale < 0) {
            int np = ild > -scale + 1 ? ild : -scale + 1;
            c->result = type_decimal(c->an->arena, np > 38 ? 38 : np, 0);
        } else {
            int ns = s < scale ? s : scale;
            int np = ild + ns;
            c->result = type_decimal(c->an->arena, np > 38 ? 38 : np, ns);
        }
    } else {
        c->result = t;
    }
    return true;
}

/* ceil/floor(x): bigint for integral and floating, decimal(p-s+1, 0) */
bool ty_ceil_floor(TypeCtx *c) {
    if (c->nargs > 1) {
        /* CeilExpressionBuilder / FloorExpressionBuilder: the scale must be a
           foldable INT (a NULL or a string is no INT) */
        const Node *scale = c->args[1];
        if (!fn_is_foldable(scale) || scale->type->id != T_INT) {
            Arena *a = c->an->arena;
            an_fail(c->an, error_make(a, "NON_FOLDABLE_ARGUMENT", c->orig, "funcName", sql_ident(a, c->def->name),
                                      "paramName", sql_ident(a, "scale"), "paramType", "\"INT\"", NULL));
            return false;
        }
        /* RoundCeil / RoundFloor: the input as a decimal, then RoundBase's type */
        const DataType *t0 = c->args[0]->type;
        if (t0->id != T_DECIMAL) {
            const DataType *d = t0->id == T_FLOAT || t0->id == T_DOUBLE ? type_decimal(c->an->arena, 30, 15)
                                                                          : fn_implicit_cast_type(c->an->arena, t0, 'M');
            if (!d) return fn_typer_error(c, 0, 'M') != NULL;
            c->args[0] = fn_mk_cast(c->an, c->args[0], d);
        }
        return ty_round(c);
    }
    const DataType *t = c->args[0]->type;
    if (t->id == T_DECIMAL) {
        int p = t->precision - t->scale + 1;
        c->result = fn_decimal_bounded(c->an->arena, p, 0);
    } else {
        c->args[0] = type_is_integral(t) ? fn_mk_cast(c->an, c->args[0], &TYPE_LONG) : fn_mk_cast(c->an, c->args[0], &TYPE_DOUBLE);
        c->result = &TYPE_LONG;
    }
    return true;
}

/* abs: numeric or interval; strings become double */
bool ty_abs(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (type_is_string(t) || t->id == T_NULL) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_DOUBLE);
    t = c->args[0]->type;
    if (!type_is_numeric(t) && t->id != T_YM_INTERVAL && t->id != T_DT_INTERVAL) return fn_typer_error(c, 0, 'K') != NULL;
    c->result = t;
    return true;
}

/* nanvl(a, b): double or float */
bool ty_nanvl(TypeCtx *c) {
    const DataType *t = coerce_wider_type(c->an->arena, c->args[0]->type, c->args[1]->type);
    if (!t || !(t->id == T_FLOAT || t->id == T_DOUBLE)) t = &TYPE_DOUBLE;
    for (int i = 0; i < 2; i++) c->args[i] = fn_mk_cast(c->an, c->args[i], t);
    c->result = t;
    return true;
}

/* to_number/try_to_number: decimal(digits, fraction digits) of the format */
bool ty_to_number(TypeCtx *c) {
    const char *f = fn_lit_string(c->args[1]);
    int before = 0, after = 0;
    bool dot = false;
    for (const char *p = f ? f : ""; *p; p++) {
        char ch = (char)toupper((unsigned char)*p);
        if (ch == '.' || ch == 'D') dot = true;
        else if (ch == '9' || ch == '0') {
            if (dot) after++;
            else before++;
        }
    }
    int p = before + after;
    if (p < 1) p = 1;
    c->result = fn_decimal_bounded(c->an->arena, p, after);
    c->nullable = 1;
    return true;
}

/* width_bucket → bigint */
bool ty_sum(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (type_is_integral(t)) c->result = &TYPE_LONG;
    else if (t->id == T_DECIMAL) c->result = fn_decimal_bounded(c->an->arena, t->precision + 10, t->scale);
    else if (t->id == T_FLOAT || t->id == T_DOUBLE) c->result = &TYPE_DOUBLE;
    else if (type_is_interval(t)) c->result = t;
    else return fn_typer_error(c, 0, 'N') != NULL;
    c->nullable = 1;
    return true;
}

bool ty_avg(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (t->id == T_DECIMAL) c->result = fn_decimal_bounded(c->an->arena, t->precision + 4, t->scale + 4);
    else if (type_is_numeric(t)) c->result = &TYPE_DOUBLE;
    else if (t->id == T_YM_INTERVAL || t->id == T_DT_INTERVAL) c->result = t;
    else return fn_typer_error(c, 0, 'N') != NULL;
    c->nullable = 1;
    return true;
}

bool ty_minmax(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (!fn_type_orderable(t)) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "functionName", sql_ident(a, c->def->name), "dataType", sql_type_quoted(a, t), NULL));
        return false;
    }
    c->result = t;
    c->nullable = 1;
    return true;
}

bool ty_collect(TypeCtx *c) {
    c->result = type_array(c->an->arena, c->args[0]->type, false);
    c->nullable = 0;
    return true;
}

/* percentile_approx(col, p[, acc]) / percentile(col, p[, freq]): element or array */
bool ty_percentile_approx(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    /* the percentage(s): double or array<double> */
    const DataType *p = c->args[1]->type;
    if (p->id == T_ARRAY) {
        if (p->elem->id != T_DOUBLE) c->args[1] = fn_mk_cast(c->an, c->args[1], type_array(c->an->arena, &TYPE_DOUBLE, p->contains_null));
    } else if (type_is_numeric(p) || p->id == T_NULL || type_is_string(p)) {
        c->args[1] = fn_mk_cast(c->an, c->args[1], &TYPE_DOUBLE);
    }
    if (type_is_string(t) || t->id == T_NULL) c->args[0] = fn_mk_cast(c->an, c->args[0], t = &TYPE_DOUBLE);
    bool arr = c->args[1]->type->id == T_ARRAY;
    c->result = arr ? type_array(c->an->arena, t, false) : t;
    c->nullable = 1;
    return true;
}

bool ty_percentile(TypeCtx *c) {
    bool arr = c->args[1]->type->id == T_ARRAY;
    const DataType *p = c->args[1]->type;
    if (arr && p->elem->id != T_DOUBLE)
        c->args[1] = fn_mk_cast(c->an, c->args[1], type_array(c->an->arena, &TYPE_DOUBLE, p->contains_null));
    else if (!arr && (type_is_numeric(p) || p->id == T_NULL || type_is_string(p)))
        c->args[1] = fn_mk_cast(c->an, c->args[1], &TYPE_DOUBLE);
    c->result = arr ? type_array(c->an->arena, &TYPE_DOUBLE, false) : &TYPE_DOUBLE;
    c->nullable = 1;
    return true;
}

bool ty_histogram(TypeCtx *c) {
    /* input TypeCollection(NumericType, ...): NULL and strings become double */
    const DataType *t0 = c->args[0]->type;
    if (t0->id == T_NULL || type_is_string(t0)) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_DOUBLE);
    StructField fs[2] = {{"x", c->args[0]->type, true, NULL}, {"y", &TYPE_DOUBLE, true, NULL}};
    c->result = type_array(c->an->arena, type_struct(c->an->arena, 2, fs), true);
    return true;
}


bool ty_count(TypeCtx *c) {
    if (c->nargs == 0 && !strcasecmp(c->def->name, "count") &&
        !conf_true(c->an, "spark.sql.legacy.allowParameterlessCount")) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "WRONG_NUM_ARGS.WITH_SUGGESTION", c->orig, "functionName", sql_ident(a, "count"),
                                  "expectedNum", " >= 1", "actualNum", "0", "legacyNum", "0", "legacyConfKey",
                                  "\"spark.sql.legacy.allowParameterlessCount\"", "legacyConfValue", "\"true\"",
                                  NULL));
        return false;
    }
    c->result = &TYPE_LONG;
    c->nullable = 0;
    return true;
}

/* ---- schema-taking functions ---- */

/* from_json/from_csv/from_xml(str, schema): the schema literal is the type */
bool ty_from_schema(TypeCtx *c) {
    Arena *a = c->an->arena;
    const char *s = c->nargs > 1 ? fn_const_string(a, c->args[1]) : NULL;
    const DataType *t = NULL;
    if (s) {
        const char *err = NULL;
        t = type_parse(a, s, strlen(s), NULL, &err);
        if (!t || (t->id != T_STRUCT && t->id != T_ARRAY && t->id != T_MAP)) {
            const char *w = arena_printf(a, "struct<%s>", s);
            const DataType *st = type_parse(a, w, strlen(w), NULL, &err);
            if (st) t = st;
        }
    }
    if (!t) {
        an_fail(c->an, error_make(a, "INVALID_SCHEMA.NON_STRING_LITERAL", c->orig, "inputSchema",
                                  c->nargs > 1 ? expr_sql_quoted(a, c->args[1]) : "\"\"", NULL));
        return false;
    }
    c->result = t;
    c->nullable = 1;
    return true;
}

/* variant_get(v, path, type) */
bool ty_variant_get(TypeCtx *c) {
    Arena *a = c->an->arena;
    const char *s = c->nargs > 2 ? fn_const_string(a, c->args[2]) : "variant";
    const char *err = NULL;
    const DataType *t = s ? type_parse(a, s, strlen(s), NULL, &err) : NULL;
    c->result = t ? t : &TYPE_VARIANT;
    c->nullable = 1;
    return true;
}

/* timestamp-producing functions follow spark.sql.timestampType */
bool ty_timestamp_conf(TypeCtx *c) {
    c->result = (c->an->conf && c->an->conf->timestamp_type_ntz) ? &TYPE_TIMESTAMP_NTZ : &TYPE_TIMESTAMP;
    c->nullable = 1;
    return true;
}

/* extract(field FROM source) / date_part(field, source) */
bool ty_extract(TypeCtx *c) {
    Arena *a = c->an->arena;
    const char *f = fn_lit_string(c->args[0]);
    const DataType *src = c->args[1]->type;
    if (!f) f = "";
    char u[32];
    size_t i = 0;
    for (; f[i] && i < sizeof u - 1; i++) u[i] = (char)toupper((unsigned char)f[i]);
    u[i] = 0;
    if (src->id == T_YM_INTERVAL || src->id == T_DT_INTERVAL || src->id == T_CALENDAR_INTERVAL) {
        if (!strcmp(u, "YEAR") || !strcmp(u, "Y") || !strcmp(u, "YEARS") || !strcmp(u, "YR") || !strcmp(u, "YRS"))
            c->result = &TYPE_INT;
        else if (!strncmp(u, "MON", 3)) c->result = &TYPE_BYTE;
        else if (!strncmp(u, "DAY", 3) || !strcmp(u, "D")) c->result = src->id == T_CALENDAR_INTERVAL ? &TYPE_INT : &TYPE_INT;
        else if (!strncmp(u, "H", 1) || !strncmp(u, "MIN", 3) || !strcmp(u, "M")) c->result = &TYPE_BYTE;
        else if (!strncmp(u, "S", 1)) c->result = type_decimal(a, 8, 6);
        else c->result = &TYPE_INT;
        if (src->id == T_CALENDAR_INTERVAL && !strncmp(u, "DAY", 3)) c->result = &TYPE_INT;
        return true;
    }
    if (!strcmp(u, "SECOND") || !strcmp(u, "S") || !strcmp(u, "SEC") || !strcmp(u, "SECONDS") || !strcmp(u, "SECS"))
        c->result = type_decimal(a, 8, 6);
    else if (!strcmp(u, "EPOCH"))
        c->result = type_decimal(a, 18, 6);
    else
        c->result = &TYPE_INT;
    if (type_is_string(src)) c->args[1] = fn_mk_cast(c->an, c->args[1], &TYPE_TIMESTAMP);
    return true;
}

/* date_add/date_sub(start, days): start → date, days int/short/byte */
bool ty_date_add(TypeCtx *c) {
    Arena *a = c->an->arena;
    const DataType *s = c->args[0]->type;
    if (s->id != T_DATE) {
        const DataType *t = fn_implicit_cast_type(a, s, 'D');
        if (!t) return fn_typer_error(c, 0, 'D') != NULL;
        c->args[0] = fn_mk_cast(c->an, c->args[0], t);
    }
    const DataType *d = c->args[1]->type;
    if (!(d->id == T_INT || d->id == T_SHORT || d->id == T_BYTE)) {
        if (type_is_string(d) || d->id == T_NULL) c->args[1] = fn_mk_cast(c->an, c->args[1], &TYPE_INT);
        else {
            Arena *ar = c->an->arena;
            an_fail(c->an, error_make(ar, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                      fn_call_sql_quoted(c), "paramIndex", "second", "inputSql",
                                      expr_sql_quoted(ar, c->args[1]), "inputType", sql_type_quoted(ar, d),
                                      "requiredType", "(\"INT\" or \"SMALLINT\" or \"TINYINT\")", NULL));
            return false;
        }
    }
    c->result = &TYPE_DATE;
    return true;
}

/* grouping → tinyint; grouping_id → bigint (fixed rows) */

/* assert_true(cond[, msg]): the message defaults to `'<cond>' is not true!` */
bool ty_assert_true(TypeCtx *c) {
    if (c->nargs == 1) {
        Node **v = ARENA_ARRAY(c->an->arena, Node *, 2);
        v[0] = c->args[0];
        v[1] = fn_mk_str_lit(c->an->arena, arena_printf(c->an->arena, "'%s' is not true!",
                                                     expr_to_string(c->an->arena, c->args[0])));
        c->args = v;
        c->nargs = 2;
    }
    c->result = &TYPE_NULL;
    c->nullable = 1;
    return true;
}

/* raise_error(msg) → raise_error('USER_RAISED_EXCEPTION', map('errorMessage', msg)) */
bool ty_raise_error(TypeCtx *c) {
    if (c->nargs == 1) {
        Arena *a = c->an->arena;
        Node *kv[2] = {fn_mk_str_lit(a, "errorMessage"), c->args[0]};
        Node *m = fn_call_builtin(c->an, "map", kv, 2, c->orig);
        if (!m) return false;
        Node **v = ARENA_ARRAY(a, Node *, 2);
        v[0] = fn_mk_str_lit(a, "USER_RAISED_EXCEPTION");
        v[1] = m;
        c->args = v;
        c->nargs = 2;
    }
    c->result = &TYPE_NULL;
    c->nullable = 1;
    return true;
}

/* first/last/any_value(x[, ignoreNulls]) */
bool ty_first_last(TypeCtx *c) {
    c->result = c->args[0]->type;
    c->nullable = 1;
    return true;
}

/* mode(x), percentile_cont/disc WITHIN GROUP */
bool ty_within_group(TypeCtx *c) {
    if (c->nargs == 0) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", c->orig, "functionName",
                                  sql_ident(a, c->def->name), "expectedNum", "1", "actualNum", "0", "docroot",
                                  "https://spark.apache.org/docs/latest", NULL));
        return false;
    }
    if (c->def->out) return ty_fixed(c);
    /* mode(col, deterministic): the flag is not an argument; true orders the
       values descending, as mode() WITHIN GROUP (ORDER BY col DESC) */
    if (!strcmp(c->def->name, "mode") && c->nargs == 2 && c->args[1]->kind == NK_Literal &&
        c->args[1]->type->id == T_BOOLEAN && !c->args[1]->u.lit.v.is_null) {
        if (c->args[1]->u.lit.v.u.b) {
            Node *so = node_new(c->an->arena, NK_SortOrder, c->args[0]->start, c->args[0]->stop);
            so->u.sort_order.descending = true;
            so->type = c->args[0]->type;
            node_set_kids(c->an->arena, so, &c->args[0], 1);
            c->args[0] = node_finish(so);
        }
        c->nargs = 1;
    }
    const Node *last = c->args[c->nargs - 1];
    c->result = last->kind == NK_SortOrder && last->nkids ? last->kids[0]->type : c->args[0]->type;
    c->nullable = 1;
    return true;
}

/* user-defined functions: arguments cast to the declared types */
bool ty_udf(TypeCtx *c) {
    const FuncDef *d = c->def;
    for (int i = 0; i < c->nargs && d->udf_args; i++) {
        const DataType *want = d->udf_args[i];
        if (!want) continue;
        if (!type_same(c->args[i]->type, want)) {
            if (!can_cast(c->args[i]->type, want, true)) {
                Arena *a = c->an->arena;
                an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                          fn_call_sql_quoted(c), "paramIndex", arena_printf(a, "%d", i + 1), "inputSql",
                                          expr_sql_quoted(a, c->args[i]), "inputType",
                                          sql_type_quoted(a, c->args[i]->type), "requiredType",
                                          sql_type_quoted(a, want), NULL));
                return false;
            }
            c->args[i] = fn_mk_cast(c->an, c->args[i], want);
        }
    }
    c->result = d->udf_result ? d->udf_result : &TYPE_STRING;
    c->nullable = 1;
    return true;
}

/* date(x), int(x), string(x), ...: a cast spelled as a function */
bool ty_cast_alias(TypeCtx *c) {
    const DataType *t = parse_type(c->an->arena, c->def->out);
    if (!can_cast(c->args[0]->type, t, true)) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "srcType", sql_type_quoted(a, c->args[0]->type), "targetType",
                                  sql_type_quoted(a, t), NULL));
        return false;
    }
    Node *e = c->args[0];
    Node *n = node_new(c->an->arena, NK_Cast, c->orig ? c->orig->start : -1, c->orig ? c->orig->stop : -1);
    node_set_kids(c->an->arena, n, &e, 1);
    n->type = t;
    n->u.cast.ansi = true;
    n->flags |= NF_IMPLICIT | NF_NULLABLE;
    c->replacement = node_finish(n);
    return true;
}

/* zeroifnull(x) = coalesce(x, 0): x widened with int; nullifzero(x) =
 * nullif(x, 0): the type of x (x and 0 must be comparable) */
bool ty_zero_null(TypeCtx *c) {
    const DataType *t = coerce_wider_type(c->an->arena, c->args[0]->type, &TYPE_INT);
    if (!t) return fn_fail_binary_diff(c, c->args[0]->type, &TYPE_INT) != NULL;
    if (strcasecmp(c->def->name, "nullifzero") == 0) {
        c->result = c->args[0]->type;
        c->nullable = 1;
    } else {
        c->result = t;
        c->nullable = 0;
    }
    return true;
}

/* uniform(min, max[, seed]): the wider of min and max */
bool ty_uniform(TypeCtx *c) {
    const DataType *t = coerce_wider_type(c->an->arena, c->args[0]->type, c->args[1]->type);
    c->result = t ? t : c->args[0]->type;
    c->nullable = 0;
    return true;
}

/* decode(bin, charset) → string; decode(expr, search, result, ..., [default])
 * is Oracle's DECODE: the wider type of the results */
bool ty_decode(TypeCtx *c) {
    Arena *a = c->an->arena;
    if (c->nargs == 2) {
        const DataType *b = fn_implicit_cast_type(a, c->args[0]->type, 'B');
        if (!b) return fn_typer_error(c, 0, 'B') != NULL;
        const DataType *s = fn_implicit_cast_type(a, c->args[1]->type, 's');
        if (!s) return fn_typer_error(c, 1, 's') != NULL;
        c->args[0] = fn_mk_cast(c->an, c->args[0], b);
        c->args[1] = fn_mk_cast(c->an, c->args[1], s);
        c->result = &TYPE_STRING;
        return true;
    }
    const DataType *t = &TYPE_NULL;
    for (int i = 2; i < c->nargs && t; i += 2) t = coerce_wider_type(a, t, c->args[i]->type);
    if (t && c->nargs % 2 == 0) t = coerce_wider_type(a, t, c->args[c->nargs - 1]->type);
    if (!t) return fail_data_diff(c, 2, c->nargs);
    c->result = t;
    c->nullable = 1;
    return true;
}

/* to_char(x, fmt): a number is formatted as a decimal (ToCharacter casts it,
   DecimalType.forType); dates, timestamps and binaries as they are */
bool ty_to_char(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    /* ToCharacterBuilder: a datetime (DatetimeType) is DateFormatClass */
    if (t->id == T_DATE || t->id == T_TIMESTAMP || t->id == T_TIMESTAMP_NTZ) {
        const FuncDef *df = func_lookup_arity("date_format", 2);
        if (df) {
            if (t->id != T_TIMESTAMP) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_TIMESTAMP);
            if (!type_is_string(c->args[1]->type)) c->args[1] = fn_mk_cast(c->an, c->args[1], &TYPE_STRING);
            c->def = df;
            c->result = &TYPE_STRING;
            return true;
        }
    }
    if (type_is_numeric(t) && t->id != T_DECIMAL) {
        const DataType *d = fn_implicit_cast_type(c->an->arena, t, 'M');
        if (d) c->args[0] = fn_mk_cast(c->an, c->args[0], d);
    }
    if (!type_is_string(c->args[1]->type)) c->args[1] = fn_mk_cast(c->an, c->args[1], &TYPE_STRING);
    c->result = &TYPE_STRING;
    return true;
}
