/* ALTER TABLE / ALTER VIEW and COMMENT ON TABLE. Spark's parser resolves the
 * target as UnresolvedTable / UnresolvedView / UnresolvedTableOrView naming
 * the command ("ALTER TABLE ... ADD COLUMNS"), and ResolveSessionCatalog
 * turns what the session catalog's v1 tables support into v1 commands
 * (AlterTableAddColumnsCommand, AlterTableChangeColumnCommand,
 * AlterTableSetPropertiesCommand, AlterTableRenameCommand,
 * AlterViewAsCommand, ...) and refuses the rest (RENAME / DROP / REPLACE
 * COLUMNS: UNSUPPORTED_FEATURE.TABLE_OPERATION). What changes a schema or a
 * name (ADD COLUMNS, RENAME TO, ALTER VIEW AS) is applied to the catalog. */
#include "statements.h"

#include <string.h>
#include <strings.h>

#include "core/output.h"
#include "print/printer.h"

/* The operation Spark's UnresolvedTable names for an ALTER TABLE action. */
static const char *table_operation(const Node *stmt) {
    bool view = stmt->u.ddl.is_view;
    switch ((StmtAction)stmt->u.ddl.action) {
    case SA_ADD_COLUMNS: return "ALTER TABLE ... ADD COLUMNS";
    case SA_DROP_COLUMNS: return "ALTER TABLE ... DROP COLUMNS";
    case SA_RENAME_COLUMN: return "ALTER TABLE ... RENAME COLUMN";
    case SA_ALTER_COLUMN:
        return stmt->u.ddl.text && strstr(stmt->u.ddl.text, "CHANGE") ? "ALTER TABLE ... CHANGE COLUMN"
                                                                      : "ALTER TABLE ... ALTER COLUMN";
    case SA_REPLACE_COLUMNS: return "ALTER TABLE ... REPLACE COLUMNS";
    case SA_SET_PROPERTIES: return view ? "ALTER VIEW ... SET TBLPROPERTIES" : "ALTER TABLE ... SET TBLPROPERTIES";
    case SA_UNSET_PROPERTIES: return view ? "ALTER VIEW ... UNSET TBLPROPERTIES" : "ALTER TABLE ... UNSET TBLPROPERTIES";
    case SA_SET_SERDE: return "ALTER TABLE ... SET [SERDE|SERDEPROPERTIES]";
    case SA_ADD_PARTITION: return "ALTER TABLE ... ADD PARTITION ...";
    case SA_DROP_PARTITION: return view ? "ALTER VIEW ... DROP PARTITION" : "ALTER TABLE ... DROP PARTITION";
    case SA_RENAME_PARTITION: return "ALTER TABLE ... RENAME TO PARTITION";
    case SA_SET_LOCATION: return "ALTER TABLE ... SET LOCATION ...";
    case SA_RECOVER_PARTITIONS: return "ALTER TABLE ... RECOVER PARTITIONS";
    case SA_CLUSTER_BY: return "ALTER TABLE ... CLUSTER BY";
    case SA_SCHEMA_BINDING: return "ALTER VIEW ... WITH SCHEMA ...";
    default: return view ? "ALTER VIEW" : "ALTER TABLE";
    }
}

static const char *table_sql_name(Analysis *an, const Node *stmt, const ResolvedRel *r) {
    return r->table && !r->table->v2 ? stmt_qualified(an, r->table->ns, r->table->name)
                                     : sql_id_parts(an->arena, stmt->u.ddl.name);
}

static Node *unsupported_operation(Analysis *an, const Node *stmt, const ResolvedRel *r, const char *op) {
    return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName",
                                  table_sql_name(an, stmt, r), "operation", op, NULL));
}

static int find_column(const TableDef *t, const char *name) {
    for (int i = 0; i < t->ncols; i++)
        if (name_eq(t->cols[i].name, name)) return i;
    return -1;
}

/* ALTER TABLE t ADD COLUMNS (...): Spark's AlterTableAddColumnsCommand. */
static Node *add_columns(Analysis *an, CzSession *s, Node *stmt, const ResolvedRel *r, PendingChanges *pend) {
    const TableDef *t = r->table;
    for (uint32_t i = 0; i < stmt->u.ddl.ncols; i++) {
        const char *c = stmt->u.ddl.col_names[i];
        if (strchr(c, '.')) /* assertTopLevelColumn */
            return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName",
                                          table_sql_name(an, stmt, r), "operation", "ADD COLUMN with qualified column",
                                          NULL));
        bool dup = find_column(t, c) >= 0;
        for (uint32_t j = 0; j < i && !dup; j++) dup = name_eq(stmt->u.ddl.col_names[j], c);
        if (dup)
            return an_fail(an, error_make(an->arena, "COLUMN_ALREADY_EXISTS", stmt, "columnName", sql_ident(an->arena, c),
                                          NULL));
    }
    Catalog *c = pending_catalog(s, pend);
    TableDef def = *t;
    def.ncols = t->ncols + (int)stmt->u.ddl.ncols;
    def.cols = ARENA_ARRAY(an->arena, ColumnDef, (size_t)def.ncols + 1);
    for (int i = 0; i < t->ncols; i++) def.cols[i] = t->cols[i];
    /* a plain STRING takes the table's DEFAULT COLLATION */
    Node *out = stmt;
    if (t->has_default_collation) {
        out = node_copy(an->arena, stmt);
        const DataType **types = ARENA_ARRAY(an->arena, const DataType *, stmt->u.ddl.ncols + 1);
        for (uint32_t i = 0; i < stmt->u.ddl.ncols; i++)
            types[i] = type_with_default_collation(an->arena, stmt->u.ddl.col_types[i], t->default_collation);
        out->u.ddl.col_types = types;
        out = node_finish(out);
    }
    for (uint32_t i = 0; i < stmt->u.ddl.ncols; i++)
        def.cols[t->ncols + (int)i] = (ColumnDef){stmt->u.ddl.col_names[i], out->u.ddl.col_types[i], true, 0};
    catalog_put_table_def(c, &def);
    return stmt_resolved_target(an, out, r);
}

/* ALTER TABLE t DEFAULT COLLATION name: the table's default for the columns
 * added later (SET TBLPROPERTIES ('collation' = name) as a v1 command). */
static Node *set_default_collation(Analysis *an, CzSession *s, Node *stmt, const ResolvedRel *r,
                                   PendingChanges *pend) {
    Catalog *c = pending_catalog(s, pend);
    TableDef def = *r->table;
    def.has_default_collation = true;
    def.default_collation = ddl_spec(stmt)->collation;
    catalog_put_table_def(c, &def);
    return stmt_resolved_target(an, stmt, r);
}

/* ALTER|CHANGE [COLUMN] a ...: Spark's AlterTableChangeColumnCommand, which
 * changes a column's comment only. */
static Node *alter_column(Analysis *an, Node *stmt, const ResolvedRel *r) {
    const TableDef *t = r->table;
    const char *col = stmt->u.ddl.col_names[0];
    const DataType *ty = stmt->u.ddl.col_types ? stmt->u.ddl.col_types[0] : NULL;
    const char *new_name = stmt->u.ddl.col_names[1];
    if (ddl_spec(stmt)->name2.n > 1)
        return unsupported_operation(an, stmt, r, "ALTER COLUMN with qualified column");
    int i = find_column(t, col);
    if (i < 0) {
        StrBuf sb;
        sb_init(&sb, an->arena, 64);
        for (int k = 0; k < t->ncols; k++) {
            if (k) sb_puts(&sb, ", ");
            sb_puts(&sb, sql_ident(an->arena, t->cols[k].name));
        }
        return an_fail(an, error_make(an->arena, "UNRESOLVED_COLUMN.WITH_SUGGESTION", stmt, "objectName",
                                      sql_ident(an->arena, col), "proposal", sb.data, NULL));
    }
    const DataType *orig = t->cols[i].type;
    if ((ty && !type_equal(ty, orig)) || (new_name && !name_eq(new_name, t->cols[i].name)))
        return an_fail(an, error_make(an->arena, "NOT_SUPPORTED_CHANGE_COLUMN", stmt, "table",
                                      table_sql_name(an, stmt, r), "originName", sql_ident(an->arena, t->cols[i].name),
                                      "originType", arena_printf(an->arena, "\"%s\"", type_sql(an->arena, orig)),
                                      "newName", sql_ident(an->arena, new_name ? new_name : t->cols[i].name), "newType",
                                      arena_printf(an->arena, "\"%s\"", type_sql(an->arena, ty ? ty : orig)), NULL));
    Node *c = node_copy(an->arena, stmt);
    const char **names = ARENA_ARRAY(an->arena, const char *, 2);
    const DataType **types = ARENA_ARRAY(an->arena, const DataType *, 1);
    names[0] = t->cols[i].name;
    types[0] = orig;
    c->u.ddl.col_names = names;
    c->u.ddl.col_types = types;
    c->u.ddl.name = stmt_resolved_target(an, stmt, r)->u.ddl.name;
    return node_finish(c);
}

Node *stmt_alter_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    StmtAction act = (StmtAction)stmt->u.ddl.action;
    bool suggest = act == SA_SET_PROPERTIES || act == SA_UNSET_PROPERTIES || act == SA_SET_SERDE;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE, table_operation(stmt), suggest, &r)) return NULL;
    if (r.table->v2) return stmt; /* a v2 table: the catalog applies the change when the command runs */
    switch (act) {
    case SA_ADD_PARTITION:
        if (!stmt_add_partition(an, s, stmt, r.table, pend)) return NULL;
        return stmt_resolved_target(an, stmt, &r);
    case SA_RENAME_PARTITION:
        if (!stmt_check_partition_spec(an, stmt, r.table, PC_EXACT)) return NULL;
        stmt_partitions_unknown(s, r.table, pend);
        return stmt_resolved_target(an, stmt, &r);
    case SA_DROP_PARTITION:
    case SA_RECOVER_PARTITIONS:
        if (!stmt_check_partition_spec(an, stmt, r.table, PC_NONE)) return NULL;
        stmt_partitions_unknown(s, r.table, pend);
        return stmt_resolved_target(an, stmt, &r);
    case SA_ADD_COLUMNS: return add_columns(an, s, stmt, &r, pend);
    case SA_SET_PROPERTIES:
        if (ddl_spec(stmt)->has_collation) return set_default_collation(an, s, stmt, &r, pend);
        return stmt_resolved_target(an, stmt, &r);
    case SA_ALTER_COLUMN:
        if (stmt->u.ddl.extended) return unsupported_operation(an, stmt, &r, "ALTER COLUMN ... FIRST | AFTER");
        return alter_column(an, stmt, &r);
    case SA_RENAME_COLUMN: return unsupported_operation(an, stmt, &r, "RENAME COLUMN");
    case SA_DROP_COLUMNS: return unsupported_operation(an, stmt, &r, "DROP COLUMN");
    case SA_REPLACE_COLUMNS: return unsupported_operation(an, stmt, &r, "REPLACE COLUMNS");
    case SA_CLUSTER_BY: return unsupported_operation(an, stmt, &r, "ALTER TABLE ... CLUSTER BY");
    default: return stmt_resolved_target(an, stmt, &r);
    }
}

/* ALTER VIEW v SET|UNSET TBLPROPERTIES / WITH SCHEMA ...: the view must be
 * one (UnresolvedView); WITH SCHEMA needs a persistent one. Partition
 * actions on a view are UnresolvedTable's (EXPECT_TABLE_NOT_VIEW). */
Node *stmt_alter_view(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    StmtAction act = (StmtAction)stmt->u.ddl.action;
    ResolvedRel r;
    if (act != SA_SET_PROPERTIES && act != SA_UNSET_PROPERTIES && act != SA_SCHEMA_BINDING) {
        stmt_resolve_relation(an, s, stmt, REL_TABLE, table_operation(stmt), false, &r);
        if (an_failed(an)) return NULL;
        return stmt;
    }
    if (!stmt_resolve_relation(an, s, stmt, REL_VIEW, table_operation(stmt), true, &r)) return NULL;
    if (r.temp) {
        if (act == SA_SCHEMA_BINDING)
            return an_fail(an, error_make(an->arena, "EXPECT_PERMANENT_VIEW_NOT_TEMP", stmt, "viewName",
                                          sql_id_parts(an->arena, stmt->u.ddl.name), "operation",
                                          "ALTER VIEW ... WITH SCHEMA ...", NULL));
        return an_fail(an, error_make(an->arena, "EXPECT_PERMANENT_VIEW_NOT_TEMP", stmt, "viewName",
                                      sql_id_parts(an->arena, stmt->u.ddl.name), "operation",
                                      table_operation(stmt), NULL));
    }
    if (act == SA_SCHEMA_BINDING && r.table) {
        /* AlterViewSchemaBindingCommand: the view's schema mode */
        TableDef def = *r.table;
        def.view_mode = stmt->u.ddl.value;
        catalog_put_table_def(pending_catalog(s, pend), &def);
    }
    return stmt_resolved_target(an, stmt, &r);
}

/* ALTER VIEW v AS query: Spark's AlterViewAsCommand; the view (temporary or
 * persistent) takes the new query and its schema. */
Node *stmt_alter_view_as(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_VIEW, "ALTER VIEW ... AS", true, &r)) return NULL;
    Node *query = an_analyze_query(an, stmt->kids[0]);
    if (!query) return NULL;
    AttrList out = plan_output(an, query);
    if (r.temp) {
        TempView v = {.name = r.temp->name, .sql = stmt->u.ddl.text};
        v.nout = (int)out.n;
        v.out_names = ARENA_ARRAY(an->arena, const char *, out.n + 1);
        v.out_types = ARENA_ARRAY(an->arena, const DataType *, out.n + 1);
        for (uint32_t i = 0; i < out.n; i++) {
            v.out_names[i] = out.v[i]->u.attr.name;
            v.out_types[i] = out.v[i]->type;
        }
        state_put_view(pending_state(s, pend), &v);
        Node *c = node_copy(an->arena, stmt);
        c->u.ddl.temporary = true;
        return stmt_with_query(an, node_finish(c), query);
    }
    Catalog *c = pending_catalog(s, pend);
    TableDef def = *r.table;
    def.ncols = (int)out.n;
    def.cols = ARENA_ARRAY(an->arena, ColumnDef, out.n + 1);
    for (uint32_t i = 0; i < out.n; i++)
        def.cols[i] = (ColumnDef){out.v[i]->u.attr.name, out.v[i]->type, expr_nullable(out.v[i]), 0};
    def.view_text = stmt->u.ddl.text ? stmt->u.ddl.text : "";
    def.nview_cols = 0;
    def.view_cols = NULL;
    def.nview_query_cols = (int)out.n;
    def.view_query_cols = ARENA_ARRAY(an->arena, const char *, out.n + 1);
    for (uint32_t i = 0; i < out.n; i++) def.view_query_cols[i] = out.v[i]->u.attr.name;
    catalog_put_table_def(c, &def);
    return stmt_with_query(an, stmt_resolved_target(an, stmt, &r), query);
}

/* ALTER TABLE|VIEW t RENAME TO u: Spark's AlterTableRenameCommand (a
 * temporary view is renamed in the session). */
Node *stmt_rename_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    bool view = stmt->u.ddl.is_view;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE_OR_VIEW, view ? "ALTER VIEW ... RENAME TO" : "ALTER TABLE ... RENAME TO",
                               false, &r))
        return NULL;
    NameParts to = ddl_spec(stmt)->name2;
    if (to.n == 0)
        return an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", stmt, "error", "end of input", "hint", "", NULL));
    const char *new_name = to.v[to.n - 1];
    if (r.temp) {
        SessionState *st = pending_state(s, pend);
        if (state_find_view(st, new_name))
            return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                          sql_ident(an->arena, new_name), NULL));
        TempView v = *r.temp;
        v.name = new_name;
        state_drop_view(st, r.temp->name);
        state_put_view(st, &v);
        return stmt;
    }
    if (r.table->v2) return stmt;
    if (view != (bool)r.table->is_view)
        return an_fail(an, error_make(an->arena, view ? "EXPECT_VIEW_NOT_TABLE.USE_ALTER_TABLE"
                                                      : "EXPECT_TABLE_NOT_VIEW.USE_ALTER_VIEW",
                                      stmt, view ? "tableName" : "viewName", stmt_qualified(an, r.table->ns, r.table->name),
                                      "operation", view ? "ALTER VIEW ... RENAME TO" : "ALTER TABLE ... RENAME TO",
                                      NULL));
    const char *ns = to.n >= 2 ? to.v[to.n - 2] : r.table->ns;
    Catalog *c = pending_catalog(s, pend);
    if (catalog_find_table(c, ns, new_name))
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                      stmt_qualified(an, ns, new_name), NULL));
    TableDef def = *r.table;
    def.name = new_name;
    def.ns = ns;
    catalog_drop_table(c, r.table->ns, r.table->name);
    catalog_put_table_def(c, &def);
    return stmt_resolved_target(an, stmt, &r);
}

/* COMMENT ON TABLE t IS 'c': Spark's CommentOnTable (UnresolvedTable). */
Node *stmt_comment_on_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE, "COMMENT ON TABLE", false, &r)) return NULL;
    return stmt_resolved_target(an, stmt, &r);
}
