/* The Spark SQL parser: SQL text → unresolved plan (IR in the arena).
 * Errors are Spark's parse errors (PARSE_SYNTAX_ERROR, PARSE_EMPTY_STATEMENT,
 * INVALID_SQL_SYNTAX.*, ...) with a position; nothing is allocated outside
 * the arena and nothing leaks on error. */
#ifndef CZ_PARSER_H
#define CZ_PARSER_H

#include <stddef.h>

#include "core/errors.h"
#include "core/ir.h"

typedef struct ParserOptions {
    bool double_quoted_identifiers; /* spark.sql.ansi.doubleQuotedIdentifiers */
    bool enforce_reserved_keywords; /* spark.sql.ansi.enforceReservedKeywords */
    bool having_without_group_by_as_where; /* legacy: HAVING without GROUP BY is a WHERE */
    bool legacy_setops_precedence;  /* legacy: INTERSECT binds no tighter than UNION / EXCEPT */
    bool timestamp_ntz;             /* spark.sql.timestampType=TIMESTAMP_NTZ: TIMESTAMP '...' is TIMESTAMP_NTZ */
    const char *time_zone;          /* spark.sql.session.timeZone: literals naming a zone convert to it (NULL: UTC) */
    bool quoted_regex_column_names; /* spark.sql.parser.quotedRegexColumnNames: `regex` in a select item */
    bool case_sensitive;            /* spark.sql.caseSensitive (a quoted regex then matches case-sensitively) */
    uint32_t max_depth;             /* nesting limit (0: 1000) */
} ParserOptions;

/* Parses exactly one statement (a trailing `;` is allowed). Returns the plan
 * or NULL with *err set. Positions are byte offsets into sql. */
Node *parse_statement(Arena *a, const char *sql, size_t len, const ParserOptions *opts, ErrorInfo **err);

/* Parses one expression (whole input). */
Node *parse_expression(Arena *a, const char *sql, size_t len, const ParserOptions *opts, ErrorInfo **err);

/* Parses a (multi-part) identifier such as `a`.b.`c d`, as IDENTIFIER('...') does. */
bool parse_multipart_identifier(Arena *a, const char *s, size_t len, NameParts *out, ErrorInfo **err);

/* Parses a data type as in CAST / DDL. */
const DataType *parse_data_type(Arena *a, const char *s, size_t len, ErrorInfo **err);

/* Spark's variable substitution (spark.sql.variable.substitute), which
 * Spark's parser applies before parsing: every `${name}` or `${prefix:name}`
 * (prefix: spark, sparkconf, hivevar, hiveconf, env, system) is replaced by
 * lookup(ctx, prefix or NULL, name) when that returns non-NULL, and kept as
 * is otherwise. Returns the text (in the arena, NUL-terminated; *outlen its
 * length), or sql itself when it contains no `${`. */
typedef const char *(*ParseVarLookup)(void *ctx, const char *prefix, const char *name);
const char *parse_substitute_variables(Arena *a, const char *sql, size_t len, ParseVarLookup lookup, void *ctx,
                                       size_t *outlen);

#endif
