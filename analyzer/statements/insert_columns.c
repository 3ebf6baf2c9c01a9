/* INSERT into a catalog table: Spark's PreprocessTableInsertion, which fits
 * the query to the table's columns with TableOutputResolver (by position),
 * after ResolveUserSpecifiedColumns has put a user column list in the
 * table's order. A column whose query value has the table's name and type
 * passes as is; any other is cast to the column's type (the ANSI store
 * assignment) and renamed; a struct is rebuilt field by field; columns the
 * query leaves out at the end get their default, NULL.
 *
 *   InsertIntoStatement t(c1 INT, s STRING)        InsertIntoHadoopFsRelationCommand ..., [c1, s]
 *   +- LocalRelation [col1#1, col2#2]       =>     +- Project [cast(col1#1 as int) AS c1#3, col2#2 AS s#4]
 *                                                     +- LocalRelation [col1#1, col2#2]
 */
#include "insert_columns.h"

#include <string.h>

#include "catalog/conf.h"
#include "core/output.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/scope.h"

static const char *lower(Analysis *an, const char *s) {
    char *r = arena_strdup(an->arena, s);
    for (char *p = r; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
    return r;
}

/* `a`, `b` as Spark lists columns in its errors. */
static const char *quoted_names(Analysis *an, const char *const *names, uint32_t n) {
    StrBuf sb;
    sb_init(&sb, an->arena, 64);
    for (uint32_t i = 0; i < n; i++) {
        if (i) sb_puts(&sb, ", ");
        sb_put_quoted_ident(&sb, names[i]);
    }
    return sb_str(&sb);
}

/* Cast with the ANSI store assignment policy (Spark's TableOutputResolver.cast). */
static Node *store_cast(Analysis *an, Node *e, const DataType *t) {
    Node *c = node_copy(an->arena, make_cast(an, e, t));
    c->u.cast.ansi = true;
    c->flags &= ~(uint32_t)NF_IMPLICIT;
    return node_finish(c);
}

static Node *fit_value(Analysis *an, Node *value, const char *value_name, const char *name, const DataType *type);

/* Spark's resolveStructType (by position): named_struct of the fitted fields,
 * null when the value is. */
static Node *fit_struct(Analysis *an, Node *value, const char *name, const DataType *type) {
    const DataType *vt = value->type;
    if (vt->nfields != type->nfields) return NULL;
    Node **args = ARENA_ARRAY(an->arena, Node *, 2 * (uint32_t)type->nfields + 1);
    for (int f = 0; f < type->nfields; f++) {
        const char *fname = vt->fields[f].name;
        Node *field = extract_fields(an, value, value, &fname, 1);
        if (!field) return NULL;
        Node *fitted = fit_value(an, field, fname, type->fields[f].name, type->fields[f].type);
        if (!fitted) return NULL;
        if (fitted->kind == NK_Alias) fitted = fitted->kids[0];
        Value v = {.type = &TYPE_STRING};
        v.u.s.p = type->fields[f].name;
        v.u.s.len = (uint32_t)strlen(type->fields[f].name);
        Node *lit = node_new(an->arena, NK_Literal, -1, -1);
        lit->type = &TYPE_STRING;
        lit->u.lit.v = v;
        args[2 * f] = node_finish(lit);
        args[2 * f + 1] = fitted;
    }
    Node *s = make_call(an, "named_struct", false, args, 2 * (uint32_t)type->nfields, -1, -1);
    if (!s) return NULL;
    if (expr_nullable(value)) {
        Node *isnull = make_call(an, "isnull", true, &value, 1, -1, -1);
        Node *null = node_new(an->arena, NK_Literal, -1, -1);
        null->type = s->type;
        null->u.lit.v = (Value){.type = s->type, .is_null = true};
        null->flags |= NF_NULLABLE;
        Node *ifargs[3] = {isnull, node_finish(null), s};
        s = isnull ? make_call(an, "if", false, ifargs, 3, -1, -1) : NULL;
        if (!s) return NULL;
    }
    return make_alias(an, s, name, false);
}

/* Spark's checkField: the value as is when it already has the column's name
 * and type, else cast and renamed. */
static Node *fit_value(Analysis *an, Node *value, const char *value_name, const char *name, const DataType *type) {
    if (value->type->id == T_STRUCT && type->id == T_STRUCT) return fit_struct(an, value, name, type);
    if (type_same(value->type, type) && value_name && strcmp(value_name, name) == 0) return value;
    return make_alias(an, store_cast(an, value, type), name, false);
}

/* A user column list (Spark's createProjectForByNameQuery): the query's
 * columns renamed to the listed names, then fitted to the table by name. */
static Node *rename_to_user_columns(Analysis *an, const TableDef *t, Node *stmt, Node *query, AttrList out,
                                    const char *table_sql) {
    uint32_t n = stmt->u.ddl.ncols;
    const char *const *names = stmt->u.ddl.col_names;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t j = 0; j < k; j++)
            if (ident_eq(an, names[j], names[k]))
                return an_fail(an, error_make(an->arena, "COLUMN_ALREADY_EXISTS", stmt, "columnName",
                                              sql_ident(an->arena, names[k]), NULL));
    if (n != out.n) {
        const char **data = ARENA_ARRAY(an->arena, const char *, out.n + 1);
        for (uint32_t i = 0; i < out.n; i++) data[i] = out.v[i]->u.attr.name;
        return an_fail(an, error_make(an->arena, n > out.n ? "INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS"
                                                           : "INSERT_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS",
                                      stmt, "tableName", table_sql, "tableColumns", quoted_names(an, names, n),
                                      "dataColumns", quoted_names(an, data, out.n), NULL));
    }
    Node **items = ARENA_ARRAY(an->arena, Node *, n + 1);
    for (uint32_t k = 0; k < n; k++) {
        int c = 0;
        while (c < t->ncols && !ident_eq(an, names[k], t->cols[c].name)) c++;
        if (c == t->ncols) {
            const char **cols = ARENA_ARRAY(an->arena, const char *, (uint32_t)t->ncols + 1);
            for (int i = 0; i < t->ncols; i++) cols[i] = t->cols[i].name;
            return an_fail(an, error_make(an->arena, "UNRESOLVED_COLUMN.WITH_SUGGESTION", stmt, "objectName",
                                          sql_ident(an->arena, names[k]), "proposal",
                                          quoted_names(an, cols, (uint32_t)t->ncols), NULL));
        }
        items[k] = make_alias(an, out.v[k], t->cols[c].name, false);
    }
    return make_project(an, query, items, n);
}

Node *insert_fit_query(Analysis *an, const TableDef *t, Node *stmt, Node *query) {
    const char *ns = lower(an, t->ns), *tbl = lower(an, t->name);
    const char *qparts[3] = {"spark_catalog", ns, tbl};
    const char *table_sql = sql_id_parts(an->arena, (NameParts){3, qparts});
    const char **col_names = ARENA_ARRAY(an->arena, const char *, (uint32_t)t->ncols + 1);
    for (int c = 0; c < t->ncols; c++) col_names[c] = t->cols[c].name;
    AttrList out = plan_output(an, query);
    bool by_name = stmt->u.ddl.ncols > 0;
    if (by_name) {
        query = rename_to_user_columns(an, t, stmt, query, out, table_sql);
        if (!query) return NULL;
        out = plan_output(an, query);
    }
    if (out.n > (uint32_t)t->ncols) {
        const char **data = ARENA_ARRAY(an->arena, const char *, out.n + 1);
        for (uint32_t i = 0; i < out.n; i++) data[i] = out.v[i]->u.attr.name;
        return an_fail(an, error_make(an->arena, "INSERT_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS", stmt,
                                      "tableName", table_sql, "tableColumns",
                                      quoted_names(an, col_names, (uint32_t)t->ncols), "dataColumns",
                                      quoted_names(an, data, out.n), NULL));
    }
    Node **items = ARENA_ARRAY(an->arena, Node *, (uint32_t)t->ncols + 1);
    bool changed = out.n != (uint32_t)t->ncols;
    for (int c = 0; c < t->ncols; c++) {
        const ColumnDef *col = &t->cols[c];
        /* by position, or (a column list) by name */
        Node *v = NULL;
        if (!by_name) v = (uint32_t)c < out.n ? out.v[(uint32_t)c] : NULL;
        else
            for (uint32_t k = 0; k < out.n && !v; k++)
                if (ident_eq(an, out.v[k]->u.attr.name, col->name)) v = out.v[k];
        if (by_name && (uint32_t)c < out.n && out.v[(uint32_t)c] != v) changed = true;
        if (!v) {
            /* the column's default: NULL (spark.sql.defaultColumn.useNullsForMissingDefaultColumnValues) */
            Node *null = node_new(an->arena, NK_Literal, -1, -1);
            null->type = col->type;
            null->u.lit.v = (Value){.type = col->type, .is_null = true};
            null->flags |= NF_NULLABLE;
            items[c] = make_alias(an, node_finish(null), col->name, false);
            continue;
        }
        if (col->type->id == T_CHAR || col->type->id == T_VARCHAR || col->type->id == T_ARRAY ||
            col->type->id == T_MAP)
            return NULL; /* length checks and element-wise rewrites: not built here */
        items[c] = fit_value(an, v, v->u.attr.name, col->name, col->type);
        if (!items[c]) return NULL;
        if (items[c] != v) changed = true;
    }
    if (an_failed(an)) return NULL;
    Node *fitted = changed ? make_project(an, query, items, (uint32_t)t->ncols) : query;
    Node *s = node_copy(an->arena, stmt);
    const char **parts = ARENA_ARRAY(an->arena, const char *, 2);
    parts[0] = ns;
    parts[1] = tbl;
    s->u.ddl.name = (NameParts){2, parts};
    s->u.ddl.ncols = (uint32_t)t->ncols;
    s->u.ddl.col_names = col_names;
    s->u.ddl.provider = t->provider;
    node_set_kids(an->arena, s, &fitted, 1);
    return node_finish(s);
}
