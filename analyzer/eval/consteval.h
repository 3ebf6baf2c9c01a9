/* The constant evaluator: computes the value of a resolved, foldable
 * expression (literals, casts, arithmetic, string/date functions, variable
 * references, scalar subqueries over constant relations). Used where Spark
 * evaluates at analysis or command time: DECLARE ... DEFAULT, SET VAR,
 * IDENTIFIER(expr), EXECUTE IMMEDIATE. Runtime errors Spark raises there
 * (DIVIDE_BY_ZERO, CAST_INVALID_INPUT, ...) are recorded with an_fail
 * (phase "execution"). Values live in the analysis arena. */
#ifndef CZ_CONSTEVAL_H
#define CZ_CONSTEVAL_H

#include "core/analysis.h"

/* Evaluates e into *out (arena-allocated parts). false: not constant
 * (no error recorded) or failed (error recorded; check an_failed). */
bool const_eval(Analysis *an, const Node *e, Value *out);

/* Evaluates a resolved query plan that yields rows of constants (a Project
 * over OneRowRelation, LocalRelation, Filter, Aggregate, Union, CTEs, ...):
 * up to max_rows rows of ncols values each, written row-major into *rows.
 * Returns the row count (max_rows + 1 when there are more rows than
 * max_rows, so callers can report "too many rows"), -1 when the plan is not
 * constant (no error) or on error (recorded). */
int const_eval_rows(Analysis *an, const Node *plan, int max_rows, Value **rows, uint32_t *ncols);

/* Casts a value with Spark's ANSI cast semantics (CAST_INVALID_INPUT,
 * CAST_OVERFLOW, NUMERIC_VALUE_OUT_OF_RANGE recorded at `at`). */
bool const_cast_value(Analysis *an, const Value *in, const DataType *to, const Node *at, Value *out);

/* Spark's `foldable`: e depends on no column, subquery, aggregate or
 * nondeterministic function (variables and literals are foldable). */
bool expr_is_constant(const Node *e);

/* The cast-to-string text of a value (Spark's CAST(v AS STRING)); "NULL"
 * rendering is the caller's business: returns NULL for a null value. */
const char *const_value_text(Arena *a, const Value *v);

#endif
