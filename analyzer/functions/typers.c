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
    /* Between is replaced by (input >= lower AND input <= upper): each
       comparison brings its strings to one collation */
    if (!fn_collation_check_pairs(c->an, c->args, 3, c->orig)) return false;
    bool strings = true;
    for (int i = 0; i < 3; i++) strings = strings && c->args[i]->type->id == T_STRING;
    if (strings) {
        c->result = &TYPE_BOOLEAN;
        return true;
    }
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
static bool conf_true(const Analysis *an, const char *key);

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
    /* binaries concatenate as binary unless spark.sql.function.concatBinaryAsString */
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
        if (i > 0 && (t->id == T_ARRAY || t->id == T_NULL)) {
            if (t->id == T_NULL || !type_is_string(t->elem))
                c->args[i] = fn_mk_cast(c->an, c->args[i], type_array(a, &TYPE_STRING, true));
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

bool ty_map_concat(TypeCtx *c) {
    if (c->nargs == 0) {
        c->result = type_map(c->an->arena, &TYPE_STRING, &TYPE_STRING, false);
        return true;
    }
    for (int i = 0; i < c->nargs; i++)
        if (c->args[i]->type->id != T_MAP && c->args[i]->type->id != T_NULL) return fn_typer_error(c, i, 'm') != NULL;
    const DataType *t = &TYPE_NULL;
    /* MapConcatCoercion: the wider type of the maps, no string promotion */
    for (int i = 0; i < c->nargs && t; i++) t = fn_wider_no_string(c->an->arena, t, c->args[i]->type);
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
        if (t->id == T_NULL) t = type_array(a, &TYPE_NULL, true);
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

/* variant_explode(v): the elements of a variant array or object (VariantExplode.elementSchema) */
bool ty_variant_explode(TypeCtx *c) {
    const char *n[] = {"pos", "key", "value"};
    const DataType *ty[] = {&TYPE_INT, &TYPE_STRING, &TYPE_VARIANT};
    bool nl[] = {false, true, false};
    c->result = struct_of(c->an->arena, 3, n, ty, nl);
    return true;
}

/* sql_keywords(): Spark's keywords and whether each is reserved (SQLKeywords) */
bool ty_sql_keywords(TypeCtx *c) {
    const char *n[] = {"keyword", "reserved"};
    const DataType *ty[] = {&TYPE_STRING, &TYPE_BOOLEAN};
    bool nl[] = {false, false};
    c->result = struct_of(c->an->arena, 2, n, ty, nl);
    return true;
}

/* collations(): every collation and its properties (Collations.elementSchema);
 * LANGUAGE, COUNTRY and ICU_VERSION are NULL for the UTF8 ones */
bool ty_collations(TypeCtx *c) {
    const char *n[] = {"CATALOG", "SCHEMA", "NAME", "LANGUAGE", "COUNTRY", "ACCENT_SENSITIVITY",
                       "CASE_SENSITIVITY", "PAD_ATTRIBUTE", "ICU_VERSION"};
    const DataType *ty[9];
    bool nl[] = {false, false, false, true, true, false, false, false, true};
    for (int i = 0; i < 9; i++) ty[i] = &TYPE_STRING;
    c->result = struct_of(c->an->arena, 9, n, ty, nl);
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
            /* Spark's -_scale + 1 in Java's int arithmetic, which wraps: round(x, -2147483648)
               keeps the integral digits (negating INT_MIN is undefined in C) */
            int digits = (int)(int32_t)(0u - (uint32_t)scale + 1u);
            int np = ild > digits ? ild : digits;
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
    if (c->nargs > 1 && (c->args[1]->type->id != T_INT || !func_expr_foldable(c->args[1]))) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "NON_FOLDABLE_ARGUMENT", c->orig, "funcName", sql_ident(a, c->def->name),
                                  "paramName", sql_ident(a, "scale"), "paramType", "\"INT\"", NULL));
        return false;
    }
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

/* An argument that is double or an ANSI interval (TypeCollection(DoubleType,
 * YearMonthIntervalType, DayTimeIntervalType)): intervals as they are, the
 * rest cast to double as ImplicitCastInputTypes does. */
static bool double_or_interval(TypeCtx *c, int i) {
    const DataType *t = c->args[i]->type;
    if (t->id == T_YM_INTERVAL || t->id == T_DT_INTERVAL) return true;
    const DataType *d = fn_implicit_cast_type(c->an->arena, t, 'd');
    if (!d && !c->an->conf->ansi) d = fn_legacy_implicit_cast_type(c->an->arena, t, 'd');
    if (!d) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "paramIndex", i == 0 ? "first" : i == 1 ? "second" : "third",
                                  "inputSql", expr_sql_quoted(a, c->args[i]), "inputType", sql_type_quoted(a, t),
                                  "requiredType",
                                  "(\"DOUBLE\" or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL DAY TO SECOND\")", NULL));
        return false;
    }
    c->args[i] = fn_mk_cast(c->an, c->args[i], d);
    return true;
}

/* signum(x) / sign(x) */
bool ty_signum(TypeCtx *c) {
    if (!double_or_interval(c, 0)) return false;
    c->result = &TYPE_DOUBLE;
    return true;
}

/* width_bucket(value, min, max, numBucket): value, min and max all double
 * or all intervals of one kind (WidthBucket.checkInputDataTypes) */
bool ty_width_bucket(TypeCtx *c) {
    for (int i = 0; i < 3; i++)
        if (!double_or_interval(c, i)) return false;
    TypeId k = c->args[0]->type->id;
    for (int i = 1; i < 3; i++)
        if (c->args[i]->type->id != k) {
            Arena *a = c->an->arena;
            an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                      fn_call_sql_quoted(c), "paramIndex", i == 1 ? "second" : "third", "inputSql",
                                      expr_sql_quoted(a, c->args[i]), "inputType", sql_type_quoted(a, c->args[i]->type),
                                      "requiredType", sql_type_quoted(a, c->args[0]->type), NULL));
            return false;
        }
    c->result = &TYPE_LONG;
    c->nullable = 1;
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

/* ToNumberParser.check, the thousands separators: in each run of digits
 * and separators before the decimal point a separator needs digits on both
 * sides (CONT_THOUSANDS_SEPS); after it there may be none
 * (THOUSANDS_SEPS_MUST_BEFORE_DEC). NULL: fine. */
static const char *number_format_error(const char *f) {
    bool dot = false;
    for (const char *p = f; *p; p++) {
        char ch = (char)toupper((unsigned char)*p);
        bool sep = ch == ',' || ch == 'G', digit = ch == '9' || ch == '0';
        if (ch == '.' || ch == 'D') {
            dot = true;
            continue;
        }
        if (!sep) continue;
        if (dot) return "INVALID_FORMAT.THOUSANDS_SEPS_MUST_BEFORE_DEC";
        char prev = p > f ? (char)toupper((unsigned char)p[-1]) : 0, next = (char)toupper((unsigned char)p[1]);
        bool prev_digit = prev == '9' || prev == '0', next_digit = next == '9' || next == '0';
        (void)digit;
        if (!prev_digit || !next_digit) return "INVALID_FORMAT.CONT_THOUSANDS_SEPS";
    }
    return NULL;
}

/* to_number/try_to_number: decimal(digits, fraction digits) of the format */
bool ty_to_number(TypeCtx *c) {
    const char *f = fn_lit_string(c->args[1]);
    const char *bad = f ? number_format_error(f) : NULL;
    if (bad) {
        an_fail(c->an, error_make(c->an->arena, bad, c->orig, "format", arena_printf(c->an->arena, "'%s'", f), NULL));
        return false;
    }
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

static const DataType *percentile_result(Arena *a, const DataType *in);

bool ty_avg(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (t->id == T_DECIMAL) c->result = fn_decimal_bounded(c->an->arena, t->precision + 4, t->scale + 4);
    else if (type_is_numeric(t)) c->result = &TYPE_DOUBLE;
    else if (t->id == T_YM_INTERVAL || t->id == T_DT_INTERVAL)
        c->result = percentile_result(c->an->arena, t); /* Average: YearMonthIntervalType() / DayTimeIntervalType() */
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

/* PivotFirst(pivotColumn, valueColumn, values...): one element per pivot value */
bool ty_pivot_first(TypeCtx *c) {
    c->result = type_array(c->an->arena, c->args[1]->type, true);
    c->nullable = 0;
    return true;
}

bool ty_collect(TypeCtx *c) {
    c->result = type_array(c->an->arena, c->args[0]->type, false);
    c->nullable = 0;
    return true;
}

/* Percentile's result: the interval type of an interval input (the
 * default fields: YearMonthIntervalType(), DayTimeIntervalType()), else double. */
static const DataType *percentile_result(Arena *a, const DataType *in) {
    if (in && in->id == T_YM_INTERVAL) return type_ym_interval(a, IF_YEAR, IF_MONTH);
    if (in && in->id == T_DT_INTERVAL) return type_dt_interval(a, IF_DAY, IF_SECOND);
    return &TYPE_DOUBLE;
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
    const DataType *in = c->args[0]->type;
    bool arr = c->args[1]->type->id == T_ARRAY;
    const DataType *p = c->args[1]->type;
    if (arr && p->elem->id != T_DOUBLE)
        c->args[1] = fn_mk_cast(c->an, c->args[1], type_array(c->an->arena, &TYPE_DOUBLE, p->contains_null));
    else if (!arr && (type_is_numeric(p) || p->id == T_NULL || type_is_string(p)))
        c->args[1] = fn_mk_cast(c->an, c->args[1], &TYPE_DOUBLE);
    const DataType *r = percentile_result(c->an->arena, in);
    c->result = arr ? type_array(c->an->arena, r, false) : r;
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
/* The options of the JSON, CSV and XML functions: a map(...) of strings
 * (ExprUtils.convertToMapData). */
static bool check_format_options(TypeCtx *c, int i) {
    if (i >= c->nargs) return true;
    Arena *a = c->an->arena;
    const Node *o = c->args[i];
    while (o->kind == NK_Cast && (o->flags & NF_IMPLICIT) && o->nkids) o = o->kids[0];
    bool is_map = (o->kind == NK_Call && o->u.call.def && !strcmp(func_name(o->u.call.def), "map")) ||
                  (o->kind == NK_Literal && o->type && o->type->id == T_MAP);
    if (!is_map) {
        an_fail(c->an, error_make(a, "INVALID_OPTIONS.NON_MAP_FUNCTION", c->orig, NULL));
        return false;
    }
    const DataType *t = o->type;
    bool strings = t && t->id == T_MAP && (type_is_string(t->elem) || t->elem->id == T_NULL) &&
                   (type_is_string(t->value) || t->value->id == T_NULL);
    if (!strings) {
        an_fail(c->an, error_make(a, "INVALID_OPTIONS.NON_STRING_TYPE", c->orig, "mapType",
                                  sql_type_quoted(a, t ? t : &TYPE_NULL), NULL));
        return false;
    }
    return true;
}

/* A schema string that parses neither as a type nor as a table schema:
 * the parser's error (DataType.parseTypeWithFallback), naming the first
 * word after the leading one. */
static void fail_schema_parse(TypeCtx *c, const char *s) {
    Arena *a = c->an->arena;
    const char *p = s;
    while (*p == ' ') p++;
    while (*p && *p != ' ') p++;
    while (*p == ' ') p++;
    const char *e = p;
    while (*e && *e != ' ') e++;
    const char *tok = *p ? arena_strndup(a, p, (size_t)(e - p)) : "end of input";
    an_fail(c->an, error_make(a, "PARSE_SYNTAX_ERROR", c->orig, "error", arena_printf(a, "'%s'", tok), "hint",
                              arena_printf(a, ": extra input '%s'", tok), NULL));
}

/* A schema argument that is schema_of_json/csv/xml over a constant text: the
 * schema it infers (Spark evaluates the foldable schema expression). */
static const DataType *inferred_schema(Arena *a, const Node *e) {
    while (e->kind == NK_Cast && (e->flags & NF_IMPLICIT) && e->nkids) e = e->kids[0];
    if (e->kind != NK_Call || !e->u.call.def || e->nkids < 1) return NULL;
    const char *fn = func_name(e->u.call.def);
    if (strncmp(fn, "schema_of_", 10) != 0) return NULL;
    const char *text = fn_const_string(a, e->kids[0]);
    if (!text) return NULL;
    const char *delim = NULL;
    if (e->nkids > 1) {
        const Node *o = e->kids[1];
        if (o->kind != NK_Call || !o->u.call.def || strcmp(func_name(o->u.call.def), "map") != 0) return NULL;
        for (uint32_t i = 0; i + 1 < o->nkids; i += 2) {
            const char *k = fn_lit_string(o->kids[i]), *v = fn_lit_string(o->kids[i + 1]);
            if (!k || !v || strcmp(fn, "schema_of_csv") || (strcasecmp(k, "delimiter") && strcasecmp(k, "sep")))
                return NULL;
            delim = v;
        }
    }
    return fn_infer_schema(a, fn, text, delim);
}

bool ty_from_schema(TypeCtx *c) {
    Arena *a = c->an->arena;
    const char *s = c->nargs > 1 ? fn_const_string(a, c->args[1]) : NULL;
    const DataType *t = c->nargs > 1 && !s ? inferred_schema(a, c->args[1]) : NULL;
    if (s) {
        const char *err = NULL;
        t = type_parse(a, s, strlen(s), NULL, &err);
        if (!t || (t->id != T_STRUCT && t->id != T_ARRAY && t->id != T_MAP)) {
            const char *w = arena_printf(a, "struct<%s>", s);
            const DataType *st = type_parse(a, w, strlen(w), NULL, &err);
            if (st) t = st;
        }
        if (!t) {
            fail_schema_parse(c, s);
            return false;
        }
    }
    if (!t) {
        an_fail(c->an, error_make(a, "INVALID_SCHEMA.NON_STRING_LITERAL", c->orig, "inputSchema",
                                  c->nargs > 1 ? expr_sql_quoted(a, c->args[1]) : "\"\"", NULL));
        return false;
    }
    if (!strcmp(c->def->name, "from_csv") && t->id != T_STRUCT) {
        an_fail(c->an, error_make(a, "INVALID_SCHEMA.NON_STRUCT_TYPE", c->orig, "inputSchema",
                                  expr_sql_quoted(a, c->args[1]), "dataType", sql_type_quoted(a, t), NULL));
        return false;
    }
    if (!check_format_options(c, 2)) return false;
    c->result = t;
    c->nullable = 1;
    return true;
}

/* to_json / to_csv / to_xml(expr[, options]) */
bool ty_to_format(TypeCtx *c) {
    if (!check_format_options(c, 1)) return false;
    /* StructsToXml takes a struct only */
    if (!strcmp(c->def->name, "to_xml") && c->args[0]->type->id != T_STRUCT) return fn_typer_error(c, 0, 'S') != NULL;
    return ty_fixed(c);
}

/* schema_of_json / schema_of_csv / schema_of_xml(text[, options]): the text
 * must be a constant, not NULL (SchemaOfJson.checkInputDataTypes) */
bool ty_schema_of(TypeCtx *c) {
    Arena *a = c->an->arena;
    const char *what = c->def->name + strlen("schema_of_");
    const Node *e = c->args[0];
    if (!func_expr_foldable(e)) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "inputName", sql_ident(a, what), "inputType", sql_type_quoted(a, e->type),
                                  "inputExpr", expr_sql_quoted(a, e), NULL));
        return false;
    }
    const Node *v = e;
    while (v->kind == NK_Cast && v->nkids) v = v->kids[0];
    if (v->kind == NK_Literal && v->u.lit.v.is_null) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_NULL", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "exprName", what, NULL));
        return false;
    }
    if (!check_format_options(c, 1)) return false;
    c->result = &TYPE_STRING;
    c->nullable = 0;
    return true;
}

/* to_binary(str[, fmt]): the format a constant among hex, utf-8, utf8,
 * base64 (ToBinary.checkInputDataTypes) */
bool ty_to_binary(TypeCtx *c) {
    Arena *a = c->an->arena;
    if (c->nargs == 2) {
        const Node *f = c->args[1];
        if (!func_expr_foldable(f)) {
            an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", c->orig, "sqlExpr",
                                      fn_call_sql_quoted(c), "inputName", sql_ident(a, "fmt"), "inputType",
                                      sql_type_quoted(a, f->type), "inputExpr", expr_sql_quoted(a, f), NULL));
            return false;
        }
        const Node *v = f;
        while (v->kind == NK_Cast && v->nkids) v = v->kids[0];
        const char *s = NULL;
        if (v->kind == NK_Literal && !v->u.lit.v.is_null) {
            if (type_is_string(v->type)) s = v->u.lit.v.u.s.p ? v->u.lit.v.u.s.p : "";
            else if (type_is_integral(v->type)) s = arena_printf(a, "%lld", (long long)v->u.lit.v.u.i);
        }
        if (s) {
            char *low = arena_strdup(a, s);
            for (char *p = low; *p; p++) *p = (char)tolower((unsigned char)*p);
            if (strcmp(low, "hex") && strcmp(low, "utf-8") && strcmp(low, "utf8") && strcmp(low, "base64")) {
                an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.INVALID_ARG_VALUE", c->orig, "sqlExpr",
                                          fn_call_sql_quoted(c), "inputName", "fmt", "inputValue",
                                          arena_printf(a, "'%s'", low), "requireType", "case-insensitive \"STRING\"",
                                          "validValues", "'hex', 'utf-8', 'utf8', or 'base64'", NULL));
                return false;
            }
        }
    }
    c->result = &TYPE_BINARY;
    c->nullable = 1;
    return true;
}

/* from_avro(data, jsonFormatSchema[, options]) / to_avro(data[, jsonFormatSchema]):
 * the schema a constant string, the options a constant map of strings
 * (FromAvro/ToAvro.checkInputDataTypes); then AVRO_NOT_LOADED_SQL_FUNCTIONS_UNUSABLE,
 * the error Spark raises when the spark-avro module is not loaded: the
 * analyzer has no Avro schema converter. */
bool ty_avro(TypeCtx *c) {
    Arena *a = c->an->arena;
    bool from = !strcmp(c->def->name, "from_avro");
    const char *fn = from ? "FROM_AVRO" : "TO_AVRO";
    const char *dir = from ? "from" : "to";
    const char *msg = NULL;
    if (c->nargs > 1) {
        const Node *s = c->args[1];
        if (!func_expr_foldable(s) || !type_is_string(s->type))
            msg = arena_printf(a, "The second argument of the %s SQL function must be a constant string containing the "
                                  "JSON representation of the schema to use for converting the value %s AVRO format",
                               fn, dir);
    }
    if (!msg && from && c->nargs > 2) {
        const DataType *t = c->args[2]->type;
        bool strings = t->id == T_MAP && (type_is_string(t->elem) || t->elem->id == T_NULL) &&
                       (type_is_string(t->value) || t->value->id == T_NULL);
        if (!func_expr_foldable(c->args[2]) || !strings)
            msg = arena_printf(a, "The third argument of the %s SQL function must be a constant map of strings to "
                                  "strings containing the options to use for converting the value %s AVRO format",
                               fn, dir);
    }
    if (msg) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "msg", msg, "hint", "", NULL));
        return false;
    }
    an_fail(c->an, error_make(a, "AVRO_NOT_LOADED_SQL_FUNCTIONS_UNUSABLE", c->orig, "functionName", fn, NULL));
    return false;
}

/* regexp_replace(str, regexp, rep, position): the position a constant above
 * zero (RegExpReplace.checkInputDataTypes) */
bool ty_regexp_replace(TypeCtx *c) {
    Arena *a = c->an->arena;
    const Node *pos = c->args[3];
    if (!func_expr_foldable(pos)) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "inputName", sql_ident(a, "position"), "inputType", sql_type_quoted(a, pos->type),
                                  "inputExpr", expr_sql_quoted(a, pos), NULL));
        return false;
    }
    const Node *v = pos;
    while (v->kind == NK_Cast && v->nkids) v = v->kids[0];
    if (v->kind == NK_Literal && !v->u.lit.v.is_null && type_is_integral(v->type) && v->u.lit.v.u.i <= 0) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "exprName", "position", "valueRange", "(0, 2147483647]", "currentValue",
                                  arena_printf(a, "%lld", (long long)v->u.lit.v.u.i), NULL));
        return false;
    }
    c->result = &TYPE_STRING;
    return true;
}

/* format_string(strfmt, ...): argument indexes start at 1 (FormatString.checkInputDataTypes) */
bool ty_format_string(TypeCtx *c) {
    const char *f = fn_lit_string(c->args[0]);
    if (f && strstr(f, "%0$")) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "INVALID_PARAMETER_VALUE.ZERO_INDEX", c->orig, "parameter", sql_ident(a, "strfmt"),
                                  "functionName", sql_ident(a, c->def->name), NULL));
        return false;
    }
    c->result = &TYPE_STRING;
    return true;
}

/* convert_timezone([sourceTz, ]targetTz, sourceTs): ConvertTimezone's builder
 * puts current_timezone() first when the source zone is not given */
bool ty_convert_timezone(TypeCtx *c) {
    Arena *a = c->an->arena;
    if (c->nargs == 2) {
        Node *cur = fn_call_builtin(c->an, "current_timezone", NULL, 0, c->orig);
        if (!cur) return false;
        Node **v = ARENA_ARRAY(a, Node *, 3);
        v[0] = cur;
        v[1] = c->args[0];
        v[2] = c->args[1];
        c->args = v;
        c->nargs = 3;
    }
    static const char codes[] = "ssX";
    for (int i = 0; i < 3; i++) {
        const DataType *t = fn_implicit_cast_type(a, c->args[i]->type, codes[i]);
        if (!t) return fn_typer_error(c, i, codes[i]) != NULL;
        c->args[i] = fn_mk_cast(c->an, c->args[i], t);
    }
    c->result = &TYPE_TIMESTAMP_NTZ;
    return true;
}

/* hex(x): Hex's inputTypes TypeCollection(LongType, BinaryType, StringType) */
bool ty_hex(TypeCtx *c) {
    const DataType *t = c->args[0]->type;
    if (type_is_integral(t) && t->id != T_LONG) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_LONG);
    else if (t->id == T_NULL) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_LONG);
    c->result = &TYPE_STRING;
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
    /* the condition as written (a NULL is not cast: AssertTrue inherits its
       replacement's analysis, If(cond, null, raise_error(...))) */
    const DataType *t = c->args[0]->type;
    if (t->id != T_BOOLEAN && t->id != T_NULL) return fn_typer_error(c, 0, 'b') != NULL;
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
    Arena *a = c->an->arena;
    if (c->nargs == 2 && c->orig && c->orig->kind == NK_UnresolvedFunction) {
        /* the SQL function takes the message only (RaiseErrorExpressionBuilder) */
        an_fail(c->an, error_make(a, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", c->orig, "functionName",
                                  sql_ident(a, "raise_error"), "expectedNum", "1", "actualNum", "2", "docroot",
                                  "https://spark.apache.org/docs/latest", NULL));
        return false;
    }
    if (c->nargs == 1) {
        Node *kv[2] = {fn_mk_str_lit(a, "errorMessage"), c->args[0]};
        Node *m = fn_call_builtin(c->an, "map", kv, 2, c->orig);
        if (!m) return false;
        /* RaiseError's parameters are MapType(StringType, StringType): the map is cast as a whole */
        if (!type_is_string(m->type->elem) || !type_is_string(m->type->value))
            m = fn_mk_cast(c->an, m, type_map(a, &TYPE_STRING, &TYPE_STRING, true));
        Node **v = ARENA_ARRAY(a, Node *, 2);
        v[0] = fn_mk_str_lit(a, conf_true(c->an, "spark.sql.legacy.raiseErrorWithoutErrorClass")
                                    ? "_LEGACY_ERROR_USER_RAISED_EXCEPTION"
                                    : "USER_RAISED_EXCEPTION");
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

static bool ty_inverse_distribution(TypeCtx *c);

/* mode(x), percentile_cont/disc WITHIN GROUP */
bool ty_within_group(TypeCtx *c) {
    if (c->nargs == 0) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", c->orig, "functionName",
                                  sql_ident(a, c->def->name), "expectedNum", "1", "actualNum", "0", "docroot",
                                  "https://spark.apache.org/docs/latest", NULL));
        return false;
    }
    if (c->def->out) return ty_inverse_distribution(c);
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

/* percentile_cont/disc(percentage) WITHIN GROUP (ORDER BY x): the
 * percentage must be a constant (PercentileCont/Disc.checkInputDataTypes) */
static bool ty_inverse_distribution(TypeCtx *c) {
    Arena *a = c->an->arena;
    const Node *last = c->args[c->nargs - 1];
    if (last->kind != NK_SortOrder || !last->nkids) return ty_fixed(c);
    const DataType *in = last->kids[0]->type;
    if (in && !type_is_numeric(in) && in->id != T_YM_INTERVAL && in->id != T_DT_INTERVAL && in->id != T_NULL) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "paramIndex", "first", "inputSql",
                                  expr_sql_quoted(a, last->kids[0]), "inputType", sql_type_quoted(a, in),
                                  "requiredType", fn_spec_required_type(a, 'N'), NULL));
        return false;
    }
    if (!func_expr_foldable(c->args[0])) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "inputName", sql_ident(a, "percentage"), "inputType",
                                  sql_type_quoted(a, c->args[0]->type), "inputExpr", expr_sql_quoted(a, c->args[0]),
                                  NULL));
        return false;
    }
    c->result = percentile_result(a, in);
    c->nullable = 1;
    return true;
}

/* median(x): PercentileCont(x, 0.5) */
bool ty_median(TypeCtx *c) {
    c->result = percentile_result(c->an->arena, c->args[0]->type);
    c->nullable = 1;
    return true;
}

/* listagg(expr[, delimiter]) [WITHIN GROUP (ORDER BY ...)]: ListAgg.checkInputDataTypes */
bool ty_listagg(TypeCtx *c) {
    Arena *a = c->an->arena;
    const Node *d = c->args[1];
    if (!func_expr_foldable(d)) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "inputName", sql_ident(a, "delimiter"), "inputType", sql_type_quoted(a, d->type),
                                  "inputExpr", expr_sql_quoted(a, d), NULL));
        return false;
    }
    const DataType *t = c->args[0]->type;
    if (d->type->id != T_NULL && !type_same(t, d->type)) {
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.DATA_DIFF_TYPES", c->orig, "sqlExpr", fn_call_sql_quoted(c),
                                  "functionName", sql_ident(a, c->def->name), "dataType",
                                  arena_printf(a, "(%s or %s)", sql_type_quoted(a, t), sql_type_quoted(a, d->type)),
                                  NULL));
        return false;
    }
    c->result = t;
    c->nullable = 1;
    return true;
}

/* mask(input, upperChar, lowerChar, digitChar, otherChar): each
 * replacement a constant of one character or NULL (Mask.checkInputDataTypes) */
bool ty_mask(TypeCtx *c) {
    Arena *a = c->an->arena;
    static const char *const NAMES[] = {"upperChar", "lowerChar", "digitChar", "otherChar"};
    for (int i = 1; i < c->nargs && i < 5; i++) {
        const Node *e = c->args[i];
        if (!func_expr_foldable(e)) {
            an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", c->orig, "sqlExpr",
                                      fn_call_sql_quoted(c), "inputName", sql_ident(a, NAMES[i - 1]), "inputType",
                                      sql_type_quoted(a, e->type), "inputExpr", expr_sql_quoted(a, e), NULL));
            return false;
        }
        const char *v = fn_lit_string(e);
        if (!v) continue;
        size_t chars = 0;
        for (const char *p = v; *p; p++) chars += ((unsigned char)*p & 0xC0) != 0x80;
        if (chars != 1) {
            an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE", c->orig, "sqlExpr",
                                      fn_call_sql_quoted(c), "exprName", NAMES[i - 1], NULL));
            return false;
        }
    }
    c->result = &TYPE_STRING;
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
/* NON_FOLDABLE_INPUT for the arguments of the random generators (RDG checks) */
static bool random_args_foldable(TypeCtx *c, const char *const *names, const char *type) {
    Arena *a = c->an->arena;
    for (int i = 0; i < c->nargs && names[i]; i++)
        if (!func_expr_foldable(c->args[i])) {
            an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", c->orig, "sqlExpr",
                                      fn_call_sql_quoted(c), "inputName", sql_ident(a, names[i]), "inputType", type,
                                      "inputExpr", expr_sql_quoted(a, c->args[i]), NULL));
            return false;
        }
    return true;
}

static int numeric_rank(const DataType *t) {
    switch (t->id) {
    case T_BYTE: return 1;
    case T_SHORT: return 2;
    case T_INT: return 3;
    case T_LONG: return 4;
    default: return 0;
    }
}

/* uniform(min, max[, seed]): Uniform.dataType */
bool ty_uniform(TypeCtx *c) {
    static const char *const NAMES[] = {"min", "max", "seed", NULL};
    if (!random_args_foldable(c, NAMES, "integer or floating-point")) return false;
    const DataType *l = c->args[0]->type, *r = c->args[1]->type, *t;
    if (numeric_rank(l) && numeric_rank(r)) t = numeric_rank(l) <= numeric_rank(r) ? r : l;
    else if (l->id == T_DOUBLE || r->id == T_DOUBLE) t = &TYPE_DOUBLE;
    else if (l->id == T_FLOAT || r->id == T_FLOAT) t = &TYPE_FLOAT;
    else if (l->id == T_DECIMAL && r->id == T_DECIMAL)
        t = (l->precision - l->scale >= r->precision - r->scale && l->scale >= r->scale) ? l : r;
    else t = r->id == T_DECIMAL ? r : l;
    c->result = t;
    c->nullable = 0;
    return true;
}

/* randstr(length[, seed]): the length is cast to int (FunctionArgumentTypeCoercion) */
bool ty_randstr(TypeCtx *c) {
    static const char *const NAMES[] = {"length", "seed", NULL};
    if (!random_args_foldable(c, NAMES, "integer")) return false;
    const DataType *t = c->args[0]->type;
    if (type_is_numeric(t) && t->id != T_INT) c->args[0] = fn_mk_cast(c->an, c->args[0], &TYPE_INT);
    c->result = &TYPE_STRING;
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
