/* The query of an INSERT into a catalog table, fitted to the table's columns
 * as Spark's PreprocessTableInsertion does (statements/insert_columns.c). */
#ifndef CZ_STATEMENTS_INSERT_COLUMNS_H
#define CZ_STATEMENTS_INSERT_COLUMNS_H

#include "catalog/catalog.h"
#include "core/analysis.h"

/* The analysed INSERT statement stmt into table t, its query already
 * analysed: the query fitted to t's columns (user column list, arity, casts,
 * renames), the statement naming the table as Spark's
 * InsertIntoHadoopFsRelationCommand shows it. NULL with the error recorded. */
Node *insert_fit_query(Analysis *an, const TableDef *t, Node *stmt, Node *query);

#endif
