/* The analysed statements as Spark's treeString prints its commands: the
 * v1 commands ResolveSessionCatalog makes for the session catalog
 * (DescribeTableCommand, AlterTableAddColumnsCommand, ShowColumnsCommand,
 * ...) and the v2 ones it keeps (ShowTableProperties, CommentOnTable,
 * SetNamespaceProperties, ... with their ResolvedTable / ResolvedNamespace
 * child). A command's arguments print as Catalyst's argString does: a
 * TableIdentifier backquoted, Some(x) as x, None and empty maps left out, a
 * Map argument as [k=v, ...], inside an Option as Map(k -> v, ...).
 *
 *   DESC t                   DescribeTableCommand `spark_catalog`.`default`.`t`, false, [col_name#1, data_type#2, comment#3]
 *   ALTER TABLE t ADD COLUMN c INT
 *                            AlterTableAddColumnsCommand `spark_catalog`.`default`.`t`, [StructField(c,IntegerType,true)]
 */
#include <string.h>

#include "print_internal.h"

static const char *bool_str(bool b) { return b ? "true" : "false"; }

static void output(StrBuf *sb, const Node *n) { expr_list_print(sb, n->exprs, n->nexprs, PS_STRING); }

/* [k=v, ...] (a Map argument) */
static void map_brackets(StrBuf *sb, uint32_t n, const char *const *k, const char *const *v) {
    pr_putc(sb, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i) pr_puts(sb, ", ");
        pr_puts(sb, k[i]);
        pr_putc(sb, '=');
        pr_puts(sb, v && v[i] ? v[i] : "null");
    }
    pr_putc(sb, ']');
}

/* Map(k -> v, ...) (a Map inside an Option or a Seq) */
static void map_scala(StrBuf *sb, uint32_t n, const char *const *k, const char *const *v) {
    pr_puts(sb, "Map(");
    for (uint32_t i = 0; i < n; i++) {
        if (i) pr_puts(sb, ", ");
        sb_printf(sb, "%s -> %s", k[i], v && v[i] ? v[i] : "null");
    }
    pr_putc(sb, ')');
}

static void keys_list(StrBuf *sb, uint32_t n, const char *const *k) {
    pr_putc(sb, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i) pr_puts(sb, ", ");
        pr_puts(sb, k[i]);
    }
    pr_putc(sb, ']');
}

static void ident(StrBuf *sb, NameParts np) {
    for (uint32_t i = 0; i < np.n; i++) {
        if (i) pr_putc(sb, '.');
        sb_put_quoted_ident(sb, np.v[i]);
    }
}

static void struct_field(StrBuf *sb, const char *name, const DataType *t) {
    sb_printf(sb, "StructField(%s,", name);
    if (t) type_print_scala(sb, t);
    pr_puts(sb, ",true)");
}

/* The statement as the parser left it (an EXPLAIN's child): Spark's
 * unresolved DescribeRelation / DescribeColumn / DescribeRelationJson. */
static bool parsed_line(StrBuf *sb, const Node *n) {
    const StmtSpec *sp = ddl_spec(n);
    if (n->kind != NK_DescribeRelation) return false;
    if (sp->name2.n) {
        pr_puts(sb, "'DescribeColumn '");
        name_parts_print(sb, sp->name2, true);
        sb_printf(sb, ", %s, [info_name#0, info_value#0]", bool_str(n->u.ddl.extended));
        return true;
    }
    pr_puts(sb, n->u.ddl.as_json ? "'DescribeRelationJson " : "'DescribeRelation ");
    if (sp->npart) {
        map_brackets(sb, sp->npart, sp->part_keys, sp->part_values);
        pr_puts(sb, ", ");
    }
    pr_puts(sb, bool_str(n->u.ddl.extended));
    if (!n->u.ddl.as_json) pr_puts(sb, ", [col_name#0, data_type#0, comment#0]");
    return true;
}

/* An EXPLAIN's statement as Spark's parser builds it: CreateView,
 * InsertIntoStatement (whose target is an UnresolvedRelation). */
static bool parsed_statement(StrBuf *sb, const Node *n) {
    switch (n->kind) {
    case NK_CreateView:
        if (n->u.ddl.temporary) return false;
        sb_printf(sb, "'CreateView %s, %s, %s, %s", n->u.ddl.text ? n->u.ddl.text : "", bool_str(n->u.ddl.if_not_exists),
                  bool_str(n->u.ddl.or_replace), n->u.ddl.provider ? n->u.ddl.provider : "COMPENSATION");
        return true;
    case NK_InsertInto:
        pr_puts(sb, "'InsertIntoStatement 'UnresolvedRelation [");
        for (uint32_t i = 0; i < n->u.ddl.name.n; i++) sb_printf(sb, "%s%s", i ? ", " : "", n->u.ddl.name.v[i]);
        sb_printf(sb, "], [__required_write_privileges__=%s], false, %s, false, false",
                  n->u.ddl.or_replace ? "INSERT,DELETE" : "INSERT", bool_str(n->u.ddl.or_replace));
        return true;
    default: return false;
    }
}

static const char *explain_mode(const char *w) {
    if (!w) return "SimpleMode";
    if (!strcmp(w, "EXTENDED")) return "ExtendedMode";
    if (!strcmp(w, "FORMATTED")) return "FormattedMode";
    if (!strcmp(w, "CODEGEN")) return "CodegenMode";
    if (!strcmp(w, "COST")) return "CostMode";
    return "SimpleMode";
}

bool statement_print(StrBuf *sb, const Node *n, const char *sql, size_t len) {
    const StmtSpec *sp = ddl_spec(n);
    bool temp = sp->rel_temp;
    switch (n->kind) {
    case NK_Explain:
        pr_puts(sb, "ExplainCommand ");
        if (n->nkids && !parsed_line(sb, n->kids[0]) && !parsed_statement(sb, n->kids[0])) {
            size_t at = sb->len;
            plan_node_line_sql(sb, n->kids[0], sql, len);
            /* an unresolved WITH prints as CTE [names], unquoted */
            if (n->kids[0]->kind == NK_UnresolvedWith && sb->len > at && sb->data[at] == '\'') {
                memmove(sb->data + at, sb->data + at + 1, sb->len - at - 1);
                sb_truncate(sb, sb->len - 1);
            }
        }
        sb_printf(sb, ", %s", explain_mode(n->u.ddl.value));
        return true;
    case NK_DescribeRelation:
        if (!n->nexprs) return parsed_line(sb, n);
        if (sp->name2.n) {
            pr_puts(sb, "DescribeColumnCommand ");
            ident(sb, n->u.ddl.name);
            pr_puts(sb, ", [");
            if (!temp && !sp->rel_view) { /* a table's column: its qualified name */
                for (uint32_t i = 0; i < n->u.ddl.name.n; i++) sb_printf(sb, "%s, ", n->u.ddl.name.v[i]);
            }
            for (uint32_t i = 0; i < sp->name2.n; i++) sb_printf(sb, "%s%s", i ? ", " : "", sp->name2.v[i]);
            sb_printf(sb, "], %s, ", bool_str(n->u.ddl.extended));
            output(sb, n);
            return true;
        }
        pr_puts(sb, n->u.ddl.as_json ? "DescribeTableJsonCommand " : "DescribeTableCommand ");
        ident(sb, n->u.ddl.name);
        if (sp->npart) {
            pr_puts(sb, ", ");
            map_brackets(sb, sp->npart, sp->part_keys, sp->part_values);
        }
        sb_printf(sb, ", %s", bool_str(n->u.ddl.extended));
        if (!n->u.ddl.as_json) {
            pr_puts(sb, ", ");
            output(sb, n);
        }
        return true;
    case NK_DescribeNamespace:
        sb_printf(sb, "DescribeNamespace %s, ", bool_str(n->u.ddl.extended));
        output(sb, n);
        return true;
    case NK_DescribeFunction:
        sb_printf(sb, "DescribeFunctionCommand org.apache.spark.sql.catalyst.expressions.ExpressionInfo@xxxxxxxx, %s",
                  bool_str(n->u.ddl.extended));
        return true;
    case NK_DescribeQuery:
        pr_puts(sb, "DescribeQueryCommand ");
        if (n->u.ddl.value) pr_puts(sb, n->u.ddl.value);
        return true;
    case NK_ShowViews:
        pr_puts(sb, "ShowViewsCommand ");
        for (uint32_t i = 0; i < n->u.ddl.name.n; i++) sb_printf(sb, "%s%s", i ? "." : "", n->u.ddl.name.v[i]);
        if (n->u.ddl.value) sb_printf(sb, ", %s", n->u.ddl.value);
        pr_puts(sb, ", ");
        output(sb, n);
        return true;
    case NK_ShowTableExtended:
        pr_puts(sb, "ShowTablesCommand ");
        for (uint32_t i = 0; i < n->u.ddl.name.n; i++) sb_printf(sb, "%s%s", i ? "." : "", n->u.ddl.name.v[i]);
        if (n->u.ddl.value) sb_printf(sb, ", %s", n->u.ddl.value);
        pr_puts(sb, ", ");
        output(sb, n);
        pr_puts(sb, ", true");
        if (sp->npart) {
            pr_puts(sb, ", ");
            map_scala(sb, sp->npart, sp->part_keys, sp->part_values);
        }
        return true;
    case NK_ShowColumns:
        pr_puts(sb, "ShowColumnsCommand ");
        if (sp->name2.n) { /* FROM ns, as written */
            for (uint32_t i = 0; i < sp->name2.n; i++) sb_printf(sb, "%s%s", i ? "." : "", sp->name2.v[i]);
            pr_puts(sb, ", ");
        }
        ident(sb, n->u.ddl.name);
        pr_puts(sb, ", ");
        output(sb, n);
        return true;
    case NK_ShowCreateTable:
        if (sp->nrel_cols || (!temp && !sp->rel_view)) {
            sb_printf(sb, "ShowCreateTable %s, ", bool_str(n->u.ddl.is_table));
        } else {
            pr_puts(sb, n->u.ddl.is_table ? "ShowCreateTableAsSerdeCommand " : "ShowCreateTableCommand ");
            ident(sb, n->u.ddl.name);
            pr_puts(sb, ", ");
        }
        output(sb, n);
        return true;
    case NK_ShowTblProperties:
        if (sp->rel_view || temp) {
            pr_puts(sb, "ShowTablePropertiesCommand ");
            ident(sb, n->u.ddl.name);
            pr_puts(sb, ", ");
        } else {
            pr_puts(sb, "ShowTableProperties ");
        }
        if (n->u.ddl.value) sb_printf(sb, "%s, ", n->u.ddl.value);
        output(sb, n);
        return true;
    case NK_ShowPartitions:
        pr_puts(sb, "ShowPartitionsCommand ");
        ident(sb, n->u.ddl.name);
        pr_puts(sb, ", ");
        output(sb, n);
        if (sp->npart) {
            pr_puts(sb, ", ");
            map_scala(sb, sp->npart, sp->part_keys, sp->part_values);
        }
        return true;
    case NK_ShowFunctions:
        pr_puts(sb, "ShowFunctions");
        return true;
    case NK_ShowCurrentNamespace: pr_puts(sb, "ShowCurrentNamespaceCommand"); return true;
    case NK_AlterTable:
    case NK_AlterView:
        switch ((StmtAction)n->u.ddl.action) {
        case SA_ADD_COLUMNS:
            pr_puts(sb, "AlterTableAddColumnsCommand ");
            ident(sb, n->u.ddl.name);
            pr_puts(sb, ", [");
            for (uint32_t i = 0; i < n->u.ddl.ncols; i++) {
                if (i) pr_puts(sb, ", ");
                struct_field(sb, n->u.ddl.col_names[i], n->u.ddl.col_types ? n->u.ddl.col_types[i] : NULL);
            }
            pr_putc(sb, ']');
            return true;
        case SA_ALTER_COLUMN:
            pr_puts(sb, "AlterTableChangeColumnCommand ");
            ident(sb, n->u.ddl.name);
            sb_printf(sb, ", %s, ", n->u.ddl.col_names[0]);
            struct_field(sb, n->u.ddl.col_names[0], n->u.ddl.col_types ? n->u.ddl.col_types[0] : NULL);
            return true;
        case SA_SET_PROPERTIES:
            pr_puts(sb, "AlterTableSetPropertiesCommand ");
            ident(sb, n->u.ddl.name);
            pr_puts(sb, ", ");
            map_brackets(sb, sp->nprops, sp->prop_keys, sp->prop_values);
            sb_printf(sb, ", %s", bool_str(n->kind == NK_AlterView));
            return true;
        case SA_UNSET_PROPERTIES:
            pr_puts(sb, "AlterTableUnsetPropertiesCommand ");
            ident(sb, n->u.ddl.name);
            pr_puts(sb, ", ");
            keys_list(sb, sp->nprops, sp->prop_keys);
            sb_printf(sb, ", %s, %s", bool_str(n->u.ddl.if_exists), bool_str(n->kind == NK_AlterView));
            return true;
        case SA_SET_SERDE:
            pr_puts(sb, "AlterTableSerDePropertiesCommand ");
            ident(sb, n->u.ddl.name);
            if (n->u.ddl.value) sb_printf(sb, ", %s", n->u.ddl.value);
            if (sp->nprops) {
                pr_puts(sb, ", ");
                map_scala(sb, sp->nprops, sp->prop_keys, sp->prop_values);
            }
            if (sp->npart) {
                pr_puts(sb, ", ");
                map_scala(sb, sp->npart, sp->part_keys, sp->part_values);
            }
            return true;
        case SA_SET_LOCATION:
            pr_puts(sb, "AlterTableSetLocationCommand ");
            ident(sb, n->u.ddl.name);
            if (sp->npart) {
                pr_puts(sb, ", ");
                map_scala(sb, sp->npart, sp->part_keys, sp->part_values);
            }
            if (n->u.ddl.value) sb_printf(sb, ", %s", n->u.ddl.value);
            return true;
        case SA_ADD_PARTITION:
            pr_puts(sb, "AlterTableAddPartitionCommand ");
            ident(sb, n->u.ddl.name);
            pr_puts(sb, ", [(");
            map_scala(sb, sp->npart, sp->part_keys, sp->part_values);
            sb_printf(sb, ",None)], %s", bool_str(n->u.ddl.if_not_exists));
            return true;
        case SA_DROP_PARTITION:
            pr_puts(sb, "AlterTableDropPartitionCommand ");
            ident(sb, n->u.ddl.name);
            pr_puts(sb, ", [");
            map_scala(sb, sp->npart, sp->part_keys, sp->part_values);
            sb_printf(sb, "], %s, false, false", bool_str(n->u.ddl.if_exists));
            return true;
        case SA_RECOVER_PARTITIONS:
            pr_puts(sb, "RepairTableCommand ");
            ident(sb, n->u.ddl.name);
            pr_puts(sb, ", true, false, ALTER TABLE RECOVER PARTITIONS");
            return true;
        case SA_SCHEMA_BINDING:
            pr_puts(sb, "AlterViewSchemaBindingCommand ");
            ident(sb, n->u.ddl.name);
            sb_printf(sb, ", %s", n->u.ddl.value ? n->u.ddl.value : "");
            return true;
        default: return false;
        }
    case NK_RenameTable:
        pr_puts(sb, "AlterTableRenameCommand ");
        ident(sb, n->u.ddl.name);
        pr_puts(sb, ", ");
        ident(sb, sp->name2);
        sb_printf(sb, ", %s", bool_str(n->u.ddl.is_view));
        return true;
    case NK_AlterViewAs:
        pr_puts(sb, "AlterViewAsCommand ");
        ident(sb, n->u.ddl.name);
        sb_printf(sb, ", %s, %s", n->u.ddl.text ? n->u.ddl.text : "", bool_str(node_resolved(n)));
        return true;
    case NK_CommentOnTable:
        sb_printf(sb, "CommentOnTable %s", n->u.ddl.value ? n->u.ddl.value : "null");
        return true;
    case NK_CommentOnNamespace:
        sb_printf(sb, "CommentOnNamespace %s", n->u.ddl.value ? n->u.ddl.value : "null");
        return true;
    case NK_AlterNamespace:
        if (n->u.ddl.action == SA_SET_PROPERTIES) {
            pr_puts(sb, "SetNamespaceProperties ");
            map_brackets(sb, sp->nprops, sp->prop_keys, sp->prop_values);
        } else if (n->u.ddl.action == SA_SET_LOCATION) {
            sb_printf(sb, "SetNamespaceLocation %s", n->u.ddl.value ? n->u.ddl.value : "");
        } else if (n->u.ddl.action == SA_UNSET_PROPERTIES) {
            pr_puts(sb, "UnsetNamespaceProperties ");
            keys_list(sb, sp->nprops, sp->prop_keys);
            sb_printf(sb, ", %s", bool_str(n->u.ddl.if_exists));
        } else {
            return false;
        }
        return true;
    case NK_CacheTable:
        if (n->u.ddl.extended) {
            pr_puts(sb, "CacheTableAsSelect ");
            for (uint32_t i = 0; i < n->u.ddl.name.n; i++) sb_printf(sb, "%s%s", i ? "." : "", n->u.ddl.name.v[i]);
            sb_printf(sb, ", %s, %s", n->u.ddl.text, bool_str(n->u.ddl.value != NULL));
        } else {
            pr_puts(sb, "CacheTable ");
            keys_list(sb, n->u.ddl.name.n, n->u.ddl.name.v);
            sb_printf(sb, ", %s", bool_str(n->u.ddl.value != NULL));
        }
        if (sp->nprops) {
            pr_puts(sb, ", ");
            map_brackets(sb, sp->nprops, sp->prop_keys, sp->prop_values);
        }
        sb_printf(sb, ", %s", bool_str(node_resolved(n)));
        return true;
    case NK_UncacheTable:
        sb_printf(sb, "UncacheTable %s, %s", bool_str(n->u.ddl.if_exists), bool_str(node_resolved(n)));
        return true;
    case NK_ClearCache: pr_puts(sb, "ClearCacheCommand"); return true;
    case NK_RefreshTable:
        pr_puts(sb, "RefreshTableCommand ");
        ident(sb, n->u.ddl.name);
        return true;
    case NK_RefreshFunction:
        pr_puts(sb, "RefreshFunctionCommand ");
        if (n->u.ddl.name.n >= 2) sb_printf(sb, "%s, ", n->u.ddl.name.v[n->u.ddl.name.n - 2]);
        if (n->u.ddl.name.n) pr_puts(sb, n->u.ddl.name.v[n->u.ddl.name.n - 1]);
        return true;
    case NK_RefreshResource:
        sb_printf(sb, "RefreshResource %s", n->u.ddl.value ? n->u.ddl.value : "");
        return true;
    case NK_RepairTable: {
        bool add = n->u.ddl.action != SA_REPAIR_DROP, drop = n->u.ddl.action == SA_REPAIR_DROP || n->u.ddl.action == SA_REPAIR_SYNC;
        pr_puts(sb, "RepairTableCommand ");
        ident(sb, n->u.ddl.name);
        sb_printf(sb, ", %s, %s, MSCK REPAIR TABLE", bool_str(add), bool_str(drop));
        return true;
    }
    case NK_TruncateTable:
        pr_puts(sb, "TruncateTableCommand ");
        ident(sb, n->u.ddl.name);
        if (sp->npart) {
            pr_puts(sb, ", ");
            map_scala(sb, sp->npart, sp->part_keys, sp->part_values);
        }
        return true;
    case NK_AnalyzeTable:
        if (n->u.ddl.ncols || (n->u.ddl.value && !strcmp(n->u.ddl.value, "FOR ALL COLUMNS"))) {
            pr_puts(sb, "AnalyzeColumnCommand ");
            ident(sb, n->u.ddl.name);
            if (n->u.ddl.ncols) {
                pr_puts(sb, ", ");
                keys_list(sb, n->u.ddl.ncols, n->u.ddl.col_names);
            }
            sb_printf(sb, ", %s", bool_str(!n->u.ddl.ncols));
            return true;
        }
        pr_puts(sb, sp->npart ? "AnalyzePartitionCommand " : "AnalyzeTableCommand ");
        ident(sb, n->u.ddl.name);
        if (sp->npart) {
            pr_puts(sb, ", ");
            map_brackets(sb, sp->npart, sp->part_keys, sp->part_values);
        }
        sb_printf(sb, ", %s", bool_str(n->u.ddl.value && !strcmp(n->u.ddl.value, "NOSCAN")));
        return true;
    case NK_AnalyzeTables:
        sb_printf(sb, "AnalyzeTablesCommand %s, %s", n->u.ddl.name.n ? n->u.ddl.name.v[n->u.ddl.name.n - 1] : "",
                  bool_str(n->u.ddl.value != NULL));
        return true;
    case NK_LoadData:
        pr_puts(sb, "LoadDataCommand ");
        ident(sb, n->u.ddl.name);
        sb_printf(sb, ", %s, %s, %s", n->u.ddl.value ? n->u.ddl.value : "", bool_str(n->u.ddl.local),
                  bool_str(n->u.ddl.or_replace));
        if (sp->npart) {
            pr_puts(sb, ", ");
            map_scala(sb, sp->npart, sp->part_keys, sp->part_values);
        }
        return true;
    case NK_CreateTableLike:
        pr_puts(sb, "CreateTableLikeCommand ");
        ident(sb, n->u.ddl.name);
        pr_puts(sb, ", ");
        ident(sb, sp->name2);
        pr_puts(sb, ", Storage(), ");
        if (n->u.ddl.provider) sb_printf(sb, "%s, ", n->u.ddl.provider);
        pr_puts(sb, bool_str(n->u.ddl.if_not_exists));
        return true;
    case NK_CreateTempViewUsing:
        pr_puts(sb, "CreateTempViewUsing [tableIdent:");
        ident(sb, n->u.ddl.name);
        pr_putc(sb, ' ');
        if (n->u.ddl.ncols) {
            pr_puts(sb, "StructType(");
            for (uint32_t i = 0; i < n->u.ddl.ncols; i++) {
                if (i) pr_putc(sb, ',');
                struct_field(sb, n->u.ddl.col_names[i], n->u.ddl.col_types[i]);
            }
            pr_puts(sb, ") ");
        }
        sb_printf(sb, "replace:%s provider:%s ", bool_str(n->u.ddl.or_replace), n->u.ddl.provider ? n->u.ddl.provider : "");
        map_scala(sb, sp->nprops, sp->prop_keys, sp->prop_values);
        return true;
    case NK_CreateFunction:
        pr_puts(sb, "CreateFunctionCommand ");
        for (uint32_t i = 0; i < n->u.ddl.name.n; i++) sb_printf(sb, "%s%s", i ? "." : "", n->u.ddl.name.v[i]);
        sb_printf(sb, ", %s, %s, %s, %s", n->u.ddl.value ? n->u.ddl.value : "", bool_str(n->u.ddl.temporary),
                  bool_str(n->u.ddl.if_not_exists), bool_str(n->u.ddl.or_replace));
        return true;
    case NK_DropFunction:
        pr_puts(sb, "DropFunctionCommand ");
        for (uint32_t i = 0; i < n->u.ddl.name.n; i++) sb_printf(sb, "%s%s", i ? "." : "", n->u.ddl.name.v[i]);
        sb_printf(sb, ", %s, %s", bool_str(n->u.ddl.if_exists), bool_str(n->u.ddl.temporary));
        return true;
    case NK_SetCatalog:
        sb_printf(sb, "SetCatalogCommand %s", n->u.ddl.value ? n->u.ddl.value : n->u.ddl.name.n ? n->u.ddl.name.v[0] : "");
        return true;
    case NK_AddResource:
    case NK_ListResource: {
        const char *t = n->u.ddl.text ? n->u.ddl.text : "";
        bool list = n->kind == NK_ListResource;
        const char *what = strstr(t, "JAR") ? "Jars" : strstr(t, "ARCHIVE") ? "Archives" : "Files";
        sb_printf(sb, "%s%sCommand", list ? "List" : "Add", what);
        if (n->u.ddl.value) sb_printf(sb, " %s", n->u.ddl.value);
        return true;
    }
    default: return false;
    }
}

const char *statement_synthetic_child(Arena *a, const Node *n) {
    const StmtSpec *sp = ddl_spec(n);
    StrBuf sb;
    switch (n->kind) {
    case NK_ShowTblProperties:
    case NK_CommentOnTable:
    case NK_ShowCreateTable:
        if (!sp->nrel_cols && (sp->rel_temp || sp->rel_view || n->u.ddl.name.n < 3)) return NULL;
        if (n->kind == NK_ShowCreateTable && sp->rel_view) return NULL;
        sb_init(&sb, a, 96);
        sb_printf(&sb, "ResolvedTable V2SessionCatalog(spark_catalog), %s.%s, V1Table(%s.%s), ", n->u.ddl.name.v[1],
                  n->u.ddl.name.v[2], n->u.ddl.name.v[1], n->u.ddl.name.v[2]);
        pr_putc(&sb, '[');
        for (uint32_t i = 0; i < sp->nrel_cols; i++) sb_printf(&sb, "%s%s#0", i ? ", " : "", sp->rel_cols[i]);
        pr_putc(&sb, ']');
        return sb_str(&sb);
    case NK_AlterNamespace:
    case NK_CommentOnNamespace:
    case NK_DescribeNamespace:
        if (!n->u.ddl.catalog) return NULL;
        sb_init(&sb, a, 96);
        pr_puts(&sb, "ResolvedNamespace ");
        if (n->u.ddl.catalog_plugin) sb_printf(&sb, "%s@xxxxxxxx, ", n->u.ddl.catalog_plugin);
        else pr_puts(&sb, "V2SessionCatalog(spark_catalog), ");
        keys_list(&sb, n->u.ddl.name.n, n->u.ddl.name.v);
        return sb_str(&sb);
    default: return NULL;
    }
}
