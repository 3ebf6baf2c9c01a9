/* Namespace statements: CREATE / DROP NAMESPACE (Spark's CreateNamespace,
 * DropNamespace), USE (SetCatalogAndNamespace, SetNamespaceCommand), ALTER
 * NAMESPACE ... SET PROPERTIES | LOCATION (SetNamespaceProperties,
 * SetNamespaceLocation), COMMENT ON NAMESPACE (CommentOnNamespace) and SET
 * CATALOG (SetCatalogCommand). v2 catalogs go to catalog_cmd.c. */
#include "statements.h"

#include <string.h>
#include <strings.h>

#include "print/printer.h"

/* The namespace a statement names: Spark's CatalogAndNamespace, or for
 * `USE SCHEMA x` (SetNamespaceCommand) the current catalog's. */
static bool split_namespace(Analysis *an, CzSession *s, Node *stmt, QualifiedName *q) {
    ErrorInfo *e;
    if (stmt->kind == NK_UseNamespace && stmt->u.ddl.namespace_only) {
        memset(q, 0, sizeof *q);
        e = catalog_current(an->arena, s->state, &q->catalog);
        q->ns = stmt->u.ddl.name;
    } else {
        e = catalog_split_namespace(an->arena, s->state, stmt->u.ddl.name, q);
    }
    return e ? stmt_fail_at(an, stmt, e) : true;
}

Node *stmt_namespace(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    QualifiedName q;
    if (!split_namespace(an, s, stmt, &q)) return NULL;
    if (!q.catalog.is_session) return v2_namespace_command(an, s, stmt, &q, pend);
    if (q.ns.n != 1) {
        if (stmt->kind == NK_UseNamespace && q.ns.n == 0) { /* USE spark_catalog */
            state_set_current(pending_state(s, pend), SESSION_CATALOG, NULL);
            return with_resolved_namespace(an, stmt, &q);
        }
        return an_fail(an, error_make(an->arena, "REQUIRES_SINGLE_PART_NAMESPACE", stmt, "sessionCatalog",
                                      SESSION_CATALOG, "namespace", sql_id_parts(an->arena, q.ns), NULL));
    }
    const char *ns = q.ns.v[0];
    Node *resolved = with_resolved_namespace(an, stmt, &q);
    if (stmt->kind == NK_UseNamespace) {
        if (!catalog_has_namespace(s->catalog, ns))
            return an_fail(an, error_make(an->arena, "SCHEMA_NOT_FOUND", stmt, "schemaName",
                                          arena_printf(an->arena, "`spark_catalog`.`%s`", ns), NULL));
        state_set_current(pending_state(s, pend), SESSION_CATALOG, &q.ns);
        return resolved;
    }
    Catalog *c = pending_catalog(s, pend);
    if (stmt->kind == NK_CreateNamespace) {
        if (catalog_has_namespace(c, ns)) {
            if (stmt->u.ddl.if_not_exists) return resolved;
            return an_fail(an, error_make(an->arena, "SCHEMA_ALREADY_EXISTS", stmt, "schemaName",
                                          arena_printf(an->arena, "`spark_catalog`.`%s`", ns), NULL));
        }
        catalog_add_namespace(c, ns);
        return resolved;
    }
    if (!catalog_has_namespace(c, ns)) {
        if (stmt->u.ddl.if_exists) return resolved;
        return an_fail(an, error_make(an->arena, "SCHEMA_NOT_FOUND", stmt, "schemaName",
                                      arena_printf(an->arena, "`spark_catalog`.`%s`", ns), NULL));
    }
    if (!catalog_drop_namespace(c, ns, stmt->u.ddl.cascade))
        return an_fail(an, error_make(an->arena, "SCHEMA_NOT_EMPTY", stmt, "schemaName",
                                      arena_printf(an->arena, "`%s`", ns), NULL));
    return resolved;
}

/* ALTER NAMESPACE ns SET PROPERTIES (...) | SET LOCATION 'l' | SET OWNER ...
 * and COMMENT ON NAMESPACE ns IS 'c': the namespace must exist (Spark's
 * UnresolvedNamespace, SCHEMA_NOT_FOUND); what they set is not kept. */
Node *stmt_alter_namespace(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    QualifiedName q;
    if (!stmt_resolve_namespace(an, s, stmt, stmt->u.ddl.name, &q)) return NULL;
    return with_resolved_namespace(an, stmt, &q);
}

/* SET CATALOG c: Spark's SetCatalogCommand makes c current (CATALOG_NOT_FOUND
 * for a name no conf registers). */
Node *stmt_set_catalog(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    const char *name = stmt->u.ddl.value ? stmt->u.ddl.value : stmt->u.ddl.name.n == 1 ? stmt->u.ddl.name.v[0] : NULL;
    if (!name)
        return an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", stmt, "error", "end of input", "hint", "", NULL));
    CatalogRef c;
    ErrorInfo *e = catalog_lookup(an->arena, s->state, name, &c);
    if (e) {
        stmt_fail_at(an, stmt, e);
        return NULL;
    }
    state_set_current(pending_state(s, pend), c.name, NULL);
    return stmt;
}
