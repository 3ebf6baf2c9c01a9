/* Name suggestions in error messages, as Spark orders them:
 * StringUtils.orderSuggestedIdentifiersBySimilarity — candidates (qualifier
 * parts + name) lose the qualifier they all share, are back-quoted part by
 * part and sorted, stably, by Levenshtein distance (commons-text, case
 * sensitive, UTF-16 units) to the name that was not found. */
#ifndef CZ_SUGGEST_H
#define CZ_SUGGEST_H

#include "arena.h"
#include "ir.h"

/* UNRESOLVED_COLUMN's proposal (QueryCompilationErrors.unresolvedAttributeError):
 * the first five of cands ordered against name (its parts as
 * UnresolvedAttribute.sql writes them), each as toSQLId (a leading
 * __auto_generated_subquery_name dropped), joined by ", ". cands must already
 * be in Spark's order (an operator's inputSet: see attribute_set_order). */
const char *suggest_columns_ordered(Arena *a, NameParts name, const NameParts *cands, uint32_t n);

/* UNRECOGNIZED_PARAMETER_NAME's proposal: the first `take` of the
 * single-part names ordered against name, joined by sep. */
const char *suggest_names(Arena *a, const char *name, const char *const *cands, uint32_t n, uint32_t take,
                          const char *sep);

/* Levenshtein distance counted in UTF-16 code units, as Java strings count
 * (commons-text LevenshteinDistance, no threshold). */
uint32_t levenshtein_utf16(Arena *a, const char *x, const char *y);

#endif
