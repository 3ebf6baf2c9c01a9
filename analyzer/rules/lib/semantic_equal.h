/* Spark's semanticEquals for resolved expressions (lib/semantic_equal.c). */
#ifndef CZ_RULES_LIB_SEMANTIC_EQUAL_H
#define CZ_RULES_LIB_SEMANTIC_EQUAL_H

#include <stdbool.h>

#include "core/ir.h"

/* Structural equality: attributes by id, positions ignored, aliases by name. */
bool expr_semantic_equal(const Node *a, const Node *b);

#endif
