/* A small backtracking matcher for the subset of java.util.regex that
 * Spark's analyzer itself evaluates: quoted regex column names
 * (UnresolvedRegex.expand: `name.matches(pattern)`, a whole-string match,
 * `(?i)` when names are case-insensitive).
 *
 * Syntax: literals and `\` escapes, `.`, `[...]` classes (ranges, `^`,
 * `\d \w \s` and their negations), `^ $`, groups `( )` and `(?: )`, inline
 * `(?i)`, alternation `|`, and the quantifiers `? * + {n} {n,} {n,m}`, each
 * greedy, lazy (`??`) or possessive (`?+`, Java's atomic repetition).
 * Bytes are characters (names are compared byte-wise, ASCII case folding). */
#ifndef CZ_CORE_JREGEX_H
#define CZ_CORE_JREGEX_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

typedef struct JRegex JRegex;

/* Compiles pattern; NULL (and *err, if given, a short reason) when the
 * pattern is outside the subset or malformed. */
JRegex *jregex_compile(Arena *a, const char *pattern, bool case_insensitive, const char **err);

/* Whether the whole of s matches (Java's String.matches). */
bool jregex_matches(const JRegex *re, const char *s, size_t len);

#endif
