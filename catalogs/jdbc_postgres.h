/* Spark's JDBCTableCatalog over PostgreSQL, through libpq: a table's schema
 * as Spark's JDBC source reads it (the columns of SELECT * FROM "ns"."t"
 * WHERE 1=0, every column nullable, types by pg_types.h), and whether a
 * namespace (a PostgreSQL schema) exists. Connections are pooled per
 * connection string; every wait is bounded by the request's deadline and
 * stops on its cancel flag. Thread-safe. */
#ifndef CZ_JDBC_POSTGRES_H
#define CZ_JDBC_POSTGRES_H

#include "catalyzer.h"

typedef struct JdbcPostgres JdbcPostgres;

JdbcPostgres *jdbc_pg_new(uint32_t connect_timeout_ms);
void jdbc_pg_free(JdbcPostgres *j);

/* Loads the table: *out (ncols, cols, name) malloc'ed, freed by jdbc_pg_table_free. */
CzCatalogStatus jdbc_pg_load_table(JdbcPostgres *j, const CzCatalogRequest *req, CzExternalTable *out,
                                   CzCatalogFailure *f);
void jdbc_pg_table_free(CzExternalTable *t);
CzCatalogStatus jdbc_pg_namespace_exists(JdbcPostgres *j, const CzCatalogRequest *req, CzCatalogFailure *f);

#endif
