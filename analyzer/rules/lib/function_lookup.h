/* Function lookup for calls (lib/function_lookup.c). */
#ifndef CZ_RULES_LIB_FUNCTION_LOOKUP_H
#define CZ_RULES_LIB_FUNCTION_LOOKUP_H

#include "core/analysis.h"
#include "core/errors.h"
#include "functions/functions.h"

/* The function an UnresolvedFunction names (session UDFs, then built-ins), or NULL. */
const FuncDef *lookup_function(Analysis *an, const Node *unresolved_fn);
/* Spark's UNRESOLVED_ROUTINE for a call that names no function (arena). */
ErrorInfo *unresolved_routine(Analysis *an, const Node *unresolved_fn);

#endif
