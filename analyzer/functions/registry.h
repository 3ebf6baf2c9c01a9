/* Internal to the function library: the layout of a registry entry, the
 * typing context the typing helpers share, and the helpers themselves.
 *
 * A FuncDef is one row of a static const table (one row per name: an alias
 * is its own row, so each name carries its own printed form). A row says:
 *   - name, printed name (NULL: the name; Spark prints some aliases as the
 *     canonical name, e.g. array_agg → collect_list),
 *   - kind, argument count range, argument spec (one code per argument, the
 *     last repeated for variadic functions; codes in arg_spec.c),
 *   - the typing helper and, for fixed result types, the result type name,
 *   - default arguments Spark fills in and prints (`substr(s, 5, 2147483647)`),
 *   - flags (nondeterministic, nullability), the print style and operator
 *     text, and what an aggregate returns on empty input. */
#ifndef CZ_FUNCTIONS_REGISTRY_H
#define CZ_FUNCTIONS_REGISTRY_H

#include "functions.h"
#include "core/func_sig.h"

#include <strings.h>

/* A function's name is `lit` (lower case, starting with a letter), ignoring
 * case: the first letter rules out nearly every name before the compare. */
static inline bool fn_name_is(const char *name, const char *lit) {
    return (name[0] | 32) == lit[0] && !strcasecmp(name, lit);
}



typedef struct TypeCtx {
    Analysis *an;
    const FuncDef *def;
    Node *orig;          /* the UnresolvedFunction (position, flags) */
    Node **args;         /* arguments; helpers replace them with casts */
    int nargs;
    const DataType *result;
    int nullable;        /* -1: derive from the arguments */
    Node *replacement;   /* a helper may build a different node (date + 1 → date_add) */
    const void *extra;   /* the resolved call's u.call.extra (per-function data) */
} TypeCtx;

typedef bool (*TyperFn)(TypeCtx *c);

struct FuncDef {
    /* first, so a Call's `def` is also its FuncSig (core/func_sig.h) */
    union {
        FuncSig sig;
        struct { FUNC_SIG_FIELDS };
    };
    int8_t min_args;
    int8_t max_args;       /* -1: any number */
    const char *in;        /* argument spec codes */
    TyperFn typer;
    const char *out;       /* result type (Spark type syntax) for ty_fixed and friends */
    const char *defaults;  /* '|'-separated default arguments: i1, l1, s<text>, btrue, n (NULL), @fn */
    EmptyResult empty;
    const char *params;    /* '|'-separated parameter names for named arguments (NULL: positional only) */
    const char *expected_num;  /* WRONG_NUM_ARGS expectedNum when the builder says otherwise */
    const char *conf_flag; /* a boolean conf the expression takes when built (a constructor field):
                              the call's u.call.extra is non-NULL when it is true (print tail $F) */
    /* user-defined functions */
    const DataType *const *udf_args;
    const DataType *udf_result;
};

/* Tables by family (table_*.c), each ending with a zeroed row. */
extern const FuncDef FUNCS_OPERATORS[], FUNCS_MATH[], FUNCS_STRING[], FUNCS_DATETIME[], FUNCS_COLLECTION[],
    FUNCS_AGGREGATE[], FUNCS_WINDOW[], FUNCS_GENERATOR[], FUNCS_MISC[], FUNCS_FORMATS[];

/* The family table a row belongs to ("math", ...), for reports. */
const char *func_family(const FuncDef *def);
const FuncDef *func_lookup_arity(const char *name, int nargs);

/* Row-building shorthands used by the tables (designated initializers, so a
 * row may add .pname, .defaults, .flags, .print, .op, .empty after them). */
#define ROW(k, nm, mn, mx, in_, ty, out_) \
    .name = nm, .kind = k, .min_args = mn, .max_args = mx, .in = in_, .typer = ty_##ty, .out = out_
#define SCALAR(...) ROW(FK_SCALAR, __VA_ARGS__)
#define AGG(...) ROW(FK_AGGREGATE, __VA_ARGS__)
#define WIN(...) ROW(FK_WINDOW, __VA_ARGS__)
#define GEN(...) ROW(FK_GENERATOR, __VA_ARGS__)
#define END_OF_TABLE {.name = NULL}

/* ---- coercion (coercion.c) ---- */
const DataType *fn_tightest_common_type(Arena *a, const DataType *x, const DataType *y);
const DataType *fn_wider_no_string(Arena *a, const DataType *x, const DataType *y);
const DataType *fn_wider_decimal(Arena *a, const DataType *x, const DataType *y);
/* ANSI implicit cast of type `from` to the argument spec code; NULL if none. */
const DataType *fn_implicit_cast_type(Arena *a, const DataType *from, char code);
/* The legacy (ANSI off) implicit casts the ANSI ones lack; NULL if none. */
const DataType *fn_legacy_implicit_cast_type(Arena *a, const DataType *from, char code);
/* Whether a spec code takes type t as it is; the type a NULL takes for it (NULL: none). */
bool fn_spec_accepts(char code, const DataType *t);
const DataType *fn_spec_concrete(Arena *a, char code);
/* A configuration key set to true in the analysis' session. */
bool fn_conf_true(const Analysis *an, const char *key);
/* Spark's "requiredType" text for a spec code: "NUMERIC", ("STRING" or "BINARY"), ... */
const char *fn_spec_required_type(Arena *a, char code);
bool fn_type_orderable(const DataType *t);
bool fn_type_comparable_eq(const DataType *t);
const DataType *fn_decimal_bounded(Arena *a, int p, int s);
const DataType *fn_decimal_adjust(Arena *a, int p, int s); /* allowPrecisionLoss adjustment */
const DataType *fn_decimal_of_literal(Arena *a, const Node *lit); /* DecimalType.fromLiteral / forType */
bool fn_type_contains_null_type(const DataType *t);
const DataType *fn_type_replace_null(Arena *a, const DataType *t); /* void → defaults inside complex types */

/* ---- node helpers (resolve_call.c) ---- */
Node *fn_mk_literal(Arena *a, const DataType *t, bool is_null);
Node *fn_mk_int_lit(Arena *a, int64_t v, const DataType *t);
Node *fn_mk_str_lit(Arena *a, const char *s);
Node *fn_mk_cast(Analysis *an, Node *e, const DataType *t); /* implicit */
Node *fn_mk_call(Analysis *an, const FuncDef *def, const char *name, Node *const *args, int nargs, const DataType *t,
              const Node *pos);
Node *fn_call_builtin(Analysis *an, const char *name, Node *const *args, int nargs, const Node *pos);
bool fn_is_null_lit(const Node *n);
bool fn_is_foldable(const Node *n);
const char *fn_lit_string(const Node *n); /* a string Literal's text or NULL */
const char *fn_const_string(Arena *a, const Node *n); /* ... or a session variable's string value */
bool fn_expr_nullable(const Node *n);
Node *fn_typer_error(TypeCtx *c, int argi, char code);
Node *fn_typer_error_type(TypeCtx *c, int argi, const DataType *required);
Node *fn_fail_binary_diff(TypeCtx *c, const DataType *l, const DataType *r);
const char *fn_call_sql_quoted(TypeCtx *c);

/* typers_hof.c: MapZipWithCoercion over the two map arguments (in place) */
void fn_map_zip_with_coerce(Analysis *an, Node **args, int nargs);

/* lambda.c: binds and types argument i (a LambdaFunction) of a call */
Node *fn_resolve_lambda(Analysis *an, const FuncDef *def, Node **args, int nargs, int i);

/* ---- typing helpers (typers*.c) ---- */
#define TYPERS(X) \
    X(fixed) X(arg0) X(arg_last) X(common) X(least_greatest) X(nullif) X(nvl2) X(if) X(between) \
    X(array) X(map) X(named_struct) X(struct) X(elem) X(array_elem_op) X(array_insert) \
    X(array_setop) X(concat) X(concat_ws) X(elt) X(reverse) X(size) X(flatten) X(map_keys) \
    X(map_values) X(map_entries) X(map_key_op) X(map_from_arrays) X(map_from_entries) X(map_concat) X(update_fields) X(field_op) \
    X(str_to_map) X(arrays_zip) X(sequence) X(array_repeat) X(sort_array) X(split) X(explode) \
    X(posexplode) X(inline) X(stack) X(json_tuple) X(round) X(ceil_floor) X(abs) X(nanvl) \
    X(to_number) X(sum) X(avg) X(minmax) X(collect) X(percentile_approx) X(percentile) X(histogram) \
    X(count) X(from_schema) X(variant_get) X(timestamp_conf) X(extract) X(date_add) X(assert_true) \
    X(raise_error) X(first_last) X(within_group) X(udf) X(cast_alias) X(zero_null) X(uniform) \
    X(decode) X(transform) X(same_as_input) X(exists) X(aggregate) X(zip_with) X(transform_keys) \
    X(transform_values) X(map_zip_with) X(arith) X(div) X(intdiv) X(rem) X(try_arith) X(try_div) X(try_rem) X(double_or_interval) X(cmp) X(eq) X(logic) \
    X(bitwise) X(shift) X(unary_num) X(bitnot) X(not) X(neq) \
    X(filter) X(map_filter) X(array_sort) X(pad) X(str_pred) X(to_char) X(listagg) X(median) X(mask) X(randstr) X(schema_of) X(to_format) X(to_binary) X(signum) X(width_bucket) X(variant_explode) X(avro) X(sql_keywords) X(regexp_replace) X(format_string) X(convert_timezone) X(hex) X(pivot_first) X(collate) X(collation) X(collations)

/* typers_collation.c: 'SYSTEM.BUILTIN.<name>', what collation() of a value of type t gives */
const char *fn_collation_full_name(Arena *a, const DataType *t);
/* CollationTypeCoercion (collation_coercion.c): the string arguments of the
 * expression called `name` brought to the collation that wins by strength
 * (false with COLLATION_MISMATCH raised); the same over every argument; the
 * result type of a string function whose type is its input's. */
bool fn_collation_coerce_call(Analysis *an, const char *name, Node **args, int nargs, const Node *at);
bool fn_collation_coerce_all(Analysis *an, Node **args, int nargs, const Node *at);
bool fn_collation_in_subquery(Analysis *an, const Node *value, const DataType *col, const Node *at,
                              const DataType **out);
bool fn_collation_check_pairs(Analysis *an, Node *const *args, int nargs, const Node *at);
/* false when argument i of `name` has a collation the function does not
 * support (StringTypeBinaryLcase: the subject of LIKE, RLIKE, the regexp
 * functions and split; StringTypeNonCSAICollation: the string searches) */
bool fn_collation_arg_supported(const char *name, int i, const DataType *t);
const DataType *fn_collation_result_type(Analysis *an, const char *name, Node *const *args, int nargs,
                                         const DataType *result);

#define DECL_TYPER(n) bool ty_##n(TypeCtx *c);
TYPERS(DECL_TYPER)
#undef DECL_TYPER

/* within_group.c: WITHIN GROUP (ORDER BY ...) (SupportsOrderingWithinGroup).
 * prepare: the checks of DISTINCT and the ordering, then the ordering appended
 * to args[0..n) as the function takes it (may change *def: string_agg with an
 * ordering is listagg); the new count, or -1 after an error. nargs is the
 * number of arguments the user wrote. check_distinct: listagg(DISTINCT a)
 * ordered by anything but a. */
int fn_within_group_prepare(Analysis *an, const Node *u, const FuncDef **def, Node **args, int n, int nargs);
bool fn_within_group_check_distinct(Analysis *an, const Node *u, const Node *call);

/* schema_inference.c: the type schema_of_json / schema_of_csv / schema_of_xml
 * (fn, their name) infer from text with default options (a CSV delimiter may
 * be given); NULL when it cannot be inferred here. */
const DataType *fn_infer_schema(Arena *a, const char *fn, const char *text, const char *delimiter);

/* resolve_call.c: a type error around a generator argument is deferred
 * (the call stays unresolved) so ExtractGenerator's errors come first. */
bool fn_has_generator(const Node *e);
Node *fn_defer_type_error_around_generator(Analysis *an, Node *e, Node *r, ErrorInfo *before);

#endif
