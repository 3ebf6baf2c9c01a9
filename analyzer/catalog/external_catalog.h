/* Tables of external v2 catalogs, loaded on demand through the session's
 * CzCatalogProvider (catalyzer.h) as Spark's CatalogPlugin.loadTable loads
 * them: the catalog's options come from spark.sql.catalog.NAME.<option>, the
 * table's columns become a TableDef for this analysis only (the provider
 * caches; the session's catalog version never holds them). */
#ifndef CZ_EXTERNAL_CATALOG_H
#define CZ_EXTERNAL_CATALOG_H

#include "catalog_manager.h"

/* A session's converted copies of external tables, by name and version, so
 * that a table the provider serves from its cache is not converted (types
 * parsed, names copied) again on every analysis. Owned by the CzSession;
 * every state of the session points at it. */
typedef struct ExternalTableMemo ExternalTableMemo;
ExternalTableMemo *external_memo_new(void);
void external_memo_free(ExternalTableMemo *m);
/* Called before an analysis starts: when the memo has outgrown its bound it
 * starts afresh and returns the arena of the old copies (plans of earlier
 * results may still point into it: the caller frees it with its result);
 * NULL otherwise. */
struct Arena *external_memo_trim(ExternalTableMemo *m);

/* Whether the session's provider loads catalogs of this plugin class. */
bool external_catalog_handles(const SessionState *s, const char *plugin_class);

/* The table cat.ns.name: *out is the table (in arena a) or NULL when the
 * catalog has no such table; an error when the provider failed. */
ErrorInfo *external_load_table(Arena *a, const SessionState *s, const CatalogRef *cat, NameParts ns, const char *name,
                               uint64_t deadline_ns, const volatile int *cancel, const TableDef **out);

/* A function of an external catalog, its types parsed (in the caller's arena). */
typedef struct ExternalFunction {
    const char *name;
    int nargs;
    const DataType **arg_types;
    const DataType *result;
    bool deterministic, aggregate;
} ExternalFunction;

/* FunctionCatalog.loadFunction of cat.ns.name: *found and *out (in arena
 * a), or !*found when the catalog has no such function; an error when the
 * provider failed. (rules/lib/function_lookup.c makes the FuncDef.) */
ErrorInfo *external_load_function(Arena *a, const SessionState *s, const CatalogRef *cat, NameParts ns,
                                  const char *name, uint64_t deadline_ns, const volatile int *cancel,
                                  ExternalFunction *out, bool *found);

/* REFRESH TABLE cat.ns.name: the provider forgets what it cached of the table. */
void external_invalidate_table(Arena *a, const SessionState *s, const CatalogRef *cat, NameParts ns, const char *name);

/* Whether the namespace cat.ns exists; an error when the provider failed. */
ErrorInfo *external_namespace_exists(Arena *a, const SessionState *s, const CatalogRef *cat, NameParts ns,
                                     uint64_t deadline_ns, const volatile int *cancel, bool *exists);

#endif
