/* The constant evaluator: computes the value of a resolved, foldable
 * expression (literals, casts, arithmetic, string/date functions, variable
 * references, scalar subqueries over constant relations). Used where Spark
 * evaluates at analysis or command time: DECLARE ... DEFAULT, SET VAR,
 * IDENTIFIER(expr), EXECUTE IMMEDIATE. Runtime errors Spark raises there
 * (DIVIDE_BY_ZERO, CAST_INVALID_INPUT, ...) are recorded with an_fail
 * (phase "execution"). */
#ifndef CZ_CONSTEVAL_H
#define CZ_CONSTEVAL_H

#include "analysis.h"

/* Evaluates e into *out (arena-allocated parts). false: not constant
 * (no error recorded) or failed (error recorded; check an_failed). */
bool const_eval(Analysis *an, const Node *e, Value *out);

/* Evaluates a resolved query plan that yields rows of constants (a Project
 * over OneRowRelation, LocalRelation, ...): up to max_rows rows of ncols
 * values each, written row-major into *rows. Returns the row count, -1 when
 * the plan is not constant (no error) or on error (recorded). */
int const_eval_rows(Analysis *an, const Node *plan, int max_rows, Value **rows, uint32_t *ncols);

#endif
