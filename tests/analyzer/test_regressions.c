/* Queries that once crashed the analyzer, each kept as it was found (the
 * Spark golden file and statement it came from), run through the public API. */
#include <criterion/criterion.h>
#include <string.h>

#include "catalyzer.h"

static CzResult *run(CzSession *s, const char *sql) { return cz_run_sql(s, sql, strlen(sql), NULL); }

static void expect_ok(CzSession *s, const char *sql, const char *schema) {
    CzResult *r = run(s, sql);
    cr_assert_eq(cz_result_status(r), CZ_OK, "%s: %s", sql, cz_result_error(r) ? cz_result_error(r)->message : "");
    if (schema) cr_expect_str_eq(cz_result_schema(r), schema, "%s", sql);
    cz_result_free(r);
}

static void expect_error(CzSession *s, const char *sql, const char *cls) {
    CzResult *r = run(s, sql);
    cr_assert_eq(cz_result_status(r), CZ_ERROR, "%s should fail", sql);
    cr_expect_str_eq(cz_result_error(r)->error_class, cls, "%s", sql);
    cz_result_free(r);
}

/* postgreSQL/join.sql statement 73. A NATURAL join took the hidden key
 * columns an earlier NATURAL FULL JOIN leaves behind as join keys too, so
 * one name became several keys and the output list overran its array,
 * overwriting the next node in the arena (a nondeterministic crash in
 * CheckAnalysis's walk). Spark joins on the visible output only. */
Test(regressions, natural_full_join_chain) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE TABLE t1 (name STRING, n INTEGER) USING parquet", NULL);
    expect_ok(s, "CREATE TABLE t2 (name STRING, n INTEGER) USING parquet", NULL);
    expect_ok(s, "CREATE TABLE t3 (name STRING, n INTEGER) USING parquet", NULL);
    const char *chain = "SELECT * FROM (SELECT name, n as s1_n, 1 as s1_1 FROM t1) as s1 NATURAL FULL JOIN "
                        "(SELECT name, n as s2_n, 2 as s2_2 FROM t2) as s2 NATURAL FULL JOIN "
                        "(SELECT name, n as s3_n, 3 as s3_2 FROM t3) s3";
    expect_ok(s, chain, "struct<name:string,s1_n:int,s1_1:int,s2_n:int,s2_2:int,s3_n:int,s3_2:int>");
    /* each join has one key: (name = name), never the hidden keys besides */
    CzRunOptions opts = {.want_tree = true};
    CzResult *r = cz_run_sql(s, chain, strlen(chain), &opts);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    const char *tree = cz_result_tree(r);
    int joins = 0;
    for (const char *p = strstr(tree, "Join FullOuter, "); p; p = strstr(p + 1, "Join FullOuter, ")) {
        const char *eol = strchr(p, '\n');
        cr_expect(!memmem(p, (size_t)(eol - p), " AND ", 5), "a join on more than the visible key: %s", tree);
        joins++;
    }
    cr_expect_eq(joins, 2, "%s", tree);
    cz_result_free(r);
    /* four joins deep, and the hidden keys still reachable by qualified name */
    expect_ok(s,
              "SELECT s1.name, s2.name, s4.name FROM (SELECT name, n AS a FROM t1) s1 NATURAL FULL JOIN "
              "(SELECT name, n AS b FROM t2) s2 NATURAL FULL JOIN (SELECT name, n AS c FROM t3) s3 "
              "NATURAL FULL JOIN (SELECT name, n AS d FROM t1) s4",
              "struct<name:string,name:string,name:string>");
    cz_session_free(s);
}

/* group-by-filter.sql statement 80. A window function inside an aggregate's
 * FILTER was extracted by ExtractWindowExpressions again on every iteration
 * (the plan grew until the stack overflowed); Spark refuses it when it
 * builds the aggregate. */
Test(regressions, window_function_in_aggregate_filter) {
    CzSession *s = cz_session_new(false);
    expect_ok(s,
              "CREATE TEMPORARY VIEW d AS SELECT * FROM VALUES (1, 2, 'a'), (3, 4, 'b') AS d(num1, num2, str)", NULL);
    expect_error(s, "SELECT sum(num1) FILTER (WHERE nth_value(num2, 2) OVER (ORDER BY num2) > 1) FROM d",
                 "INVALID_AGGREGATE_FILTER.CONTAINS_WINDOW_FUNCTION");
    expect_error(s, "SELECT sum(num1) FILTER (WHERE rand() > 0.5) FROM d", "INVALID_AGGREGATE_FILTER.NON_DETERMINISTIC");
    expect_error(s, "SELECT sum(num1) FILTER (WHERE num2) FROM d", "INVALID_AGGREGATE_FILTER.NOT_BOOLEAN");
    expect_error(s, "SELECT sum(num1) FILTER (WHERE max(num2) > 1) FROM d", "INVALID_AGGREGATE_FILTER.CONTAINS_AGGREGATE");
    cz_session_free(s);
}
