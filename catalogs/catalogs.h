/* External catalogs for Catalyzer sessions: a CzCatalogProvider (catalyzer.h)
 * that loads the tables of
 *   - Spark's JDBCTableCatalog over PostgreSQL
 *     (spark.sql.catalog.NAME=org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog,
 *      .url=jdbc:postgresql://HOST:PORT/DB, .user, .password), through libpq;
 *   - the remote catalog (spark.sql.catalog.NAME=catalyzer.remote,
 *      .uri=HOST:PORT, .deadlineMs), an engine's catalyzer.v1.CatalogProvider
 *      service (proto/catalog_provider.proto);
 * with one bounded cache (entries, bytes, time to live: the catalog's
 * cacheTtlSeconds option) shared by every session that uses the provider.
 * A remote table past its time to live is revalidated by version (the
 * provider answers not_modified when the copy is current). Cached copies are
 * dropped by REFRESH TABLE and by cz_catalogs_invalidate (catalyzerd's
 * InvalidateTable; a worker process passes both on to the others through the
 * invalidation hook). A remote catalog's functions (LoadFunction) are cached
 * in the same cache. Thread-safe. */
#ifndef CZ_CATALOGS_H
#define CZ_CATALOGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalyzer.h"

#define CZ_JDBC_TABLE_CATALOG "org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog"
#define CZ_REMOTE_TABLE_CATALOG "catalyzer.remote"

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

/* Drops the cached copies of the table ns.table of the catalog named
 * `catalog` (table NULL: every table of that catalog), whichever source
 * they came from; returns how many. With notify, the invalidation hook
 * hears of it. */
size_t cz_catalogs_invalidate(CzCatalogs *c, const char *catalog, int nns, const char *const *ns, const char *table,
                              bool notify);

/* Told of each invalidation that starts here (REFRESH TABLE, or
 * cz_catalogs_invalidate with notify): a daemon with several processes,
 * each with its own CzCatalogs, passes it on to the others. Set before use. */
typedef void (*CzCatalogsInvalidateFn)(void *ud, const char *catalog, int nns, const char *const *ns,
                                       const char *table);
void cz_catalogs_on_invalidate(CzCatalogs *c, CzCatalogsInvalidateFn fn, void *ud);

/* What the cache holds now. */
void cz_catalogs_cache_usage(CzCatalogs *c, size_t *entries, size_t *bytes);

#endif
