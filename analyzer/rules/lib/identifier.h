/* IDENTIFIER(expr) names (lib/identifier.c). */
#ifndef CZ_RULES_LIB_IDENTIFIER_H
#define CZ_RULES_LIB_IDENTIFIER_H

#include <stdbool.h>

#include "core/analysis.h"

/* IDENTIFIER(expr): expr (resolved) must be a constant STRING; its value
 * parsed as a multi-part name into *out (arena). false with the error
 * recorded (NOT_A_CONSTANT_STRING.*, the parser's error). */
bool identifier_name_parts(Analysis *an, const Node *expr, NameParts *out);

#endif
