/* The robustness check of the parser's entry points, shared by the built-in
 * inputs (test_robust.c) and the corpus's cut and mutated statements
 * (test_corpus.c). */
#ifndef CZ_TEST_CHECK_PARSE_H
#define CZ_TEST_CHECK_PARSE_H

#include <stddef.h>

#include "core/arena.h"

/* Every entry point (statement, expression, identifier, data type) gives an
 * answer on these bytes — a result or an error with a class, a message and
 * the parse phase — never a crash (criterion assertions). Resets the arena. */
void parse_check_answer(Arena *a, const char *sql, size_t len);

#endif
