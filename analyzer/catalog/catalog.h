/* The catalog: namespaces, tables and persistent views, user functions.
 * A Catalog is an immutable version: a change builds a new version
 * (catalog_clone + edits) and publishes it; analyses hold a reference to the
 * version they started with, so readers never lock. */
#ifndef CZ_CATALOG_H
#define CZ_CATALOG_H

#include <stdatomic.h>
#include <stdbool.h>

#include "core/arena.h"
#include "core/ir.h"
#include "core/types.h"

struct FuncDef;

typedef struct ColumnDef {
    const char *name;
    const DataType *type;
    bool nullable;
    uint32_t name_hash; /* attr_name_hash(name), computed when the table is published */
} ColumnDef;

typedef struct TableDef {
    const char *catalog;   /* "spark_catalog", or a v2 catalog's name */
    const char *ns;        /* "default"; in a v2 catalog the namespace's key (catalog_namespace_key) */
    NameParts ns_parts;    /* v2 catalogs: the namespace, part by part */
    bool v2;               /* lives in a v2 catalog (prints as RelationV2) */
    const char *table_name;/* v2: the table's name() when it is not catalog.ns.t (a JDBC table: ns.t) */
    const char *name;      /* "t" */
    int ncols;
    ColumnDef *cols;
    const char *provider;  /* "parquet" unless given */
    bool is_view;          /* a persistent view */
    const char *view_text; /* its SQL text, analysed in its own context when referenced */
    int nview_cols;        /* user-given column names of the view (0: the query's) */
    const char **view_cols;
    const char *view_mode; /* WITH SCHEMA BINDING | COMPENSATION (NULL) | TYPE EVOLUTION | EVOLUTION */
    int nview_query_cols;  /* the query's output names when it was created (Spark's view.query.out.col.N) */
    const char **view_query_cols;
    int npart_cols;        /* PARTITIONED BY columns (0: not partitioned) */
    const char **part_cols;
    bool has_default_collation; /* DEFAULT COLLATION: what a column added later as a plain STRING takes */
    int32_t default_collation;
    int npartitions;       /* the partitions ALTER TABLE ADD PARTITION made, each its values */
    const char **partitions; /* in part_cols order joined by '/' (statements/partitions.c) */
    bool partitions_unknown; /* data was written (INSERT, LOAD, ...): which partitions exist is not known */
} TableDef;

typedef struct UdfDef {
    const char *name;
    const struct FuncDef *def;
} UdfDef;

/* A namespace of a v2 catalog: its key and its parts. */
typedef struct V2Namespace {
    const char *catalog;
    const char *key;
    NameParts parts;
} V2Namespace;

typedef struct Catalog {
    atomic_int refs;
    Arena *arena;
    int nnamespaces;
    const char **namespaces;
    int ntables;
    TableDef **tables;
    int tables_cap;        /* room in tables */
    int nudfs;
    UdfDef *udfs;
    int nv2ns;             /* namespaces created in v2 catalogs */
    V2Namespace *v2ns;
    /* the session catalog's tables by (namespace, name), case-insensitively:
       positions in tables (-1: free), kept by every edit, so lookups and
       puts cost O(1) however many tables there are (open addressing) */
    int32_t *index;
    uint32_t index_cap;    /* a power of two, or 0 */
    int udfs_cap;          /* room in udfs */
    int32_t *udf_index;    /* udfs by name, the same way */
    uint32_t udf_index_cap;
} Catalog;

/* A catalog with spark_catalog.default only. refs = 1. */
Catalog *catalog_new(void);
/* A mutable deep copy of c (refs = 1) to edit and then publish. */
Catalog *catalog_clone(const Catalog *c);
void catalog_retain(Catalog *c);
void catalog_release(Catalog *c);

bool catalog_has_namespace(const Catalog *c, const char *ns);
const TableDef *catalog_find_table(const Catalog *c, const char *ns, const char *name);
const struct FuncDef *catalog_find_udf(const Catalog *c, const char *name);

/* Edits (on a clone only). Strings and types are copied into the catalog's arena. */
void catalog_add_namespace(Catalog *c, const char *ns);
bool catalog_drop_namespace(Catalog *c, const char *ns, bool cascade); /* false: not empty */
TableDef *catalog_put_table(Catalog *c, const char *ns, const char *name, int ncols, const ColumnDef *cols);
bool catalog_drop_table(Catalog *c, const char *ns, const char *name);
/* A copy of def (a session-catalog table or view, e.g. an existing one with
 * its columns or name changed) put in place of the table of def's ns and name. */
TableDef *catalog_put_table_def(Catalog *c, const TableDef *def);
void catalog_put_udf(Catalog *c, const char *name, const struct FuncDef *def);

/* v2 catalogs, as Spark's InMemoryTableCatalog keeps them: names are
 * case-sensitive, a namespace is identified by its parts (their quoted join,
 * catalog_namespace_key, is the key) and exists when a namespace or a table
 * lives at or below it; creating a table creates its namespace. */
const char *catalog_namespace_key(Arena *a, NameParts ns);
bool catalog_v2_namespace_exists(const Catalog *c, const char *catalog, NameParts ns);
/* The namespaces directly below ns (one more part), each once. */
int catalog_v2_child_namespaces(const Catalog *c, Arena *a, const char *catalog, NameParts ns, NameParts **out);
const TableDef *catalog_v2_find_table(const Catalog *c, const char *catalog, NameParts ns, const char *name);
/* Edits (on a clone only). */
void catalog_v2_add_namespace(Catalog *c, const char *catalog, NameParts ns);
/* Drops ns and, with cascade, everything below it; false: not empty. */
bool catalog_v2_drop_namespace(Catalog *c, const char *catalog, NameParts ns, bool cascade);
TableDef *catalog_v2_put_table(Catalog *c, const char *catalog, NameParts ns, const char *name, int ncols,
                               const ColumnDef *cols);
bool catalog_v2_drop_table(Catalog *c, const char *catalog, NameParts ns, const char *name);

/* Names compare case-insensitively (Spark's catalog lower-cases them). */
bool name_eq(const char *a, const char *b);

#endif
