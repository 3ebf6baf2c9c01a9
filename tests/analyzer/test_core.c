/* The analyzer core through its public API: the rule executor's trace,
 * sessions (a failing statement leaves no trace), catalog versions, limits. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "catalyzer.h"

static CzResult *run(CzSession *s, const char *sql) { return cz_run_sql(s, sql, strlen(sql), NULL); }

static void expect_ok(CzSession *s, const char *sql, const char *schema) {
    CzResult *r = run(s, sql);
    cr_assert_eq(cz_result_status(r), CZ_OK, "%s: %s", sql,
                 cz_result_error(r) ? cz_result_error(r)->message : "");
    if (schema) cr_expect_str_eq(cz_result_schema(r), schema, "%s", sql);
    cz_result_free(r);
}

static void expect_error(CzSession *s, const char *sql, const char *cls) {
    CzResult *r = run(s, sql);
    cr_assert_eq(cz_result_status(r), CZ_ERROR, "%s should fail", sql);
    cr_expect_str_eq(cz_result_error(r)->error_class, cls, "%s", sql);
    cz_result_free(r);
}

Test(core, resolves_tables_columns_and_names) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE TABLE t (a INT, b STRING, c DECIMAL(10,2))", NULL);
    expect_ok(s, "SELECT a, b FROM t", "struct<a:int,b:string>");
    expect_ok(s, "SELECT a + 1, count(*), sum(c) FROM t GROUP BY a",
              "struct<(a + 1):int,count(1):bigint,sum(c):decimal(20,2)>");
    expect_ok(s, "SELECT t.* FROM t", "struct<a:int,b:string,c:decimal(10,2)>");
    expect_error(s, "SELECT x FROM t", "UNRESOLVED_COLUMN.WITH_SUGGESTION");
    expect_error(s, "SELECT a FROM nope", "TABLE_OR_VIEW_NOT_FOUND");
    expect_error(s, "SELECT nosuchfn(a) FROM t", "UNRESOLVED_ROUTINE");
    expect_error(s, "SELECT a, count(*) FROM t", "MISSING_GROUP_BY");
    expect_error(s, "SELECT count(*) FROM t GROUP BY explode(array(a))", "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT");
    /* a user's CAST is checked once its argument is typed */
    expect_error(s, "SELECT CAST(array(a) AS INT) FROM t", "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION");
    expect_ok(s, "SELECT CAST(b AS INT), CAST(NULL AS ARRAY<INT>) FROM t", "struct<b:int,NULL:array<int>>");
    cz_session_free(s);
}

Test(core, failed_statement_leaves_no_trace) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE TEMPORARY VIEW v AS SELECT 1 AS a", NULL);
    /* fails while analysing its query: the view must keep its old definition */
    expect_error(s, "CREATE OR REPLACE TEMPORARY VIEW v AS SELECT nope", "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION");
    expect_ok(s, "SELECT a FROM v", "struct<a:int>");
    expect_error(s, "CREATE TABLE t2 AS SELECT x FROM v", "UNRESOLVED_COLUMN.WITH_SUGGESTION");
    expect_error(s, "SELECT * FROM t2", "TABLE_OR_VIEW_NOT_FOUND");
    cz_session_free(s);
}

Test(core, session_configuration_changes_analysis) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE TABLE t (a INT, b INT)", NULL);
    expect_ok(s, "SELECT a, sum(b) FROM t GROUP BY 1", "struct<a:int,sum(b):bigint>");
    cr_assert(cz_session_set_conf(s, "spark.sql.groupByOrdinal", "false"));
    /* now `1` is a constant to group by, and a is not grouped */
    expect_error(s, "SELECT a, sum(b) FROM t GROUP BY 1", "MISSING_AGGREGATION");
    cr_expect(!cz_session_set_conf(s, "spark.sql.caseSensitive", "maybe"));
    cz_session_free(s);
}

typedef struct Events {
    int n, effective;
    bool saw_relations;
    bool plan_given;
} Events;

static void on_event(void *ctx, const CzTraceEvent *ev) {
    Events *e = ctx;
    e->n++;
    if (ev->effective) e->effective++;
    if (!strcmp(ev->rule, "ResolveRelations") && ev->effective) e->saw_relations = true;
    if (ev->plan) e->plan_given = true;
}

Test(core, trace_reports_rule_applications) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE TABLE t (a INT)", NULL);
    Events ev = {0};
    CzRunOptions o = {.trace = on_event, .trace_ctx = &ev, .trace_level = CZ_TRACE_EFFECTIVE, .trace_plans = true,
                      .want_tree = true};
    const char *sql = "SELECT a + 1 AS b FROM t WHERE a > 0";
    CzResult *r = cz_run_sql(s, sql, strlen(sql), &o);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cr_expect_gt(ev.n, 0);
    cr_expect_eq(ev.n, ev.effective, "level EFFECTIVE sends only effective events");
    cr_expect(ev.saw_relations);
    cr_expect(ev.plan_given);
    cr_expect_not_null(strstr(cz_result_tree(r), "Filter (a#"));
    const CzRuleTotal *totals;
    int n = cz_result_rule_totals(r, &totals);
    cr_expect_gt(n, 5);
    cz_result_free(r);
    cz_session_free(s);
}

Test(core, memory_budget_is_an_error_not_a_crash) {
    CzSession *s = cz_session_new(false);
    CzRunOptions o = {.memory_limit = 64 * 1024};
    /* a query that needs far more than 64 KiB of arena */
    char sql[200000];
    strcpy(sql, "SELECT 1");
    size_t len = strlen(sql);
    for (int i = 0; i < 5000 && len + 40 < sizeof sql; i++) len += (size_t)sprintf(sql + len, ", %d + %d AS c%d", i, i, i);
    CzResult *r = cz_run_sql(s, sql, len, &o);
    cr_assert_eq(cz_result_status(r), CZ_ERROR);
    cr_expect_str_eq(cz_result_error(r)->error_class, "CATALYZER_MEMORY_LIMIT_EXCEEDED");
    cz_result_free(r);
    /* the session still works */
    expect_ok(s, "SELECT 1 AS one", "struct<one:int>");
    cz_session_free(s);
}

Test(core, json_line_contract) {
    CzSession *s = cz_session_new(false);
    CzResult *r = run(s, "SELECT 1 AS a");
    cr_expect_str_eq(cz_result_json(r, 0), "{\"index\":0,\"status\":\"ok\",\"schema\":\"struct<a:int>\"}");
    cz_result_free(r);
    r = run(s, "SELECT b");
    const char *j = cz_result_json(r, 3);
    cr_expect_not_null(strstr(j, "\"index\":3,\"status\":\"error\",\"error_class\":\"UNRESOLVED_COLUMN.WITHOUT_SUGGESTION\""), "%s", j);
    cr_expect_not_null(strstr(j, "\"query_context\":{\"start\":7,\"stop\":7,\"fragment\":\"b\"}"), "%s", j);
    cz_result_free(r);
    cz_session_free(s);
}

Test(core, variable_substitution_in_statement_text) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE TABLE t (a INT, b STRING)", NULL);
    expect_ok(s, "SET hivevar:col = b", NULL);
    expect_ok(s, "SET tbl = t", NULL);
    expect_ok(s, "SELECT ${col}, ${hivevar:col} AS c FROM ${tbl}", "struct<b:string,c:string>");
    /* an unset key, an unbound prefix and env:/system: stay as written (and so fail to parse) */
    expect_error(s, "SELECT ${nosuch} FROM t", "PARSE_SYNTAX_ERROR");
    expect_error(s, "SELECT ${env:HOME} FROM t", "PARSE_SYNTAX_ERROR");
    expect_error(s, "SELECT ${other:col} FROM t", "PARSE_SYNTAX_ERROR");
    cr_assert(cz_session_set_conf(s, "spark.sql.variable.substitute", "false"));
    expect_error(s, "SELECT ${col} FROM t", "PARSE_SYNTAX_ERROR");
    cz_session_free(s);
}
