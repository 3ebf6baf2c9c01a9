/* One plan node's line of Spark's treeString: its nodeName and argString
 * (`Aggregate [a#1], [a#1, count(1) AS count(1)#2L]`, `Join Inner, (a#1 = b#2)`),
 * `'`-prefixed while unresolved. Spark omits empty lists and None options
 * from argString, so an Aggregate without grouping prints one list.
 * Statements print as the analyzed command Spark would show. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "print_internal.h"
#include "printer.h"
#include "catalog/catalog.h"

static void list(StrBuf *sb, Node *const *v, uint32_t n) { expr_list_print(sb, v, n, PS_STRING); }

/* `, [a, b]` unless empty (Spark drops empty Seqs from argString) */
static void opt_list(StrBuf *sb, bool *first, Node *const *v, uint32_t n) {
    if (!n) return;
    if (!*first) pr_puts(sb, ", ");
    *first = false;
    list(sb, v, n);
}

/* Spark's truncatedString tail: `, ... 3 more fields` when n > shown. */
static void more_fields(StrBuf *sb, uint32_t n, uint32_t shown, const char *sep) {
    if (shown < n) sb_printf(sb, "%s... %u more fields", shown ? sep : "", n - shown);
}

static uint32_t shown_of(uint32_t n) { return n > PRINT_MAX_FIELDS ? PRINT_MAX_FIELDS : n; }

static void str_list(StrBuf *sb, const char *const *v, uint32_t n) {
    uint32_t shown = shown_of(n);
    pr_putc(sb, '[');
    for (uint32_t i = 0; i < shown; i++) {
        if (i) pr_puts(sb, ", ");
        pr_puts(sb, v[i] ? v[i] : "");
    }
    more_fields(sb, n, shown, ", ");
    pr_putc(sb, ']');
}

static void backquoted_name(StrBuf *sb, NameParts np) {
    for (uint32_t i = 0; i < np.n; i++) {
        if (i) pr_putc(sb, '.');
        sb_put_quoted_ident(sb, np.v[i]);
    }
}

/* A persistent object's TableIdentifier: `db`.`t` is in spark_catalog (a
 * one-part name is left as the analyzer gave it: only it knows the current
 * namespace). */
static void catalog_name(StrBuf *sb, NameParts np) {
    if (np.n == 2) pr_puts(sb, "`spark_catalog`.");
    backquoted_name(sb, np);
}

static const char *bool_str(bool b) { return b ? "true" : "false"; }

static const char *join_type_name(JoinType t) {
    switch (t) {
    case JOIN_INNER: return "Inner";
    case JOIN_LEFT_OUTER: return "LeftOuter";
    case JOIN_RIGHT_OUTER: return "RightOuter";
    case JOIN_FULL_OUTER: return "FullOuter";
    case JOIN_LEFT_SEMI: return "LeftSemi";
    case JOIN_LEFT_ANTI: return "LeftAnti";
    case JOIN_CROSS: return "Cross";
    }
    return "Inner";
}

static void join_type_print(StrBuf *sb, const Node *n) {
    const char *t = join_type_name(n->u.join.type);
    if (n->u.join.natural) {
        sb_printf(sb, "NaturalJoin(%s)", t);
    } else if (n->u.join.nusing) {
        sb_printf(sb, "UsingJoin(%s,List(", t);
        for (uint32_t i = 0; i < n->u.join.nusing; i++) {
            if (i) pr_puts(sb, ", ");
            pr_puts(sb, n->u.join.using_cols[i]);
        }
        pr_puts(sb, "))");
    } else {
        pr_puts(sb, t);
    }
}

/* The source text of an expression or clause, when the statement text is known. */
static bool source_text(StrBuf *sb, const Node *e, const char *sql, size_t len) {
    if (!sql || !e || e->start < 0 || e->stop < e->start || (size_t)e->stop >= len) return false;
    pr_putn(sb, sql + e->start, (size_t)(e->stop - e->start + 1));
    return true;
}

/* Without the statement text, the closest to what the user wrote: numbers as
 * written (`5.0`, not `5.0BD`), anything else in its sql form (`'abc'`). */
static void expr_text(StrBuf *sb, const Node *e, const char *sql, size_t len) {
    if (source_text(sb, e, sql, len)) return;
    if (e->kind == NK_Literal && e->u.lit.v.type && type_is_numeric(e->u.lit.v.type) && !e->u.lit.v.is_null)
        expr_print_style(sb, e, PS_PRETTY);
    else
        expr_print_style(sb, e, PS_SQL);
}

/* Output column names of a query, as far as they are visible without the analyzer. */
static void query_column_names(StrBuf *sb, const Node *q) {
    while (q && (q->kind == NK_SubqueryAlias || q->kind == NK_Sort || q->kind == NK_Distinct ||
                 q->kind == NK_GlobalLimit || q->kind == NK_LocalLimit || q->kind == NK_WithCTE) && q->nkids)
        q = q->kind == NK_WithCTE ? q->kids[q->nkids - 1] : q->kids[0];
    pr_putc(sb, '[');
    if (q && (q->kind == NK_Project || q->kind == NK_Aggregate || q->kind == NK_LocalRelation)) {
        uint32_t from = q->kind == NK_Aggregate ? q->u.aggregate.ngroup : 0;
        for (uint32_t i = from; i < q->nexprs; i++) {
            const Node *e = q->exprs[i];
            if (i > from) pr_puts(sb, ", ");
            if (e && (e->kind == NK_Alias || e->kind == NK_AttributeReference))
                pr_puts(sb, e->u.attr.name ? e->u.attr.name : "");
            else
                expr_print_style(sb, e, PS_PRETTY);
        }
    }
    pr_putc(sb, ']');
}

bool plan_kids_are_inner(const Node *n) {
    switch (n->kind) {
    case NK_CreateView: return true;
    case NK_CreateTable: return true;
    case NK_CacheTable:
    case NK_UncacheTable:
    case NK_AlterViewAs:
    case NK_DescribeQuery: return n->nkids > 0;
    default: return false;
    }
}

/* `USE SCHEMA s` (SetNamespaceCommand) rather than `USE s` (SetCatalogAndNamespace):
 * from the command text, or else the statement's source. */
static bool word_at(const char *p, const char *end, const char *w) {
    size_t n = strlen(w);
    return (size_t)(end - p) >= n && !strncasecmp(p, w, n);
}

static bool use_namespace_is_schema(const Node *n, const char *sql, size_t len) {
    const char *p, *end;
    if (n->u.ddl.text) {
        p = n->u.ddl.text;
        end = p + strlen(p);
    } else if (sql && n->start >= 0 && n->stop >= n->start && (size_t)n->stop < len) {
        p = sql + n->start;
        end = sql + n->stop + 1;
    } else {
        return false;
    }
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    if (word_at(p, end, "USE")) p += 3;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return word_at(p, end, "SCHEMA") || word_at(p, end, "DATABASE") || word_at(p, end, "NAMESPACE");
}

/* A catalog as a resolved name prints it: the session catalog's toString, or
 * a plugin's Object.toString with the identity hash masked as Spark's golden
 * files mask it. */
static void catalog_object(StrBuf *sb, const Node *n) {
    if (n->u.ddl.catalog_plugin) sb_printf(sb, "%s@xxxxxxxx, ", n->u.ddl.catalog_plugin);
    else pr_puts(sb, "V2SessionCatalog(spark_catalog), ");
}


const char *plan_synthetic_child(Arena *a, const Node *n, const char *sql, size_t len) {
    StrBuf sb;
    switch (n->kind) {
    case NK_CreateNamespace:
    case NK_DropNamespace:
        sb_init(&sb, a, 64);
        pr_puts(&sb, "ResolvedNamespace ");
        catalog_object(&sb, n);
        str_list(&sb, n->u.ddl.name.v, n->u.ddl.name.n);
        return sb_str(&sb);
    case NK_UseNamespace:
        if (n->u.ddl.namespace_only || use_namespace_is_schema(n, sql, len)) return NULL;
        sb_init(&sb, a, 64);
        pr_puts(&sb, "ResolvedNamespace ");
        catalog_object(&sb, n);
        str_list(&sb, n->u.ddl.name.v, n->u.ddl.name.n);
        return sb_str(&sb);
    case NK_ShowNamespaces:
    case NK_ShowTables:
        if (!n->u.ddl.catalog) return NULL;
        sb_init(&sb, a, 64);
        pr_puts(&sb, "ResolvedNamespace ");
        catalog_object(&sb, n);
        str_list(&sb, n->u.ddl.name.v, n->u.ddl.name.n);
        return sb_str(&sb);
    case NK_CreateTable:
        if (!n->u.ddl.catalog_plugin) return NULL;
        sb_init(&sb, a, 64);
        pr_puts(&sb, "ResolvedIdentifier ");
        catalog_object(&sb, n);
        name_parts_print(&sb, n->u.ddl.name, true);
        return sb_str(&sb);
    case NK_DropTable:
        if (n->u.ddl.is_view) return NULL;
        sb_init(&sb, a, 64);
        pr_puts(&sb, "ResolvedIdentifier ");
        catalog_object(&sb, n);
        if (n->u.ddl.catalog_plugin) {
            name_parts_print(&sb, n->u.ddl.name, true);
            return sb_str(&sb);
        }
        {
            /* the namespace and table, without the catalog */
            NameParts np = n->u.ddl.name;
            uint32_t from = np.n > 2 ? np.n - 2 : 0;
            if (np.n == 1) pr_puts(&sb, "default.");
            for (uint32_t i = from; i < np.n; i++) {
                if (i > from) pr_putc(&sb, '.');
                pr_puts(&sb, np.v[i]);
            }
        }
        return sb_str(&sb);
    case NK_DeclareVariable:
    case NK_DropVariable:
        sb_init(&sb, a, 64);
        pr_puts(&sb, "ResolvedIdentifier org.apache.spark.sql.catalyst.analysis.FakeSystemCatalog$@xxxxxxxx, session.");
        if (n->u.ddl.name.n) pr_puts(&sb, n->u.ddl.name.v[n->u.ddl.name.n - 1]);
        return sb_str(&sb);
    default: return statement_synthetic_child(a, n);
    }
}

/* FileFormat.toString of a data source provider. */
static const char *file_format_name(const char *provider) {
    static const char *const names[][2] = {{"parquet", "Parquet"}, {"csv", "CSV"}, {"json", "JSON"},
                                           {"orc", "ORC"}, {"text", "Text"}, {"avro", "Avro"}};
    if (!provider) return "Parquet";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcasecmp(provider, names[i][0])) return names[i][1];
    return provider;
}

/* The analyzed INSERT into a file-based table, with the warehouse location
 * written the way Spark's golden files mask it. */
static void insert_line(StrBuf *sb, const Node *n) {
    NameParts np = n->u.ddl.name;
    const char *t = np.n ? np.v[np.n - 1] : "";
    const char *db = np.n >= 2 ? np.v[np.n - 2] : "default";
    StrBuf loc;
    sb_init(&loc, sb->arena, 64);
    pr_puts(&loc, "file:[not included in comparison]/{warehouse_dir}/");
    if (strcasecmp(db, "default")) sb_printf(&loc, "%s.db/", db);
    pr_puts(&loc, t);
    sb_printf(sb, "InsertIntoHadoopFsRelationCommand %s, false, %s, [path=%s], Append, ", loc.data,
              file_format_name(n->u.ddl.provider), loc.data);
    sb_printf(sb, "`spark_catalog`.`%s`.`%s`, ", db, t);
    sb_printf(sb, "org.apache.spark.sql.execution.datasources.InMemoryFileIndex(%s), ", loc.data);
    str_list(sb, n->u.ddl.col_names, n->u.ddl.col_names ? n->u.ddl.ncols : 0);
}

static void statement_line(StrBuf *sb, const Node *n, const char *sql, size_t len) {
    switch (n->kind) {
    case NK_CreateView: {
        pr_puts(sb, "CreateViewCommand ");
        if (n->u.ddl.temporary)
            backquoted_name(sb, n->u.ddl.name);
        else
            catalog_name(sb, n->u.ddl.name);
        if (n->u.ddl.ncols && n->u.ddl.col_names) {
            pr_puts(sb, ", [");
            for (uint32_t i = 0; i < n->u.ddl.ncols; i++) {
                if (i) pr_puts(sb, ", ");
                const char *cm = n->u.ddl.col_comments ? n->u.ddl.col_comments[i] : NULL;
                if (cm)
                    sb_printf(sb, "(%s,Some(%s))", n->u.ddl.col_names[i], cm);
                else
                    sb_printf(sb, "(%s,None)", n->u.ddl.col_names[i]);
            }
            pr_putc(sb, ']');
        }
        if (n->u.ddl.value) sb_printf(sb, ", %s", n->u.ddl.value); /* COMMENT */
        if (ddl_spec(n)->nprops) {                                 /* TBLPROPERTIES */
            const StmtSpec *sp = ddl_spec(n);
            pr_puts(sb, ", [");
            for (uint32_t i = 0; i < sp->nprops; i++)
                sb_printf(sb, "%s%s=%s", i ? ", " : "", sp->prop_keys[i], sp->prop_values[i] ? sp->prop_values[i] : "null");
            pr_putc(sb, ']');
        }
        if (n->u.ddl.text) sb_printf(sb, ", %s", n->u.ddl.text);
        bool temp = n->u.ddl.temporary;
        /* the last field is isAnalyzed: false as parsed, true once the query is resolved */
        sb_printf(sb, ", %s, %s, %s, %s, %s", bool_str(n->u.ddl.if_not_exists), bool_str(n->u.ddl.or_replace),
                  !temp ? "PersistedView" : n->u.ddl.global ? "GlobalTempView" : "LocalTempView",
                  temp ? "UNSUPPORTED" : n->u.ddl.provider ? n->u.ddl.provider : "COMPENSATION",
                  bool_str(node_resolved(n)));
        return;
    }
    case NK_CreateTable:
        if (n->u.ddl.catalog_plugin) {
            /* a v2 catalog's CreateTable / CreateTableAsSelect: the columns, ignoreIfExists */
            pr_puts(sb, n->nkids ? "CreateTableAsSelect " : "CreateTable ");
            if (!n->nkids) {
                pr_putc(sb, '[');
                for (uint32_t i = 0; i < n->u.ddl.ncols; i++) {
                    if (i) pr_puts(sb, ", ");
                    pr_puts(sb, n->u.ddl.col_names[i]);
                }
                pr_puts(sb, "], ");
            }
            pr_puts(sb, bool_str(n->u.ddl.if_not_exists));
            return;
        }
        if (n->nkids) {
            pr_puts(sb, "CreateDataSourceTableAsSelectCommand ");
            catalog_name(sb, n->u.ddl.name);
            pr_puts(sb, n->u.ddl.if_not_exists ? ", Ignore, " : n->u.ddl.or_replace ? ", Overwrite, " : ", ErrorIfExists, ");
            query_column_names(sb, n->kids[0]);
        } else {
            pr_puts(sb, "CreateDataSourceTableCommand ");
            catalog_name(sb, n->u.ddl.name);
            sb_printf(sb, ", %s", bool_str(n->u.ddl.if_not_exists));
        }
        return;
    case NK_DropTable:
        if (n->u.ddl.is_view && n->u.ddl.temporary) {
            pr_puts(sb, "DropTempViewCommand ");
            name_parts_print(sb, n->u.ddl.name, false);
        } else if (n->u.ddl.is_view) {
            pr_puts(sb, "DropTableCommand ");
            catalog_name(sb, n->u.ddl.name);
            sb_printf(sb, ", %s, true, false", bool_str(n->u.ddl.if_exists));
        } else {
            sb_printf(sb, "DropTable %s, false", bool_str(n->u.ddl.if_exists));
        }
        return;
    case NK_CreateNamespace: sb_printf(sb, "CreateNamespace %s", bool_str(n->u.ddl.if_not_exists)); return;
    case NK_DropNamespace:
        sb_printf(sb, "DropNamespace %s, %s", bool_str(n->u.ddl.if_exists), bool_str(n->u.ddl.cascade));
        return;
    case NK_UseNamespace:
        if (use_namespace_is_schema(n, sql, len)) {
            pr_puts(sb, "SetNamespaceCommand ");
            str_list(sb, n->u.ddl.name.v, n->u.ddl.name.n);
        } else {
            pr_puts(sb, "SetCatalogAndNamespace");
        }
        return;
    case NK_DeclareVariable: {
        pr_puts(sb, "CreateVariable defaultvalueexpression(");
        const Node *d = n->nexprs ? n->exprs[0] : NULL;
        if (d) {
            expr_print(sb, d);
            pr_puts(sb, ", ");
            /* Spark echoes the DEFAULT text as written; the analyzer may have
               wrapped it in a cast, whose position is the original's */
            const Node *orig = d;
            while (orig->kind == NK_Cast && (orig->flags & NF_IMPLICIT) && orig->nkids) orig = orig->kids[0];
            expr_text(sb, orig, sql, len);
        } else {
            pr_puts(sb, "null, null");
        }
        sb_printf(sb, "), %s", bool_str(n->u.ddl.or_replace));
        return;
    }
    case NK_SetVariable:
        pr_puts(sb, "SetVariable ");
        list(sb, n->exprs, n->nexprs);
        return;
    case NK_DropVariable: sb_printf(sb, "DropVariable %s", bool_str(n->u.ddl.if_exists)); return;
    case NK_SetConfig:
        if (!n->u.ddl.text) {
            pr_puts(sb, "SetCommand None");
        } else if (n->u.ddl.value) {
            sb_printf(sb, "SetCommand (%s,Some(%s))", n->u.ddl.text, n->u.ddl.value);
        } else {
            sb_printf(sb, "SetCommand (%s,None)", n->u.ddl.text);
        }
        return;
    case NK_ResetConfig:
        pr_puts(sb, "ResetCommand");
        if (n->u.ddl.text) sb_printf(sb, " %s", n->u.ddl.text);
        return;
    case NK_ExecuteImmediate: {
        pr_puts(sb, "'ExecuteImmediateQuery ");
        uint32_t nu = n->u.ddl.nusing;
        if (1 + nu > n->nexprs) nu = n->nexprs ? n->nexprs - 1 : 0;
        bool first = true;
        opt_list(sb, &first, node_exprs_from(n, 1), nu);
        if (n->nexprs) {
            if (!first) pr_puts(sb, ", ");
            first = false;
            expr_print(sb, n->exprs[0]);
        }
        opt_list(sb, &first, node_exprs_from(n, 1 + nu), n->nexprs > 1 + nu ? n->nexprs - 1 - nu : 0);
        return;
    }
    case NK_InsertInto:
        if (node_resolved(n)) {
            insert_line(sb, n);
        } else {
            pr_puts(sb, "'InsertIntoStatement ");
            backquoted_name(sb, n->u.ddl.name);
        }
        return;
    case NK_ShowNamespaces:
    case NK_ShowTables:
    case NK_ShowCatalogs: {
        /* ShowNamespaces / ShowTables [pattern, ]output; ShowCatalogsCommand [pattern] */
        bool catalogs = n->kind == NK_ShowCatalogs;
        pr_puts(sb, catalogs ? "ShowCatalogsCommand" : n->kind == NK_ShowTables ? "ShowTables" : "ShowNamespaces");
        if (n->u.ddl.value) sb_printf(sb, " %s", n->u.ddl.value);
        if (!catalogs && n->nexprs) {
            pr_puts(sb, n->u.ddl.value ? ", " : " ");
            list(sb, n->exprs, n->nexprs);
        }
        return;
    }
    default:
        if (statement_print(sb, n, sql, len)) return;
        /* the statements whose Spark text is not printed yet: their keywords and target */
        pr_puts(sb, n->u.ddl.text ? n->u.ddl.text : node_kind_name(n->kind));
        if (n->u.ddl.name.n) {
            pr_putc(sb, ' ');
            backquoted_name(sb, n->u.ddl.name);
        }
        return;
    }
}

static void generate_line(StrBuf *sb, const Node *n, bool unresolved) {
    pr_puts(sb, "Generate ");
    if (n->nexprs) expr_print(sb, n->exprs[0]);
    sb_printf(sb, ", %s", bool_str(n->u.generate.outer));
    if (n->u.generate.qualifier.n) {
        pr_puts(sb, ", ");
        name_parts_print(sb, n->u.generate.qualifier, false);
    }
    if (n->nexprs > 1) {
        pr_puts(sb, ", ");
        list(sb, node_exprs_from(n, 1), n->nexprs - 1);
    } else if (n->u.generate.ncols) {
        pr_puts(sb, ", [");
        for (uint32_t i = 0; i < n->u.generate.ncols; i++) {
            if (i) pr_puts(sb, ", ");
            if (unresolved) pr_putc(sb, '\'');
            pr_puts(sb, n->u.generate.cols[i]);
        }
        pr_putc(sb, ']');
    }
}

static void expand_line(StrBuf *sb, const Node *n) {
    uint32_t no = n->u.expand.noutput, np = n->u.expand.nprojections;
    if (no > n->nexprs) no = n->nexprs;
    Node *const *proj = node_exprs_from(n, no);
    uint32_t rest = n->nexprs - no;
    pr_puts(sb, "Expand [");
    bool lists = rest == np;
    for (uint32_t i = 0; i < rest && lists; i++)
        if (!proj[i] || proj[i]->kind != NK_ExprList) lists = false;
    if (lists) {
        for (uint32_t i = 0; i < shown_of(np); i++) {
            if (i) pr_puts(sb, ", ");
            list(sb, proj[i]->kids, proj[i]->nkids);
        }
        more_fields(sb, np, shown_of(np), ", ");
    } else if (no) {
        uint32_t count = (rest + no - 1) / no;
        for (uint32_t i = 0; i < shown_of(count); i++) {
            if (i) pr_puts(sb, ", ");
            uint32_t k = rest - i * no < no ? rest - i * no : no;
            list(sb, proj + i * no, k);
        }
        more_fields(sb, count, shown_of(count), ", ");
    }
    pr_puts(sb, "], ");
    list(sb, n->exprs, no);
}

void plan_node_line_sql(StrBuf *sb, const Node *n, const char *sql, size_t len) {
    if (node_kind_is_command(n->kind)) {
        /* a command's query printed as an inner child does not count (Spark's
           resolved looks at children only) */
        if (!node_resolved(n) && !plan_kids_are_inner(n) && n->kind != NK_ExecuteImmediate &&
            n->kind != NK_InsertInto && n->kind != NK_Explain)
            pr_putc(sb, '\'');
        statement_line(sb, n, sql, len);
        return;
    }
    bool unresolved = !node_resolved(n);
    if (unresolved) pr_putc(sb, '\'');
    bool first = true;
    switch (n->kind) {
    case NK_UnresolvedRelation:
        pr_puts(sb, "UnresolvedRelation ");
        str_list(sb, n->u.un.name.v, n->u.un.name.n);
        sb_printf(sb, ", [], %s", bool_str(n->u.un.is_streaming));
        return;
    case NK_UnresolvedTableValuedFunction:
        pr_puts(sb, "UnresolvedTableValuedFunction ");
        str_list(sb, n->u.un.name.v, n->u.un.name.n);
        if (n->nexprs) {
            pr_puts(sb, ", ");
            list(sb, n->exprs, n->nexprs);
        }
        return;
    case NK_UnresolvedInlineTable: {
        pr_puts(sb, "UnresolvedInlineTable [");
        uint32_t nc = n->u.cols.ncols;
        if (nc) {
            for (uint32_t i = 0; i < nc; i++) sb_printf(sb, "%s%s", i ? ", " : "", n->u.cols.cols[i]);
        } else {
            uint32_t w = n->nexprs && n->exprs[0] && n->exprs[0]->kind == NK_ExprList ? n->exprs[0]->nkids : 1;
            for (uint32_t i = 0; i < w; i++) sb_printf(sb, "%scol%u", i ? ", " : "", i + 1);
        }
        pr_puts(sb, "], [");
        for (uint32_t i = 0; i < shown_of(n->nexprs); i++) {
            if (i) pr_puts(sb, ", ");
            const Node *row = n->exprs[i];
            if (row && row->kind == NK_ExprList)
                list(sb, row->kids, row->nkids);
            else
                list(sb, &n->exprs[i], 1);
        }
        more_fields(sb, n->nexprs, shown_of(n->nexprs), ", ");
        pr_putc(sb, ']');
        return;
    }
    case NK_UnresolvedSubqueryColumnAliases:
        pr_puts(sb, "UnresolvedSubqueryColumnAliases ");
        str_list(sb, n->u.cols.cols, n->u.cols.ncols);
        return;
    case NK_UnresolvedHaving:
        pr_puts(sb, "UnresolvedHaving ");
        if (n->nexprs) expr_print(sb, n->exprs[0]);
        return;
    case NK_UnresolvedWith:
        pr_puts(sb, "CTE [");
        for (uint32_t i = 1; i < n->nkids; i++) {
            if (i > 1) pr_puts(sb, ", ");
            const Node *k = n->kids[i];
            if (k && k->kind == NK_SubqueryAlias && k->u.alias.name.n)
                pr_puts(sb, k->u.alias.name.v[k->u.alias.name.n - 1]);
        }
        pr_putc(sb, ']');
        return;
    case NK_UnresolvedIdentifierPlan:
        pr_puts(sb, "PlanWithUnresolvedIdentifier ");
        if (n->nexprs) expr_print(sb, n->exprs[0]);
        return;
    case NK_UnresolvedGenerate: generate_line(sb, n, true); return;
    case NK_Unpivot:
        /* Unpivot(ids, values, aliases, variableColumnName, valueColumnNames, child) */
        pr_puts(sb, "'Unpivot None, [");
        for (uint32_t i = 0; i < n->nexprs; i++) {
            if (i) pr_puts(sb, ", ");
            list(sb, n->exprs[i]->kids, n->exprs[i]->nkids);
        }
        sb_printf(sb, "], %s", n->u.unpivot.var_name ? n->u.unpivot.var_name : "");
        return;
    case NK_Pivot:
        /* Pivot(groupByExprsOpt, pivotColumn, pivotValues, aggregates, child) */
        pr_puts(sb, "'Pivot None, ");
        if (n->nexprs) expr_print(sb, n->exprs[0]);
        pr_puts(sb, ", ");
        list(sb, node_exprs_from(n, 1 + n->u.pivot.nagg), n->u.pivot.nvalues);
        pr_puts(sb, ", ");
        list(sb, node_exprs_from(n, 1), n->u.pivot.nagg);
        return;
    case NK_WithWindowDefinition:
        pr_puts(sb, "WithWindowDefinition [");
        for (uint32_t i = 0; i < n->nexprs; i++) {
            if (i) pr_puts(sb, ", ");
            const Node *w = n->exprs[i];
            sb_printf(sb, "%s=", w && w->kind == NK_WindowSpecDefinition && w->u.wspec.ref_name ? w->u.wspec.ref_name : "");
            expr_print(sb, w);
        }
        pr_putc(sb, ']');
        return;
    case NK_OneRowRelation: pr_puts(sb, "OneRowRelation"); return;
    case NK_LocalRelation:
        pr_puts(sb, n->u.local.nrows ? "LocalRelation " : "LocalRelation <empty>, ");
        list(sb, n->exprs, n->nexprs);
        return;
    case NK_Relation: {
        const TableDef *t = n->u.relation.table;
        if (t && t->v2) {
            /* DataSourceV2Relation: output, catalog.identifier, the table's name (the in-memory
               catalogs name a table catalog.identifier too) */
            pr_puts(sb, "RelationV2");
            list(sb, n->exprs, n->nexprs);
            pr_putc(sb, ' ');
            name_parts_print(sb, n->u.relation.name, true);
            pr_putc(sb, ' ');
            if (t->table_name) pr_puts(sb, t->table_name);
            else name_parts_print(sb, n->u.relation.name, true);
            return;
        }
        pr_puts(sb, "Relation ");
        name_parts_print(sb, n->u.relation.name, false);
        pr_putc(sb, '[');
        for (uint32_t i = 0; i < shown_of(n->nexprs); i++) {
            if (i) pr_putc(sb, ',');
            expr_print(sb, n->exprs[i]);
        }
        more_fields(sb, n->nexprs, shown_of(n->nexprs), ",");
        pr_putc(sb, ']');
        pr_putc(sb, ' ');
        /* HadoopFsRelation prints its format's short name, lower case */
        for (const char *c = t && t->provider ? t->provider : "parquet"; *c; c++)
            pr_putc(sb, (char)tolower((unsigned char)*c));
        return;
    }
    case NK_Range:
        sb_printf(sb, "Range (%lld, %lld, step=%lld", (long long)n->u.range.start, (long long)n->u.range.end,
                  (long long)n->u.range.step);
        if (n->u.range.num_slices > 0) sb_printf(sb, ", splits=Some(%d)", n->u.range.num_slices); /* Option[Int] */
        pr_putc(sb, ')');
        return;
    case NK_View:
        pr_puts(sb, "View (");
        backquoted_name(sb, n->u.view.name);
        pr_puts(sb, ", ");
        list(sb, n->exprs, n->nexprs);
        pr_putc(sb, ')');
        return;
    case NK_SubqueryAlias:
        pr_puts(sb, "SubqueryAlias ");
        name_parts_print(sb, n->u.alias.name, true);
        return;
    case NK_Project: {
        pr_puts(sb, "Project");
        /* the hidden columns a USING join keeps for qualified access are not
           in Spark's project list (its hiddenOutput tag) */
        uint32_t shown = 0;
        Node **items = n->nexprs ? ARENA_ARRAY(sb->arena, Node *, n->nexprs) : NULL;
        for (uint32_t i = 0; i < n->nexprs; i++)
            if (!(n->exprs[i]->kind == NK_AttributeReference && n->exprs[i]->u.attr.metadata_col)) items[shown++] = n->exprs[i];
        if (n->nexprs) {
            pr_putc(sb, ' ');
            list(sb, items, shown);
        }
        return;
    }
    case NK_Filter:
        pr_puts(sb, "Filter ");
        if (n->nexprs) expr_print(sb, n->exprs[0]);
        /* a condition that is a bare attribute prints as its simpleString (name#id: type) */
        if (n->nexprs && n->exprs[0]->kind == NK_AttributeReference && n->exprs[0]->type) {
            pr_puts(sb, ": ");
            type_print_catalog(sb, n->exprs[0]->type);
        }
        return;
    case NK_Aggregate: {
        uint32_t ng = n->u.aggregate.ngroup;
        if (ng > n->nexprs) ng = n->nexprs;
        pr_puts(sb, "Aggregate ");
        opt_list(sb, &first, n->exprs, ng);
        opt_list(sb, &first, node_exprs_from(n, ng), n->nexprs - ng);
        return;
    }
    case NK_Window: {
        uint32_t nw = n->u.window.nwindow, np = n->u.window.npartition, no = n->u.window.norder;
        if (nw + np + no > n->nexprs) {
            nw = n->nexprs;
            np = no = 0;
        }
        pr_puts(sb, "Window ");
        opt_list(sb, &first, n->exprs, nw);
        opt_list(sb, &first, node_exprs_from(n, nw), np);
        opt_list(sb, &first, node_exprs_from(n, nw + np), no);
        return;
    }
    case NK_Sort:
        pr_puts(sb, "Sort ");
        list(sb, n->exprs, n->nexprs);
        pr_puts(sb, ", ");
        pr_puts(sb, bool_str(n->u.sort.global));
        return;
    case NK_GlobalLimit:
    case NK_LocalLimit:
    case NK_Offset:
    case NK_Tail:
        pr_puts(sb, node_kind_name(n->kind));
        if (n->nexprs) {
            pr_putc(sb, ' ');
            expr_print(sb, n->exprs[0]);
        }
        return;
    case NK_Join:
        pr_puts(sb, "Join ");
        join_type_print(sb, n);
        if (n->nexprs) {
            pr_puts(sb, ", ");
            expr_print(sb, n->exprs[0]);
        }
        if (n->u.join.hint) sb_printf(sb, ", %s", n->u.join.hint);
        return;
    case NK_LateralJoin:
        pr_puts(sb, "LateralJoin ");
        if (n->nexprs) {
            expr_print(sb, n->exprs[0]);
            pr_puts(sb, ", ");
        }
        join_type_print(sb, n);
        if (n->nexprs > 1) {
            pr_puts(sb, ", ");
            expr_print(sb, n->exprs[1]);
        }
        return;
    case NK_Union:
        pr_puts(sb, "Union ");
        pr_puts(sb, bool_str(n->u.setop.by_name));
        pr_puts(sb, ", ");
        pr_puts(sb, bool_str(n->u.setop.allow_missing));
        return;
    case NK_Intersect:
    case NK_Except:
        pr_puts(sb, node_kind_name(n->kind));
        pr_puts(sb, n->u.setop.is_all ? " All " : " ");
        pr_puts(sb, bool_str(n->u.setop.is_all));
        return;
    case NK_Distinct: pr_puts(sb, "Distinct"); return;
    case NK_Deduplicate:
        pr_puts(sb, "Deduplicate ");
        list(sb, n->exprs, n->nexprs);
        return;
    case NK_RepartitionByExpression:
        pr_puts(sb, "RepartitionByExpression ");
        list(sb, n->exprs, n->nexprs);
        if (n->u.repart.num_partitions > 0) sb_printf(sb, ", %d", n->u.repart.num_partitions);
        return;
    case NK_Repartition:
        sb_printf(sb, "Repartition %d, %s", n->u.repart.num_partitions, bool_str(n->u.repart.shuffle));
        return;
    case NK_ScriptTransformation: {
        sb_printf(sb, "ScriptTransformation %s, ", n->u.script.script ? n->u.script.script : "");
        list(sb, n->exprs, n->nexprs);
        pr_puts(sb, ", ScriptInputOutputSchema(List(");
        for (uint32_t i = 0; i < n->u.script.nin; i++)
            sb_printf(sb, "%s(%s,%s)", i ? ", " : "", n->u.script.in_fmt[2 * i], n->u.script.in_fmt[2 * i + 1]);
        pr_puts(sb, "),List(");
        for (uint32_t i = 0; i < n->u.script.nout; i++)
            sb_printf(sb, "%s(%s,%s)", i ? ", " : "", n->u.script.out_fmt[2 * i], n->u.script.out_fmt[2 * i + 1]);
        pr_puts(sb, "),None,None,List(),List(),");
        if (n->u.script.reader) sb_printf(sb, "Some(%s),", n->u.script.reader);
        else pr_puts(sb, "None,");
        if (n->u.script.writer) sb_printf(sb, "Some(%s),", n->u.script.writer);
        else pr_puts(sb, "None,");
        pr_puts(sb, n->u.script.schema_less ? "true)" : "false)");
        return;
    }
    case NK_Sample:
        pr_puts(sb, "Sample ");
        java_double_print(sb, n->u.sample.lower);
        pr_puts(sb, ", ");
        java_double_print(sb, n->u.sample.upper);
        sb_printf(sb, ", %s, %lld", bool_str(n->u.sample.with_replacement), (long long)n->u.sample.seed);
        return;
    case NK_UnresolvedHint:
        sb_printf(sb, "UnresolvedHint %s, ", n->u.hint.name ? n->u.hint.name : "");
        list(sb, n->exprs, n->nexprs);
        return;
    case NK_ResolvedHint: sb_printf(sb, "ResolvedHint (strategy=%s)", n->u.hint.name ? n->u.hint.name : ""); return;
    case NK_LogicalRDD:
        pr_puts(sb, "LogicalRDD ");
        list(sb, n->exprs, n->nexprs);
        pr_puts(sb, ", false");
        return;
    case NK_DataFrameOp: sb_printf(sb, "DataFrameOp %d", n->u.dfop.op); return;
    case NK_Generate: generate_line(sb, n, false); return;
    case NK_Expand: expand_line(sb, n); return;
    case NK_WithCTE: pr_puts(sb, "WithCTE"); return;
    case NK_CTERelationDef:
        pr_puts(sb, "CTERelationDef ");
        print_int64(sb, (long long)n->u.cte.id);
        pr_puts(sb, ", false");
        return;
    case NK_CTERelationRef:
        pr_puts(sb, "CTERelationRef ");
        print_int64(sb, (long long)n->u.cte.id);
        pr_puts(sb, ", ");
        pr_puts(sb, bool_str(!unresolved));
        pr_puts(sb, ", ");
        list(sb, n->exprs, n->nexprs);
        pr_puts(sb, ", false, false");
        return;
    default:
        /* an expression kind where a plan was expected */
        pr_puts(sb, node_kind_name(n->kind));
        return;
    }
}

void plan_node_print(StrBuf *sb, const Node *plan) { plan_node_line_sql(sb, plan, NULL, 0); }
