/* Data-changing statements: INSERT (Spark's InsertIntoStatement, analysed to
 * InsertIntoHadoopFsRelationCommand for file tables; insert_columns.c fits
 * the query to the table's columns), DELETE / UPDATE / MERGE (row-level
 * operations: the session catalog's v1 tables support none,
 * UNSUPPORTED_FEATURE.TABLE_OPERATION; Spark's in-memory v2 tables support
 * DELETE), and CALL (procedures: no catalog here has any,
 * MISSING_CATALOG_ABILITY.PROCEDURES). */
#include "statements.h"
#include "insert_columns.h"

#include <string.h>

#include "catalog/catalog_manager.h"
#include "print/printer.h"

Node *stmt_insert_into(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    const char *ns, *tbl;
    QualifiedName q;
    bool temp_view = stmt->u.ddl.name.n == 1 && state_find_view(s->state, stmt->u.ddl.name.v[0]);
    const TableDef *t = NULL;
    if (!temp_view) {
        if (!stmt_split_table_name(an, s, stmt, stmt->u.ddl.name, &q, &ns, &tbl)) return NULL;
        t = q.catalog.is_session ? catalog_find_table(s->catalog, ns, tbl)
                                 : catalog_v2_find_table(s->catalog, q.catalog.name, q.ns, tbl);
    }
    if (!t && !temp_view)
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_NOT_FOUND", stmt, "relationName",
                                      sql_id_parts(an->arena, stmt->u.ddl.name), NULL));
    if (!stmt->nkids) return stmt;
    Node *query = an_analyze_query(an, stmt->kids[0]);
    if (!query) return NULL;
    if (t && !temp_view && q.catalog.is_session) stmt_partitions_unknown(s, t, pend);
    if (t && !t->is_view && !t->v2 && !temp_view) {
        /* the query fitted to the table's columns (insert_columns.c) */
        Node *fitted = insert_fit_query(an, t, stmt, query);
        if (fitted || an_failed(an)) return fitted;
    }
    return stmt;
}

Node *stmt_row_level_dml(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    const char *op = stmt->kind == NK_DeleteFrom ? "DELETE" : stmt->kind == NK_UpdateTable ? "UPDATE" : "MERGE INTO";
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE_OR_VIEW, op, false, &r)) return NULL;
    if (r.table && r.table->v2 && stmt->kind == NK_DeleteFrom) return stmt;
    return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName",
                                  sql_id_parts(an->arena, stmt->u.ddl.name), "operation", op, NULL));
}

/* CALL [catalog.]ns.procedure(args): Spark's ResolveProcedures asks the
 * catalog for its procedures; neither the session catalog nor the
 * in-memory catalogs Catalyzer has are procedure catalogs. */
Node *stmt_call(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    QualifiedName q;
    ErrorInfo *e = catalog_split_identifier(an->arena, s->state, stmt->u.ddl.name, &q);
    if (e) return stmt_fail_at(an, stmt, e), NULL;
    return an_fail(an, error_make(an->arena, "MISSING_CATALOG_ABILITY.PROCEDURES", stmt, "plugin",
                                  sql_ident(an->arena, q.catalog.name), NULL));
}
