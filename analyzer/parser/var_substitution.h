/* Spark's variable substitution (spark.sql.variable.substitute, on by
 * default): `${key}`, `${hivevar:key}`, `${hiveconf:key}`, `${spark:key}`
 * and `${sparkconf:key}` in a statement's text are replaced by the session
 * configuration's value of key (`SET hivevar:key = v` sets key) before
 * parsing. References to unset keys are left as written. */
#ifndef CZ_VAR_SUBSTITUTION_H
#define CZ_VAR_SUBSTITUTION_H

#include <stddef.h>

#include "core/arena.h"

struct SessionState;

/* The substituted text (arena), or sql itself when nothing changes; *len
 * is updated. */
const char *substitute_variables(Arena *a, const struct SessionState *s, const char *sql, size_t *len);

#endif
