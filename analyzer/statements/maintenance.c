/* Table maintenance: [MSCK] REPAIR TABLE (Spark's RepairTableCommand),
 * TRUNCATE TABLE (TruncateTableCommand), ANALYZE TABLE / TABLES
 * (AnalyzeTableCommand, AnalyzeColumnCommand, AnalyzeTablesCommand) and
 * LOAD DATA (LoadDataCommand). Each resolves its table as Spark's parser
 * asks (UnresolvedTable for REPAIR, TRUNCATE and LOAD DATA, a table or view
 * for ANALYZE) and checks what Spark checks before running it. */
#include "statements.h"

#include <string.h>

#include "print/printer.h"

static Node *qualified_or_same(Analysis *an, Node *stmt, const ResolvedRel *r) { return stmt_resolved_target(an, stmt, r); }

Node *stmt_repair_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE, "MSCK REPAIR TABLE", false, &r)) return NULL;
    if (r.table->v2) return stmt; /* a v2 RepairTable analyses; Spark refuses it only when planning */
    if (!r.table->npart_cols)
        return an_fail(an, error_make(an->arena, "NOT_A_PARTITIONED_TABLE", stmt, "operation", "MSCK REPAIR TABLE",
                                      "tableIdentWithDB", stmt_qualified(an, r.table->ns, r.table->name), NULL));
    return qualified_or_same(an, stmt, &r);
}

Node *stmt_truncate_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE, "TRUNCATE TABLE", false, &r)) return NULL;
    return qualified_or_same(an, stmt, &r);
}

/* ANALYZE TABLE t [PARTITION (...)] COMPUTE STATISTICS [NOSCAN | FOR COLUMNS c, ... | FOR ALL COLUMNS]:
 * columns named must be the table's (Spark's AnalyzeColumnCommand). */
Node *stmt_analyze_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE_OR_VIEW, "ANALYZE TABLE", false, &r)) return NULL;
    if (r.table)
        for (uint32_t i = 0; i < stmt->u.ddl.ncols; i++) {
            bool found = false;
            for (int k = 0; k < r.table->ncols && !found; k++) found = name_eq(r.table->cols[k].name, stmt->u.ddl.col_names[i]);
            if (!found)
                return an_fail(an, error_make(an->arena, "COLUMN_NOT_FOUND", stmt, "colName",
                                              sql_ident(an->arena, stmt->u.ddl.col_names[i]), "caseSensitiveConfig",
                                              "\"spark.sql.caseSensitive\"", NULL));
        }
    return qualified_or_same(an, stmt, &r);
}

/* ANALYZE TABLES [IN ns] COMPUTE STATISTICS: the namespace must exist. */
Node *stmt_analyze_tables(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    QualifiedName q;
    if (!stmt_resolve_namespace(an, s, stmt, stmt->u.ddl.name, &q)) return NULL;
    return with_resolved_namespace(an, stmt, &q);
}

/* LOAD DATA [LOCAL] INPATH 'p' [OVERWRITE] INTO TABLE t [PARTITION (...)]:
 * the table must be one (UnresolvedTable "LOAD DATA"); the path is read
 * when the command runs. */
Node *stmt_load_data(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE, "LOAD DATA", false, &r)) return NULL;
    if (r.table->v2)
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName",
                                      sql_id_parts(an->arena, stmt->u.ddl.name), "operation", "LOAD DATA", NULL));
    stmt_partitions_unknown(s, r.table, pend);
    return qualified_or_same(an, stmt, &r);
}
