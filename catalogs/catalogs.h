/* External catalogs for Catalyzer sessions: a CzCatalogProvider (catalyzer.h)
 * that loads the tables of
 *   - Spark's JDBCTableCatalog over PostgreSQL
 *     (spark.sql.catalog.NAME=org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog,
 *      .url=jdbc:postgresql://HOST:PORT/DB, .user, .password), through libpq;
 * with one bounded cache (entries, bytes, time to live) shared by every
 * session that uses the provider. Thread-safe. */
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

typedef struct CzCatalogsStats {
    uint64_t loads;        /* tables loaded from their source */
    uint64_t hits;         /* tables served from the cache */
    uint64_t failures;     /* loads that failed (unreachable, deadline, errors) */
    uint64_t evictions;    /* entries dropped for the bounds */
    size_t entries, bytes; /* the cache now */
} CzCatalogsStats;
void cz_catalogs_stats(CzCatalogs *c, CzCatalogsStats *out);

/* Drops cached tables: one table (catalog, ns, table), a catalog's tables
 * (table NULL, ns NULL), or all (catalog NULL). Returns how many. */
size_t cz_catalogs_invalidate(CzCatalogs *c, const char *catalog, const char *ns, const char *table);

#endif
