/* DROP statements: tables (Spark's DropTable, DropTableCommand), views
 * (DropTempViewCommand, DropTableCommand isView), functions
 * (DropFunctionCommand) and indexes. */
#include "statements.h"

#include <string.h>
#include <strings.h>

#include "print/printer.h"

Node *stmt_drop_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    NameParts n = stmt->u.ddl.name;
    if (n.n == 1 || (n.n == 2 && name_eq(n.v[0], "global_temp"))) {
        /* a temporary view (global ones as global_temp.v) */
        SessionState *st = pending_state(s, pend);
        if (state_drop_view(st, n.v[n.n - 1])) {
            /* prints as Spark's DropTempViewCommand */
            Node *d = node_copy(an->arena, stmt);
            d->u.ddl.temporary = true;
            d->u.ddl.is_view = true;
            return node_finish(d);
        }
    }
    const char *ns, *tbl;
    QualifiedName q;
    if (!stmt_split_table_name(an, s, stmt, n, &q, &ns, &tbl)) return NULL;
    if (!q.catalog.is_session) return v2_drop_table(an, s, stmt, &q, pend);
    Catalog *c = pending_catalog(s, pend);
    const TableDef *t = catalog_find_table(c, ns, tbl);
    if (!t || (bool)t->is_view != stmt->u.ddl.is_view) {
        if (stmt->u.ddl.if_exists) return stmt->u.ddl.is_view ? stmt_with_qualified_name(an, stmt, ns, tbl) : stmt;
        if (t && t->is_view && !stmt->u.ddl.is_view)
            return an_fail(an, error_make(an->arena, "WRONG_COMMAND_FOR_OBJECT_TYPE", stmt, "operation", "DROP TABLE",
                                          NULL));
        return an_fail(an, error_make(an->arena, stmt->u.ddl.is_view ? "VIEW_NOT_FOUND" : "TABLE_OR_VIEW_NOT_FOUND",
                                      stmt, "relationName", sql_id_parts(an->arena, n), NULL));
    }
    catalog_drop_table(c, ns, tbl);
    return stmt_with_qualified_name(an, stmt, ns, tbl);
}

/* DROP [TEMPORARY] FUNCTION [IF EXISTS] f: Spark's DropFunctionCommand,
 * which looks the function up when it runs; a persistent function's
 * database must exist. */
Node *stmt_drop_function(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    NameParts n = stmt->u.ddl.name;
    const char *fname = n.n ? n.v[n.n - 1] : "";
    if (stmt->u.ddl.temporary) {
        if (state_find_func(s->state, NULL, fname)) state_drop_func(pending_state(s, pend), NULL, fname);
        return stmt;
    }
    QualifiedName q;
    if (!stmt_resolve_namespace(an, s, stmt, (NameParts){n.n - 1, n.v}, &q)) {
        if (!stmt->u.ddl.if_exists) return NULL;
        an->error = NULL;
        return stmt;
    }
    const char *ns = q.ns.n ? q.ns.v[0] : "default";
    if (state_find_func(s->state, ns, fname)) state_drop_func(pending_state(s, pend), ns, fname);
    return stmt_function_name(an, stmt, &q, true);
}

/* DROP INDEX i ON t: as CREATE INDEX, the table resolved, then refused. */
Node *stmt_drop_index(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE, "DROP INDEX", false, &r)) return NULL;
    return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName",
                                  r.table->v2 ? sql_id_parts(an->arena, stmt->u.ddl.name)
                                              : stmt_qualified(an, r.table->ns, r.table->name),
                                  "operation", "DROP INDEX", NULL));
}
