/* SQL functions (CREATE [TEMPORARY] FUNCTION ... RETURNS t RETURN body):
 * the lookup of a call's name and the inlining of a body (Spark's
 * SessionCatalog.makeSQLFunctionPlan and ResolveSQLFunctions.resolve). */
#ifndef CZ_RULES_LIB_SQL_FUNCTION_H
#define CZ_RULES_LIB_SQL_FUNCTION_H

#include "core/analysis.h"
#include "catalog/session.h"

/* The SQL function a call names, or NULL: a one-part name is a built-in
 * first (the caller looks those up), then a temporary function, then one of
 * the current database; `db.f` and `spark_catalog.db.f` a persistent one. */
const SqlFunction *sql_function_lookup(Analysis *an, NameParts name);

/* How Spark names the function in plans and column names:
 * `spark_catalog.db.f` for a persistent one, `f` for a temporary one. */
const char *sql_function_name(Analysis *an, const SqlFunction *f);

/* The parameters of f as Spark binds them for one call: each argument cast
 * to its parameter's type and aliased to its name (missing trailing
 * arguments from their DEFAULT), in *aliases (f->nparams of them); then the
 * body analysed against those parameters and wrapped as
 * SQLScalarFunction(inputs = the aliases' attributes, body). args NULL:
 * only the body is checked (CREATE FUNCTION), against bare parameters.
 * NULL with the error recorded. */
Node *sql_function_inline(Analysis *an, const SqlFunction *f, Node *const *args, uint32_t nargs, const Node *at,
                          Node ***aliases);

#endif
