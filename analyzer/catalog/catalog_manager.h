/* Spark's CatalogManager and its name extractors over a session: the
 * session catalog `spark_catalog` and the v2 catalogs a session registers with
 * `spark.sql.catalog.NAME=<class>`; the current catalog (USE, else
 * `spark.sql.defaultCatalog`) and its current namespace; multi-part names
 * split into catalog, namespace and object as CatalogAndIdentifier and
 * CatalogAndNamespace split them. */
#ifndef CZ_CATALOG_MANAGER_H
#define CZ_CATALOG_MANAGER_H

#include "core/errors.h"
#include "session.h"

#define SESSION_CATALOG "spark_catalog"

typedef struct CatalogRef {
    const char *name;   /* "spark_catalog", "primary" */
    bool is_session;    /* the built-in session catalog (v1 tables) */
    const char *plugin; /* a v2 catalog's class */
} CatalogRef;

/* A name split as Spark splits it. */
typedef struct QualifiedName {
    CatalogRef catalog;
    NameParts ns;     /* the namespace inside the catalog */
    const char *name; /* the object; NULL for a namespace */
} QualifiedName;

/* The plugin classes Catalyzer implements (Spark's in-memory test catalogs). */
bool catalog_plugin_known(const char *plugin_class);

/* catalogManager.catalog(name): the session catalog or a registered v2
 * catalog. NULL with *out filled, or the error Spark raises (CATALOG_NOT_FOUND
 * for a name no conf registers, a plugin class Catalyzer does not have). */
ErrorInfo *catalog_lookup(Arena *a, const SessionState *s, const char *name, CatalogRef *out);
/* A name the conf registers as a catalog (Spark's isCatalogRegistered). */
bool catalog_is_registered(const SessionState *s, const char *name);

/* The current catalog (NULL: the error for a default catalog that is not registered). */
ErrorInfo *catalog_current(Arena *a, const SessionState *s, CatalogRef *out);
/* The current namespace of the current catalog. */
NameParts catalog_current_namespace(Arena *a, const SessionState *s, const CatalogRef *current);

/* CatalogAndIdentifier: a table or view name. */
ErrorInfo *catalog_split_identifier(Arena *a, const SessionState *s, NameParts name, QualifiedName *out);
/* CatalogAndNamespace: a namespace name. */
ErrorInfo *catalog_split_namespace(Arena *a, const SessionState *s, NameParts name, QualifiedName *out);

/* All the catalog names a session knows: spark_catalog and the registered ones, sorted. */
int catalog_names(Arena *a, const SessionState *s, const char ***out);

/* Makes `catalog` current (Spark's setCurrentCatalog: switching resets the
 * namespaces) and then, if ns is given, its current namespace. */
void state_set_current(SessionState *s, const char *catalog, const NameParts *ns);

#endif
