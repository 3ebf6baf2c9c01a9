/* Error messages as Spark prints them: the parameters (UNRESOLVED_COLUMN's
 * proposal in CheckAnalysis's order) and the text of the subclass. The
 * expected values are Spark's own golden output (file and statement named). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "catalyzer.h"

static const char *param(const CzError *e, const char *name) {
    for (int i = 0; i < e->nparams; i++)
        if (strcmp(e->param_names[i], name) == 0) return e->param_values[i];
    return NULL;
}

/* runs sql (after the setup statements), expects cls with these parameters */
static void expect(CzSession *s, const char *sql, const char *cls, const char *object, const char *proposal) {
    CzResult *r = cz_run_sql(s, sql, strlen(sql), NULL);
    cr_assert_eq(cz_result_status(r), CZ_ERROR, "%s should fail", sql);
    const CzError *e = cz_result_error(r);
    cr_expect_str_eq(e->error_class, cls, "%s", sql);
    cr_expect_str_eq(param(e, "objectName"), object, "%s", sql);
    if (proposal) cr_expect_str_eq(param(e, "proposal") ? param(e, "proposal") : "(none)", proposal, "%s", sql);
    else cr_expect_null(param(e, "proposal"), "%s", sql);
    cz_result_free(r);
}

static void ok(CzSession *s, const char *sql) {
    CzResult *r = cz_run_sql(s, sql, strlen(sql), NULL);
    cr_assert_eq(cz_result_status(r), CZ_OK, "%s: %s", sql, cz_result_error(r) ? cz_result_error(r)->message : "");
    cz_result_free(r);
}

/* postgreSQL/join.sql 173-175: the operator's inputSet sorted by name (then
 * id) before the stable sort by distance, qualifiers kept where they differ */
Test(error_messages, proposal_order_of_a_join) {
    CzSession *s = cz_session_new(true);
    ok(s, "CREATE OR REPLACE TEMPORARY VIEW tenk2 AS SELECT * FROM tenk1");
    const char *j = " from tenk1 t1 join tenk2 t2 on t1.two = t2.two";
    char sql[256];
    snprintf(sql, sizeof sql, "select t1.uunique1%s", j);
    expect(s, sql, "UNRESOLVED_COLUMN.WITH_SUGGESTION", "`t1`.`uunique1`",
           "`t1`.`unique1`, `t2`.`unique1`, `t1`.`unique2`, `t2`.`unique2`, `t1`.`four`");
    snprintf(sql, sizeof sql, "select t2.uunique1%s", j);
    expect(s, sql, "UNRESOLVED_COLUMN.WITH_SUGGESTION", "`t2`.`uunique1`",
           "`t2`.`unique1`, `t1`.`unique1`, `t2`.`unique2`, `t1`.`unique2`, `t2`.`four`");
    snprintf(sql, sizeof sql, "select uunique1%s", j);
    expect(s, sql, "UNRESOLVED_COLUMN.WITH_SUGGESTION", "`uunique1`",
           "`t1`.`unique1`, `t2`.`unique1`, `t1`.`unique2`, `t2`.`unique2`, `t1`.`ten`");
    cz_session_free(s);
}

/* cte.sql 22, query_regex_column.sql 3: a qualifier all candidates share is
 * not shown */
Test(error_messages, shared_qualifier_dropped) {
    CzSession *s = cz_session_new(true);
    ok(s, "CREATE TEMPORARY VIEW t AS SELECT 1 AS id");
    expect(s, "with cte as (select id as id_alias from t) select id from cte", "UNRESOLVED_COLUMN.WITH_SUGGESTION",
           "`id`", "`id_alias`");
    ok(s, "CREATE OR REPLACE TEMPORARY VIEW testData2 AS SELECT * FROM VALUES (1, 1, 1, 2) AS testData2(A, B, c, d)");
    ok(s, "SET spark.sql.parser.quotedRegexColumnNames=false");
    expect(s, "SELECT `(a)?+.+` FROM testData2 WHERE a = 1", "UNRESOLVED_COLUMN.WITH_SUGGESTION", "`(a)?+.+`",
           "`A`, `B`, `c`, `d`");
    cz_session_free(s);
}

/* selectExcept.sql 21: the expanded columns in their order */
Test(error_messages, star_except_proposal) {
    CzSession *s = cz_session_new(true);
    ok(s, "CREATE TEMPORARY VIEW tbl_view AS SELECT * FROM VALUES (10, 'name1', named_struct('f1', 1)) "
          "AS tbl_view(id, name, data)");
    expect(s, "SELECT * EXCEPT(invalid_column) FROM tbl_view", "UNRESOLVED_COLUMN.WITH_SUGGESTION", "`invalid_column`",
           "`id`, `name`, `data`");
    cz_session_free(s);
}

/* the subclass's sentence after the class's (ErrorClassesJsonReader) */
Test(error_messages, unresolved_column_text) {
    CzSession *s = cz_session_new(false);
    const char *sql = "SELECT nope FROM VALUES (1) AS t(a)";
    CzResult *r = cz_run_sql(s, sql, strlen(sql), NULL);
    cr_assert_eq(cz_result_status(r), CZ_ERROR);
    cr_expect_str_eq(cz_result_error(r)->message,
                     "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with name `nope` "
                     "cannot be resolved. Did you mean one of the following? [`a`].");
    cz_result_free(r);
    expect(s, "SELECT nope", "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION", "`nope`", NULL);
    sql = "SELECT nope";
    r = cz_run_sql(s, sql, strlen(sql), NULL);
    cr_expect_str_eq(cz_result_error(r)->message,
                     "[UNRESOLVED_COLUMN.WITHOUT_SUGGESTION] A column, variable, or function parameter with name "
                     "`nope` cannot be resolved. ");
    cz_result_free(r);
    cz_session_free(s);
}

/* runs sql, expects cls with parameter `name` = value */
static void expect_param(CzSession *s, const char *sql, const char *cls, const char *name, const char *value) {
    CzResult *r = cz_run_sql(s, sql, strlen(sql), NULL);
    cr_assert_eq(cz_result_status(r), CZ_ERROR, "%s should fail", sql);
    const CzError *e = cz_result_error(r);
    cr_expect_str_eq(e->error_class, cls, "%s", sql);
    const char *v = param(e, name);
    cr_expect_str_eq(v ? v : "(none)", value, "%s: %s", sql, name);
    cz_result_free(r);
}

/* group-by.sql 60-62, group-by-ordinal.sql 11-12, group-by.sql 19:
 * Expression.sql (qualified, unquoted) where Spark prints it */
Test(error_messages, aggregate_misuse_parameters) {
    CzSession *s = cz_session_new(true);
    ok(s, "CREATE OR REPLACE TEMPORARY VIEW test_agg AS SELECT * FROM VALUES (1, true) AS test_agg(k, v)");
    expect_param(s, "SELECT count(*) FROM test_agg WHERE count(*) + 1L > 1L", "INVALID_WHERE_CONDITION",
                 "expressionList", "count(1)");
    expect_param(s, "SELECT count(*) FROM test_agg WHERE k = 1 or k = 2 or count(*) + 1L > 1L or max(k) > 1",
                 "INVALID_WHERE_CONDITION", "expressionList", "count(1), max(test_agg.k)");
    ok(s, "CREATE OR REPLACE TEMPORARY VIEW data AS SELECT * FROM VALUES (1, 1) AS data(a, b)");
    expect_param(s, "select a, b, sum(b) + 2 from data group by 3", "GROUP_BY_POS_AGGREGATE", "aggExpr",
                 "(sum(data.b) + CAST(2 AS BIGINT)) AS `(sum(b) + 2)`");
    ok(s, "CREATE OR REPLACE TEMPORARY VIEW testData AS SELECT * FROM VALUES (1, 1) AS testData(a, b)");
    expect_param(s, "SELECT COUNT(b) AS k FROM testData GROUP BY k", "GROUP_BY_AGGREGATE", "sqlExpr",
                 "count(testdata.b)");
    cz_session_free(s);
}

/* except-all.sql 16, intersect-all.sql 7, postgreSQL/window_part3.sql 25-26,
 * postgreSQL/with.sql 37 */
Test(error_messages, operator_and_argument_names) {
    CzSession *s = cz_session_new(true);
    expect_param(s, "SELECT 1 AS k EXCEPT ALL SELECT 1, 2", "NUM_COLUMNS_MISMATCH", "operator", "EXCEPT ALL");
    expect_param(s, "SELECT 1 AS k INTERSECT ALL SELECT array(1)", "INCOMPATIBLE_COLUMN_TYPE", "operator",
                 "INTERSECT ALL");
    expect_param(s, "SELECT 1 AS k INTERSECT SELECT 1, 2", "NUM_COLUMNS_MISMATCH", "operator", "INTERSECT");
    expect_param(s, "SELECT ntile(0) OVER (ORDER BY ten), ten, four FROM tenk1", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
                 "exprName", "buckets");
    expect_param(s, "SELECT nth_value(four, 0) OVER (ORDER BY ten), ten, four FROM tenk1",
                 "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE", "exprName", "offset");
    expect_param(s, "create table foo (with baz)", "UNSUPPORTED_DATATYPE", "typeName", "\"BAZ\"");
    /* pipe-operators.sql 99: the whole EXCEPT list, not only the names that overlap */
    expect_param(s, "select 1 as x, 2 as y, 3 as z\n|> drop z, y, z", "EXCEPT_OVERLAPPING_COLUMNS", "columns",
                 "z, y, z");
    cz_session_free(s);
}

static void expect_message(CzSession *s, const char *sql, const char *sqlstate, const char *message) {
    CzResult *r = cz_run_sql(s, sql, strlen(sql), NULL);
    cr_assert_eq(cz_result_status(r), CZ_ERROR, "%s should fail", sql);
    const CzError *e = cz_result_error(r);
    if (sqlstate) cr_expect_str_eq(e->sqlstate ? e->sqlstate : "(none)", sqlstate, "%s", sql);
    cr_expect_str_eq(e->message, message, "%s", sql);
    cz_result_free(r);
}

/* classes that had no text (the message was name=value pairs, the SQLSTATE
 * XXKCZ), subclasses that showed only their class's text, and a legacy
 * class, which Spark prints without the [class] prefix */
Test(error_messages, texts_and_states) {
    CzSession *s = cz_session_new(true);
    ok(s, "CREATE TEMPORARY VIEW tbl_view AS SELECT * FROM VALUES (10, 'name1') AS tbl_view(id, name)");
    expect_message(s, "SELECT * EXCEPT(id, id) FROM tbl_view", "42702",
                   "[EXCEPT_OVERLAPPING_COLUMNS] Columns in an EXCEPT list must be distinct and non-overlapping, but "
                   "got (id, id).");
    expect_message(s, "SELECT * FROM VALUES (1) AS t(a) WHERE a", "42K09",
                   "[DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN] Cannot resolve \"a\" due to data type mismatch: Filter "
                   "expression \"a\" of type \"INT\" is not a boolean.");
    expect_message(s, "SELECT interval 3 month 1 hour", NULL,
                   "Cannot mix year-month and day-time fields: interval 3 month 1 hour.");
    cz_session_free(s);
}
