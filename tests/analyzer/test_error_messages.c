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
