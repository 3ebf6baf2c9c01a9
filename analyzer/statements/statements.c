/* The statements table: every statement kind the parser produces (the
 * COMMAND kinds of core/node_kinds.def) and the handler that analyses it,
 * as DuckDB's Binder dispatches a statement to bind_create, bind_drop, ...
 * A kind added to node_kinds.def without a row here fails
 * tests/analyzer/test_statements.c. Also the helpers the handlers share. */
#include "statements.h"

#include <string.h>

#include "catalog/catalog_manager.h"
#include "catalog/external_catalog.h"
#include "core/output.h"
#include "print/printer.h"

typedef struct StatementRow {
    StatementHandler run;
    bool needs_name; /* a parsed statement without a target is refused (PARSE_SYNTAX_ERROR) */
} StatementRow;

static const StatementRow TABLE[NK_COUNT_] = {
    /* create.c */
    [NK_CreateView] = {stmt_create_view, true},
    [NK_CreateTable] = {stmt_create_table, true},
    [NK_CreateTableLike] = {stmt_create_table_like, true},
    [NK_ReplaceTable] = {stmt_replace_table, true},
    [NK_CreateTempViewUsing] = {stmt_create_temp_view_using, true},
    [NK_CreateFunction] = {stmt_create_function, true},
    [NK_CreateIndex] = {stmt_create_index, true},
    /* drop.c */
    [NK_DropTable] = {stmt_drop_table, true},
    [NK_DropFunction] = {stmt_drop_function, true},
    [NK_DropIndex] = {stmt_drop_index, true},
    /* namespace.c */
    [NK_CreateNamespace] = {stmt_namespace, true},
    [NK_DropNamespace] = {stmt_namespace, true},
    [NK_UseNamespace] = {stmt_namespace, true},
    [NK_AlterNamespace] = {stmt_alter_namespace, true},
    [NK_CommentOnNamespace] = {stmt_alter_namespace, true},
    [NK_SetCatalog] = {stmt_set_catalog, false},
    /* alter.c */
    [NK_AlterTable] = {stmt_alter_table, true},
    [NK_AlterView] = {stmt_alter_view, true},
    [NK_AlterViewAs] = {stmt_alter_view_as, true},
    [NK_RenameTable] = {stmt_rename_table, true},
    [NK_CommentOnTable] = {stmt_comment_on_table, true},
    /* describe.c */
    [NK_DescribeRelation] = {stmt_describe_relation, true},
    [NK_DescribeQuery] = {stmt_describe_query, false},
    [NK_DescribeNamespace] = {stmt_describe_namespace, true},
    [NK_DescribeFunction] = {stmt_describe_function, true},
    [NK_Explain] = {stmt_explain, false},
    /* show.c */
    [NK_ShowNamespaces] = {stmt_show_listing, false},
    [NK_ShowTables] = {stmt_show_listing, false},
    [NK_ShowCatalogs] = {stmt_show_listing, false},
    [NK_ShowViews] = {stmt_show_listing, false},
    [NK_ShowTableExtended] = {stmt_show_table_extended, false},
    [NK_ShowColumns] = {stmt_show_columns, true},
    [NK_ShowPartitions] = {stmt_show_partitions, true},
    [NK_ShowFunctions] = {stmt_show_functions, false},
    [NK_ShowCreateTable] = {stmt_show_create_table, true},
    [NK_ShowTblProperties] = {stmt_show_tblproperties, true},
    [NK_ShowCurrentNamespace] = {stmt_show_current_namespace, false},
    /* cache.c */
    [NK_CacheTable] = {stmt_cache_table, true},
    [NK_UncacheTable] = {stmt_uncache_table, true},
    [NK_ClearCache] = {stmt_clear_cache, false},
    [NK_RefreshTable] = {stmt_refresh_table, true},
    [NK_RefreshFunction] = {stmt_refresh_function, true},
    [NK_RefreshResource] = {stmt_refresh_resource, false},
    /* maintenance.c */
    [NK_RepairTable] = {stmt_repair_table, true},
    [NK_TruncateTable] = {stmt_truncate_table, true},
    [NK_AnalyzeTable] = {stmt_analyze_table, true},
    [NK_AnalyzeTables] = {stmt_analyze_tables, false},
    [NK_LoadData] = {stmt_load_data, true},
    /* session_cmd.c */
    [NK_SetConfig] = {stmt_set_config, false},
    [NK_ResetConfig] = {stmt_reset_config, false},
    [NK_AddResource] = {stmt_resource, false},
    [NK_ListResource] = {stmt_resource, false},
    /* dml.c */
    [NK_InsertInto] = {stmt_insert_into, true},
    [NK_DeleteFrom] = {stmt_row_level_dml, true},
    [NK_UpdateTable] = {stmt_row_level_dml, true},
    [NK_MergeInto] = {stmt_row_level_dml, true},
    [NK_CallProcedure] = {stmt_call, true},
    /* variables_cmd.c */
    [NK_DeclareVariable] = {run_variable_command, false},
    [NK_SetVariable] = {run_variable_command, false},
    [NK_DropVariable] = {run_variable_command, false},
    [NK_ExecuteImmediate] = {run_variable_command, false},
};

StatementHandler statement_handler(NodeKind k) { return (unsigned)k < NK_COUNT_ ? TABLE[k].run : NULL; }

Node *run_statement(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pending) {
    if (stmt->kind == NK_UnresolvedIdentifierPlan && node_kind_is_command(stmt->u.idplan.builds))
        return run_variable_command(an, s, stmt, pending); /* IDENTIFIER(...) names the target */
    if (!node_kind_is_command(stmt->kind)) return an_analyze_query(an, stmt);
    const StatementRow *row = &TABLE[stmt->kind];
    if (!row->run) /* a statement kind without a row: tests/analyzer/test_statements.c fails first */
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.STATEMENT", stmt, "statement",
                                      node_kind_name(stmt->kind), NULL));
    if (row->needs_name && stmt->u.ddl.name.n == 0)
        return an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", stmt, "error", "end of input", "hint", "", NULL));
    return row->run(an, s, stmt, pending);
}

/* ---- shared helpers ---- */

Catalog *pending_catalog(CzSession *s, PendingChanges *p) {
    if (!p->catalog) p->catalog = catalog_clone(s->catalog);
    return p->catalog;
}

SessionState *pending_state(CzSession *s, PendingChanges *p) {
    if (!p->state) p->state = state_clone(s->state);
    return p->state;
}

bool stmt_fail_at(Analysis *an, const Node *at, ErrorInfo *e) {
    if (at && e->start < 0) {
        e->start = at->start;
        e->stop = at->stop;
    }
    an_fail(an, e);
    return false;
}

bool stmt_new_table_columns(Analysis *an, Node *stmt, ColumnDef **cols, uint32_t *ncols, Node **query) {
    *query = NULL;
    if (stmt->nkids) { /* CREATE TABLE ... AS query: the query's output, every column nullable */
        *query = an_analyze_query(an, stmt->kids[0]);
        if (!*query) return false;
        AttrList out = plan_output(an, *query);
        *ncols = out.n;
        *cols = ARENA_ARRAY(an->arena, ColumnDef, out.n + 1);
        for (uint32_t i = 0; i < out.n; i++) (*cols)[i] = (ColumnDef){out.v[i]->u.attr.name, out.v[i]->type, true};
        return true;
    }
    *ncols = stmt->u.ddl.ncols;
    *cols = ARENA_ARRAY(an->arena, ColumnDef, *ncols + 1);
    for (uint32_t i = 0; i < *ncols; i++)
        (*cols)[i] = (ColumnDef){stmt->u.ddl.col_names[i], stmt->u.ddl.col_types[i], true};
    return true;
}

bool stmt_split_table_name(Analysis *an, CzSession *s, const Node *at, NameParts n, QualifiedName *q,
                           const char **ns, const char **tbl) {
    if (n.n == 0) {
        an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", at, "error", "end of input", "hint", "", NULL));
        return false;
    }
    ErrorInfo *e = catalog_split_identifier(an->arena, s->state, n, q);
    if (e) return stmt_fail_at(an, at, e);
    *tbl = q->name;
    *ns = NULL;
    if (!q->catalog.is_session) return true;
    if (q->ns.n != 1) {
        an_fail(an, error_make(an->arena, "REQUIRES_SINGLE_PART_NAMESPACE", at, "sessionCatalog", SESSION_CATALOG,
                               "namespace", sql_id_parts(an->arena, q->ns), NULL));
        return false;
    }
    *ns = q->ns.v[0];
    return true;
}

const char *stmt_qualified(Analysis *an, const char *ns, const char *tbl) {
    const char *parts[3] = {"spark_catalog", ns, tbl};
    return sql_id_parts(an->arena, (NameParts){3, parts});
}

Node *stmt_with_qualified_name(Analysis *an, Node *stmt, const char *ns, const char *tbl) {
    Node *c = node_copy(an->arena, stmt);
    const char **parts = ARENA_ARRAY(an->arena, const char *, 3);
    parts[0] = "spark_catalog";
    parts[1] = ns;
    parts[2] = tbl;
    c->u.ddl.name = (NameParts){3, parts};
    return node_finish(c);
}

Node *with_resolved_namespace(Analysis *an, Node *stmt, const QualifiedName *q) {
    Node *c = node_copy(an->arena, stmt);
    c->u.ddl.name = q->ns;
    c->u.ddl.catalog = q->catalog.name;
    c->u.ddl.catalog_plugin = q->catalog.plugin;
    return node_finish(c);
}

Node *stmt_with_query(Analysis *an, Node *stmt, Node *query) {
    if (!query || !stmt->nkids || stmt->kids[0] == query) return stmt;
    return node_with_kid(an->arena, stmt, 0, query);
}

Node *stmt_output_attr(Analysis *an, const char *name, const DataType *type) {
    Node *a = node_new(an->arena, NK_AttributeReference, -1, -1);
    a->u.attr.name = name;
    a->u.attr.id = an_new_id(an);
    a->u.attr.name_hash = attr_name_hash(name);
    a->type = type;
    return node_finish(a);
}

Node *stmt_with_output(Analysis *an, Node *stmt, int n, const char *const *names, const DataType *const *types) {
    Node *c = node_copy(an->arena, stmt);
    Node **out = ARENA_ARRAY(an->arena, Node *, (size_t)n + 1);
    for (int i = 0; i < n; i++) out[i] = stmt_output_attr(an, names[i], types[i]);
    node_set_exprs(an->arena, c, out, (uint32_t)n);
    return node_finish(c);
}


bool stmt_resolve_relation(Analysis *an, CzSession *s, const Node *stmt, RelWant want, const char *operation,
                           bool suggest, ResolvedRel *out) {
    memset(out, 0, sizeof *out);
    NameParts n = stmt->u.ddl.name;
    /* a temporary view: one part, or global_temp.v */
    const TempView *tv = NULL;
    if (want != REL_PERSISTENT_VIEW && want != REL_PERSISTENT) {
        if (n.n == 1) tv = state_find_view(s->state, n.v[0]);
        else if (n.n == 2 && name_eq(n.v[0], "global_temp")) tv = state_find_view(s->state, n.v[1]);
    }
    if (tv) {
        if (want == REL_TABLE)
            return stmt_fail_at(an, stmt, error_make(an->arena, suggest ? "EXPECT_TABLE_NOT_VIEW.USE_ALTER_VIEW"
                                                                        : "EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE",
                                                     stmt, "viewName", sql_id_parts(an->arena, n), "operation",
                                                     operation, NULL));
        out->temp = tv;
        return true;
    }
    if (!stmt_split_table_name(an, s, stmt, n, &out->q, &out->ns, &out->tbl)) return false;
    const TableDef *t = NULL;
    if (out->q.catalog.is_session) {
        t = catalog_find_table(s->catalog, out->ns, out->tbl);
    } else if (external_catalog_handles(s->state, out->q.catalog.plugin)) {
        /* CatalogPlugin.loadTable, as ResolveRelations loads it */
        ErrorInfo *le = external_load_table(an->arena, s->state, &out->q.catalog, out->q.ns, out->tbl, an->deadline_ns,
                                            an->cancel, &t);
        if (le) return stmt_fail_at(an, stmt, le);
    } else {
        t = catalog_v2_find_table(s->catalog, out->q.catalog.name, out->q.ns, out->tbl);
    }
    if (!t)
        return stmt_fail_at(an, stmt, error_make(an->arena, "TABLE_OR_VIEW_NOT_FOUND", stmt, "relationName",
                                                 sql_id_parts(an->arena, n), NULL));
    if (want == REL_TABLE && t->is_view)
        return stmt_fail_at(an, stmt, error_make(an->arena, suggest ? "EXPECT_TABLE_NOT_VIEW.USE_ALTER_VIEW"
                                                                    : "EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE",
                                                 stmt, "viewName", stmt_qualified(an, t->ns, t->name), "operation",
                                                 operation, NULL));
    if ((want == REL_VIEW || want == REL_PERSISTENT_VIEW) && !t->is_view)
        return stmt_fail_at(an, stmt, error_make(an->arena, suggest ? "EXPECT_VIEW_NOT_TABLE.USE_ALTER_TABLE"
                                                                    : "EXPECT_VIEW_NOT_TABLE.NO_ALTERNATIVE",
                                                 stmt, "tableName",
                                                 t->v2 ? sql_id_parts(an->arena, n) : stmt_qualified(an, t->ns, t->name),
                                                 "operation", operation, NULL));
    out->table = t;
    return true;
}

static const char *lower(Analysis *an, const char *s) {
    char *c = arena_strdup(an->arena, s);
    for (char *p = c; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    return c;
}

Node *stmt_resolved_target(Analysis *an, Node *stmt, const ResolvedRel *r) {
    Node *c = node_copy(an->arena, stmt);
    StmtSpec *sp = ARENA_NEW(an->arena, StmtSpec);
    *sp = *ddl_spec(stmt);
    c->u.ddl.spec = sp;
    if (r->temp) {
        sp->rel_temp = true;
        return node_finish(c);
    }
    if (r->table->v2) return node_finish(c);
    const char **parts = ARENA_ARRAY(an->arena, const char *, 3);
    parts[0] = "spark_catalog";
    parts[1] = lower(an, r->table->ns);
    parts[2] = lower(an, r->table->name);
    c->u.ddl.name = (NameParts){3, parts};
    sp->rel_view = r->table->is_view;
    if (!r->table->is_view) {
        sp->nrel_cols = (uint32_t)r->table->ncols;
        sp->rel_cols = ARENA_ARRAY(an->arena, const char *, (size_t)r->table->ncols + 1);
        for (int i = 0; i < r->table->ncols; i++) sp->rel_cols[i] = r->table->cols[i].name;
    }
    return node_finish(c);
}

Node *stmt_function_name(Analysis *an, Node *stmt, const QualifiedName *q, bool lower_name) {
    if (!q->catalog.is_session || q->ns.n != 1) return stmt;
    Node *c = node_copy(an->arena, stmt);
    const char **parts = ARENA_ARRAY(an->arena, const char *, 3);
    parts[0] = "spark_catalog";
    parts[1] = q->ns.v[0];
    const char *f = stmt->u.ddl.name.v[stmt->u.ddl.name.n - 1];
    parts[2] = lower_name ? lower(an, f) : f;
    c->u.ddl.name = (NameParts){3, parts};
    return node_finish(c);
}

bool stmt_resolve_namespace(Analysis *an, CzSession *s, const Node *at, NameParts name, QualifiedName *q) {
    memset(q, 0, sizeof *q);
    ErrorInfo *e = name.n ? catalog_split_namespace(an->arena, s->state, name, q) : catalog_current(an->arena, s->state, &q->catalog);
    if (e) return stmt_fail_at(an, at, e);
    if (!name.n) q->ns = catalog_current_namespace(an->arena, s->state, &q->catalog);
    if (q->catalog.is_session) {
        if (q->ns.n != 1 || !catalog_has_namespace(s->catalog, q->ns.v[0]))
            return stmt_fail_at(an, at, error_make(an->arena, "SCHEMA_NOT_FOUND", at, "schemaName",
                                                   arena_printf(an->arena, "`spark_catalog`.%s",
                                                                sql_id_parts(an->arena, q->ns)),
                                                   NULL));
    } else if (q->ns.n && !catalog_v2_namespace_exists(s->catalog, q->catalog.name, q->ns)) {
        const char **parts = ARENA_ARRAY(an->arena, const char *, q->ns.n + 1);
        parts[0] = q->catalog.name;
        for (uint32_t i = 0; i < q->ns.n; i++) parts[i + 1] = q->ns.v[i];
        return stmt_fail_at(an, at, error_make(an->arena, "SCHEMA_NOT_FOUND", at, "schemaName",
                                               sql_id_parts(an->arena, (NameParts){q->ns.n + 1, parts}), NULL));
    }
    return true;
}
