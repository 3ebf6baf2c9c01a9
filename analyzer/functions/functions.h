/* The built-in function library and Spark's type coercion: the one place that
 * knows how each function and operator is typed, coerced and printed.
 *
 * Rules call into it only through this header: they resolve names and
 * structure; this module turns an expression whose children are resolved
 * into a typed expression, or into Spark's error for it. */
#ifndef CZ_FUNCTIONS_H
#define CZ_FUNCTIONS_H

#include <stdbool.h>

#include "core/analysis.h"
#include "core/func_sig.h"
#include "core/ir.h"
#include "core/strbuf.h"

/* What an aggregate returns on empty input (for decorrelation's COUNT bug). */
typedef enum EmptyResult { EMPTY_NULL, EMPTY_ZERO, EMPTY_FALSE, EMPTY_TRUE, EMPTY_EMPTY_ARRAY } EmptyResult;

/* A registry entry. The registry is a static const table (no global mutable
 * state); user-defined functions registered in a session are FuncDefs in the
 * session's catalog. */
typedef struct FuncDef FuncDef;

/* ---- lookup ---- */

/* The built-in function called `name` (case-insensitive), or NULL. */
const FuncDef *func_lookup_builtin(const char *name);
FuncKind func_kind(const FuncDef *def);
const char *func_name(const FuncDef *def);
EmptyResult func_empty_result(const FuncDef *def);
/* Every built-in name, for UNRESOLVED_ROUTINE suggestions. */
int func_builtin_names(const char *const **names);
/* The family a built-in belongs to ("math", "string", ...; "udf" for others). */
const char *func_family(const FuncDef *def);

/* Conventions of resolved calls:
 *  - a generator (explode, posexplode, inline, stack, json_tuple) is a Call
 *    whose type is a struct of its output columns (`struct<col:int>`,
 *    `struct<pos:int,col:int>`, `struct<key:..,value:..>`, col0.., c0..);
 *  - a LambdaFunction has kids[0] = body, kids[1..] = NamedLambdaVariable;
 *    func_resolve_call binds and types the lambdas of a higher-order call
 *    (parameters referenced in the body as UnresolvedAttribute or
 *    UnresolvedNamedLambdaVariable become the variables; a column resolved
 *    from the bare parameter name is the parameter, as in Spark, whose parser
 *    makes every body name a lambda variable first), and returns NULL
 *    without an error while a body still refers to something unresolved;
 *    a plain expression in a function slot (`transform(a, 0)`) becomes a
 *    hidden lambda, flagged NF_IMPLICIT (Spark prints `hidden` = true);
 *  - a type error around a generator argument (`explode(a) + 1`) is not
 *    reported: NULL without an error, so ExtractGenerator's
 *    UNSUPPORTED_GENERATOR.* errors come first, as in Spark;
 *  - an AggregateExpression has kids[0] = the aggregate Call, kids[1] = the
 *    FILTER condition when NF_HAS_FILTER; a WITHIN GROUP ordering is the
 *    Call's last kid (a SortOrder);
 *  - operators that Spark rewrites (date + 1 → date_add, a != b → NOT (a = b))
 *    come back as the rewritten expression. */

/* ---- resolution ----
 * Each returns the typed expression (a new node) or NULL after recording
 * Spark's error with an_fail. The argument nodes are resolved. */

/* An UnresolvedFunction (named call or operator) whose arguments are all
 * resolved: arity and type checks, implicit casts, the result type;
 * aggregates come back wrapped in an AggregateExpression (DISTINCT, FILTER),
 * `count(*)` as count(1). `def` is the entry to use (builtin or UDF). Higher-order
 * functions: see func_resolve_lambda_args. */
Node *func_resolve_call(Analysis *an, Node *unresolved_fn, const FuncDef *def);

/* Types a Cast, CaseWhen, In, GetStructField / UnresolvedExtractValue (field,
 * subscript), SortOrder, WindowExpression, or re-types a Call, once its
 * children are resolved (coercing them as Spark does). */
Node *expr_resolve_typed(Analysis *an, Node *e);

/* For higher-order functions: the types of the lambda variables of argument
 * `i` of a call to `def` given the other (resolved) arguments, so the caller
 * can bind the variables before resolving the lambda body. Returns the number
 * of variables and fills types; -1 if argument i is not a lambda. */
int func_lambda_arg_types(Analysis *an, const FuncDef *def, Node *const *args, int nargs, int i,
                          const DataType **types, int max);

/* Window functions with a frame of their own (Spark's WindowFunction.frame):
 * row_number, rank, dense_rank, percent_rank, ntile → ROWS BETWEEN UNBOUNDED
 * PRECEDING AND CURRENT ROW; cume_dist → RANGE ...; lag/lead → ROWS BETWEEN
 * -n FOLLOWING AND -n FOLLOWING (n the offset). `fn` is the resolved Call.
 * Returns a new SpecifiedWindowFrame node, or NULL when the function takes
 * the default frame (RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with
 * an ORDER BY, else ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING;
 * func_default_window_frame builds it). */
Node *func_window_frame(Analysis *an, const Node *fn);
Node *func_default_window_frame(Analysis *an, bool has_order);

/* ---- coercion helpers for rules (set operations, IN subqueries, VALUES) ---- */

/* Spark's findWiderTypeForTwo under ANSI rules (NULL if none). */
const DataType *coerce_wider_type(Arena *a, const DataType *x, const DataType *y);
/* Wider type of n types; NULL if none. */
const DataType *coerce_wider_type_n(Arena *a, const DataType *const *types, int n);
/* Wraps e in an implicit Cast to t when its type differs (same node otherwise). */
Node *coerce_cast(Analysis *an, Node *e, const DataType *t);
/* Whether values of t can be ordered (RowOrdering.isOrderable). */
bool type_orderable(const DataType *t);
/* Whether Spark can cast from → to (explicit CAST, ANSI). */
bool can_cast(const DataType *from, const DataType *to, bool ansi);

/* ---- CHAR / VARCHAR columns (char_varchar.c) ---- */

/* Whether a CHAR(n) column is padded on read (not under
 * spark.sql.legacy.charVarcharAsString or readSideCharPadding=false). */
bool func_char_padding_on_read(const Analysis *an);
/* static_invoke(CharVarcharCodegenUtils.readSidePadding(attr, length)), a STRING. */
Node *func_char_read_padding(Analysis *an, Node *attr, int length);
/* Whether CAST(x AS CHAR(n) / VARCHAR(n)) is a cast to STRING (not under
 * spark.sql.preserveCharVarcharTypeInfo). */
bool func_char_cast_as_string(const Analysis *an);

/* ---- Spark's RuntimeReplaceable expressions (replacements.c) ---- */

/* What a replacement builder may ask of the rule applying it. */
typedef struct ReplaceCtx ReplaceCtx;
struct ReplaceCtx {
    Analysis *an;
    /* Spark's With(e): what the replacement refers to the common expression e
       by (e itself when it is cheap, else a reference to it evaluated once
       below the operator); NULL if it cannot. */
    Node *(*common)(ReplaceCtx *c, Node *e);
    void *state;
};

/* The expression ReplaceExpressions replaces a resolved call with (one
 * step: the result may hold replaceable calls again), or NULL when the call
 * is not runtime-replaceable or its replacement cannot be built. Never
 * records an error. */
Node *fn_runtime_replacement(ReplaceCtx *c, Node *call);
/* Spark's Expression.foldable for a resolved expression. */
bool func_expr_foldable(const Node *e);

/* ---- user-defined functions ---- */
const FuncDef *func_make_udf(Arena *a, const char *name, int nargs, const DataType *const *arg_types,
                             const DataType *result, bool deterministic);
/* The same for an external catalog's function (FunctionCatalog.loadFunction), which may be an aggregate. */
const FuncDef *func_make_external(Arena *a, const char *name, int nargs, const DataType *const *arg_types,
                                  const DataType *result, bool deterministic, bool aggregate);

#endif
