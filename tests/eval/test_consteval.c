/* The constant evaluator: values and Spark's runtime errors. Expressions go
 * through the whole path (parse, resolve, evaluate) as the DEFAULT of a
 * session variable; casts are also tested directly on values. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "catalyzer.h"
#include "catalog/conf.h"
#include "catalog/session.h"
#include "core/analysis.h"
#include "eval/consteval.h"
#include "print/printer.h"

static CzSession *S;
static Arena *A;

static void setup(void) {
    S = cz_session_new(false);
    A = arena_new(0);
}
static void teardown(void) {
    cz_session_free(S);
    arena_free(A);
}
TestSuite(consteval, .init = setup, .fini = teardown);

static CzResult *run(const char *sql) { return cz_run_sql(S, sql, strlen(sql), NULL); }

/* The value of expr as Spark's SQL literal text (value_print_sql), or the
 * error class prefixed by "!". */
static const char *eval_sql(const char *expr) {
    char sql[1024];
    snprintf(sql, sizeof sql, "DECLARE OR REPLACE VARIABLE v DEFAULT %s", expr);
    CzResult *r = run(sql);
    const char *out;
    if (cz_result_status(r) != CZ_OK) {
        out = arena_printf(A, "!%s", cz_result_error(r)->error_class);
    } else {
        const SessionState *st = S->state;
        const Variable *v = state_find_var(st, "v");
        StrBuf sb;
        sb_init(&sb, A, 32);
        value_print_sql(&sb, &v->value);
        out = sb_str(&sb);
    }
    cz_result_free(r);
    return out;
}

/* The type the variable got from its DEFAULT. */
static const char *eval_type(const char *expr) {
    eval_sql(expr);
    const Variable *v = state_find_var(S->state, "v");
    return v ? type_catalog_string(A, v->type) : "?";
}

#define EXPECT(expr, want)                                                  \
    do {                                                                    \
        const char *got_ = eval_sql(expr);                                  \
        cr_expect_str_eq(got_, want, "%s: got %s, want %s", expr, got_, want); \
    } while (0)

Test(consteval, literals_and_arithmetic) {
    EXPECT("1 + 2", "3");
    EXPECT("7 div 2", "3L");
    EXPECT("7 % 3", "1");
    EXPECT("-(5)", "-5");
    EXPECT("2147483647L + 1", "2147483648L");
    EXPECT("1.5 + 2.25", "3.75BD");
    EXPECT("5.0 / 2", "2.500000BD");
    EXPECT("2 * 1.5D", "3.0D");
    EXPECT("abs(-3)", "3");
    /* Spark's XORShiftRandom for a seeded rand() */
    EXPECT("1 + rand(5)", "1.023906964275029D");
}

Test(consteval, ansi_arithmetic_errors) {
    EXPECT("1 / 0", "!DIVIDE_BY_ZERO");
    EXPECT("5 % 0", "!DIVIDE_BY_ZERO");
    EXPECT("2147483647 + 1", "!ARITHMETIC_OVERFLOW");
    EXPECT("-9223372036854775808L - 1", "!ARITHMETIC_OVERFLOW");
}

Test(consteval, casts) {
    EXPECT("CAST('12' AS INT)", "12");
    EXPECT("CAST(' 12 ' AS INT)", "12");
    EXPECT("CAST('1.5' AS INT)", "!CAST_INVALID_INPUT");
    EXPECT("CAST('hello' AS INT)", "!CAST_INVALID_INPUT");
    EXPECT("CAST(100000 AS SMALLINT)", "!CAST_OVERFLOW");
    EXPECT("CAST(1.0E10 AS INT)", "!CAST_OVERFLOW");
    EXPECT("CAST(3.99 AS INT)", "3");
    EXPECT("CAST('1.25' AS DECIMAL(3,1))", "1.3BD");
    EXPECT("CAST('123.4' AS DECIMAL(3,1))", "!NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION");
    EXPECT("CAST('yes' AS BOOLEAN)", "true");
    EXPECT("CAST('2020-02-29' AS DATE)", "DATE '2020-02-29'");
    EXPECT("CAST('2021-02-29' AS DATE)", "!CAST_INVALID_INPUT");
    EXPECT("CAST('2020-01-02 03:04:05.5' AS TIMESTAMP_NTZ)", "TIMESTAMP_NTZ '2020-01-02 03:04:05.5'");
    EXPECT("CAST(1.5D AS STRING)", "'1.5'");
    EXPECT("CAST(array(1, 2) AS STRING)", "'[1, 2]'");
    EXPECT("try_cast('x' AS INT)", "CAST(NULL AS INT)");
}

Test(consteval, comparisons_and_logic) {
    EXPECT("1 < 2", "true");
    EXPECT("'a' = 'b'", "false");
    EXPECT("NULL = 1", "CAST(NULL AS BOOLEAN)");
    EXPECT("NULL <=> NULL", "true");
    EXPECT("false AND NULL", "false");
    EXPECT("true OR NULL", "true");
    EXPECT("NOT true", "false");
    EXPECT("2 IN (1, 2, 3)", "true");
    EXPECT("4 IN (1, NULL)", "CAST(NULL AS BOOLEAN)");
}

Test(consteval, conditionals) {
    EXPECT("IF(1 > 2, 'a', 'b')", "'b'");
    EXPECT("CASE WHEN 1 = 2 THEN 10 WHEN 2 = 2 THEN 20 END", "20");
    EXPECT("CASE WHEN false THEN 1 END", "CAST(NULL AS INT)");
    EXPECT("coalesce(NULL, NULL, 3)", "3");
    EXPECT("nvl(NULL, 'x')", "'x'");
    EXPECT("nullif(1, 1)", "CAST(NULL AS INT)");
    /* lazy: the branch not taken is not evaluated */
    EXPECT("IF(true, 1, 1 / 0)", "1.0D");
}

Test(consteval, strings) {
    EXPECT("'ab' || 'cd'", "'abcd'");
    EXPECT("concat('a', 1, 'b')", "'a1b'");
    EXPECT("concat_ws('-', 'a', NULL, 'b')", "'a-b'");
    EXPECT("upper('abc')", "'ABC'");
    EXPECT("lower('ABC')", "'abc'");
    EXPECT("substr('12345', 2, 3)", "'234'");
    EXPECT("substr('12345', -2)", "'45'");
    EXPECT("length('héllo')", "5");
    EXPECT("trim('  x  ')", "'x'");
    EXPECT("replace('aXbX', 'X', '-')", "'a-b-'");
    EXPECT("lpad('7', 3, '0')", "'007'");
    EXPECT("ascii('h')", "104");
    EXPECT("reverse('abc')", "'cba'");
    EXPECT("instr('hello', 'll')", "3");
    EXPECT("'abc' LIKE 'a%'", "true");
}

Test(consteval, dates) {
    EXPECT("make_date(2024, 2, 29)", "DATE '2024-02-29'");
    EXPECT("DATE '2020-01-31' + 1", "DATE '2020-02-01'");
    EXPECT("date_sub(DATE '2020-03-01', 1)", "DATE '2020-02-29'");
    EXPECT("year(DATE '1999-12-31')", "1999");
}

Test(consteval, more_functions) {
    EXPECT("translate('abcd', 'bd', 'X')", "'aXc'");
    EXPECT("substring_index('a.b.c', '.', 2)", "'a.b'");
    EXPECT("substring_index('a.b.c', '.', -1)", "'c'");
    EXPECT("elt(2, 'x', 'y')", "'y'");
    EXPECT("hex(255)", "'FF'");
    EXPECT("pmod(-7, 3)", "2");
    EXPECT("shiftleft(7, 2)", "28");
    EXPECT("try_divide(1, 0)", "CAST(NULL AS DOUBLE)");
    EXPECT("try_add(2147483647, 1)", "CAST(NULL AS INT)");
    EXPECT("add_months(DATE '2020-01-31', 1)", "DATE '2020-02-29'");
    EXPECT("last_day(DATE '2021-02-10')", "DATE '2021-02-28'");
    EXPECT("dayofweek(DATE '2024-01-07')", "1");
    EXPECT("make_timestamp_ntz(2020, 1, 2, 3, 4, 5.5)", "TIMESTAMP_NTZ '2020-01-02 03:04:05.5'");
    EXPECT("array_join(array('a', NULL, 'b'), ',')", "'a,b'");
    EXPECT("sort_array(array(3, 1, 2), false)", "ARRAY(3, 2, 1)");
    EXPECT("array_max(array(3, 9, 2))", "9");
    EXPECT("slice(array(1, 2, 3, 4), 2, 2)", "ARRAY(2, 3)");
    EXPECT("sequence(1, 3)", "ARRAY(1, 2, 3)");
    EXPECT("array_position(array(5, 6), 6)", "2L");
    EXPECT("typeof(current_date())", "'date'");
}

Test(consteval, collections) {
    EXPECT("array(1, 2, 4)[1]", "2");
    EXPECT("array(1, 2)[5]", "!INVALID_ARRAY_INDEX");
    EXPECT("map('a', 1, 'b', 2)['b']", "2");
    EXPECT("named_struct('x', 1, 'y', 'z').y", "'z'");
    EXPECT("size(array(1, 2, 3))", "3");
    EXPECT("element_at(array(1, 2, 3), -1)", "3");
    cr_expect_str_eq(eval_type("map('Hello', 5.1, 'World', -7.1E10)"), "map<string,double>");
}

Test(consteval, typeof_and_types) {
    EXPECT("typeof(1L)", "'bigint'");
    EXPECT("typeof(array(1))", "'array<int>'");
    cr_expect_str_eq(eval_type("NULL"), "void");
    cr_expect_str_eq(eval_type("5.0"), "decimal(2,1)");
}

Test(consteval, subqueries) {
    EXPECT("(SELECT 1)", "!INVALID_DEFAULT_VALUE.SUBQUERY_EXPRESSION");
    /* scalar and row subqueries through SET VAR */
    CzResult *r = run("DECLARE x INT");
    cz_result_free(r);
    r = run("SET VAR x = (SELECT max(c) FROM VALUES (3), (9), (4) AS t(c))");
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cz_result_free(r);
    cr_expect_eq(state_find_var(S->state, "x")->value.u.i, 9);
    r = run("SET VAR x = (SELECT c FROM VALUES (1), (2) AS t(c))");
    cr_expect_str_eq(cz_result_error(r)->error_class, "SCALAR_SUBQUERY_TOO_MANY_ROWS");
    cz_result_free(r);
    r = run("SET VAR (x) = (SELECT c FROM VALUES (1), (2) AS t(c))");
    cr_expect_str_eq(cz_result_error(r)->error_class, "ROW_SUBQUERY_TOO_MANY_ROWS");
    cz_result_free(r);
    r = run("SET VAR (x) = (SELECT c + 1 FROM VALUES (1), (2) AS t(c) WHERE c > 1)");
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cz_result_free(r);
    cr_expect_eq(state_find_var(S->state, "x")->value.u.i, 3);
    r = run("SET VAR (x) = (WITH w AS (SELECT 5 AS c UNION ALL SELECT 6) SELECT count(*) FROM w)");
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cz_result_free(r);
    cr_expect_eq(state_find_var(S->state, "x")->value.u.i, 2);
}

Test(consteval, variables_in_expressions) {
    cz_result_free(run("DECLARE a INT DEFAULT 40"));
    EXPECT("a + 2", "42");
    EXPECT("system.session.a * 2", "80");
}

Test(consteval, direct_casts) {
    Conf conf;
    conf_init_defaults(&conf);
    Analysis an = {.arena = A, .conf = &conf};
    Value in = {.type = &TYPE_STRING};
    in.u.s.p = "  -17 ";
    in.u.s.len = 6;
    Value out;
    cr_assert(const_cast_value(&an, &in, &TYPE_LONG, NULL, &out));
    cr_expect_eq(out.u.i, -17);
    in.u.s.p = "1e3";
    in.u.s.len = 3;
    cr_assert(const_cast_value(&an, &in, &TYPE_DOUBLE, NULL, &out));
    cr_expect_eq(out.u.d, 1000.0);
    Value big = {.type = &TYPE_LONG, .u.i = 300};
    cr_expect_not(const_cast_value(&an, &big, &TYPE_BYTE, NULL, &out));
    cr_expect_str_eq(an.error->error_class, "CAST_OVERFLOW");
    cr_expect_str_eq(an.error->phase, "execution");
}

bool consteval_table_sorted(void);
Test(consteval, function_table_sorted) { cr_expect(consteval_table_sorted()); }

/* Parameter markers bound from the run options (named and positional). */
Test(consteval, run_parameters) {
    const char *names[] = {"a", "b"};
    const char *vals[] = {"40", "'x'"};
    CzRunOptions o = {.nnamed_params = 2, .param_names = names, .param_values_sql = vals};
    const char *sql = "SELECT :a + 2 AS n, :b AS s";
    CzResult *r = cz_run_sql(S, sql, strlen(sql), &o);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cr_expect_str_eq(cz_result_schema(r), "struct<n:int,s:string>");
    cz_result_free(r);
    const char *pos[] = {"1", "2.5"};
    CzRunOptions p = {.npos_params = 2, .pos_params_sql = pos};
    sql = "SELECT ? AS x, ? AS y";
    r = cz_run_sql(S, sql, strlen(sql), &p);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cr_expect_str_eq(cz_result_schema(r), "struct<x:int,y:decimal(2,1)>");
    cz_result_free(r);
    sql = "SELECT :missing";
    r = cz_run_sql(S, sql, strlen(sql), NULL);
    cr_expect_str_eq(cz_result_error(r)->error_class, "UNBOUND_SQL_PARAMETER");
    cz_result_free(r);
    sql = "SELECT :a, ?";
    r = cz_run_sql(S, sql, strlen(sql), &o);
    cr_expect_str_eq(cz_result_error(r)->error_class, "INVALID_QUERY_MIXED_QUERY_PARAMETERS");
    cz_result_free(r);
}
