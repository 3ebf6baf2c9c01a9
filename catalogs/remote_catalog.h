/* The remote catalog: spark.sql.catalog.NAME=catalyzer.remote with
 * spark.sql.catalog.NAME.uri=HOST:PORT, whose tables and namespaces come from
 * the engine's catalyzer.v1.CatalogProvider service (proto/catalog_provider.proto),
 * called with libczclient (gRPC on nghttp2).
 *
 * Every call is bounded by the request's deadline and by the catalog's
 * deadlineMs option (default 5,000), and stops within a few milliseconds of
 * the request's cancel flag. Connections are pooled per HOST:PORT, each with
 * its own libuv loop run by the calling thread only while its call lasts (an
 * analysis worker's thread: never the daemon's loop). Thread-safe.
 *
 * Failures name the catalog, the provider's address and why:
 * REMOTE_CATALOG.UNREACHABLE / DEADLINE_EXCEEDED / FAILED / INVALID_RESPONSE /
 * INVALID_OPTION; a provider's NOT_FOUND is CZ_CATALOG_NOT_FOUND. */
#ifndef CZ_REMOTE_CATALOG_H
#define CZ_REMOTE_CATALOG_H

#include <stdbool.h>

#include "catalyzer.h"

#define CZ_REMOTE_CATALOG "catalyzer.remote"

typedef struct RemoteCatalog RemoteCatalog;

/* A loaded table: the CzExternalTable (malloc'ed) and the provider's version of it. */
typedef struct RemoteTable {
    CzExternalTable table;
    char *version;
} RemoteTable;

RemoteCatalog *remote_catalog_new(void);
void remote_catalog_free(RemoteCatalog *r);

/* Whether an option is catalyzerd's own (uri, deadlineMs, cacheTtlSeconds),
 * not sent to the provider. */
bool remote_option_is_own(const char *key);

/* LoadTable. known_version: the version held (NULL: none); when the
 * provider says it is still current, *not_modified is set and *out is left
 * empty. */
CzCatalogStatus remote_load_table(RemoteCatalog *r, const CzCatalogRequest *req, const char *known_version,
                                  bool *not_modified, RemoteTable *out, CzCatalogFailure *f);
void remote_table_free(RemoteTable *t);

/* A loaded function (LoadFunction), malloc'ed. */
typedef struct RemoteFunction {
    char *name;
    int nargs;
    char **arg_types;
    char *result_type;
    bool deterministic, aggregate;
} RemoteFunction;

/* LoadFunction of req->ns.req->table: found, NOT_FOUND, or FAILED with *f. */
CzCatalogStatus remote_load_function(RemoteCatalog *r, const CzCatalogRequest *req, RemoteFunction *out,
                                     CzCatalogFailure *f);
void remote_function_free(RemoteFunction *fn);

/* ListNamespaces of req->ns: found, or NOT_FOUND when it does not exist. */
CzCatalogStatus remote_namespace_exists(RemoteCatalog *r, const CzCatalogRequest *req, CzCatalogFailure *f);

#endif
