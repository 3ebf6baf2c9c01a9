/* DESCRIBE and EXPLAIN: Spark's DescribeTableCommand / DescribeColumnCommand
 * / DescribeTableJsonCommand (DescribeRelation on the session catalog),
 * DescribeQueryCommand, DescribeNamespace, DescribeFunctionCommand and
 * ExplainCommand, each with Spark's output columns. */
#include "statements.h"

#include <string.h>
#include <strings.h>

#include "print/printer.h"

static const DataType *const STR3[] = {&TYPE_STRING, &TYPE_STRING, &TYPE_STRING};

/* a.b.c: the name's parts, unquoted */
static const char *dotted(Arena *a, NameParts n) {
    StrBuf sb;
    sb_init(&sb, a, 32);
    for (uint32_t i = 0; i < n.n; i++) {
        if (i) sb_putc(&sb, '.');
        sb_puts(&sb, n.v[i]);
    }
    return sb_str(&sb);
}

Node *stmt_describe_relation(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    bool column = ddl_spec(stmt)->name2.n > 0;
    if (stmt->u.ddl.as_json && !stmt->u.ddl.extended)
        /* Spark names the table as the statement wrote it, unquoted */
        return an_fail(an, error_make(an->arena, "DESCRIBE_JSON_NOT_EXTENDED", stmt, "tableName",
                                      dotted(an->arena, stmt->u.ddl.name), NULL));
    if (stmt->u.ddl.as_json && column)
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.DESC_TABLE_COLUMN_JSON", stmt, NULL));
    for (uint32_t i = 0; i < ddl_spec(stmt)->npart; i++)
        if (!ddl_spec(stmt)->part_values[i])
            return an_fail(an, error_make(an->arena, "INVALID_SQL_SYNTAX.EMPTY_PARTITION_VALUE", stmt, "partKey",
                                          sql_ident(an->arena, ddl_spec(stmt)->part_keys[i]), NULL));
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE_OR_VIEW, "DESCRIBE TABLE", false, &r)) return NULL;
    if (ddl_spec(stmt)->npart && (r.temp || r.table->is_view))
        return an_fail(an, error_make(an->arena, "FORBIDDEN_OPERATION", stmt, "statement", "DESC PARTITION",
                                      "objectType", r.temp ? "TEMPORARY VIEW" : "VIEW", "objectName",
                                      sql_id_parts(an->arena, stmt->u.ddl.name), NULL));
    if (r.table && !stmt_check_partition_spec(an, stmt, r.table, PC_EXISTING)) return NULL;
    Node *c = stmt_resolved_target(an, stmt, &r);
    if (column) {
        /* the column must be the table's (Spark's DescribeColumn resolves it) */
        const char *col = ddl_spec(stmt)->name2.v[ddl_spec(stmt)->name2.n - 1];
        bool found = false;
        if (r.table)
            for (int i = 0; i < r.table->ncols && !found; i++) found = name_eq(r.table->cols[i].name, col);
        else
            for (int i = 0; i < r.temp->nout && !found; i++) found = name_eq(r.temp->out_names[i], col);
        if (!found && (r.table ? r.table->ncols > 0 : r.temp->nout > 0))
            return an_fail(an, error_make(an->arena, "COLUMN_NOT_FOUND", stmt, "colName",
                                          sql_id_parts(an->arena, ddl_spec(stmt)->name2), "caseSensitiveConfig",
                                          "\"spark.sql.caseSensitive\"", NULL));
        static const char *const names[] = {"info_name", "info_value"};
        return stmt_with_output(an, c, 2, names, STR3);
    }
    if (stmt->u.ddl.as_json) {
        static const char *const names[] = {"json_metadata"};
        return stmt_with_output(an, c, 1, names, STR3);
    }
    static const char *const names[] = {"col_name", "data_type", "comment"};
    return stmt_with_output(an, c, 3, names, STR3);
}

Node *stmt_describe_query(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)s, (void)pend;
    Node *q = an_analyze_query(an, stmt->kids[0]);
    if (!q) return NULL;
    static const char *const names[] = {"col_name", "data_type", "comment"};
    return stmt_with_output(an, stmt_with_query(an, stmt, q), 3, names, STR3);
}

/* DESCRIBE NAMESPACE ns: it must exist (SCHEMA_NOT_FOUND). */
Node *stmt_describe_namespace(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    QualifiedName q;
    if (!stmt_resolve_namespace(an, s, stmt, stmt->u.ddl.name, &q)) return NULL;
    static const char *const names[] = {"info_name", "info_value"};
    return stmt_with_output(an, with_resolved_namespace(an, stmt, &q), 2, names, STR3);
}

/* DESCRIBE FUNCTION f: Spark's DescribeFunctionCommand describes what it
 * finds (a missing function is described as not found, not an error). */
Node *stmt_describe_function(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)s, (void)pend;
    static const char *const names[] = {"function_desc"};
    return stmt_with_output(an, stmt, 1, names, STR3);
}

/* EXPLAIN statement: Spark's ExplainCommand keeps the statement as parsed;
 * explaining it analyses it, so an analysis error is the statement's. */
Node *stmt_explain(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)s, (void)pend;
    if (stmt->nkids && !node_kind_is_command(stmt->kids[0]->kind) && !an_analyze_query(an, stmt->kids[0])) return NULL;
    static const char *const names[] = {"plan"};
    return stmt_with_output(an, stmt, 1, names, STR3);
}
