/* Spark-style errors: error class, SQLSTATE, message parameters, position.
 * Errors travel one way: the code that finds a problem builds an ErrorInfo
 * and hands it to an_fail (analysis.h) or returns it; the first error wins. */
#ifndef CZ_ERRORS_H
#define CZ_ERRORS_H

#include "arena.h"
#include "ir.h"

typedef struct ErrorInfo {
    const char *error_class;  /* "UNRESOLVED_COLUMN.WITH_SUGGESTION" */
    const char *sqlstate;     /* from the class table */
    const char *message;      /* "[CLASS] text with parameters substituted" */
    int nparams;
    const char **names;       /* parameter names, in the order given */
    const char **values;
    int32_t start, stop;      /* byte offsets into the SQL text, stop inclusive; -1 none */
    const char *phase;        /* "parse", "analysis", "execution" */
} ErrorInfo;

/* Builds an error of class `cls` at node `at` (its position; may be NULL)
 * with parameters given as NULL-terminated name, value pairs:
 *   error_make(a, "UNRESOLVED_COLUMN.WITH_SUGGESTION", n,
 *              "objectName", "`x`", "proposal", "`a`, `b`", NULL);
 * SQLSTATE and message come from the class table (errors.c). Phase "analysis". */
ErrorInfo *error_make(Arena *a, const char *cls, const Node *at, ...) __attribute__((sentinel));
/* Same, with an explicit range. */
ErrorInfo *error_make_at(Arena *a, const char *cls, int32_t start, int32_t stop, ...) __attribute__((sentinel));
/* Same, with arrays. */
ErrorInfo *error_make_v(Arena *a, const char *cls, int32_t start, int32_t stop, int nparams, const char *const *names,
                        const char *const *values);

/* SQLSTATE of an error class (or of its parent class); "XXKCZ" if unknown. */
const char *error_sqlstate(const char *cls);

/* Spark's quoting helpers for message parameters. */
const char *sql_ident(Arena *a, const char *name);        /* `name` (backquotes doubled) */
const char *sql_id_parts(Arena *a, NameParts parts);      /* `a`.`b`.`c` */
const char *sql_type_quoted(Arena *a, const DataType *t); /* "INT" */
const char *sql_conf(Arena *a, const char *key);          /* "spark.sql.x" */

#endif
