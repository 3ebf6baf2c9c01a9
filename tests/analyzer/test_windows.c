/* Window functions, grouping analytics and generators through the public
 * API: the error class Spark raises for each misuse, and the generated names
 * of window expressions. Their plans are golden files (tests/golden/windows,
 * grouping_analytics, generators). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "catalyzer.h"

static const char *SETUP = "CREATE TABLE t (a INT, b BIGINT, c STRING, arr ARRAY<INT>)";

/* Runs SETUP then sql in a fresh session; returns the error class or "ok". */
static const char *outcome(const char *sql, char *buf, size_t n) {
    CzSession *s = cz_session_new(true);
    CzRunOptions o = {0};
    CzResult *r = cz_run_sql(s, SETUP, strlen(SETUP), &o);
    cz_result_free(r);
    r = cz_run_sql(s, sql, strlen(sql), &o);
    snprintf(buf, n, "%s", cz_result_status(r) == CZ_OK ? "ok" : cz_result_error(r)->error_class);
    cz_result_free(r);
    cz_session_free(s);
    return buf;
}

typedef struct Case {
    const char *sql, *want;
} Case;

static const Case CASES[] = {
    {"SELECT a, sum(b) OVER w FROM t", "MISSING_WINDOW_SPECIFICATION"},
    {"SELECT a, sum(b) OVER v FROM t WINDOW w AS (ORDER BY a)", "MISSING_WINDOW_SPECIFICATION"},
    {"SELECT a FROM t WINDOW w AS (ORDER BY a), w AS (ORDER BY b)", "INVALID_SQL_SYNTAX.REPETITIVE_WINDOW_DEFINITION"},
    {"SELECT row_number() FROM t", "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE"},
    {"SELECT rank() OVER (PARTITION BY c) FROM t", "_LEGACY_ERROR_TEMP_1037"},
    {"SELECT a FROM t WHERE rank() OVER (ORDER BY a) = 1", "_LEGACY_ERROR_TEMP_1034"},
    {"SELECT count(a) FILTER (WHERE a > 1) OVER (PARTITION BY c) FROM t", "_LEGACY_ERROR_TEMP_1030"},
    {"SELECT sum(b) OVER (ORDER BY a ROWS BETWEEN CURRENT ROW AND 2147483648 FOLLOWING) FROM t",
     "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE"},
    {"SELECT sum(b) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND 1 FOLLOWING) FROM t",
     "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_INVALID_BOUND"},
    {"SELECT sum(b) OVER (ORDER BY a RANGE BETWEEN 1 FOLLOWING AND 1 PRECEDING) FROM t",
     "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON"},
    {"SELECT sum(b) OVER (PARTITION BY c RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM t",
     "DATATYPE_MISMATCH.RANGE_FRAME_WITHOUT_ORDER"},
    {"SELECT sum(b) OVER (ORDER BY a, b RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM t",
     "DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER"},
    {"SELECT sum(b) OVER (ORDER BY CAST(a AS TIMESTAMP) RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM t",
     "DATATYPE_MISMATCH.RANGE_FRAME_INVALID_TYPE"},
    {"SELECT a, sum(b) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t", "ok"},
    {"SELECT a, grouping(a) FROM t GROUP BY a", "UNSUPPORTED_GROUPING_EXPRESSION"},
    {"SELECT a, grouping(b) FROM t GROUP BY ROLLUP(a)", "GROUPING_COLUMN_MISMATCH"},
    {"SELECT a, grouping_id(b) FROM t GROUP BY CUBE(a)", "GROUPING_ID_COLUMN_MISMATCH"},
    {"SELECT a, b, count(1) FROM t GROUP BY CUBE(1, 3)", "GROUP_BY_POS_AGGREGATE"},
    {"SELECT a, b, count(1) FROM t GROUP BY ROLLUP(-1, 2)", "GROUP_BY_POS_OUT_OF_RANGE"},
    {"SELECT a FROM t GROUP BY ROLLUP(a) HAVING zz > 1", "UNRESOLVED_COLUMN.WITH_SUGGESTION"},
    {"SELECT a, count(*) FROM t GROUP BY ROLLUP(a) ORDER BY grouping(b)", "GROUPING_COLUMN_MISMATCH"},
    {"SELECT a, count(*) FROM t GROUP BY a ORDER BY grouping(a)", "UNSUPPORTED_GROUPING_EXPRESSION"},
    {"SELECT a FROM t ORDER BY rank() OVER (ORDER BY b)", "UNSUPPORTED_EXPR_FOR_OPERATOR"},
    {"SELECT ntile(0) OVER (ORDER BY a) FROM t", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"},
    {"SELECT median(a) OVER (ORDER BY a) FROM t", "INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC"},
    {"SELECT a AS (x, y) FROM t", "MULTI_ALIAS_WITHOUT_GENERATOR"},
    {"SELECT explode(arr), explode(arr) FROM t", "UNSUPPORTED_GENERATOR.MULTI_GENERATOR"},
    {"SELECT explode(arr) + 1 FROM t", "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS"},
    {"SELECT a FROM t WHERE explode(arr) > 1", "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT"},
    {"SELECT a FROM t LATERAL VIEW upper(c) x", "UNSUPPORTED_GENERATOR.NOT_GENERATOR"},
    {"SELECT explode(arr) AS (x, y) FROM t", "UDTF_ALIAS_NUMBER_MISMATCH"},
};

Test(windows, error_classes) {
    char buf[256];
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        cr_expect_str_eq(outcome(CASES[i].sql, buf, sizeof buf), CASES[i].want, "%s", CASES[i].sql);
}

/* The auto-generated name of a window expression includes its frame. */
Test(windows, auto_names) {
    CzSession *s = cz_session_new(true);
    CzRunOptions o = {0};
    CzResult *r = cz_run_sql(s, SETUP, strlen(SETUP), &o);
    cz_result_free(r);
    const char *q = "SELECT sum(b) OVER (ORDER BY a), lag(b) OVER (ORDER BY a), explode(arr) FROM t";
    r = cz_run_sql(s, q, strlen(q), &o);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cr_expect_str_eq(cz_result_schema(r),
                     "struct<sum(b) OVER (ORDER BY a ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW):"
                     "bigint,lag(b, 1, NULL) OVER (ORDER BY a ASC NULLS FIRST ROWS BETWEEN -1 FOLLOWING AND -1 "
                     "FOLLOWING):bigint,col:int>");
    cz_result_free(r);
    cz_session_free(s);
}
