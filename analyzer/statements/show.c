/* SHOW statements, each with Spark's output columns: SHOW CATALOGS
 * (ShowCatalogsCommand), NAMESPACES (ShowNamespaces), TABLES (ShowTables),
 * TABLE EXTENDED and VIEWS (ShowTablesCommand, ShowViewsCommand), COLUMNS
 * (ShowColumnsCommand), PARTITIONS (ShowPartitionsCommand), FUNCTIONS
 * (ShowFunctionsCommand), CREATE TABLE (ShowCreateTable[AsSerde]Command),
 * TBLPROPERTIES (ShowTableProperties) and CURRENT NAMESPACE
 * (ShowCurrentNamespaceCommand). A namespace or table they name must
 * exist: SCHEMA_NOT_FOUND, TABLE_OR_VIEW_NOT_FOUND. */
#include "statements.h"

#include <string.h>
#include <strings.h>

#include "print/printer.h"

static const DataType *const STR4[] = {&TYPE_STRING, &TYPE_STRING, &TYPE_STRING, &TYPE_STRING};

/* SHOW CATALOGS, SHOW NAMESPACES [IN ns], SHOW TABLES|VIEWS [IN ns]: the
 * namespace resolved (no name: the current catalog, and for SHOW TABLES /
 * VIEWS its current namespace), which must exist for TABLES and VIEWS. */
Node *stmt_show_listing(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    if (stmt->kind == NK_ShowCatalogs) {
        static const char *const names[] = {"catalog"};
        return stmt_with_output(an, stmt, 1, names, STR4);
    }
    QualifiedName q;
    Node *c;
    if (stmt->kind == NK_ShowNamespaces) {
        ErrorInfo *e = stmt->u.ddl.name.n ? catalog_split_namespace(an->arena, s->state, stmt->u.ddl.name, &q)
                                          : catalog_current(an->arena, s->state, &q.catalog);
        if (e) return stmt_fail_at(an, stmt, e), NULL;
        if (!stmt->u.ddl.name.n) q.ns = (NameParts){0, NULL};
        c = with_resolved_namespace(an, stmt, &q);
        static const char *const names[] = {"namespace"};
        return stmt_with_output(an, c, 1, names, STR4);
    }
    NameParts nsn = stmt->u.ddl.name;
    if (stmt->kind == NK_ShowViews && nsn.n == 1 && name_eq(nsn.v[0], "global_temp")) {
        /* the global temporary views' namespace */
        static const char *const names[] = {"namespace", "viewName", "isTemporary"};
        static const DataType *const types[] = {&TYPE_STRING, &TYPE_STRING, &TYPE_BOOLEAN};
        return stmt_with_output(an, stmt, 3, names, types);
    }
    if (!stmt_resolve_namespace(an, s, stmt, nsn, &q)) return NULL;
    c = with_resolved_namespace(an, stmt, &q);
    static const DataType *const types[] = {&TYPE_STRING, &TYPE_STRING, &TYPE_BOOLEAN};
    if (stmt->kind == NK_ShowViews) {
        static const char *const names[] = {"namespace", "viewName", "isTemporary"};
        return stmt_with_output(an, c, 3, names, types);
    }
    static const char *const names[] = {"namespace", "tableName", "isTemporary"};
    return stmt_with_output(an, c, 3, names, types);
}

/* SHOW TABLE EXTENDED [IN ns] LIKE 'p' [PARTITION (...)]: with a partition
 * the pattern names one table, which must exist. */
Node *stmt_show_table_extended(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    QualifiedName q;
    if (!stmt_resolve_namespace(an, s, stmt, stmt->u.ddl.name, &q)) return NULL;
    if (ddl_spec(stmt)->npart && stmt->u.ddl.value && q.catalog.is_session) {
        const char *t = stmt->u.ddl.value;
        const TableDef *td = catalog_find_table(s->catalog, q.ns.v[0], t);
        if (!td && !state_find_view(s->state, t))
            return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_NOT_FOUND", stmt, "relationName",
                                          sql_ident(an->arena, t), NULL));
        if (td && !stmt_check_partition_spec(an, stmt, td, PC_SHOW_EXISTING)) return NULL;
    }
    Node *c = with_resolved_namespace(an, stmt, &q);
    static const char *const names[] = {"namespace", "tableName", "isTemporary", "information"};
    static const DataType *const types[] = {&TYPE_STRING, &TYPE_STRING, &TYPE_BOOLEAN, &TYPE_STRING};
    return stmt_with_output(an, c, 4, names, types);
}

/* SHOW COLUMNS FROM|IN t [FROM|IN ns]: the namespace, if given twice, must
 * agree (SHOW_COLUMNS_WITH_CONFLICT_NAMESPACE). */
Node *stmt_show_columns(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    NameParts n = stmt->u.ddl.name, ns = ddl_spec(stmt)->name2;
    if (ns.n) {
        if (n.n > 1) {
            NameParts given = {n.n - 1, n.v};
            bool same = given.n == ns.n;
            for (uint32_t i = 0; same && i < ns.n; i++) same = name_eq(given.v[i], ns.v[i]);
            if (!same)
                return an_fail(an, error_make(an->arena, "SHOW_COLUMNS_WITH_CONFLICT_NAMESPACE", stmt, "namespaceA",
                                              sql_id_parts(an->arena, ns), "namespaceB",
                                              sql_id_parts(an->arena, given), NULL));
        } else {
            const char **parts = ARENA_ARRAY(an->arena, const char *, ns.n + 1);
            for (uint32_t i = 0; i < ns.n; i++) parts[i] = ns.v[i];
            parts[ns.n] = n.v[0];
            n = (NameParts){ns.n + 1, parts};
        }
    }
    Node *named = node_copy(an->arena, stmt);
    named->u.ddl.name = n;
    named = node_finish(named);
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, named, REL_TABLE_OR_VIEW, "SHOW COLUMNS", false, &r)) return NULL;
    Node *c = stmt_resolved_target(an, named, &r);
    static const char *const names[] = {"col_name"};
    return stmt_with_output(an, c, 1, names, STR4);
}

/* SHOW PARTITIONS t [PARTITION (...)]: a partitioned table
 * (INVALID_PARTITION_OPERATION.PARTITION_SCHEMA_IS_EMPTY otherwise). */
Node *stmt_show_partitions(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE, "SHOW PARTITIONS", false, &r)) return NULL;
    if (!r.table->v2 && !r.table->npart_cols)
        return an_fail(an, error_make(an->arena, "INVALID_PARTITION_OPERATION.PARTITION_SCHEMA_IS_EMPTY", stmt, "name",
                                      stmt_qualified(an, r.table->ns, r.table->name), NULL));
    Node *c = stmt_resolved_target(an, stmt, &r);
    static const char *const names[] = {"partition"};
    return stmt_with_output(an, c, 1, names, STR4);
}

Node *stmt_show_functions(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    if (stmt->u.ddl.name.n) {
        QualifiedName q;
        if (!stmt_resolve_namespace(an, s, stmt, stmt->u.ddl.name, &q)) return NULL;
    }
    static const char *const names[] = {"function"};
    return stmt_with_output(an, stmt, 1, names, STR4);
}

/* SHOW CREATE TABLE t [AS SERDE]: a table or a persistent view (a temporary
 * view is not found). */
Node *stmt_show_create_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_PERSISTENT, "SHOW CREATE TABLE", false, &r)) return NULL;
    Node *c = stmt_resolved_target(an, stmt, &r);
    static const char *const names[] = {"createtab_stmt"};
    return stmt_with_output(an, c, 1, names, STR4);
}

Node *stmt_show_tblproperties(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE_OR_VIEW, "SHOW TBLPROPERTIES", false, &r)) return NULL;
    Node *c = stmt_resolved_target(an, stmt, &r);
    static const char *const names[] = {"key", "value"};
    return stmt_with_output(an, c, 2, names, STR4);
}

Node *stmt_show_current_namespace(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)s, (void)pend;
    static const char *const names[] = {"catalog", "namespace"};
    return stmt_with_output(an, stmt, 2, names, STR4);
}
