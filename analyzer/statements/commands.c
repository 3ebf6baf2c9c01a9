/* Statements that change the session or the catalog. Each is checked and
 * applied to pending copies of the catalog and session state, which the
 * caller publishes only when the statement succeeds. */
#include "commands.h"
#include "insert_columns.h"

#include <string.h>
#include <strings.h>

#include "catalog/catalog_manager.h"
#include "core/output.h"
#include "eval/consteval.h"
#include "functions/functions.h"
#include "rules/lib/variables.h"

Catalog *pending_catalog(CzSession *s, PendingChanges *p) {
    if (!p->catalog) p->catalog = catalog_clone(s->catalog);
    return p->catalog;
}

SessionState *pending_state(CzSession *s, PendingChanges *p) {
    if (!p->state) p->state = state_clone(s->state);
    return p->state;
}

static Node *ok(Node *stmt) { return stmt; }

/* The statement named by its resolved, qualified name (`spark_catalog`.`db`.`t`). */
static Node *with_qualified_name(Analysis *an, Node *stmt, const char *ns, const char *tbl) {
    Node *c = node_copy(an->arena, stmt);
    const char **parts = ARENA_ARRAY(an->arena, const char *, 3);
    parts[0] = "spark_catalog";
    parts[1] = ns;
    parts[2] = tbl;
    c->u.ddl.name = (NameParts){3, parts};
    return node_finish(c);
}

/* The statement as it prints after analysis: with its query analysed. */
static Node *with_query(Analysis *an, Node *stmt, Node *query) {
    if (!query || !stmt->nkids || stmt->kids[0] == query) return stmt;
    return node_with_kid(an->arena, stmt, 0, query);
}

/* Fails the analysis with a catalog-layer error, positioned at the statement. */
static bool fail_at(Analysis *an, const Node *at, ErrorInfo *e) {
    if (at && e->start < 0) {
        e->start = at->start;
        e->stop = at->stop;
    }
    an_fail(an, e);
    return false;
}

/* A table or view name split as Spark's CatalogAndIdentifier splits it; in
 * the session catalog the namespace must be a single part (*ns). */
static bool split_table_name(Analysis *an, CzSession *s, const Node *at, NameParts n, QualifiedName *q,
                             const char **ns, const char **tbl) {
    if (n.n == 0) {
        an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", at, "error", "end of input", "hint", "", NULL));
        return false;
    }
    ErrorInfo *e = catalog_split_identifier(an->arena, s->state, n, q);
    if (e) return fail_at(an, at, e);
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

static const char *qualified(Analysis *an, const char *ns, const char *tbl) {
    const char *parts[3] = {"spark_catalog", ns, tbl};
    return sql_id_parts(an->arena, (NameParts){3, parts});
}

/* The schema a view keeps: its query's output, renamed by the user's columns. */
static void view_schema(Analysis *an, TempView *v, AttrList out, uint32_t ncols, const char *const *names) {
    v->nout = (int)out.n;
    v->out_names = ARENA_ARRAY(an->arena, const char *, out.n + 1);
    v->out_types = ARENA_ARRAY(an->arena, const DataType *, out.n + 1);
    for (uint32_t i = 0; i < out.n; i++) {
        v->out_names[i] = i < ncols ? names[i] : out.v[i]->u.attr.name;
        v->out_types[i] = out.v[i]->type;
    }
}

static Node *create_view(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    NameParts n = stmt->u.ddl.name;
    if (stmt->u.ddl.temporary && !stmt->u.ddl.global && n.n > 1) {
        return an_fail(an, error_make(an->arena, "TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS", stmt, "actualName",
                                      sql_id_parts(an->arena, n), NULL));
    }
    Node *query = an_analyze_query(an, stmt->kids[0]);
    if (!query) return NULL;
    AttrList out = plan_output(an, query);
    if (stmt->u.ddl.ncols && stmt->u.ddl.ncols != out.n) {
        return an_fail(an, error_make(an->arena, stmt->u.ddl.ncols < out.n ? "CREATE_VIEW_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS"
                                                                           : "CREATE_VIEW_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS",
                                      stmt, "viewName", sql_id_parts(an->arena, n), "viewColumns", "", "dataColumns",
                                      "", NULL));
    }
    if (stmt->u.ddl.temporary) {
        SessionState *st = pending_state(s, pend);
        const char *name = n.v[n.n - 1];
        if (state_find_view(st, name) && !stmt->u.ddl.or_replace) {
            if (stmt->u.ddl.if_not_exists) return ok(stmt);
            return an_fail(an, error_make(an->arena, "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                          sql_ident(an->arena, name), NULL));
        }
        TempView v = {.name = name, .sql = stmt->u.ddl.text, .ncols = (int)stmt->u.ddl.ncols,
                      .cols = stmt->u.ddl.col_names};
        view_schema(an, &v, out, stmt->u.ddl.ncols, stmt->u.ddl.col_names);
        state_put_view(st, &v);
        return with_query(an, stmt, query);
    }
    const char *ns, *tbl;
    QualifiedName q;
    if (!split_table_name(an, s, stmt, n, &q, &ns, &tbl)) return NULL;
    if (!q.catalog.is_session) /* the in-memory catalogs keep tables only (no ViewCatalog) */
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.CATALOG_OPERATION", stmt, "catalogName",
                                      sql_ident(an->arena, q.catalog.name), "operation", "views", NULL));
    /* the command shows the view's resolved identifier, as Spark's ResolvedIdentifier */
    const char **full = ARENA_ARRAY(an->arena, const char *, 3);
    full[0] = "spark_catalog";
    full[1] = ns;
    full[2] = tbl;
    stmt->u.ddl.name = (NameParts){3, full};
    /* a persistent view may not reference temporary objects */
    const Node *var = plan_find_variable(query);
    if (var)
        return an_fail(an, error_make(an->arena, "INVALID_TEMP_OBJ_REFERENCE", stmt, "obj", "VIEW", "objName",
                                      qualified(an, ns, tbl), "tempObj", "VARIABLE", "tempObjName",
                                      sql_ident(an->arena, var->u.attr.name), NULL));
    Catalog *c = pending_catalog(s, pend);
    if (!catalog_has_namespace(c, ns))
        return an_fail(an, error_make(an->arena, "SCHEMA_NOT_FOUND", stmt, "schemaName",
                                      arena_printf(an->arena, "`spark_catalog`.`%s`", ns), NULL));
    const TableDef *existing = catalog_find_table(c, ns, tbl);
    if (existing && !stmt->u.ddl.or_replace) {
        if (stmt->u.ddl.if_not_exists) return ok(stmt);
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                      qualified(an, ns, tbl), NULL));
    }
    ColumnDef *cols = ARENA_ARRAY(an->arena, ColumnDef, out.n + 1);
    for (uint32_t i = 0; i < out.n; i++)
        cols[i] = (ColumnDef){i < stmt->u.ddl.ncols ? stmt->u.ddl.col_names[i] : out.v[i]->u.attr.name, out.v[i]->type,
                              expr_nullable(out.v[i])};
    TableDef *t = catalog_put_table(c, ns, tbl, (int)out.n, cols);
    t->is_view = true;
    t->view_text = arena_strdup(c->arena, stmt->u.ddl.text ? stmt->u.ddl.text : "");
    if (stmt->u.ddl.ncols) {
        t->nview_cols = (int)stmt->u.ddl.ncols;
        t->view_cols = ARENA_ARRAY(c->arena, const char *, stmt->u.ddl.ncols);
        for (uint32_t i = 0; i < stmt->u.ddl.ncols; i++) t->view_cols[i] = arena_strdup(c->arena, stmt->u.ddl.col_names[i]);
    }
    return with_query(an, stmt, query);
}

static Node *create_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    const char *ns, *tbl;
    QualifiedName q;
    if (!split_table_name(an, s, stmt, stmt->u.ddl.name, &q, &ns, &tbl)) return NULL;
    if (!q.catalog.is_session) return v2_create_table(an, s, stmt, &q, pend);
    Catalog *c = pending_catalog(s, pend);
    if (!catalog_has_namespace(c, ns))
        return an_fail(an, error_make(an->arena, "SCHEMA_NOT_FOUND", stmt, "schemaName",
                                      arena_printf(an->arena, "`spark_catalog`.`%s`", ns), NULL));
    if (catalog_find_table(c, ns, tbl) && !stmt->u.ddl.or_replace) {
        if (stmt->u.ddl.if_not_exists) return ok(stmt);
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                      qualified(an, ns, tbl), NULL));
    }
    ColumnDef *cols;
    uint32_t ncols;
    Node *query = NULL;
    if (stmt->nkids) {
        query = an_analyze_query(an, stmt->kids[0]);
        if (!query) return NULL;
        AttrList out = plan_output(an, query);
        ncols = out.n;
        cols = ARENA_ARRAY(an->arena, ColumnDef, ncols + 1);
        for (uint32_t i = 0; i < ncols; i++) cols[i] = (ColumnDef){out.v[i]->u.attr.name, out.v[i]->type, true};
    } else {
        ncols = stmt->u.ddl.ncols;
        cols = ARENA_ARRAY(an->arena, ColumnDef, ncols + 1);
        for (uint32_t i = 0; i < ncols; i++) cols[i] = (ColumnDef){stmt->u.ddl.col_names[i], stmt->u.ddl.col_types[i], true};
    }
    TableDef *t = catalog_put_table(c, ns, tbl, (int)ncols, cols);
    if (stmt->u.ddl.provider) t->provider = arena_strdup(c->arena, stmt->u.ddl.provider);
    return with_query(an, with_qualified_name(an, stmt, ns, tbl), query);
}

static Node *drop_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    NameParts n = stmt->u.ddl.name;
    if (n.n == 1) {
        SessionState *st = pending_state(s, pend);
        if (state_drop_view(st, n.v[0])) {
            /* prints as Spark's DropTempViewCommand */
            Node *d = node_copy(an->arena, stmt);
            d->u.ddl.temporary = true;
            d->u.ddl.is_view = true;
            return node_finish(d);
        }
    }
    const char *ns, *tbl;
    QualifiedName q;
    if (!split_table_name(an, s, stmt, n, &q, &ns, &tbl)) return NULL;
    if (!q.catalog.is_session) return v2_drop_table(an, s, stmt, &q, pend);
    Catalog *c = pending_catalog(s, pend);
    const TableDef *t = catalog_find_table(c, ns, tbl);
    if (!t || (bool)t->is_view != stmt->u.ddl.is_view) {
        if (stmt->u.ddl.if_exists) return ok(stmt);
        if (t && t->is_view && !stmt->u.ddl.is_view)
            return an_fail(an, error_make(an->arena, "WRONG_COMMAND_FOR_OBJECT_TYPE", stmt, "operation", "DROP TABLE",
                                          NULL));
        return an_fail(an, error_make(an->arena, stmt->u.ddl.is_view ? "VIEW_NOT_FOUND" : "TABLE_OR_VIEW_NOT_FOUND",
                                      stmt, "relationName", sql_id_parts(an->arena, n), NULL));
    }
    catalog_drop_table(c, ns, tbl);
    return ok(stmt);
}

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
    return e ? fail_at(an, stmt, e) : true;
}

/* The statement with its target resolved: catalog, and the namespace inside it. */
Node *with_resolved_namespace(Analysis *an, Node *stmt, const QualifiedName *q) {
    Node *c = node_copy(an->arena, stmt);
    c->u.ddl.name = q->ns;
    c->u.ddl.catalog = q->catalog.name;
    c->u.ddl.catalog_plugin = q->catalog.plugin;
    return node_finish(c);
}

static Node *namespace_cmd(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
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

static Node *set_config(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    const char *key = stmt->u.ddl.text;
    if (!key || !stmt->u.ddl.value) return ok(stmt); /* SET / SET key: shows values */
    if (strncasecmp(key, "hivevar:", 8) == 0) key += 8; /* Spark's SetCommand.VariableName */
    if (variable_is_config_key(s->state, key))
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.SET_VARIABLE_USING_SET", stmt, "variableName",
                                      variable_key_sql(an, key), NULL));
    SessionState *st = pending_state(s, pend);
    if (stmt->flags & NF_IMPLICIT) {
        /* SET TIME ZONE LOCAL: the default zone */
        char buf[128];
        cz_default_time_zone(buf, sizeof buf);
        Node *c = node_new(an->arena, NK_SetConfig, stmt->start, stmt->stop);
        *c = *stmt;
        c->u.ddl.value = arena_strdup(an->arena, buf);
        stmt = c;
    }
    if (!strcasecmp(key, "spark.sql.session.timeZone") && !conf_valid_time_zone(stmt->u.ddl.value))
        return an_fail(an, error_make(an->arena, "INVALID_CONF_VALUE.TIME_ZONE", stmt, "confName", key, "confValue",
                                      stmt->u.ddl.value, NULL));
    if (!state_set_conf(st, key, stmt->u.ddl.value))
        return an_fail(an, error_make(an->arena, "INVALID_CONF_VALUE.DEFAULT", stmt, "confValue",
                                      arena_printf(an->arena, "'%s'", stmt->u.ddl.value), "confName",
                                      sql_conf(an->arena, key), NULL));
    return ok(stmt);
}

static Node *insert_into(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    const char *ns, *tbl;
    QualifiedName q;
    bool temp_view = stmt->u.ddl.name.n == 1 && state_find_view(s->state, stmt->u.ddl.name.v[0]);
    const TableDef *t = NULL;
    if (!temp_view) {
        if (!split_table_name(an, s, stmt, stmt->u.ddl.name, &q, &ns, &tbl)) return NULL;
        t = q.catalog.is_session ? catalog_find_table(s->catalog, ns, tbl)
                                 : catalog_v2_find_table(s->catalog, q.catalog.name, q.ns, tbl);
    }
    if (!t && !temp_view)
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_NOT_FOUND", stmt, "relationName",
                                      sql_id_parts(an->arena, stmt->u.ddl.name), NULL));
    if (!stmt->nkids) return ok(stmt);
    Node *query = an_analyze_query(an, stmt->kids[0]);
    if (!query) return NULL;
    if (t && !t->is_view && !t->v2 && !temp_view) {
        /* the query fitted to the table's columns (insert_columns.c) */
        Node *fitted = insert_fit_query(an, t, stmt, query);
        if (fitted || an_failed(an)) return fitted;
    }
    return ok(stmt);
}

static bool starts_with_ci(const char *s, const char *prefix) {
    return s && strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* Generic statements that act on a table (and so must name one). */
static bool command_needs_table(const char *kw) {
    static const char *const KW[] = {"DELETE", "UPDATE", "MERGE", "REPLACE TABLE", "REPAIR TABLE", "MSCK",
                                     "COMMENT ON TABLE", "ALTER TABLE", "TRUNCATE", "ANALYZE TABLE"};
    for (size_t i = 0; i < sizeof KW / sizeof KW[0]; i++)
        if (starts_with_ci(kw, KW[i])) return true;
    return false;
}

/* The table a command names, as the catalog resolves it; NULL with the error recorded. */
static const TableDef *command_table(Analysis *an, CzSession *s, Node *stmt) {
    const char *ns, *tbl;
    QualifiedName q;
    if (!split_table_name(an, s, stmt, stmt->u.ddl.name, &q, &ns, &tbl)) return NULL;
    const TableDef *t = q.catalog.is_session ? catalog_find_table(s->catalog, ns, tbl)
                                             : catalog_v2_find_table(s->catalog, q.catalog.name, q.ns, tbl);
    if (!t) an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_NOT_FOUND", stmt, "relationName",
                                   sql_id_parts(an->arena, stmt->u.ddl.name), NULL));
    return t;
}

/* Statements without an analysis of their own (Spark runs them as commands):
 * what Spark checks at analysis time for the ones the corpus uses, and their
 * query, if any, analysed. */
static Node *other_command(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    const char *kw = stmt->u.ddl.text;
    if (is_show_listing(stmt)) return show_listing(an, s, stmt);
    if (starts_with_ci(kw, "CACHE")) {
        /* CACHE TABLE t AS query: a temporary view over the query */
        if (stmt->nkids) {
            Node *query = an_analyze_query(an, stmt->kids[0]);
            if (!query) return NULL;
            const Node *q = stmt->kids[0];
            const char *text = an->sql && q->start >= 0 && q->stop >= q->start && (size_t)q->stop < an->sql_len
                                   ? arena_strndup(an->arena, an->sql + q->start, (size_t)(q->stop - q->start + 1))
                                   : NULL;
            if (!stmt->u.ddl.name.n)
                return an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", stmt, "error", "end of input", "hint",
                                              "", NULL));
            TempView v = {.name = stmt->u.ddl.name.v[stmt->u.ddl.name.n - 1], .sql = text};
            view_schema(an, &v, plan_output(an, query), 0, NULL);
            if (v.sql) state_put_view(pending_state(s, pend), &v);
            return with_query(an, stmt, query);
        }
        /* CACHE TABLE t: a temporary view or a table */
        if (stmt->u.ddl.name.n == 1 && state_find_view(s->state, stmt->u.ddl.name.v[0])) return ok(stmt);
        return command_table(an, s, stmt) ? ok(stmt) : NULL;
    }
    if (starts_with_ci(kw, "DELETE") || starts_with_ci(kw, "UPDATE") || starts_with_ci(kw, "MERGE")) {
        /* v1 session-catalog tables support none of these; Spark's in-memory
           v2 tables support DELETE (SupportsDelete) only */
        const TableDef *t = command_table(an, s, stmt);
        if (!t) return NULL;
        if (t->v2 && starts_with_ci(kw, "DELETE")) return ok(stmt);
        const char *op = starts_with_ci(kw, "DELETE") ? "DELETE" : starts_with_ci(kw, "UPDATE") ? "UPDATE" : "MERGE INTO";
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName",
                                      sql_id_parts(an->arena, stmt->u.ddl.name), "operation", op, NULL));
    }
    if (starts_with_ci(kw, "REPLACE TABLE")) {
        const char *ns, *tbl;
        QualifiedName q;
        if (!split_table_name(an, s, stmt, stmt->u.ddl.name, &q, &ns, &tbl)) return NULL;
        /* (a v2 catalog could replace the table; Catalyzer's generic statement
           has no column list to replace it with, so it refuses there too) */
        const char *name = q.catalog.is_session ? qualified(an, ns, tbl) : sql_id_parts(an->arena, stmt->u.ddl.name);
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName", name,
                                      "operation", "REPLACE TABLE", NULL));
    }
    if (starts_with_ci(kw, "REPAIR TABLE") || starts_with_ci(kw, "MSCK")) {
        const TableDef *t = command_table(an, s, stmt);
        if (!t) return NULL;
        if (t->v2) return ok(stmt); /* a v2 RepairTable analyses; Spark refuses it only when planning */
        return an_fail(an, error_make(an->arena, "NOT_A_PARTITIONED_TABLE", stmt, "operation", "MSCK REPAIR TABLE",
                                      "tableIdentWithDB", qualified(an, t->ns, t->name), NULL));
    }
    bool describe_other = (starts_with_ci(kw, "DESC") && (strcasestr(kw, "SCHEMA") || strcasestr(kw, "DATABASE") ||
                                                           strcasestr(kw, "FUNCTION") || strcasestr(kw, "NAMESPACE") ||
                                                           strcasestr(kw, "QUERY") || strcasestr(kw, "CATALOG")));
    if (starts_with_ci(kw, "COMMENT ON TABLE") || starts_with_ci(kw, "ALTER TABLE") ||
        (starts_with_ci(kw, "DESC") && !describe_other) || starts_with_ci(kw, "ANALYZE") ||
        starts_with_ci(kw, "TRUNCATE") || starts_with_ci(kw, "REFRESH TABLE") || starts_with_ci(kw, "SHOW COLUMNS") ||
        starts_with_ci(kw, "SHOW CREATE TABLE") || starts_with_ci(kw, "SHOW TBLPROPERTIES")) {
        if (stmt->u.ddl.name.n) {
            if (stmt->u.ddl.name.n == 1 && state_find_view(s->state, stmt->u.ddl.name.v[0])) return ok(stmt);
            if (!command_table(an, s, stmt)) return NULL;
        }
    }
    if (stmt->nkids && !node_kind_is_command(stmt->kids[0]->kind) && !an_analyze_query(an, stmt->kids[0])) return NULL;
    return ok(stmt);
}

/* Statements that name their target: a parsed statement without one is refused here. */
static bool needs_name(NodeKind k) {
    switch (k) {
    case NK_CreateView:
    case NK_CreateTable:
    case NK_DropTable:
    case NK_CreateNamespace:
    case NK_DropNamespace:
    case NK_UseNamespace:
    case NK_InsertInto: return true;
    default: return false;
    }
}

static Node *run_command(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    if ((needs_name(stmt->kind) || stmt->kind == NK_Command) && stmt->u.ddl.name.n == 0 &&
        (needs_name(stmt->kind) || command_needs_table(stmt->u.ddl.text)))
        return an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", stmt, "error", "end of input", "hint", "", NULL));
    switch (stmt->kind) {
    case NK_CreateView: return create_view(an, s, stmt, pend);
    case NK_CreateTable: return create_table(an, s, stmt, pend);
    case NK_DropTable: return drop_table(an, s, stmt, pend);
    case NK_CreateNamespace:
    case NK_DropNamespace:
    case NK_UseNamespace: return namespace_cmd(an, s, stmt, pend);
    case NK_SetConfig: return set_config(an, s, stmt, pend);
    case NK_ResetConfig: return ok(stmt);
    case NK_InsertInto: return insert_into(an, s, stmt, pend);
    case NK_DeclareVariable:
    case NK_SetVariable:
    case NK_DropVariable:
    case NK_ExecuteImmediate:
    case NK_UnresolvedIdentifierPlan: return run_variable_command(an, s, stmt, pend);
    case NK_Command: return other_command(an, s, stmt, pend);
    default:
        if (stmt->nkids && !node_kind_is_command(stmt->kids[0]->kind) && !an_analyze_query(an, stmt->kids[0])) return NULL;
        return ok(stmt);
    }
}

Node *run_statement(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pending) {
    if (node_kind_is_command(stmt->kind) ||
        (stmt->kind == NK_UnresolvedIdentifierPlan && node_kind_is_command(stmt->u.idplan.builds)))
        return run_command(an, s, stmt, pending);
    return an_analyze_query(an, stmt);
}
