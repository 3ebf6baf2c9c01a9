/* Typing, coercion and error classes of the function library, checked on
 * expressions parsed by the real parser and resolved by the library alone. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "catalog/conf.h"
#include "functions/functions.h"
#include "print/printer.h"

typedef struct Res {
    const char *type;  /* catalog string, or NULL on error */
    const char *name;  /* auto name */
    const char *error; /* error class, or NULL */
} Res;

static Arena *A;

static Res run(const char *expr) {
    static Conf conf = {.ansi = true};
    Analysis an = {.arena = A, .sql = expr, .sql_len = strlen(expr), .conf = &conf};
    Node *e = harness_expr(&an, expr);
    Res r = {NULL, NULL, NULL};
    if (an.error) {
        r.error = an.error->error_class;
        return r;
    }
    cr_assert(e && node_resolved(e), "unresolved: %s", expr);
    r.type = type_catalog_string(A, e->type);
    r.name = expr_auto_name(A, e);
    return r;
}

static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }

#define TYPE_IS(expr, want)                                                                \
    do {                                                                                   \
        Res r_ = run(expr);                                                                \
        cr_assert(r_.type, "%s failed with %s", expr, r_.error ? r_.error : "?");          \
        cr_expect_str_eq(r_.type, want, "%s", expr);                                       \
    } while (0)
#define NAME_IS(expr, want)                                                                \
    do {                                                                                   \
        Res r_ = run(expr);                                                                \
        cr_assert(r_.type, "%s failed with %s", expr, r_.error ? r_.error : "?");          \
        cr_expect_str_eq(r_.name, want, "%s", expr);                                       \
    } while (0)
#define ERROR_IS(expr, want)                                                               \
    do {                                                                                   \
        Res r_ = run(expr);                                                                \
        cr_assert(r_.error, "%s should fail (got %s)", expr, r_.type ? r_.type : "?");     \
        cr_expect_str_eq(r_.error, want, "%s", expr);                                      \
    } while (0)

TestSuite(functions, .init = setup, .fini = teardown);

Test(functions, integer_arithmetic) {
    TYPE_IS("1 + 2", "int");
    TYPE_IS("1 + 2L", "bigint");
    TYPE_IS("CAST(1 AS TINYINT) + CAST(1 AS SMALLINT)", "smallint");
    TYPE_IS("1 + 1.5D", "double");
    TYPE_IS("1 + CAST(1 AS FLOAT)", "double");
    TYPE_IS("3 / 2", "double");
    TYPE_IS("3 div 2", "bigint");
    TYPE_IS("-(1)", "int");
    TYPE_IS("~0", "int");
    TYPE_IS("3 & 5", "int");
}

Test(functions, string_promotion_is_ansi) {
    TYPE_IS("'1' + 1", "bigint");
    TYPE_IS("'1' + 1.5", "double");
    TYPE_IS("'1' = 1", "boolean");
    TYPE_IS("abs('1')", "double");
    TYPE_IS("upper(1)", "string");
}

Test(functions, decimal_precision) {
    TYPE_IS("CAST(1 AS DECIMAL(10,2)) + CAST(1 AS DECIMAL(10,2))", "decimal(11,2)");
    TYPE_IS("CAST(1 AS DECIMAL(10,2)) * CAST(1 AS DECIMAL(10,2))", "decimal(21,4)");
    TYPE_IS("CAST(1 AS DECIMAL(10,2)) / CAST(1 AS DECIMAL(10,2))", "decimal(23,13)");
    TYPE_IS("CAST(1 AS DECIMAL(38,10)) * CAST(1 AS DECIMAL(38,10))", "decimal(38,6)");
    TYPE_IS("2 % 1.8", "decimal(2,1)");
    TYPE_IS("1.5 + 1", "decimal(3,1)");
    TYPE_IS("CAST(1 AS DECIMAL(10,2)) + 1.5D", "double");
    TYPE_IS("round(2.5, 0)", "decimal(2,0)");
    TYPE_IS("ceil(-0.1)", "decimal(1,0)");
    TYPE_IS("ceil(5)", "bigint");
    TYPE_IS("ceil(5, 2)", "decimal(11,0)");
    TYPE_IS("floor(3.14159, 2)", "decimal(4,2)");
    NAME_IS("floor(3.14159, 2)", "floor(3.14159, 2)");
    TYPE_IS("CASE WHEN true THEN 1 ELSE 2.0 END", "decimal(11,1)");
}

Test(functions, dates_and_intervals) {
    TYPE_IS("DATE '2020-01-01' + 1", "date");
    NAME_IS("DATE '2020-01-01' + 1", "date_add(DATE '2020-01-01', 1)");
    TYPE_IS("DATE '2020-01-01' - DATE '2019-01-01'", "interval day");
    TYPE_IS("TIMESTAMP '2020-01-01 00:00:00' - TIMESTAMP '2019-01-01 00:00:00'", "interval day to second");
    TYPE_IS("DATE '2020-01-01' + INTERVAL '1' DAY", "date");
    NAME_IS("DATE '2020-01-01' + INTERVAL '1' DAY", "date_add(DATE '2020-01-01', extractansiintervaldays(INTERVAL '1' DAY))");
    TYPE_IS("DATE '2020-01-01' + INTERVAL '1' HOUR", "timestamp");
    TYPE_IS("TIMESTAMP '2020-01-01 00:00:00' + INTERVAL '1' HOUR", "timestamp");
    /* MultiplyDTInterval.dataType is DayTimeIntervalType(): all the fields */
    TYPE_IS("INTERVAL '1' DAY * 2", "interval day to second");
    NAME_IS("timestampadd(HOUR, 1, TIMESTAMP '2020-01-01 00:00:00')", "timestampadd(HOUR, 1, TIMESTAMP '2020-01-01 00:00:00')");
    TYPE_IS("datediff(DAY, DATE '2020-01-01', DATE '2020-01-03')", "bigint");
    NAME_IS("DATE '2020-01-01' + INTERVAL '2' HOUR", "DATE '2020-01-01' + INTERVAL '02' HOUR");
    TYPE_IS("DATE '2020-01-01' + INTERVAL '1' MONTH", "date");
    TYPE_IS("year('2020-01-01')", "int");
    TYPE_IS("date_add('2016-07-30', 1)", "date");
    /* a string beside a date is promoted to DATE first (AnsiStringPromotionTypeCoercion) */
    TYPE_IS("DATE '2001-10-01' - '2001-09-28'", "interval day");
    ERROR_IS("DATE '2011-11-11' + '1'", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
}

Test(functions, strings) {
    /* lpad/rpad over binary are BinaryPad, padding with X'00' */
    TYPE_IS("lpad(unhex('aa'), 5)", "binary");
    NAME_IS("lpad(unhex('aa'), 5)", "lpad(unhex(aa), 5, X'00')");
    TYPE_IS("rpad('hi', 5)", "string");
    NAME_IS("btrim('xyxtrimyyx', 'xy')", "btrim(xyxtrimyyx, xy)");
    NAME_IS("substr('Spark SQL' FROM 5)", "substring(Spark SQL, 5, 2147483647)");
    NAME_IS("substr('Spark SQL', 5)", "substr(Spark SQL, 5, 2147483647)");
}

Test(functions, names) {
    NAME_IS("1 + 2", "(1 + 2)");
    NAME_IS("acos(1)", "ACOS(1)");
    NAME_IS("isnull(1)", "(1 IS NULL)");
    NAME_IS("substr('Spark SQL', 5)", "substr(Spark SQL, 5, 2147483647)");
    NAME_IS("not true", "(NOT true)");
    NAME_IS("if(1 < 2, 'a', 'b')", "(IF((1 < 2), a, b))");
    NAME_IS("trim(BOTH 'x' FROM 'xay')", "TRIM(BOTH x FROM xay)");
    NAME_IS("trim(' a ')", "trim( a )");
    TYPE_IS("decode(2, 1, 'a', 2, 'b', 'c')", "string");
}

Test(functions, conditional_common_types) {
    TYPE_IS("coalesce(NULL, 1, 2L)", "bigint");
    TYPE_IS("nvl(NULL, array('2'))", "array<string>");
    TYPE_IS("greatest(1, 2.5D)", "double");
    TYPE_IS("array(1, 2L)", "array<bigint>");
    TYPE_IS("map(1.0, '2', 3.0, '4')", "map<decimal(2,1),string>");
    TYPE_IS("1 IN (1, 2L)", "boolean");
}

Test(functions, errors) {
    ERROR_IS("abs(1, 2)", "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
    ERROR_IS("1 = array(1)", "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES");
    ERROR_IS("coalesce(1, array(1))", "DATATYPE_MISMATCH.DATA_DIFF_TYPES");
    ERROR_IS("true + true", "DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE");
    ERROR_IS("CAST(DATE '2020-01-01' AS INT)", "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION");
    ERROR_IS("CAST(X'01' AS INT)", "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION");
    ERROR_IS("CAST(array(1) AS INT)", "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION");
    ERROR_IS("greatest(1)", "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
    ERROR_IS("map(1, 2, array(1), 3)", "DATATYPE_MISMATCH.CREATE_MAP_KEY_DIFF_TYPES");
    ERROR_IS("map_keys(1)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    /* lambda result types: predicates are boolean, comparators int, merge the zero's type */
    ERROR_IS("filter(array(1), x -> x)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    ERROR_IS("exists(array(1), x -> 1)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    ERROR_IS("array_sort(array(1L), (a, b) -> a - b)", "DATATYPE_MISMATCH.UNEXPECTED_RETURN_TYPE");
    ERROR_IS("aggregate(array(1.5), 0, (acc, x) -> acc + x)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    TYPE_IS("aggregate(array(1, 2), 0L, (acc, x) -> acc + x)", "bigint");
    /* struct accumulators: fields through the parameter, names do not matter */
    TYPE_IS("aggregate(array(1), (0 AS sum, 0 AS n), (acc, x) -> (acc.sum + x, acc.n + 1), acc -> acc.sum / acc.n)",
            "double");
    /* a plain expression where a function goes is a hidden lambda */
    NAME_IS("transform(array(1), 0)", "transform(array(1), lambdafunction(0, namedlambdavariable()))");
    /* array_sort(arr) carries ArraySort's default comparator */
    NAME_IS("array_sort(array(3, 1))",
            "array_sort(array(3, 1), lambdafunction((IF(((namedlambdavariable() IS NULL) AND "
            "(namedlambdavariable() IS NULL)), 0, (IF((namedlambdavariable() IS NULL), 1, "
            "(IF((namedlambdavariable() IS NULL), -1, (IF((namedlambdavariable() < namedlambdavariable()), -1, "
            "(IF((namedlambdavariable() > namedlambdavariable()), 1, 0)))))))))), namedlambdavariable(), "
            "namedlambdavariable()))");
}

Test(functions, aggregates) {
    TYPE_IS("sum(1)", "bigint");
    TYPE_IS("sum(CAST(1 AS DECIMAL(10,2)))", "decimal(20,2)");
    TYPE_IS("avg(1)", "double");
    TYPE_IS("avg(CAST(1 AS DECIMAL(10,2)))", "decimal(14,6)");
    TYPE_IS("count(1)", "bigint");
    TYPE_IS("stddev_samp(1)", "double");
    TYPE_IS("collect_list(1)", "array<int>");
    NAME_IS("count(DISTINCT 1)", "count(DISTINCT 1)");
    ERROR_IS("every(1)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    ERROR_IS("abs(DISTINCT 1)", "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX");
    ERROR_IS("upper(x -> x)", "INVALID_LAMBDA_FUNCTION_CALL.NON_HIGHER_ORDER_FUNCTION");
    ERROR_IS("sum(*)", "INVALID_USAGE_OF_STAR_OR_REGEX");
    ERROR_IS("element_at(map(1, 2), array(1))", "DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES");
    TYPE_IS("element_at(map(1L, 2), 1)", "int");
    NAME_IS("count(*)", "count(1)");
    ERROR_IS("CASE WHEN 1 THEN 1 END", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    ERROR_IS("CASE WHEN true THEN 1 ELSE array(1) END", "DATATYPE_MISMATCH.DATA_DIFF_TYPES");
    TYPE_IS("percentile_approx(1, array(0.5, 0.4), 100)", "array<int>");
    ERROR_IS("percentile_cont(0.5)", "INVALID_WITHIN_GROUP_EXPRESSION.WITHIN_GROUP_MISSING");
    NAME_IS("make_interval(1)", "make_interval(1, 0, 0, 0, 0, 0, 0.000000)");
    NAME_IS("make_dt_interval(1, 2, 3, 7.008009)", "make_dt_interval(1, 2, 3, 7.008009)");
    NAME_IS("'2' * INTERVAL 2 SECOND", "(INTERVAL '02' SECOND * 2)");
    ERROR_IS("'2' / INTERVAL 2 SECOND", "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES");
    ERROR_IS("try_add(INTERVAL 2 YEAR, INTERVAL 2 SECOND)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    TYPE_IS("'2020-01-01' + INTERVAL '1' HOUR", "string");
    NAME_IS("TIMESTAMP_NTZ '2021-01-01 00:00:00' + INTERVAL 2 SECOND", "TIMESTAMP_NTZ '2021-01-01 00:00:00' + INTERVAL '02' SECOND");
    NAME_IS("try_add(DATE '2021-01-01', 1)", "try_add(DATE '2021-01-01', 1)");
    TYPE_IS("try_add(DATE '2021-01-01', 1)", "date");
    TYPE_IS("try_subtract(TIMESTAMP '2021-01-01 00:00:00', INTERVAL '1' DAY)", "timestamp");
    TYPE_IS("nullifzero('abc')", "string");
    TYPE_IS("zeroifnull('abc')", "bigint");
    TYPE_IS("nullifzero(CAST(0 AS TINYINT))", "tinyint");
    ERROR_IS("count()", "WRONG_NUM_ARGS.WITH_SUGGESTION");
    ERROR_IS("bit_count('a')", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    TYPE_IS("bit_count(NULL)", "int");
    ERROR_IS("sort_array(array('b', 'd'), '1')", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    ERROR_IS("array_insert(array(1, 2, 3), 3, '4')", "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES");
    TYPE_IS("array_append(array(), 1)", "array<int>");
    ERROR_IS("get(NULL, 0)", "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    NAME_IS("mask('AbCD123', lowerChar => 'q')", "mask(AbCD123, X, q, n, NULL)");
    ERROR_IS("mask('a', nope => 'q')", "UNRECOGNIZED_PARAMETER_NAME");
    ERROR_IS("upper(str => 'a')", "NAMED_PARAMETERS_NOT_SUPPORTED");
}

/* Every built-in called with 0..3 arguments of assorted types: each call
 * either types or fails with an error, and what types also prints. */
Test(functions, registry_sweep_never_crashes) {
    static const char *const ARGS[] = {"1", "'a'", "NULL", "1.5", "array(1)", "map(1, 'a')", "named_struct('x', 1)",
                                       "DATE '2020-01-01'", "true", "INTERVAL '1' DAY", "X'01'", "2L",
                                       "x -> x", "TIMESTAMP '2020-01-01 00:00:00'", "INTERVAL '1' MONTH",
                                       "array(array(1))", "(k, v) -> k"};
    const int NA = (int)(sizeof ARGS / sizeof ARGS[0]);
    const char *const *names;
    int n = func_builtin_names(&names);
    cr_assert(n > 400, "only %d built-ins", n);
    static Conf conf = {.ansi = true};
    int typed = 0, failed = 0;
    for (int f = 0; f < n; f++) {
        for (int k = 0; k <= 4; k++) {
            for (int v = 0; v < NA; v++) {
                char sql[256];
                int len = snprintf(sql, sizeof sql, "%s(", names[f]);
                for (int i = 0; i < k; i++)
                    len += snprintf(sql + len, sizeof sql - (size_t)len, "%s%s", i ? ", " : "", ARGS[(v + i * 5) % NA]);
                snprintf(sql + len, sizeof sql - (size_t)len, ")");
                Arena *a = arena_new(0);
                Analysis an = {.arena = a, .sql = sql, .sql_len = strlen(sql), .conf = &conf};
                Node *e = harness_expr(&an, sql);
                if (an.error) failed++;
                else if (e && node_resolved(e)) {
                    typed++;
                    cr_assert(expr_auto_name(a, e) != NULL);
                    cr_assert(expr_to_string(a, e) != NULL);
                    cr_assert(e->type != NULL);
                }
                arena_free(a);
                if (k == 0) break;
            }
        }
    }
    cr_expect(typed > 1000, "typed %d, failed %d", typed, failed);
    /* operators between every pair of argument kinds */
    static const char *const OPS[] = {"+", "-", "*", "/", "%", "div", "=", "<=>", "<", ">=", "and", "or", "&", "|",
                                      "^", "||", "like", "rlike"};
    for (size_t o = 0; o < sizeof OPS / sizeof OPS[0]; o++)
        for (int x = 0; x < NA; x++)
            for (int y = 0; y < NA; y++) {
                char sql[256];
                snprintf(sql, sizeof sql, "(%s) %s (%s)", ARGS[x], OPS[o], ARGS[y]);
                Arena *a = arena_new(0);
                Analysis an = {.arena = a, .sql = sql, .sql_len = strlen(sql), .conf = &conf};
                Node *e = harness_expr(&an, sql);
                if (!an.error && e && node_resolved(e)) {
                    cr_assert(expr_auto_name(a, e) != NULL);
                    cr_assert(expr_to_string(a, e) != NULL);
                }
                arena_free(a);
            }
}
