/* ResolveRelations — Spark's Analyzer.ResolveRelations: a table name becomes
 * the relation it names, looked up as Spark does — temporary views first (a
 * single-part name), then the catalog the name's first part registers, else
 * the current catalog (Spark's CatalogAndIdentifier): the session catalog's
 * `t`, `db.t`, `spark_catalog.db.t`, or a v2 catalog's table, which prints as
 * RelationV2. Views are analysed in their own context and wrapped
 * as Spark shows them. (CTE names were already turned into CTERelationRefs by
 * CTESubstitution.)
 *
 *   'UnresolvedRelation [t]      SubqueryAlias spark_catalog.default.t
 *                          =>    +- Relation spark_catalog.default.t[a#1,b#2] parquet
 *   'UnresolvedRelation [myTable]   (USE primary.tempdb)
 *                          =>    SubqueryAlias primary.tempdb.myTable
 *                                +- RelationV2[id#1L] primary.tempdb.myTable primary.tempdb.myTable
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "catalog/catalog_manager.h"
#include "catalog/external_catalog.h"
#include "catalog/conf.h"
#include "catalog/session.h"
#include "core/output.h"
#include "functions/functions.h"
#include "parser/parser.h"
#include "rules/lib/builders.h"
#include "rules/lib/cte_registry.h"
#include "rules/lib/scope.h"
#include "core/walk.h"

/* Spark's SessionCatalog.formatTableName: names lower-cased unless case-sensitive. */
static const char *format_name(Analysis *an, const char *name) {
    if (an->conf->case_sensitive) return name;
    char *s = arena_strdup(an->arena, name);
    for (char *p = s; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
    return s;
}

/* A table's full name: spark_catalog.db.t (names formatted as the session
 * catalog formats them), or a v2 catalog's catalog.ns....t as created. */
static NameParts table_full_name(Analysis *an, const TableDef *t) {
    if (t->v2) {
        const char **parts = ARENA_ARRAY(an->arena, const char *, t->ns_parts.n + 2);
        parts[0] = t->catalog;
        for (uint32_t i = 0; i < t->ns_parts.n; i++) parts[i + 1] = t->ns_parts.v[i];
        parts[t->ns_parts.n + 1] = t->name;
        return (NameParts){t->ns_parts.n + 2, parts};
    }
    const char **parts = ARENA_ARRAY(an->arena, const char *, 3);
    parts[0] = t->catalog;
    parts[1] = format_name(an, t->ns);
    parts[2] = format_name(an, t->name);
    return (NameParts){3, parts};
}

static Node *relation_for_table(Analysis *an, const TableDef *t, const Node *at) {
    NameParts full = table_full_name(an, t);
    Node *rel = node_new(an->arena, NK_Relation, at->start, at->stop);
    rel->u.relation.name = full;
    rel->u.relation.table = t;
    Node **attrs = ARENA_ARRAY(an->arena, Node *, t->ncols + 1);
    /* one finished column attribute as the template of all: they differ only
       in fields node_finish does not read (name, id, a non-NULL type,
       nullability), so each is a copy with those set, not a node built and
       finished again (a table reference makes one per column) */
    Node *proto = node_new(an->arena, NK_AttributeReference, -1, -1);
    proto->type = &TYPE_STRING;
    node_finish(proto);
    /* and all of them in one allocation */
    Node *block = t->ncols > 0 ? arena_alloc(an->arena, sizeof(Node) * (size_t)t->ncols) : NULL;
    for (int i = 0; i < t->ncols; i++) {
        Node *a = &block[i];
        *a = *proto;
        a->u.attr.name = t->cols[i].name;
        a->u.attr.id = an_new_id(an);
        a->u.attr.name_hash = t->cols[i].name_hash;
        a->type = t->cols[i].type;
        /* CharVarcharUtils.replaceCharVarcharWithString: the columns read as STRING */
        if (a->type->id == T_CHAR) a->u.attr.char_len = a->type->length;
        if (a->type->id == T_CHAR || a->type->id == T_VARCHAR) a->type = &TYPE_STRING;
        if (t->cols[i].nullable) a->flags |= NF_NULLABLE;
        attrs[i] = a;
    }
    node_set_exprs(an->arena, rel, attrs, (uint32_t)t->ncols);
    Node *plan = node_finish(rel);
    /* a CHAR(n) column is padded to n on read (readSidePadding), in a Project
       over the relation */
    bool has_char = false;
    for (int i = 0; i < t->ncols; i++) has_char = has_char || t->cols[i].type->id == T_CHAR;
    if (has_char && func_char_padding_on_read(an)) {
        Node **items = ARENA_ARRAY(an->arena, Node *, t->ncols + 1);
        for (int i = 0; i < t->ncols; i++) {
            items[i] = attrs[i];
            if (t->cols[i].type->id != T_CHAR) continue;
            Node *pad = func_char_read_padding(an, attrs[i], t->cols[i].type->length);
            if (!pad) return NULL;
            items[i] = make_alias(an, pad, t->cols[i].name, false);
            items[i]->u.attr.char_len = t->cols[i].type->length;
        }
        plan = make_project(an, plan, items, (uint32_t)t->ncols);
    }
    return make_subquery_alias(an, plan, full);
}

/* Parses and analyses a view body; wraps it in View and SubqueryAlias. */
/* The stored schema of a view, to cast its query's output back to. */
typedef struct ViewSchema {
    int n;
    const char *const *names;
    const DataType *const *types;
    const char *mode;               /* persistent views: WITH SCHEMA ... (NULL: COMPENSATION) */
    int nquery;                     /* the query's output names when the view was created */
    const char *const *query_names;
} ViewSchema;

/* spark.sql.view.maxNestedViewDepth (100; at least 1, as Spark checks it) */
static int view_max_nested_depth(const Analysis *an) {
    const Conf *c = an->conf;
    for (int i = c ? c->nentries - 1 : -1; i >= 0; i--)
        if (c->keys[i] && c->values[i] && !strcasecmp(c->keys[i], "spark.sql.view.maxNestedViewDepth")) {
            char *end;
            long v = strtol(c->values[i], &end, 10);
            return end != c->values[i] && !*end && v > 0 && v < 1000000 ? (int)v : 100;
        }
    return 100;
}

static bool mode_is(const ViewSchema *s, const char *m) { return s->mode && strcmp(s->mode, m) == 0; }

/* SessionCatalog.getViewPlan for SCHEMA EVOLUTION (no column list): the
 * view is its query as it reads now; two columns of one name are refused. */
static bool evolution_names_ok(Analysis *an, AttrList out, const Node *at) {
    for (uint32_t i = 0; i < out.n; i++)
        for (uint32_t j = 0; j < i; j++)
            if (ident_eq(an, out.v[i]->u.attr.name, out.v[j]->u.attr.name)) {
                an_fail(an, error_make(an->arena, "COLUMN_ALREADY_EXISTS", at, "columnName",
                                       sql_ident(an->arena, out.v[i]->u.attr.name), NULL));
                return false;
            }
    return true;
}

/* SCHEMA TYPE EVOLUTION: each column found by the name the query gave it
 * when the view was created, renamed to the view's column, in the type it
 * has now (no cast); one gone is INCOMPATIBLE_VIEW_SCHEMA_CHANGE. */
static Node *type_evolution(Analysis *an, Node *body, AttrList out, ViewSchema schema, NameParts view_name,
                            const char *sql, const Node *at) {
    Node **items = ARENA_ARRAY(an->arena, Node *, schema.n + 1);
    for (int i = 0; i < schema.n; i++) {
        Node *found = NULL;
        for (uint32_t k = 0; k < out.n && !found; k++)
            if (ident_eq(an, out.v[k]->u.attr.name, schema.query_names[i])) found = out.v[k];
        if (!found) {
            StrBuf cols;
            sb_init(&cols, an->arena, 32);
            for (int c = 0; c < schema.n; c++) sb_printf(&cols, "%s%s", c ? ", " : "", schema.names[c]);
            StrBuf vn;
            sb_init(&vn, an->arena, 32);
            for (uint32_t c = 0; c < view_name.n; c++) sb_printf(&vn, "%s%s", c ? "." : "", view_name.v[c]);
            return an_fail(an, error_make(an->arena, "INCOMPATIBLE_VIEW_SCHEMA_CHANGE", at, "viewName",
                                          sql_id_parts(an->arena, view_name), "colName", schema.query_names[i],
                                          "expectedNum", "1", "actualCols", "[]", "suggestion",
                                          arena_printf(an->arena, "CREATE OR REPLACE VIEW %s (%s) AS %s", sb_str(&vn),
                                                       sb_str(&cols), sql),
                                          NULL));
        }
        items[i] = make_alias(an, found, schema.names[i], false);
    }
    return make_project(an, body, items, (uint32_t)schema.n);
}

static Node *expand_view(Analysis *an, const char *sql, int ncols, const char *const *cols, NameParts alias,
                         NameParts view_name, bool temporary, const char *ns, ViewSchema schema, const Node *at) {
    /* Spark's AnalysisContext.nestedViewDepth: a view inside views nested
       deeper than spark.sql.view.maxNestedViewDepth (a cycle among views
       among them) stops the analysis */
    int max_views = view_max_nested_depth(an);
    if (an->view_depth + 1 > max_views)
        return an_fail(an, error_make(an->arena, "VIEW_EXCEED_MAX_NESTED_DEPTH", at, "viewName",
                                      sql_id_parts(an->arena, view_name), "maxNestedDepth",
                                      arena_printf(an->arena, "%d", max_views), NULL));
    ParserOptions po = {.max_depth = an->max_depth};
    ErrorInfo *err = NULL;
    Node *parsed = parse_statement(an->arena, sql, strlen(sql), &po, &err);
    if (!parsed) return an_fail(an, err);
    /* every body passed the nesting limit alone; stacked, their heights add
       up (100 views of 800 levels overflowed the stack): the plan they make
       is too complex as one statement of that height would be */
    if (an->nested_height > an->max_depth || parsed->height > an->max_depth - an->nested_height)
        /* at the reference in this statement; inside a view, at none (its text is not the statement's) */
        return an_fail(an, error_make(an->arena, "FAILED_TO_PARSE_TOO_COMPLEX", an->sql ? at : NULL, NULL));
    /* the view's own text positions must not leak into this query's errors */
    const char *saved_sql = an->sql;
    size_t saved_len = an->sql_len;
    an->sql = NULL;
    an->sql_len = 0;
    /* a persistent view resolves names in its own namespace, without temporary views */
    const char *saved_ns = an->view_ns;
    if (!temporary) an->view_ns = ns;
    struct CteRegistry *saved_ctes = an->ctes;
    an->ctes = NULL; /* the query's CTEs are not visible inside a view */
    an->view_depth++;
    an->nested_height += parsed->height;
    Node *body = an_analyze_nested(an, parsed, NULL, "view", view_name.n ? view_name.v[view_name.n - 1] : NULL);
    an->nested_height -= parsed->height;
    an->view_depth--;
    an->view_ns = saved_ns;
    if (!an->ctes) an->ctes = saved_ctes;
    else {
        /* keep both: ids are unique per request */
        struct CteRegistry *inner = an->ctes;
        an->ctes = saved_ctes;
        cte_merge(an, inner);
    }
    an->sql = saved_sql;
    an->sql_len = saved_len;
    if (!body) return NULL;
    AttrList out = plan_output(an, body);
    bool evolution = mode_is(&schema, "EVOLUTION") && !ncols;
    bool type_evo = mode_is(&schema, "TYPE EVOLUTION") && schema.nquery == schema.n && schema.n;
    if (evolution && !evolution_names_ok(an, out, at)) return NULL;
    if (type_evo) {
        body = type_evolution(an, body, out, schema, view_name, sql, at);
        if (!body) return NULL;
        out = plan_output(an, body);
    }
    bool cast_to_schema = !evolution && !type_evo && schema.n && (uint32_t)schema.n == out.n;
    if (ncols && !cast_to_schema && !type_evo) {
        Node **items = ARENA_ARRAY(an->arena, Node *, out.n + 1);
        for (uint32_t i = 0; i < out.n; i++)
            items[i] = (int)i < ncols ? make_alias(an, out.v[i], cols[i], false) : out.v[i];
        body = make_project(an, body, items, out.n);
        out = plan_output(an, body);
    }
    if (cast_to_schema) {
        /* Spark's SessionCatalog.getViewPlan: each query column, found by the
         * name it had when the view was created, is up-cast to the stored
         * type and aliased to the stored name (a column list renames here). */
        /* as Spark: the output cast to the schema the view was created with */
        Node **items = ARENA_ARRAY(an->arena, Node *, out.n + 1);
        for (uint32_t i = 0; i < out.n; i++) {
            Node *c = node_new(an->arena, NK_Cast, out.v[i]->start, out.v[i]->stop);
            c->type = schema.types[i];
            c->u.cast.ansi = an->conf->ansi;
            c->flags |= NF_IMPLICIT | (out.v[i]->flags & NF_NULLABLE);
            node_set_kids(an->arena, c, &out.v[i], 1);
            items[i] = make_alias(an, node_finish(c), schema.names[i], false);
        }
        body = make_project(an, body, items, out.n);
        out = plan_output(an, body);
    }
    Node *view = node_new(an->arena, NK_View, at->start, at->stop);
    view->u.view.name = view_name;
    view->u.view.temporary = temporary;
    node_set_kids(an->arena, view, &body, 1);
    node_set_exprs(an->arena, view, out.v, out.n);
    return make_subquery_alias(an, node_finish(view), alias);
}

/* A temporary view over a data source (CREATE TEMPORARY VIEW v (cols) USING
 * fmt): Spark's View over the source's unnamed Relation. */
static Node *temp_source_view(Analysis *an, const TempView *v, NameParts alias, const Node *at) {
    TableDef *t = ARENA_NEW(an->arena, TableDef);
    t->name = v->name;
    t->provider = v->provider;
    t->ncols = v->nout;
    t->cols = ARENA_ARRAY(an->arena, ColumnDef, v->nout + 1);
    Node **attrs = ARENA_ARRAY(an->arena, Node *, v->nout + 1);
    for (int i = 0; i < v->nout; i++) {
        t->cols[i] = (ColumnDef){v->out_names[i], v->out_types[i], true};
        Node *a = node_new(an->arena, NK_AttributeReference, -1, -1);
        a->u.attr.name = v->out_names[i];
        a->u.attr.id = an_new_id(an);
        a->type = v->out_types[i];
        if (a->type->id == T_CHAR || a->type->id == T_VARCHAR) a->type = &TYPE_STRING;
        a->flags |= NF_NULLABLE;
        attrs[i] = node_finish(a);
    }
    Node *rel = node_new(an->arena, NK_Relation, at->start, at->stop);
    rel->u.relation.table = t;
    node_set_exprs(an->arena, rel, attrs, (uint32_t)v->nout);
    Node *r = node_finish(rel);
    Node *view = node_new(an->arena, NK_View, at->start, at->stop);
    view->u.view.name = name_parts1(an->arena, v->name);
    view->u.view.temporary = true;
    node_set_kids(an->arena, view, &r, 1);
    node_set_exprs(an->arena, view, attrs, (uint32_t)v->nout);
    return make_subquery_alias(an, node_finish(view), alias);
}

static Node *resolve_one(Analysis *an, Node *u) {
    NameParts n = u->u.un.name;
    if (n.n == 1 && an->session && !an->view_ns) {
        const TempView *v = state_find_view(an->session, n.v[0]);
        if (v && v->sql) {
            NameParts alias = name_parts1(an->arena, format_name(an, n.v[0]));
            NameParts view_name = name_parts1(an->arena, v->name);
            ViewSchema vs = {v->nout, v->out_names, v->out_types};
            return expand_view(an, v->sql, v->ncols, v->cols, alias, view_name, true, NULL, vs, u);
        }
        if (v && !v->plan && v->provider) return temp_source_view(an, v, name_parts1(an->arena, format_name(an, n.v[0])), u);
    }
    const char *ns = an->view_ns ? an->view_ns : "default";
    const char *tbl = n.v[n.n - 1];
    if (an->session && !an->view_ns) {
        /* CatalogAndIdentifier: a registered catalog's name first, else the current catalog */
        QualifiedName q;
        ErrorInfo *e = catalog_split_identifier(an->arena, an->session, n, &q);
        if (e) {
            if (e->start < 0) e->start = u->start, e->stop = u->stop;
            return an_fail(an, e);
        }
        if (!q.catalog.is_session) {
            const TableDef *t = NULL;
            if (external_catalog_handles(an->session, q.catalog.plugin)) {
                /* CatalogPlugin.loadTable: the provider loads it (and caches it) */
                ErrorInfo *le = external_load_table(an->arena, an->session, &q.catalog, q.ns, q.name, an->deadline_ns,
                                                    an->cancel, &t);
                if (le) {
                    if (le->start < 0) le->start = u->start, le->stop = u->stop;
                    return an_fail(an, le);
                }
            } else if (an->catalog) {
                t = catalog_v2_find_table(an->catalog, q.catalog.name, q.ns, q.name);
            }
            if (!t)
                return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_NOT_FOUND", u, "relationName",
                                              sql_id_parts(an->arena, n), NULL));
            return relation_for_table(an, t, u);
        }
        if (q.ns.n != 1)
            return an_fail(an, error_make(an->arena, "REQUIRES_SINGLE_PART_NAMESPACE", u, "sessionCatalog",
                                          SESSION_CATALOG, "namespace", sql_id_parts(an->arena, q.ns), NULL));
        ns = q.ns.v[0];
    } else if (n.n == 2) {
        ns = n.v[0];
    } else if (n.n == 3 && strcasecmp(n.v[0], "spark_catalog") == 0) {
        ns = n.v[1];
    } else if (n.n >= 3) {
        return an_fail(an, error_make(an->arena, "REQUIRES_SINGLE_PART_NAMESPACE", u, "sessionCatalog",
                                      "spark_catalog", "namespace", sql_id_parts(an->arena, (NameParts){n.n - 1, n.v}),
                                      NULL));
    }
    const TableDef *t = an->catalog ? catalog_find_table(an->catalog, ns, tbl) : NULL;
    if (!t) {
        return an_fail(an, error_make(an->arena, "TABLE_OR_VIEW_NOT_FOUND", u, "relationName",
                                      sql_id_parts(an->arena, n), NULL));
    }
    if (t->is_view) {
        const char **parts = ARENA_ARRAY(an->arena, const char *, 3);
        parts[0] = "spark_catalog";
        parts[1] = format_name(an, t->ns);
        parts[2] = format_name(an, t->name);
        NameParts full = {3, parts};
        const char **names = ARENA_ARRAY(an->arena, const char *, t->ncols + 1);
        const DataType **types = ARENA_ARRAY(an->arena, const DataType *, t->ncols + 1);
        for (int i = 0; i < t->ncols; i++) {
            names[i] = t->cols[i].name;
            types[i] = t->cols[i].type;
        }
        ViewSchema vs = {t->ncols, names, types, t->view_mode, t->nview_query_cols, t->view_query_cols};
        return expand_view(an, t->view_text, t->nview_cols, t->view_cols, full, full, false, t->ns, vs, u);
    }
    return relation_for_table(an, t, u);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (p->kind != NK_UnresolvedRelation || an_failed(an)) return p;
    Node *r = resolve_one(an, p);
    return r ? r : p;
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedRelation), rewrite, an);
}

const Rule RULE_RESOLVE_RELATIONS = {
    .name = "ResolveRelations",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveRelations",
    .kinds = {NK_UnresolvedRelation},
    .nkinds = 1,
    .apply = apply,
};
