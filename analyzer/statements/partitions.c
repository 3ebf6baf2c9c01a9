/* Partition specs against a session-catalog table, as Spark's v1 commands
 * check them: every key must be a partition column (normalizePartitionSpec),
 * the spec must name them all (requireExactMatchedPartitionSpec,
 * _LEGACY_ERROR_TEMP_1232), and the partition must exist
 * (PARTITIONS_NOT_FOUND) — known only while no data was written to the
 * table: ALTER TABLE ADD/DROP PARTITION keep its list, INSERT and the other
 * writers make it unknown. */
#include "statements.h"

#include <string.h>

#include "core/strbuf.h"

static int part_index(const TableDef *t, const char *key) {
    for (int i = 0; i < t->npart_cols; i++)
        if (name_eq(t->part_cols[i], key)) return i;
    return -1;
}

/* the spec's values in partition-column order, joined by '/' */
static const char *spec_key(Analysis *an, const TableDef *t, const StmtSpec *sp) {
    StrBuf sb;
    sb_init(&sb, an->arena, 32);
    for (int c = 0; c < t->npart_cols; c++) {
        if (c) sb_putc(&sb, '/');
        for (uint32_t i = 0; i < sp->npart; i++)
            if (name_eq(sp->part_keys[i], t->part_cols[c])) sb_puts(&sb, sp->part_values[i] ? sp->part_values[i] : "");
    }
    return sb_str(&sb);
}

/* PARTITION (`c` = Us, `d` = 1), in the spec's order */
static const char *partition_list(Analysis *an, const TableDef *t, const StmtSpec *sp) {
    StrBuf sb;
    sb_init(&sb, an->arena, 32);
    sb_puts(&sb, "PARTITION (");
    for (uint32_t i = 0; i < sp->npart; i++) {
        int c = part_index(t, sp->part_keys[i]);
        sb_printf(&sb, "%s%s = %s", i ? ", " : "", sql_ident(an->arena, c >= 0 ? t->part_cols[c] : sp->part_keys[i]),
                  sp->part_values[i] ? sp->part_values[i] : "null");
    }
    sb_putc(&sb, ')');
    return sb_str(&sb);
}

bool stmt_partition_exists(const TableDef *t, const char *key) {
    for (int i = 0; i < t->npartitions; i++)
        if (strcmp(t->partitions[i], key) == 0) return true;
    return false;
}

bool stmt_check_partition_spec(Analysis *an, const Node *stmt, const TableDef *t, PartitionCheck how) {
    const StmtSpec *sp = ddl_spec(stmt);
    if (!sp->npart || !t || t->v2 || t->is_view || !t->npart_cols) return true;
    for (uint32_t i = 0; i < sp->npart; i++)
        if (part_index(t, sp->part_keys[i]) < 0) {
            if (how == PC_SHOW_EXISTING) {
                an_fail(an, error_make(an->arena, "PARTITIONS_NOT_FOUND", stmt, "partitionList",
                                       sql_ident(an->arena, sp->part_keys[i]), "tableName",
                                       stmt_qualified(an, t->ns, t->name), NULL));
            } else {
                an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1231", stmt, "key",
                                       sql_ident(an->arena, sp->part_keys[i]), "tblName",
                                       stmt_qualified(an, t->ns, t->name), NULL));
            }
            return false;
        }
    if (how == PC_NONE) return true;
    if ((int)sp->npart != t->npart_cols) {
        StrBuf cols, keys;
        sb_init(&cols, an->arena, 32);
        sb_init(&keys, an->arena, 32);
        for (int c = 0; c < t->npart_cols; c++) sb_printf(&cols, "%s%s", c ? ", " : "", t->part_cols[c]);
        for (uint32_t i = 0; i < sp->npart; i++) sb_printf(&keys, "%s%s", i ? ", " : "", sp->part_keys[i]);
        an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1232", stmt, "specKeys", sb_str(&keys),
                               "partitionColumnNames", sb_str(&cols), "tableName", stmt_qualified(an, t->ns, t->name),
                               NULL));
        return false;
    }
    if (how == PC_EXACT || t->partitions_unknown) return true;
    if (!stmt_partition_exists(t, spec_key(an, t, sp))) {
        an_fail(an, error_make(an->arena, "PARTITIONS_NOT_FOUND", stmt, "partitionList", partition_list(an, t, sp),
                               "tableName",
                               arena_printf(an->arena, "%s.%s", sql_ident(an->arena, t->ns), sql_ident(an->arena, t->name)),
                               NULL));
        return false;
    }
    return true;
}

Node *stmt_add_partition(Analysis *an, CzSession *s, Node *stmt, const TableDef *t, PendingChanges *pend) {
    if (!t->npart_cols || !stmt_check_partition_spec(an, stmt, t, PC_EXACT)) return an_failed(an) ? NULL : stmt;
    const char *key = spec_key(an, t, ddl_spec(stmt));
    if (stmt_partition_exists(t, key)) {
        if (stmt->u.ddl.if_not_exists) return stmt;
        return an_fail(an, error_make(an->arena, "PARTITIONS_ALREADY_EXIST", stmt, "partitionList",
                                      partition_list(an, t, ddl_spec(stmt)), "tableName",
                                      arena_printf(an->arena, "%s.%s", sql_ident(an->arena, t->ns),
                                                   sql_ident(an->arena, t->name)),
                                      NULL));
    }
    TableDef def = *t;
    def.partitions = ARENA_ARRAY(an->arena, const char *, t->npartitions + 1);
    for (int i = 0; i < t->npartitions; i++) def.partitions[i] = t->partitions[i];
    def.partitions[def.npartitions++] = key;
    catalog_put_table_def(pending_catalog(s, pend), &def);
    return stmt;
}

void stmt_partitions_unknown(CzSession *s, const TableDef *t, PendingChanges *pend) {
    if (!t || t->v2 || t->is_view || !t->npart_cols || t->partitions_unknown) return;
    TableDef def = *t;
    def.partitions_unknown = true;
    catalog_put_table_def(pending_catalog(s, pend), &def);
}
