/* External catalogs for Catalyzer sessions: a CzCatalogProvider (catalyzer.h)
 * that loads the tables of
 *   - Spark's JDBCTableCatalog over PostgreSQL
 *     (spark.sql.catalog.NAME=org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog,
 *      .url=jdbc:postgresql://HOST:PORT/DB, .user, .password), through libpq;
 * with one bounded cache (entries, bytes, time to live) shared by every
 * session that uses the provider. Thread-safe. (Invalidation other than by
 * time to live is not wired to a statement or an RPC yet.) */
#ifndef CZ_CATALOGS_H
#define CZ_CATALOGS_H

#include <stddef.h>
#include <stdint.h>

#include "catalyzer.h"

#define CZ_JDBC_TABLE_CATALOG "org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog"

typedef struct CzCatalogsOptions {
    size_t cache_max_entries;  /* 0: 10,000 */
    size_t cache_max_bytes;    /* 0: 64 MiB */
    uint32_t cache_ttl_ms;     /* 0: 300,000 (a catalog's cacheTtlSeconds option overrides it) */
    uint32_t connect_timeout_ms; /* 0: 5,000 (and never past the request's deadline) */
} CzCatalogsOptions;

typedef struct CzCatalogs CzCatalogs;

CzCatalogs *cz_catalogs_new(const CzCatalogsOptions *opts);
void cz_catalogs_free(CzCatalogs *c);
/* The provider to give sessions (cz_session_set_catalog_provider); lives as long as c. */
const CzCatalogProvider *cz_catalogs_provider(CzCatalogs *c);

#endif
