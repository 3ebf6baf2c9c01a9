/* Statements: every statement kind the parser knows has a row in the
 * statements table (statements/statements.c), the parser gives each
 * statement Spark has its own kind, a statement on something missing gets
 * Spark's error rather than a silent ok, and RESET restores the defaults. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "core/arena.h"
#include "core/ir.h"
#include "parser/parser.h"
#include "statements/statements.h"

static CzResult *run(CzSession *s, const char *sql) { return cz_run_sql(s, sql, strlen(sql), NULL); }

static void expect_ok(CzSession *s, const char *sql) {
    CzResult *r = run(s, sql);
    cr_expect_eq(cz_result_status(r), CZ_OK, "%s: %s", sql,
                 cz_result_error(r) ? cz_result_error(r)->error_class : "");
    cz_result_free(r);
}

static void expect_error(CzSession *s, const char *sql, const char *cls) {
    CzResult *r = run(s, sql);
    cr_expect_eq(cz_result_status(r), CZ_ERROR, "%s should fail with %s", sql, cls);
    if (cz_result_status(r) == CZ_ERROR) cr_expect_str_eq(cz_result_error(r)->error_class, cls, "%s", sql);
    cz_result_free(r);
}

static void expect_param(CzSession *s, const char *sql, const char *name, const char *value) {
    CzResult *r = run(s, sql);
    cr_assert_eq(cz_result_status(r), CZ_ERROR, "%s should fail", sql);
    const CzError *e = cz_result_error(r);
    bool found = false;
    for (int i = 0; i < e->nparams; i++)
        if (!strcmp(e->param_names[i], name)) {
            cr_expect_str_eq(e->param_values[i], value, "%s: %s", sql, name);
            found = true;
        }
    cr_expect(found, "%s: no parameter %s", sql, name);
    cz_result_free(r);
}

/* Each COMMAND kind of node_kinds.def has a handler: a kind added without
 * one fails here. */
Test(statements, every_kind_in_the_table) {
    int commands = 0;
    for (int k = 0; k < NK_COUNT_; k++) {
        if (!node_kind_is_command((NodeKind)k)) {
            cr_expect_null(statement_handler((NodeKind)k), "%s is not a statement but has a handler",
                           node_kind_name((NodeKind)k));
            continue;
        }
        commands++;
        cr_expect_not_null(statement_handler((NodeKind)k), "statement kind %s has no row in the statements table",
                           node_kind_name((NodeKind)k));
    }
    cr_expect_gt(commands, 50);
}

/* The parser gives each statement its own kind. */
Test(statements, parser_kinds) {
    static const struct {
        const char *sql;
        NodeKind kind;
    } CASES[] = {
        {"ALTER TABLE t ADD COLUMNS (c INT)", NK_AlterTable},
        {"ALTER TABLE t RENAME TO u", NK_RenameTable},
        {"ALTER VIEW v RENAME TO w", NK_RenameTable},
        {"ALTER VIEW v AS SELECT 1", NK_AlterViewAs},
        {"ALTER VIEW v SET TBLPROPERTIES ('a' = 'b')", NK_AlterView},
        {"ALTER VIEW v WITH SCHEMA EVOLUTION", NK_AlterView},
        {"ALTER SCHEMA s SET PROPERTIES (a = 'b')", NK_AlterNamespace},
        {"ALTER DATABASE s SET LOCATION '/x'", NK_AlterNamespace},
        {"SHOW TABLES", NK_ShowTables},
        {"SHOW TABLE EXTENDED LIKE 't*'", NK_ShowTableExtended},
        {"SHOW VIEWS IN db", NK_ShowViews},
        {"SHOW COLUMNS IN t", NK_ShowColumns},
        {"SHOW PARTITIONS t", NK_ShowPartitions},
        {"SHOW FUNCTIONS LIKE 'a*'", NK_ShowFunctions},
        {"SHOW CREATE TABLE t AS SERDE", NK_ShowCreateTable},
        {"SHOW TBLPROPERTIES t ('k')", NK_ShowTblProperties},
        {"SHOW CURRENT NAMESPACE", NK_ShowCurrentNamespace},
        {"SHOW CATALOGS", NK_ShowCatalogs},
        {"SHOW DATABASES", NK_ShowNamespaces},
        {"DESCRIBE t", NK_DescribeRelation},
        {"DESC EXTENDED t PARTITION (a = 1) AS JSON", NK_DescribeRelation},
        {"DESCRIBE QUERY SELECT 1", NK_DescribeQuery},
        {"DESCRIBE SCHEMA EXTENDED s", NK_DescribeNamespace},
        {"DESCRIBE FUNCTION abs", NK_DescribeFunction},
        {"CACHE LAZY TABLE t", NK_CacheTable},
        {"UNCACHE TABLE IF EXISTS t", NK_UncacheTable},
        {"CLEAR CACHE", NK_ClearCache},
        {"REFRESH TABLE t", NK_RefreshTable},
        {"REFRESH FUNCTION f", NK_RefreshFunction},
        {"REFRESH '/path'", NK_RefreshResource},
        {"MSCK REPAIR TABLE t", NK_RepairTable},
        {"REPAIR TABLE t SYNC PARTITIONS", NK_RepairTable},
        {"LOAD DATA LOCAL INPATH '/x' OVERWRITE INTO TABLE t", NK_LoadData},
        {"RESET", NK_ResetConfig},
        {"RESET spark.sql.groupByOrdinal", NK_ResetConfig},
        {"TRUNCATE TABLE t", NK_TruncateTable},
        {"ANALYZE TABLE t COMPUTE STATISTICS NOSCAN", NK_AnalyzeTable},
        {"ANALYZE TABLES IN db COMPUTE STATISTICS", NK_AnalyzeTables},
        {"ADD JAR /tmp/a.jar", NK_AddResource},
        {"LIST FILES", NK_ListResource},
        {"CREATE FUNCTION f AS 'com.x.F'", NK_CreateFunction},
        {"CREATE TEMPORARY FUNCTION f AS 'com.x.F'", NK_CreateFunction},
        {"DROP FUNCTION IF EXISTS f", NK_DropFunction},
        {"DROP TEMPORARY FUNCTION f", NK_DropFunction},
        {"CREATE INDEX i ON t (c)", NK_CreateIndex},
        {"DROP INDEX i ON t", NK_DropIndex},
        {"COMMENT ON TABLE t IS 'x'", NK_CommentOnTable},
        {"COMMENT ON SCHEMA s IS NULL", NK_CommentOnNamespace},
        {"CREATE TABLE t LIKE s", NK_CreateTableLike},
        {"CREATE TABLE IF NOT EXISTS t LIKE s USING parquet", NK_CreateTableLike},
        {"CREATE TEMPORARY VIEW v USING parquet", NK_CreateTempViewUsing},
        {"SET CATALOG spark_catalog", NK_SetCatalog},
        {"DELETE FROM t WHERE a = 1", NK_DeleteFrom},
        {"UPDATE t SET a = 1", NK_UpdateTable},
        {"MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE", NK_MergeInto},
        {"REPLACE TABLE t (a INT) USING parquet", NK_ReplaceTable},
        {"CALL cat.sys.proc(1)", NK_CallProcedure},
        {"EXPLAIN EXTENDED SELECT 1", NK_Explain},
    };
    Arena *a = arena_new(0);
    ParserOptions po = {0};
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        ErrorInfo *err = NULL;
        Node *n = parse_statement(a, CASES[i].sql, strlen(CASES[i].sql), &po, &err);
        cr_assert_not_null(n, "%s: %s", CASES[i].sql, err ? err->error_class : "");
        cr_expect_eq(n->kind, CASES[i].kind, "%s: %s, not %s", CASES[i].sql, node_kind_name(n->kind),
                     node_kind_name(CASES[i].kind));
    }
    arena_free(a);
}

/* Statements on what does not exist get Spark's analysis errors. */
Test(statements, missing_targets) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE TABLE t (a INT, b STRING) USING parquet");
    expect_ok(s, "CREATE TEMPORARY VIEW tv AS SELECT 1 AS x");
    expect_error(s, "SHOW PARTITIONS nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_param(s, "SHOW PARTITIONS nosuch", "relationName", "`nosuch`");
    expect_error(s, "SHOW PARTITIONS t", "INVALID_PARTITION_OPERATION.PARTITION_SCHEMA_IS_EMPTY");
    expect_error(s, "ALTER VIEW nosuch AS SELECT 1", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "ALTER VIEW t AS SELECT 1", "EXPECT_VIEW_NOT_TABLE.USE_ALTER_TABLE");
    expect_error(s, "UNCACHE TABLE nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_ok(s, "UNCACHE TABLE IF EXISTS nosuch");
    expect_error(s, "SHOW TABLES IN nosuch_db", "SCHEMA_NOT_FOUND");
    expect_param(s, "SHOW TABLES IN nosuch_db", "schemaName", "`spark_catalog`.`nosuch_db`");
    expect_error(s, "SHOW VIEWS IN nosuch_db", "SCHEMA_NOT_FOUND");
    expect_error(s, "LOAD DATA LOCAL INPATH '/tmp/x' INTO TABLE nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "LOAD DATA INPATH '/tmp/x' INTO TABLE tv", "EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE");
    expect_error(s, "TRUNCATE TABLE nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "DESCRIBE nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "DESCRIBE t nosuch_col", "COLUMN_NOT_FOUND");
    expect_error(s, "DESCRIBE SCHEMA nosuch_db", "SCHEMA_NOT_FOUND");
    expect_error(s, "ALTER TABLE nosuch ADD COLUMNS (c INT)", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "ALTER TABLE tv ADD COLUMNS (c INT)", "EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE");
    expect_error(s, "ALTER TABLE t ADD COLUMNS (a INT)", "COLUMN_ALREADY_EXISTS");
    expect_error(s, "ALTER TABLE t RENAME COLUMN a TO z", "UNSUPPORTED_FEATURE.TABLE_OPERATION");
    expect_error(s, "ALTER TABLE t DROP COLUMN a", "UNSUPPORTED_FEATURE.TABLE_OPERATION");
    expect_error(s, "ALTER TABLE t CHANGE nosuch TYPE INT", "UNRESOLVED_COLUMN.WITH_SUGGESTION");
    expect_error(s, "ALTER TABLE t CHANGE a TYPE STRING", "NOT_SUPPORTED_CHANGE_COLUMN");
    expect_error(s, "ALTER TABLE t CHANGE a", "_LEGACY_ERROR_TEMP_0035");
    expect_ok(s, "ALTER TABLE t SET TBLPROPERTIES ('k' = 'v')");
    expect_error(s, "ALTER TABLE tv SET TBLPROPERTIES ('k' = 'v')", "EXPECT_TABLE_NOT_VIEW.USE_ALTER_VIEW");
    expect_error(s, "ALTER SCHEMA nosuch_db SET PROPERTIES (a = 'b')", "SCHEMA_NOT_FOUND");
    expect_error(s, "COMMENT ON TABLE nosuch IS 'x'", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "REFRESH TABLE nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "CACHE TABLE nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "ANALYZE TABLE nosuch COMPUTE STATISTICS", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "ANALYZE TABLE t COMPUTE STATISTICS FOR COLUMNS nosuch", "COLUMN_NOT_FOUND");
    expect_error(s, "ANALYZE TABLES IN nosuch_db COMPUTE STATISTICS", "SCHEMA_NOT_FOUND");
    expect_error(s, "MSCK REPAIR TABLE nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "MSCK REPAIR TABLE t", "NOT_A_PARTITIONED_TABLE");
    expect_error(s, "SHOW COLUMNS IN nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "SHOW COLUMNS IN default.t FROM other", "SHOW_COLUMNS_WITH_CONFLICT_NAMESPACE");
    expect_error(s, "SHOW CREATE TABLE tv", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "SHOW TBLPROPERTIES nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "CREATE TABLE u LIKE nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "CREATE INDEX i ON t (a)", "UNSUPPORTED_FEATURE.TABLE_OPERATION");
    expect_error(s, "DELETE FROM t WHERE a = 1", "UNSUPPORTED_FEATURE.TABLE_OPERATION");
    expect_error(s, "CALL spark_catalog.system.p()", "MISSING_CATALOG_ABILITY.PROCEDURES");
    expect_error(s, "SET CATALOG nosuch_catalog", "CATALOG_NOT_FOUND");
    cz_session_free(s);
}

/* What exists: the statement analyses, and what changes a schema or a name
 * is seen by the next statement. */
Test(statements, applied_to_the_catalog) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE TABLE t (a INT, b STRING) USING parquet PARTITIONED BY (b)");
    expect_ok(s, "SHOW PARTITIONS t");
    expect_ok(s, "MSCK REPAIR TABLE t");
    expect_ok(s, "ALTER TABLE t ADD COLUMNS (c DOUBLE)");
    expect_ok(s, "SELECT c FROM t");
    expect_ok(s, "ALTER TABLE t RENAME TO t2");
    expect_error(s, "SELECT * FROM t", "TABLE_OR_VIEW_NOT_FOUND");
    expect_ok(s, "SELECT a, c FROM t2");
    expect_ok(s, "CREATE VIEW v AS SELECT a FROM t2");
    expect_ok(s, "ALTER VIEW v AS SELECT a, c FROM t2");
    expect_ok(s, "SELECT c FROM v");
    expect_ok(s, "CREATE TEMPORARY VIEW tv AS SELECT 1 AS x");
    expect_ok(s, "ALTER VIEW tv AS SELECT 2 AS y");
    expect_ok(s, "SELECT y FROM tv");
    expect_ok(s, "ALTER VIEW tv RENAME TO tv2");
    expect_ok(s, "SELECT y FROM tv2");
    expect_ok(s, "CACHE TABLE t2");
    expect_ok(s, "UNCACHE TABLE t2");
    expect_ok(s, "CACHE TABLE c AS SELECT 5 AS five");
    expect_ok(s, "SELECT five FROM c");
    expect_ok(s, "DESCRIBE t2");
    expect_ok(s, "DESCRIBE t2 a");
    expect_ok(s, "SHOW TABLES");
    expect_ok(s, "SHOW COLUMNS IN t2 FROM default");
    expect_ok(s, "TRUNCATE TABLE t2");
    expect_ok(s, "LOAD DATA LOCAL INPATH '/tmp/x' INTO TABLE t2");
    expect_ok(s, "CREATE TABLE t3 LIKE t2");
    expect_ok(s, "SELECT a, c FROM t3");
    expect_ok(s, "CREATE TEMPORARY VIEW dsv (f INT) USING parquet");
    expect_ok(s, "DESCRIBE dsv");
    expect_ok(s, "DROP VIEW dsv");
    expect_ok(s, "ADD JAR /tmp/x.jar");
    expect_ok(s, "LIST JARS");
    cz_session_free(s);
}

/* RESET and RESET key: SET's changes undone, the launch configuration kept. */
Test(statements, reset) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "SET spark.sql.groupByOrdinal=false");
    const char *by_ordinal = "SELECT a FROM VALUES (1) AS t(a) GROUP BY 1";
    expect_error(s, by_ordinal, "MISSING_AGGREGATION");
    expect_ok(s, "RESET");
    expect_ok(s, by_ordinal);
    expect_ok(s, "SET spark.sql.groupByOrdinal=false");
    expect_ok(s, "SET spark.sql.orderByOrdinal=false");
    expect_ok(s, "RESET spark.sql.groupByOrdinal");
    expect_ok(s, by_ordinal);
    cr_expect_str_eq(cz_session_get_conf(s, "spark.sql.orderByOrdinal"), "false");
    expect_ok(s, "RESET");
    cr_expect_null(cz_session_get_conf(s, "spark.sql.orderByOrdinal"));
    /* a value set through the API is the session's launch value */
    cr_assert(cz_session_set_conf(s, "spark.sql.session.timeZone", "UTC"));
    expect_ok(s, "SET spark.sql.session.timeZone=America/Los_Angeles");
    expect_ok(s, "RESET");
    cr_expect_str_eq(cz_session_get_conf(s, "spark.sql.session.timeZone"), "UTC");
    expect_ok(s, "SET spark.sql.session.timeZone=America/Los_Angeles");
    expect_ok(s, "RESET spark.sql.session.timeZone");
    cr_expect_str_eq(cz_session_get_conf(s, "spark.sql.session.timeZone"), "UTC");
    cz_session_free(s);
}

/* A session's default zone, once fixed (as a daemon does at start, and the
 * JVM for Spark), is what statements use while spark.sql.session.timeZone is
 * unset — not the environment looked up again on each statement. */
Test(statements, fixed_default_time_zone) {
    setenv("TZ", "UTC", 1);
    CzSession *s = cz_session_new(false);
    cz_session_set_default_time_zone(s, "Asia/Tokyo");
    const char *sql = "SELECT TIMESTAMP '2020-01-01 00:00:00Z' AS t";
    CzRunOptions o = {.want_tree = true};
    CzResult *r = cz_run_sql(s, sql, strlen(sql), &o);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cr_expect(strstr(cz_result_tree(r), "2020-01-01 09:00:00 AS t") != NULL, "%s", cz_result_tree(r));
    cz_result_free(r);
    expect_ok(s, "SET TIME ZONE 'America/Los_Angeles'");
    expect_ok(s, "SET TIME ZONE LOCAL");
    cr_expect_str_eq(cz_session_get_conf(s, "spark.sql.session.timeZone"), "Asia/Tokyo");
    cz_session_free(s);
    unsetenv("TZ");
}
