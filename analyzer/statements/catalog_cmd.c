/* Statements on v2 catalogs (Spark's in-memory catalogs, registered with
 * spark.sql.catalog.NAME=<class>). The v2 catalogs behave as Spark's
 * InMemoryCatalog: case-sensitive names, nested namespaces, a table creates
 * its namespace, errors name the catalog and the namespace.
 *
 *   CREATE NAMESPACE primary.tempdb    CreateNamespace false
 *                                 =>   +- ResolvedNamespace ...InMemoryCatalog@xxxxxxxx, [tempdb]
 */
#include <string.h>

#include "catalog/catalog_manager.h"
#include "catalog/external_catalog.h"
#include "statements.h"
#include "core/output.h"


/* `primary`.`tempdb`: the catalog and a namespace, quoted, as Spark's errors name them. */
static const char *namespace_sql(Analysis *an, const QualifiedName *q) {
    const char **parts = ARENA_ARRAY(an->arena, const char *, q->ns.n + 1);
    parts[0] = q->catalog.name;
    for (uint32_t i = 0; i < q->ns.n; i++) parts[i + 1] = q->ns.v[i];
    return sql_id_parts(an->arena, (NameParts){q->ns.n + 1, parts});
}

/* `tempdb`.`t`: a table's identifier inside its catalog. */
static const char *identifier_sql(Analysis *an, const QualifiedName *q) {
    const char **parts = ARENA_ARRAY(an->arena, const char *, q->ns.n + 1);
    for (uint32_t i = 0; i < q->ns.n; i++) parts[i] = q->ns.v[i];
    parts[q->ns.n] = q->name;
    return sql_id_parts(an->arena, (NameParts){q->ns.n + 1, parts});
}

/* The statement with its target resolved to catalog + identifier (ns parts and the name). */
static Node *with_resolved_identifier(Analysis *an, Node *stmt, const QualifiedName *q) {
    const char **parts = ARENA_ARRAY(an->arena, const char *, q->ns.n + 1);
    for (uint32_t i = 0; i < q->ns.n; i++) parts[i] = q->ns.v[i];
    parts[q->ns.n] = q->name;
    Node *c = node_copy(an->arena, stmt);
    c->u.ddl.name = (NameParts){q->ns.n + 1, parts};
    c->u.ddl.catalog = q->catalog.name;
    c->u.ddl.catalog_plugin = q->catalog.plugin;
    return node_finish(c);
}

Node *v2_namespace_command(Analysis *an, CzSession *s, Node *stmt, const QualifiedName *q, PendingChanges *pend) {
    Node *resolved = with_resolved_namespace(an, stmt, q);
    const Catalog *cur = pend->catalog ? pend->catalog : s->catalog;
    bool exists = catalog_v2_namespace_exists(cur, q->catalog.name, q->ns);
    if (!exists && q->ns.n && external_catalog_handles(s->state, q->catalog.plugin)) {
        ErrorInfo *e = external_namespace_exists(an->arena, s->state, &q->catalog, q->ns, an->deadline_ns, an->cancel,
                                                 &exists);
        if (e) return an_fail(an, e);
    }
    switch (stmt->kind) {
    case NK_UseNamespace:
        if (q->ns.n && !exists)
            return an_fail(an, error_make(an->arena, "SCHEMA_NOT_FOUND", stmt, "schemaName", namespace_sql(an, q), NULL));
        state_set_current(pending_state(s, pend), q->catalog.name, q->ns.n ? &q->ns : NULL);
        return resolved;
    case NK_CreateNamespace:
        if (q->ns.n == 0)
            return an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", stmt, "error", "end of input", "hint", "",
                                          NULL));
        if (exists) {
            if (stmt->u.ddl.if_not_exists) return resolved;
            return an_fail(an, error_make(an->arena, "SCHEMA_ALREADY_EXISTS", stmt, "schemaName",
                                          namespace_sql(an, q), NULL));
        }
        catalog_v2_add_namespace(pending_catalog(s, pend), q->catalog.name, q->ns);
        return resolved;
    case NK_DropNamespace:
        if (!exists) {
            if (stmt->u.ddl.if_exists) return resolved;
            return an_fail(an, error_make(an->arena, "SCHEMA_NOT_FOUND", stmt, "schemaName", namespace_sql(an, q), NULL));
        }
        if (!catalog_v2_drop_namespace(pending_catalog(s, pend), q->catalog.name, q->ns, stmt->u.ddl.cascade))
            return an_fail(an, error_make(an->arena, "SCHEMA_NOT_EMPTY", stmt, "schemaName",
                                          sql_id_parts(an->arena, q->ns), NULL));
        return resolved;
    default: return resolved;
    }
}

Node *v2_create_table(Analysis *an, CzSession *s, Node *stmt, const QualifiedName *q, PendingChanges *pend) {
    Catalog *c = pending_catalog(s, pend);
    if (catalog_v2_find_table(c, q->catalog.name, q->ns, q->name) && !stmt->u.ddl.or_replace) {
        if (stmt->u.ddl.if_not_exists) return with_resolved_identifier(an, stmt, q);
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                      identifier_sql(an, q), NULL));
    }
    ColumnDef *cols;
    uint32_t ncols;
    Node *query;
    if (!stmt_new_table_columns(an, stmt, &cols, &ncols, &query)) return NULL;
    catalog_v2_put_table(c, q->catalog.name, q->ns, q->name, (int)ncols, cols);
    Node *r = with_resolved_identifier(an, stmt, q);
    return query && r->nkids && r->kids[0] != query ? node_with_kid(an->arena, r, 0, query) : r;
}

Node *v2_drop_table(Analysis *an, CzSession *s, Node *stmt, const QualifiedName *q, PendingChanges *pend) {
    Catalog *c = pending_catalog(s, pend);
    /* the in-memory catalogs hold no views: DROP VIEW finds nothing there */
    if (stmt->u.ddl.is_view || !catalog_v2_find_table(c, q->catalog.name, q->ns, q->name)) {
        if (stmt->u.ddl.if_exists) return with_resolved_identifier(an, stmt, q);
        return an_fail(an, error_make(an->arena, stmt->u.ddl.is_view ? "VIEW_NOT_FOUND" : "TABLE_OR_VIEW_NOT_FOUND",
                                      stmt, "relationName", sql_id_parts(an->arena, stmt->u.ddl.name), NULL));
    }
    catalog_v2_drop_table(c, q->catalog.name, q->ns, q->name);
    return with_resolved_identifier(an, stmt, q);
}
