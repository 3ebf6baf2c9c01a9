/* Statements: queries are analysed; every other statement kind (the COMMAND
 * kinds of core/node_kinds.def) runs through one table keyed by node kind
 * (statements.c), whose handlers live one file per family, as DuckDB's
 * bind_create / bind_drop:
 *
 *   create.c     CREATE VIEW / TABLE / TABLE LIKE / TEMPORARY VIEW USING / FUNCTION / INDEX, REPLACE TABLE
 *   drop.c       DROP TABLE / VIEW / FUNCTION / INDEX
 *   namespace.c  CREATE / DROP / ALTER NAMESPACE, USE, SET CATALOG, COMMENT ON NAMESPACE
 *   alter.c      ALTER TABLE / VIEW (columns, properties, partitions, RENAME TO, AS query), COMMENT ON TABLE
 *   describe.c   DESCRIBE table / column / query / namespace / function, EXPLAIN
 *   show.c       SHOW NAMESPACES / TABLES / TABLE EXTENDED / VIEWS / COLUMNS / PARTITIONS / FUNCTIONS /
 *                CREATE TABLE / TBLPROPERTIES / CURRENT NAMESPACE / CATALOGS
 *   cache.c      CACHE / UNCACHE TABLE, CLEAR CACHE, REFRESH TABLE / FUNCTION / resource
 *   maintenance.c  [MSCK] REPAIR TABLE, TRUNCATE TABLE, ANALYZE TABLE(S), LOAD DATA
 *   session_cmd.c  SET / RESET configuration, ADD / LIST resources
 *   dml.c        INSERT (insert_columns.c fits its query), DELETE, UPDATE, MERGE, CALL
 *   variables_cmd.c  DECLARE / SET / DROP VARIABLE, EXECUTE IMMEDIATE, IDENTIFIER(...) targets
 *   catalog_cmd.c    the same statements on v2 catalogs
 *
 * A handler checks what Spark checks when it analyses the statement (the
 * target exists and is of the right type, ...) and applies the statement to
 * pending copies of the catalog and session state, which the caller
 * publishes only when the statement succeeds. What Spark refuses, or what
 * Catalyzer cannot analyse, is an explicit error, never a silent ok. */
#ifndef CZ_STATEMENTS_STATEMENTS_H
#define CZ_STATEMENTS_STATEMENTS_H

#include "catalog/catalog_manager.h"
#include "catalog/session.h"
#include "core/analysis.h"

struct CzRunOptions;

/* The mutable copies a command edits; published only if the statement succeeds. */
typedef struct PendingChanges {
    Catalog *catalog;      /* NULL: unchanged */
    SessionState *state;   /* NULL: unchanged */
} PendingChanges;

/* One statement kind's handler: the analysed statement, or NULL with an->error set. */
typedef Node *(*StatementHandler)(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

/* The handler of a statement kind; NULL for a kind that is not a statement. */
StatementHandler statement_handler(NodeKind k);

/* Runs one parsed statement in session s: a query is analysed (through the
 * analysis's driver); a command goes through the table. Returns the analysed
 * plan, or NULL with an->error set. */
Node *run_statement(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pending);

/* The pending copies, cloned on first use. */
Catalog *pending_catalog(CzSession *s, PendingChanges *p);
SessionState *pending_state(CzSession *s, PendingChanges *p);

/* Binds the parameter markers (`:name`, `?`) of a parsed statement to the
 * values a client sent with it (CzRunOptions: SQL literal texts); markers
 * left unbound are UNBOUND_SQL_PARAMETER. Returns the statement (itself
 * when it has no markers) or NULL with the error recorded. */
Node *bind_run_parameters(Analysis *an, Node *stmt, const struct CzRunOptions *opts);

/* ---- the handlers, by family (see the files above) ---- */

Node *stmt_create_view(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_create_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_create_table_like(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_replace_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_create_temp_view_using(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_create_function(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_create_index(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

Node *stmt_drop_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_drop_function(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_drop_index(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

Node *stmt_namespace(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_alter_namespace(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_set_catalog(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

Node *stmt_alter_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_alter_view(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_alter_view_as(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_rename_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_comment_on_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

Node *stmt_describe_relation(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_describe_query(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_describe_namespace(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_describe_function(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_explain(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

Node *stmt_show_listing(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_show_table_extended(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_show_columns(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_show_partitions(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_show_functions(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_show_create_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_show_tblproperties(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_show_current_namespace(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

Node *stmt_cache_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_uncache_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_clear_cache(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_refresh_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_refresh_function(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_refresh_resource(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

Node *stmt_repair_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_truncate_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_analyze_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_analyze_tables(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_load_data(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

Node *stmt_set_config(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_reset_config(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_resource(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

Node *stmt_insert_into(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_row_level_dml(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);
Node *stmt_call(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

/* variables_cmd.c: DECLARE / SET / DROP VARIABLE, EXECUTE IMMEDIATE, IDENTIFIER(...) targets */
Node *run_variable_command(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend);

/* catalog_cmd.c: statements on v2 catalogs */
Node *v2_namespace_command(Analysis *an, CzSession *s, Node *stmt, const QualifiedName *q, PendingChanges *pend);
Node *v2_create_table(Analysis *an, CzSession *s, Node *stmt, const QualifiedName *q, PendingChanges *pend);
Node *v2_drop_table(Analysis *an, CzSession *s, Node *stmt, const QualifiedName *q, PendingChanges *pend);

/* ---- what the handlers share (statements.c) ---- */

/* Fails the analysis with a catalog-layer error, positioned at the statement. */
bool stmt_fail_at(Analysis *an, const Node *at, ErrorInfo *e);

/* The columns of a table CREATE TABLE makes: its query's output (*query is
 * the analysed query) or the declared columns (*query NULL); false when the
 * query failed. */
bool stmt_new_table_columns(Analysis *an, Node *stmt, ColumnDef **cols, uint32_t *ncols, Node **query);

/* A table or view name split as Spark's CatalogAndIdentifier splits it; in
 * the session catalog the namespace must be a single part (*ns). */
bool stmt_split_table_name(Analysis *an, CzSession *s, const Node *at, NameParts n, QualifiedName *q,
                           const char **ns, const char **tbl);

/* Partition specs (partitions.c). PC_NONE: the keys must be partition
 * columns; PC_EXACT: and all of them; PC_EXISTING: and the partition must
 * exist (when known); PC_SHOW_EXISTING: as SHOW TABLE EXTENDED reports an
 * unknown key (PARTITIONS_NOT_FOUND). False with the error recorded. */
typedef enum PartitionCheck { PC_NONE, PC_EXACT, PC_EXISTING, PC_SHOW_EXISTING } PartitionCheck;
bool stmt_check_partition_spec(Analysis *an, const Node *stmt, const TableDef *t, PartitionCheck how);
bool stmt_partition_exists(const TableDef *t, const char *key);
/* ALTER TABLE t ADD PARTITION: recorded in the table (PARTITIONS_ALREADY_EXIST). */
Node *stmt_add_partition(Analysis *an, CzSession *s, Node *stmt, const TableDef *t, PendingChanges *pend);
/* Data was written to t: which partitions exist is no longer known. */
void stmt_partitions_unknown(CzSession *s, const TableDef *t, PendingChanges *pend);

/* `spark_catalog`.`ns`.`tbl` */
const char *stmt_qualified(Analysis *an, const char *ns, const char *tbl);

/* The statement with its name replaced by spark_catalog.ns.tbl. */
Node *stmt_with_qualified_name(Analysis *an, Node *stmt, const char *ns, const char *tbl);

/* The statement with its namespace target resolved (catalog + namespace). */
Node *with_resolved_namespace(Analysis *an, Node *stmt, const QualifiedName *q);

/* The statement with kids[0] replaced by its analysed query. */
Node *stmt_with_query(Analysis *an, Node *stmt, Node *query);

/* The statement with output columns (exprs) named and typed as given. */
Node *stmt_with_output(Analysis *an, Node *stmt, int n, const char *const *names, const DataType *const *types);

/* What a statement's table-or-view name resolved to (Spark's UnresolvedTable,
 * UnresolvedView, UnresolvedTableOrView). */
typedef struct ResolvedRel {
    const TempView *temp;  /* a temporary view */
    const TableDef *table; /* a catalog table or persistent view */
    QualifiedName q;       /* the name split (not for temporary views) */
    const char *ns, *tbl;  /* session catalog: the namespace and name */
} ResolvedRel;

typedef enum RelWant {
    REL_TABLE_OR_VIEW, /* UnresolvedTableOrView: anything */
    REL_TABLE,         /* UnresolvedTable: a view is EXPECT_TABLE_NOT_VIEW */
    REL_VIEW,          /* UnresolvedView: a table is EXPECT_VIEW_NOT_TABLE */
    REL_PERSISTENT_VIEW, /* UnresolvedView without temporary views */
    REL_PERSISTENT,    /* UnresolvedTableOrView without temporary views */
} RelWant;

/* Resolves the statement's name (u.ddl.name) as Spark's analyzer does for
 * its kind, or fails with Spark's error: TABLE_OR_VIEW_NOT_FOUND,
 * EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE / USE_ALTER_VIEW (suggest), or
 * EXPECT_VIEW_NOT_TABLE.NO_ALTERNATIVE / USE_ALTER_TABLE; `operation` is
 * the command as Spark names it in those errors. */
bool stmt_resolve_relation(Analysis *an, CzSession *s, const Node *stmt, RelWant want, const char *operation,
                           bool suggest, ResolvedRel *out);

/* The statement naming what its target resolved to, as Spark's commands
 * print it: a table or persistent view as spark_catalog.db.name (lower
 * case, as the session catalog keeps names) with its columns; a temporary
 * view as written. */
Node *stmt_resolved_target(Analysis *an, Node *stmt, const ResolvedRel *r);

/* A persistent function's statement named spark_catalog.db.f (db: the
 * namespace q resolved; f lower case with `lower`), as FunctionIdentifier prints. */
Node *stmt_function_name(Analysis *an, Node *stmt, const QualifiedName *q, bool lower);

/* The session-catalog namespace a statement names, which must exist:
 * SCHEMA_NOT_FOUND otherwise. name.n == 0: the current namespace. */
bool stmt_resolve_namespace(Analysis *an, CzSession *s, const Node *at, NameParts name, QualifiedName *q);

/* An output attribute (a command's result column) with a fresh id. */
Node *stmt_output_attr(Analysis *an, const char *name, const DataType *type);

#endif
