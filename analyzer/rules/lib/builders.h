/* Constructors for the nodes rules build (lib/builders.c); every result is
 * finished and allocated in the analysis arena. */
#ifndef CZ_RULES_LIB_BUILDERS_H
#define CZ_RULES_LIB_BUILDERS_H

#include "core/analysis.h"

/* An Alias of e named name (fresh id); generated: Spark made the name up. */
Node *make_alias(Analysis *an, Node *e, const char *name, bool generated);
/* A resolved Project over child. */
Node *make_project(Analysis *an, Node *child, Node *const *exprs, uint32_t n);
Node *make_subquery_alias(Analysis *an, Node *child, NameParts name);
/* An INT literal at pos's position (pos may be NULL). */
Node *make_literal_int(Analysis *an, int64_t v, const Node *pos);
/* An implicit Cast of e to t (the session's ANSI mode). */
Node *make_cast(Analysis *an, Node *e, const DataType *t);

/* An UnresolvedFunction `name(args)` (an operator such as `=` or `and` when
 * is_operator) spanning [start, stop] (-1: synthetic); ResolveFunctions
 * looks it up and types it later. */
Node *make_unresolved_call(Analysis *an, NameParts name, bool is_operator, Node *const *args, uint32_t nargs,
                           int32_t start, int32_t stop);
/* The built-in `name` applied to resolved args and typed at once (Spark's
 * implicit casts, the result type). NULL when there is no such built-in, or
 * with the error recorded when the arguments do not fit. */
Node *make_call(Analysis *an, const char *name, bool is_operator, Node *const *args, uint32_t nargs, int32_t start,
                int32_t stop);

#endif
