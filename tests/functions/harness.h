/* Test helper: resolve expressions and SELECT lists with the function library alone. */
#ifndef CZ_TEST_FUNCTIONS_HARNESS_H
#define CZ_TEST_FUNCTIONS_HARNESS_H

#include <stdbool.h>

#include "core/analysis.h"

typedef struct Env {
    Analysis *an;
    uint32_t ncols;
    const char **names;
    const DataType **types;
} Env;

Node *harness_resolve(Env *env, Node *e);
/* Parses and resolves one expression (literals and calls); NULL on a parse error.
 * Resolution errors are left in an->error. */
Node *harness_expr(Analysis *an, const char *text);
/* The output schema string of a SELECT, or (with *ok false) why not. */
const char *harness_schema(Arena *a, const char *sql, bool *ok);

#endif
