/* CREATE statements: views (Spark's CreateViewCommand), tables
 * (CreateDataSourceTableCommand, CreateDataSourceTableAsSelectCommand, and
 * a v2 catalog's CreateTable), CREATE TABLE LIKE (CreateTableLikeCommand),
 * temporary data source views (CreateTempViewUsing), functions
 * (CreateFunctionCommand), indexes, and REPLACE TABLE, which the session
 * catalog refuses. */
#include "statements.h"

#include <string.h>
#include <strings.h>

#include "core/output.h"
#include "core/walk.h"
#include "print/printer.h"
#include "rules/lib/sql_function.h"
#include "rules/lib/variables.h"

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

/* ViewHelper.collectTemporaryViews: the first temporary view the resolved
 * plan reads, subqueries included (pre-order, as Spark's flatMap). */
static WalkResult find_temp_view(const Node *n, void *ctx) {
    if (n->kind == NK_View && n->u.view.temporary) {
        *(const Node **)ctx = n;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

/* Spark's ViewHelper.checkCyclicViewReference, when a view is replaced: the
 * new query must not read the view itself through other views (it would
 * expand forever). path holds the views entered so far, the replaced one
 * first. */
typedef struct ViewPath {
    NameParts target;
    bool temporary;
    NameParts *v;
    uint32_t n, cap;
} ViewPath;

static bool same_view(const Node *view, const ViewPath *p) {
    NameParts a = view->u.view.name, b = p->target;
    if (view->u.view.temporary != p->temporary || a.n != b.n) return false;
    for (uint32_t i = 0; i < a.n; i++)
        if (!name_eq(a.v[i], b.v[i])) return false;
    return true;
}

static bool cyclic_view(Analysis *an, const Node *n, ViewPath *p) {
    if (!n) return true;
    uint32_t saved = p->n;
    if (n->kind == NK_View) {
        if (p->n == p->cap) {
            uint32_t nc = p->cap * 2;
            NameParts *v = ARENA_ARRAY(an->arena, NameParts, nc);
            memcpy(v, p->v, sizeof *v * p->n);
            p->v = v;
            p->cap = nc;
        }
        p->v[p->n++] = n->u.view.name;
        if (same_view(n, p)) {
            StrBuf sb;
            sb_init(&sb, an->arena, 64);
            for (uint32_t i = 0; i < p->n; i++) {
                if (i) sb_puts(&sb, " -> ");
                sb_puts(&sb, sql_id_parts(an->arena, p->v[i]));
            }
            an_fail(an, error_make(an->arena, "RECURSIVE_VIEW", NULL, "viewIdent", sql_id_parts(an->arena, p->target),
                                   "newPath", sb_str(&sb), NULL));
            return false;
        }
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        if (!cyclic_view(an, n->kids[i], p)) return false;
    for (uint32_t i = 0; i < n->nexprs; i++)
        if (!cyclic_view(an, n->exprs[i], p)) return false;
    if (node_kind_is_subquery(n->kind) && !cyclic_view(an, n->u.subq.plan, p)) return false;
    p->n = saved;
    return true;
}

/* true when query does not read the view named target (false: RECURSIVE_VIEW recorded) */
static bool check_cyclic_view(Analysis *an, const Node *query, NameParts target, bool temporary) {
    if (!kind_mask_has(query->mask, NK_View)) return true;
    ViewPath p = {target, temporary, ARENA_ARRAY(an->arena, NameParts, 8), 1, 8};
    p.v[0] = target;
    return cyclic_view(an, query, &p);
}

Node *stmt_create_view(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
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
            if (stmt->u.ddl.if_not_exists) return stmt;
            return an_fail(an, error_make(an->arena, "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                          sql_ident(an->arena, name), NULL));
        }
        if (stmt->u.ddl.or_replace && state_find_view(st, name) &&
            !check_cyclic_view(an, query, name_parts1(an->arena, name), true))
            return NULL;
        TempView v = {.name = name, .sql = stmt->u.ddl.text, .ncols = (int)stmt->u.ddl.ncols,
                      .cols = stmt->u.ddl.col_names};
        view_schema(an, &v, out, stmt->u.ddl.ncols, stmt->u.ddl.col_names);
        state_put_view(st, &v);
        return stmt_with_query(an, stmt, query);
    }
    const char *ns, *tbl;
    QualifiedName q;
    if (!stmt_split_table_name(an, s, stmt, n, &q, &ns, &tbl)) return NULL;
    if (!q.catalog.is_session) /* the in-memory catalogs keep tables only (no ViewCatalog) */
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.CATALOG_OPERATION", stmt, "catalogName",
                                      sql_ident(an->arena, q.catalog.name), "operation", "views", NULL));
    /* the command shows the view's resolved identifier, as Spark's ResolvedIdentifier */
    const char **full = ARENA_ARRAY(an->arena, const char *, 3);
    full[0] = "spark_catalog";
    full[1] = ns;
    full[2] = tbl;
    stmt->u.ddl.name = (NameParts){3, full};
    /* a persistent view may not reference temporary objects: Spark's
       verifyTemporaryObjectsNotExists checks views, then functions, then variables */
    const Node *tv = NULL;
    node_walk(query, WALK_EXPRS | WALK_SUBQUERIES, find_temp_view, &tv);
    if (tv)
        return an_fail(an, error_make(an->arena, "INVALID_TEMP_OBJ_REFERENCE", stmt, "obj", "VIEW", "objName",
                                      stmt_qualified(an, ns, tbl), "tempObj", "VIEW", "tempObjName",
                                      sql_id_parts(an->arena, tv->u.view.name), NULL));
    const Node *var = plan_find_variable(query);
    if (var)
        return an_fail(an, error_make(an->arena, "INVALID_TEMP_OBJ_REFERENCE", stmt, "obj", "VIEW", "objName",
                                      stmt_qualified(an, ns, tbl), "tempObj", "VARIABLE", "tempObjName",
                                      sql_ident(an->arena, var->u.attr.name), NULL));
    Catalog *c = pending_catalog(s, pend);
    if (!catalog_has_namespace(c, ns))
        return an_fail(an, error_make(an->arena, "SCHEMA_NOT_FOUND", stmt, "schemaName",
                                      arena_printf(an->arena, "`spark_catalog`.`%s`", ns), NULL));
    const TableDef *existing = catalog_find_table(c, ns, tbl);
    if (existing && !stmt->u.ddl.or_replace) {
        if (stmt->u.ddl.if_not_exists) return stmt;
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                      stmt_qualified(an, ns, tbl), NULL));
    }
    if (existing && existing->is_view && !check_cyclic_view(an, query, stmt->u.ddl.name, false)) return NULL;
    ColumnDef *cols = ARENA_ARRAY(an->arena, ColumnDef, out.n + 1);
    for (uint32_t i = 0; i < out.n; i++)
        cols[i] = (ColumnDef){i < stmt->u.ddl.ncols ? stmt->u.ddl.col_names[i] : out.v[i]->u.attr.name, out.v[i]->type,
                              expr_nullable(out.v[i])};
    TableDef *t = catalog_put_table(c, ns, tbl, (int)out.n, cols);
    t->is_view = true;
    t->view_text = arena_strdup(c->arena, stmt->u.ddl.text ? stmt->u.ddl.text : "");
    t->view_mode = stmt->u.ddl.provider ? arena_strdup(c->arena, stmt->u.ddl.provider) : NULL;
    t->nview_query_cols = (int)out.n;
    t->view_query_cols = ARENA_ARRAY(c->arena, const char *, out.n + 1);
    for (uint32_t i = 0; i < out.n; i++) t->view_query_cols[i] = arena_strdup(c->arena, out.v[i]->u.attr.name);
    if (stmt->u.ddl.ncols) {
        t->nview_cols = (int)stmt->u.ddl.ncols;
        t->view_cols = ARENA_ARRAY(c->arena, const char *, stmt->u.ddl.ncols);
        for (uint32_t i = 0; i < stmt->u.ddl.ncols; i++) t->view_cols[i] = arena_strdup(c->arena, stmt->u.ddl.col_names[i]);
    }
    return stmt_with_query(an, stmt, query);
}

Node *stmt_create_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    const char *ns, *tbl;
    QualifiedName q;
    if (!stmt_split_table_name(an, s, stmt, stmt->u.ddl.name, &q, &ns, &tbl)) return NULL;
    if (!q.catalog.is_session) return v2_create_table(an, s, stmt, &q, pend);
    Catalog *c = pending_catalog(s, pend);
    if (!catalog_has_namespace(c, ns))
        return an_fail(an, error_make(an->arena, "SCHEMA_NOT_FOUND", stmt, "schemaName",
                                      arena_printf(an->arena, "`spark_catalog`.`%s`", ns), NULL));
    if (catalog_find_table(c, ns, tbl) && !stmt->u.ddl.or_replace) {
        if (stmt->u.ddl.if_not_exists) return stmt;
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                      stmt_qualified(an, ns, tbl), NULL));
    }
    ColumnDef *cols;
    uint32_t ncols;
    Node *query;
    if (!stmt_new_table_columns(an, stmt, &cols, &ncols, &query)) return NULL;
    if (!stmt->nkids) {
        /* a data source table keeps its partition columns last, in PARTITIONED BY order */
        const StmtSpec *sp = ddl_spec(stmt);
        if (sp->npart) {
            ColumnDef *ordered = ARENA_ARRAY(an->arena, ColumnDef, ncols + 1);
            uint32_t k = 0;
            for (uint32_t i = 0; i < ncols; i++) {
                bool part = false;
                for (uint32_t j = 0; j < sp->npart && !part; j++) part = name_eq(cols[i].name, sp->part_keys[j]);
                if (!part) ordered[k++] = cols[i];
            }
            for (uint32_t j = 0; j < sp->npart; j++)
                for (uint32_t i = 0; i < ncols; i++)
                    if (name_eq(cols[i].name, sp->part_keys[j])) ordered[k++] = cols[i];
            if (k == ncols) cols = ordered;
        }
    }
    TableDef *t = catalog_put_table(c, ns, tbl, (int)ncols, cols);
    if (stmt->u.ddl.provider) t->provider = arena_strdup(c->arena, stmt->u.ddl.provider);
    t->has_default_collation = ddl_spec(stmt)->has_collation;
    t->default_collation = ddl_spec(stmt)->collation;
    if (ddl_spec(stmt)->npart) {
        t->npart_cols = (int)ddl_spec(stmt)->npart;
        t->part_cols = ARENA_ARRAY(c->arena, const char *, ddl_spec(stmt)->npart);
        for (uint32_t i = 0; i < ddl_spec(stmt)->npart; i++) t->part_cols[i] = arena_strdup(c->arena, ddl_spec(stmt)->part_keys[i]);
    }
    return stmt_with_query(an, stmt_with_qualified_name(an, stmt, ns, tbl), query);
}

/* CREATE TABLE t LIKE s: the source's columns (Spark's CreateTableLikeCommand
 * reads them when it runs; the source must exist and the target not). */
Node *stmt_create_table_like(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    Node src = *stmt;
    src.u.ddl.name = ddl_spec(stmt)->name2;
    ResolvedRel from;
    if (!stmt_resolve_relation(an, s, &src, REL_TABLE_OR_VIEW, "CREATE TABLE LIKE", false, &from)) return NULL;
    const char *ns, *tbl;
    QualifiedName q;
    if (!stmt_split_table_name(an, s, stmt, stmt->u.ddl.name, &q, &ns, &tbl)) return NULL;
    if (!q.catalog.is_session)
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName",
                                      sql_id_parts(an->arena, stmt->u.ddl.name), "operation", "CREATE TABLE LIKE", NULL));
    Catalog *c = pending_catalog(s, pend);
    if (!catalog_has_namespace(c, ns))
        return an_fail(an, error_make(an->arena, "SCHEMA_NOT_FOUND", stmt, "schemaName",
                                      arena_printf(an->arena, "`spark_catalog`.`%s`", ns), NULL));
    if (catalog_find_table(c, ns, tbl)) {
        if (stmt->u.ddl.if_not_exists) return stmt;
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                      stmt_qualified(an, ns, tbl), NULL));
    }
    int n = from.temp ? from.temp->nout : from.table->ncols;
    ColumnDef *cols = ARENA_ARRAY(an->arena, ColumnDef, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        cols[i] = from.temp ? (ColumnDef){from.temp->out_names[i], from.temp->out_types[i], true}
                            : (ColumnDef){from.table->cols[i].name, from.table->cols[i].type, true};
    TableDef *t = catalog_put_table(c, ns, tbl, n, cols);
    const char *prov = stmt->u.ddl.provider ? stmt->u.ddl.provider : from.table ? from.table->provider : NULL;
    if (prov) t->provider = arena_strdup(c->arena, prov);
    return stmt;
}

/* REPLACE TABLE / CREATE OR REPLACE TABLE: Spark replaces tables of v2
 * catalogs only (REPLACE_TABLE on the session catalog's v1 tables is
 * UNSUPPORTED_FEATURE.TABLE_OPERATION). */
Node *stmt_replace_table(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    const char *ns, *tbl;
    QualifiedName q;
    if (!stmt_split_table_name(an, s, stmt, stmt->u.ddl.name, &q, &ns, &tbl)) return NULL;
    /* (a v2 catalog could replace the table; the statement's columns are not
       read, so Catalyzer refuses there too) */
    const char *name = q.catalog.is_session ? stmt_qualified(an, ns, tbl) : sql_id_parts(an->arena, stmt->u.ddl.name);
    return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName", name,
                                  "operation", "REPLACE TABLE", NULL));
}

/* CREATE [OR REPLACE] [GLOBAL] TEMPORARY VIEW v [(cols)] USING fmt [OPTIONS]:
 * Spark's CreateTempViewUsing. The view is registered (DESCRIBE, DROP VIEW
 * and SHOW see it); its rows come from a data source Catalyzer does not
 * read, so a query over it is not analysed (no SQL text is kept). */
Node *stmt_create_temp_view_using(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    NameParts n = stmt->u.ddl.name;
    if (!stmt->u.ddl.temporary)
        return an_fail(an, error_make(an->arena, "PARSE_SYNTAX_ERROR", stmt, "error", "'USING'", "hint", "", NULL));
    if (!stmt->u.ddl.global && n.n > 1)
        return an_fail(an, error_make(an->arena, "TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS", stmt, "actualName",
                                      sql_id_parts(an->arena, n), NULL));
    SessionState *st = pending_state(s, pend);
    const char *name = n.v[n.n - 1];
    if (state_find_view(st, name) && !stmt->u.ddl.or_replace)
        return an_fail(an, error_make(an->arena, "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS", stmt, "relationName",
                                      sql_ident(an->arena, name), NULL));
    TempView v = {.name = name, .nout = (int)stmt->u.ddl.ncols, .out_names = stmt->u.ddl.col_names,
                  .out_types = stmt->u.ddl.col_types,
                  .provider = stmt->u.ddl.provider ? stmt->u.ddl.provider : "parquet"};
    state_put_view(st, &v);
    return stmt;
}

/* CREATE [OR REPLACE] [TEMPORARY] FUNCTION [IF NOT EXISTS] f(params)
 * RETURNS t RETURN body: Spark's CreateSQLFunctionCommand. The body is
 * analysed against the parameters first (its errors are the statement's),
 * then the function is registered: temporary in the session, persistent in
 * its database. */
static Node *create_sql_function(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    NameParts n = stmt->u.ddl.name;
    if (stmt->u.ddl.or_replace && stmt->u.ddl.if_not_exists)
        return an_fail(an, error_make(an->arena, "INVALID_SQL_SYNTAX.CREATE_ROUTINE_WITH_IF_NOT_EXISTS_AND_REPLACE",
                                      stmt, NULL));
    const char *ns = NULL;
    if (!stmt->u.ddl.temporary) {
        QualifiedName q;
        if (!stmt_resolve_namespace(an, s, stmt, (NameParts){n.n - 1, n.v}, &q)) return NULL;
        ns = q.ns.n ? q.ns.v[0] : "default";
    }
    SqlFunction f = {.name = n.v[n.n - 1], .ns = ns, .nparams = (int)stmt->u.ddl.ncols,
                     .param_names = stmt->u.ddl.col_names, .param_types = stmt->u.ddl.col_types,
                     .param_defaults = stmt->u.ddl.col_defaults, .ret_type = stmt->u.ddl.ret_type,
                     .body = stmt->u.ddl.body, .body_is_query = stmt->u.ddl.body_is_query};
    for (int i = 0; i < f.nparams; i++)
        for (int j = 0; j < i; j++)
            if (name_eq(f.param_names[i], f.param_names[j]))
                return an_fail(an, error_make(an->arena, "DUPLICATE_ROUTINE_PARAMETER_NAMES", stmt, "routineName",
                                              sql_ident(an->arena, f.name), "names",
                                              sql_ident(an->arena, f.param_names[i]), NULL));
    if (!sql_function_inline(an, &f, NULL, 0, stmt, NULL)) return NULL;
    SessionState *st = pending_state(s, pend);
    if (state_find_func(st, ns, f.name) && !stmt->u.ddl.or_replace) {
        if (stmt->u.ddl.if_not_exists) return stmt;
        return an_fail(an, error_make(an->arena, "ROUTINE_ALREADY_EXISTS", stmt, "routineName",
                                      ns ? arena_printf(an->arena, "`%s`.`%s`", ns, f.name) : sql_ident(an->arena, f.name),
                                      "newRoutineType", "routine", "existingRoutineType", "routine", NULL));
    }
    state_put_func(st, &f);
    return stmt;
}

/* CREATE [OR REPLACE] [TEMPORARY] FUNCTION f AS 'class': Spark's
 * CreateFunctionCommand, which loads the class when it runs (so the
 * function is not callable here: its signature is in a JVM class); a SQL
 * function as above; RETURNS TABLE (a table function) is not analysed. */
Node *stmt_create_function(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    if (!stmt->u.ddl.value && stmt->u.ddl.body && stmt->u.ddl.ret_type) return create_sql_function(an, s, stmt, pend);
    if (!stmt->u.ddl.value)
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.STATEMENT", stmt, "statement",
                                      "CREATE FUNCTION ... RETURNS", NULL));
    if (stmt->u.ddl.temporary) return stmt;
    if (stmt->u.ddl.or_replace && stmt->u.ddl.if_not_exists)
        return an_fail(an, error_make(an->arena, "INVALID_SQL_SYNTAX.CREATE_ROUTINE_WITH_IF_NOT_EXISTS_AND_REPLACE",
                                      stmt, NULL));
    /* a persistent function lives in a database, which must exist */
    NameParts n = stmt->u.ddl.name;
    QualifiedName q;
    if (!stmt_resolve_namespace(an, s, stmt, (NameParts){n.n - 1, n.v}, &q)) return NULL;
    return stmt_function_name(an, stmt, &q, false);
}

/* CREATE INDEX: Spark resolves the table; its tables support no index
 * (SupportsIndex), which the planner reports. */
Node *stmt_create_index(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    (void)pend;
    ResolvedRel r;
    if (!stmt_resolve_relation(an, s, stmt, REL_TABLE, "CREATE INDEX", false, &r)) return NULL;
    return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.TABLE_OPERATION", stmt, "tableName",
                                  r.table->v2 ? sql_id_parts(an->arena, stmt->u.ddl.name)
                                              : stmt_qualified(an, r.table->ns, r.table->name),
                                  "operation", "CREATE INDEX", NULL));
}
