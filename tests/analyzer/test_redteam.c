/* The red-team findings of issue 13 that one small request could trigger in
 * the analyzer itself, each through the public API as it was found and each
 * a case that crashed, hung or ignored a limit before its fix:
 *
 * - left-deep chains the parser builds in a loop (`1+1+...`, UNION ALL,
 *   joins, pipe operators) nested deeper than any recursion after it can
 *   take: FAILED_TO_PARSE_TOO_COMPLEX past the nesting limit;
 * - a cycle among temporary views (RECURSIVE_VIEW when it is created) and
 *   views nested past spark.sql.view.maxNestedViewDepth
 *   (VIEW_EXCEED_MAX_NESTED_DEPTH);
 * - LIKE with a million %s (one stack frame each) and with patterns whose
 *   matching was exponential; a costly match stops at the deadline;
 * - sequence() and range() counts past a long;
 * - catalog registration quadratic in the number of tables and functions;
 * - ${var} substitution outside the memory budget;
 * - values the analyzer cannot compute taken for NULL. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalyzer.h"
#include "catalog/session.h"
#include "core/strbuf.h"
#include "print/printer.h"

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* the daemon's limits: nesting 1000 (--max-plan-depth), 256 MiB budget */
static const CzRunOptions DAEMON = {.max_depth = 1000, .memory_limit = 256u << 20};

static CzResult *run_opts(CzSession *s, const char *sql, const CzRunOptions *o) {
    return cz_run_sql(s, sql, strlen(sql), o);
}

static void expect_ok(CzSession *s, const char *sql, const CzRunOptions *o) {
    CzResult *r = run_opts(s, sql, o);
    cr_assert_eq(cz_result_status(r), CZ_OK, "%.200s: %s", sql, cz_result_error(r) ? cz_result_error(r)->message : "");
    cz_result_free(r);
}

static void expect_error(CzSession *s, const char *sql, const CzRunOptions *o, const char *cls) {
    CzResult *r = run_opts(s, sql, o);
    cr_assert_eq(cz_result_status(r), CZ_ERROR, "%.200s should fail", sql);
    cr_expect_str_eq(cz_result_error(r)->error_class, cls, "%.200s: %s", sql, cz_result_error(r)->message);
    cz_result_free(r);
}

/* "SELECT " + n copies of item joined by sep (+ tail) */
static char *chain(const char *head, const char *item, const char *sep, int n, const char *tail) {
    size_t cap = strlen(head) + (size_t)n * (strlen(item) + strlen(sep)) + strlen(tail) + 1;
    char *s = malloc(cap), *p = s;
    cr_assert(s, "out of memory");
    p += sprintf(p, "%s", head);
    for (int i = 0; i < n; i++) p += sprintf(p, "%s%s", i ? sep : "", item);
    sprintf(p, "%s", tail);
    return s;
}

/* The session variable's value as SQL text. */
static const char *var_value(CzSession *s, Arena *a, const char *name) {
    const Variable *v = state_find_var(s->state, name);
    if (!v) return "(none)";
    StrBuf sb;
    sb_init(&sb, a, 32);
    value_print_sql(&sb, &v->value);
    return sb_str(&sb);
}

/* ---- deep chains ---- */

Test(redteam, long_chains_are_too_complex_not_a_stack_overflow) {
    CzSession *s = cz_session_new(false);
    const CzRunOptions *opts[] = {&DAEMON, NULL}; /* the daemon's limit and the library default */
    for (int k = 0; k < 2; k++) {
        char *q = chain("SELECT ", "1", "+", 80000, "");
        expect_error(s, q, opts[k], "FAILED_TO_PARSE_TOO_COMPLEX");
        free(q);
        q = chain("", "SELECT 1", " UNION ALL ", 100000, "");
        expect_error(s, q, opts[k], "FAILED_TO_PARSE_TOO_COMPLEX");
        free(q);
        q = chain("SELECT * FROM ", "VALUES (1) AS t", " JOIN ", 30000, "");
        expect_error(s, q, opts[k], "FAILED_TO_PARSE_TOO_COMPLEX");
        free(q);
        q = chain("SELECT 1 AS a", "", " |> WHERE a = 1", 30000, "");
        expect_error(s, q, opts[k], "FAILED_TO_PARSE_TOO_COMPLEX");
        free(q);
        q = chain("SELECT 'x'", "", " || 'x'", 30000, "");
        expect_error(s, q, opts[k], "FAILED_TO_PARSE_TOO_COMPLEX");
        free(q);
    }
    /* chains within the limit still analyse */
    char *q = chain("SELECT ", "1", "+", 900, " AS n");
    expect_ok(s, q, &DAEMON);
    free(q);
    q = chain("", "SELECT 1 AS a", " UNION ALL ", 900, "");
    expect_ok(s, q, &DAEMON);
    free(q);
    cz_session_free(s);
}

/* The 90-byte request that makes the server build a 1.9 MB statement. */
Test(redteam, execute_immediate_of_a_built_chain) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "DECLARE s = repeat('SELECT 1 UNION ALL ', 100000) || 'SELECT 1'", &DAEMON);
    expect_error(s, "EXECUTE IMMEDIATE s", &DAEMON, "FAILED_TO_PARSE_TOO_COMPLEX");
    expect_error(s, "EXECUTE IMMEDIATE s", NULL, "FAILED_TO_PARSE_TOO_COMPLEX");
    cz_session_free(s);
}

/* ---- views ---- */

Test(redteam, view_cycle_is_refused) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE OR REPLACE TEMPORARY VIEW va AS SELECT 1 AS x", NULL);
    expect_ok(s, "CREATE OR REPLACE TEMPORARY VIEW vb AS SELECT * FROM va", NULL);
    CzResult *r = run_opts(s, "CREATE OR REPLACE TEMPORARY VIEW va AS SELECT * FROM vb", NULL);
    cr_assert_eq(cz_result_status(r), CZ_ERROR);
    const CzError *e = cz_result_error(r);
    cr_expect_str_eq(e->error_class, "RECURSIVE_VIEW");
    cr_expect_str_eq(e->message, "[RECURSIVE_VIEW] Recursive view `va` detected (cycle: `va` -> `vb` -> `va`).");
    cz_result_free(r);
    /* the session keeps the old va, and everything still resolves */
    expect_ok(s, "CREATE OR REPLACE TEMPORARY VIEW vc AS SELECT * FROM va", NULL);
    expect_ok(s, "SELECT * FROM vc", NULL);
    /* a subquery expression counts too */
    expect_error(s, "CREATE OR REPLACE TEMPORARY VIEW va AS SELECT (SELECT max(x) FROM vc) AS x", NULL,
                 "RECURSIVE_VIEW");
    /* a persistent view as well */
    expect_ok(s, "CREATE VIEW pa AS SELECT 1 AS x", NULL);
    expect_ok(s, "CREATE VIEW pb AS SELECT * FROM pa", NULL);
    expect_error(s, "CREATE OR REPLACE VIEW pa AS SELECT * FROM pb", NULL, "RECURSIVE_VIEW");
    expect_ok(s, "SELECT * FROM pb", NULL);
    cz_session_free(s);
}

/* NAME0 = SELECT 1 AS x, then NAMEi = SELECT * FROM NAME(i-1) up to NAMEn;
 * `kind` is "VIEW" or "TEMPORARY VIEW" */
static void create_view_chain(CzSession *s, const char *kind, const char *name, int n) {
    char sql[160];
    snprintf(sql, sizeof sql, "CREATE %s %s0 AS SELECT 1 AS x", kind, name);
    expect_ok(s, sql, NULL);
    for (int i = 1; i <= n; i++) {
        snprintf(sql, sizeof sql, "CREATE %s %s%d AS SELECT * FROM %s%d", kind, name, i, name, i - 1);
        expect_ok(s, sql, NULL);
    }
}

Test(redteam, views_nested_past_the_limit) {
    CzSession *s = cz_session_new(false);
    create_view_chain(s, "TEMPORARY VIEW", "v", 100);
    expect_ok(s, "SELECT * FROM v99", NULL); /* 100 views deep */
    CzResult *r = run_opts(s, "SELECT * FROM v100", NULL);
    cr_assert_eq(cz_result_status(r), CZ_ERROR);
    cr_expect_str_eq(cz_result_error(r)->error_class, "VIEW_EXCEED_MAX_NESTED_DEPTH");
    cr_expect_str_eq(cz_result_error(r)->param_values[1], "100");
    cz_result_free(r);
    cr_assert(cz_session_set_conf(s, "spark.sql.view.maxNestedViewDepth", "10"));
    expect_ok(s, "SELECT * FROM v9", NULL);
    expect_error(s, "SELECT * FROM v10", NULL, "VIEW_EXCEED_MAX_NESTED_DEPTH");
    cz_session_free(s);
}

/* persistent views count the same way, each one's body read in its own
 * namespace; the view named is the innermost one, past the limit */
Test(redteam, persistent_views_nested_past_the_limit) {
    CzSession *s = cz_session_new(false);
    create_view_chain(s, "VIEW", "pv", 100);
    expect_ok(s, "SELECT * FROM pv99", NULL); /* 100 views deep */
    CzResult *r = run_opts(s, "SELECT * FROM pv100", NULL);
    cr_assert_eq(cz_result_status(r), CZ_ERROR);
    cr_expect_str_eq(cz_result_error(r)->error_class, "VIEW_EXCEED_MAX_NESTED_DEPTH");
    cr_expect_str_eq(cz_result_error(r)->param_values[0], "`spark_catalog`.`default`.`pv0`");
    cr_expect_str_eq(cz_result_error(r)->param_values[1], "100");
    cz_result_free(r);
    /* a view whose own body is one level: the chain, not the body, is what counts */
    expect_error(s, "CREATE VIEW pv101 AS SELECT * FROM pv100", NULL, "VIEW_EXCEED_MAX_NESTED_DEPTH");
    cz_session_free(s);
}

/* Stacks views of n levels each, v1..vmax over v0; views 1..nok must be
 * created, and one of the rest must be refused as too complex: each body is
 * under the nesting limit, but their heights add up (without the total, 71
 * views of 800 levels overflowed the stack). */
static void stack_views(const CzRunOptions *o, int levels, int nok, int max) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "CREATE TEMPORARY VIEW v0 AS SELECT 1 AS x", o);
    bool refused = false;
    for (int i = 1; i <= max; i++) {
        char head[64];
        snprintf(head, sizeof head, "CREATE TEMPORARY VIEW v%d AS TABLE v%d ", i, i - 1);
        char *sql = chain(head, "|> WHERE x > 0", " ", levels, "");
        CzResult *r = run_opts(s, sql, o);
        free(sql);
        if (i <= nok) cr_assert_eq(cz_result_status(r), CZ_OK, "v%d: %s", i, cz_result_error(r) ? cz_result_error(r)->message : "");
        else if (cz_result_status(r) == CZ_ERROR && !refused) {
            cr_expect_str_eq(cz_result_error(r)->error_class, "FAILED_TO_PARSE_TOO_COMPLEX", "v%d", i);
            refused = true;
        }
        cz_result_free(r);
    }
    cr_expect(refused, "a stack of %d views of %d levels is refused", max, levels);
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT * FROM v%d", nok);
    expect_ok(s, sql, o);
    cz_session_free(s);
}

Test(redteam, stacked_view_bodies_share_the_nesting_limit) {
    /* a limit of 3,000 (the library's 20,000 levels overflow an ASan build's stack): 200 levels a view */
    static const CzRunOptions limit3000 = {.max_depth = 3000};
    stack_views(&limit3000, 100, 10, 20);
    stack_views(&DAEMON, 100, 3, 10); /* the daemon's 1,000 */
}

/* ---- LIKE ---- */

Test(redteam, like_without_recursion) {
    CzSession *s = cz_session_new(false);
    Arena *a = arena_new(0);
    /* a million %s: once a stack frame each */
    expect_ok(s, "DECLARE v = 'a' LIKE repeat('%', 1000000)", &DAEMON);
    cr_expect_str_eq(var_value(s, a, "v"), "true");
    /* exponential before: 40 a's against 30 %s and a b */
    uint64_t t0 = now_ns();
    expect_ok(s, "DECLARE OR REPLACE v = repeat('a', 40) LIKE repeat('%', 30) || 'b'", &DAEMON);
    cr_expect_str_eq(var_value(s, a, "v"), "false");
    cr_expect_lt(now_ns() - t0, 2000000000ull, "took %.1f s", (double)(now_ns() - t0) / 1e9);
    /* the semantics kept */
    static const struct {
        const char *expr, *want;
    } CASES[] = {
        {"'abc' LIKE 'a%c'", "true"},         {"'abc' LIKE 'a%b'", "false"},      {"'abc' LIKE '%'", "true"},
        {"'' LIKE '%'", "true"},              {"'' LIKE '_'", "false"},           {"'abc' LIKE '_b_'", "true"},
        {"'abc' LIKE '%%c%%'", "true"},       {"'aXbXc' LIKE '%X%X%'", "true"},  {"'aXbc' LIKE '%X%X%'", "false"},
        {"'a%c' LIKE 'a\\\\%c'", "true"},     {"'abc' LIKE 'a\\\\%c'", "false"}, {"'a_c' LIKE 'a#_c' ESCAPE '#'", "true"},
        {"'abc' LIKE 'a#_c' ESCAPE '#'", "false"}, {"'ñb' LIKE '_b'", "true"},  {"'mississippi' LIKE '%iss%ipp%'", "true"},
        {"'mississippi' LIKE '%issip%ss%'", "false"}, {"'aaa' LIKE 'a%a%a'", "true"}, {"'aa' LIKE 'a%a%a'", "false"},
    };
    char sql[256];
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        snprintf(sql, sizeof sql, "DECLARE OR REPLACE v = %s", CASES[i].expr);
        expect_ok(s, sql, NULL);
        cr_expect_str_eq(var_value(s, a, "v"), CASES[i].want, "%s", CASES[i].expr);
    }
    arena_free(a);
    cz_session_free(s);
}

/* A match that costs |s| x |p| steps stops at the deadline (constant
 * evaluation ignored both the deadline and a cancel). */
Test(redteam, costly_evaluation_stops_at_the_deadline) {
    CzSession *s = cz_session_new(false);
    CzRunOptions o = DAEMON;
    o.deadline_ns = now_ns() + 500000000ull;
    uint64_t t0 = now_ns();
    expect_error(s, "DECLARE v = repeat('a', 400000) LIKE '%' || repeat('a', 200000) || 'b'", &o,
                 "CATALYZER_DEADLINE_EXCEEDED");
    cr_expect_lt(now_ns() - t0, 3000000000ull, "took %.1f s", (double)(now_ns() - t0) / 1e9);
    volatile int cancel = 1;
    o.deadline_ns = 0;
    o.cancel = &cancel;
    expect_error(s, "DECLARE v = repeat('a', 400000) LIKE '%' || repeat('a', 200000) || 'b'", &o,
                 "CATALYZER_CANCELLED");
    cz_session_free(s);
}

/* ---- counts past a long ---- */

Test(redteam, sequence_and_range_counts_do_not_overflow) {
    CzSession *s = cz_session_new(false);
    /* the DECLARE aborted; element_at read past the list's room */
    expect_ok(s, "DECLARE v = sequence(-9223372036854775808, 9223372036854775806)", &DAEMON);
    expect_ok(s, "SELECT element_at(v, 3), element_at(v, 100000), size(v)", &DAEMON);
    expect_ok(s, "SELECT element_at(sequence(-9223372036854775808, 9223372036854775806), 100000)", &DAEMON);
    expect_ok(s, "DECLARE OR REPLACE v = sequence(9223372036854775807, -9223372036854775808)", &DAEMON);
    Arena *a = arena_new(0);
    expect_ok(s, "DECLARE OR REPLACE w = sequence(9223372036854775805, 9223372036854775807)", &DAEMON);
    cr_expect_str_eq(var_value(s, a, "w"), "ARRAY(9223372036854775805L, 9223372036854775806L, 9223372036854775807L)");
    /* range over the whole long domain: no constant rows, no maxRows */
    expect_ok(s, "SELECT (SELECT max(id) FROM range(-9223372036854775808, 9223372036854775807))", &DAEMON);
    expect_ok(s, "SELECT * FROM range(-9223372036854775808, 9223372036854775807, 4611686018427387904) LIMIT 2",
              &DAEMON);
    arena_free(a);
    cz_session_free(s);
}

/* ---- catalog registration ---- */

Test(redteam, registering_many_tables_is_linear) {
    CzSession *s = cz_session_new(false);
    const char *names[] = {"id", "name"}, *types[] = {"int", "string"};
    char name[64];
    uint64_t t0 = now_ns();
    for (int i = 0; i < 60000; i++) {
        snprintf(name, sizeof name, "db%d.t%d", i % 7, i);
        cr_assert(cz_session_create_table(s, name, 2, names, types, NULL, NULL, 0));
    }
    double secs = (double)(now_ns() - t0) / 1e9;
    cr_expect_lt(secs, 10.0, "60,000 tables took %.1f s", secs); /* over 60 s before */
    expect_ok(s, "SELECT id FROM db2.t59999", NULL);
    expect_ok(s, "SELECT id FROM DB0.T0", NULL); /* names are case-insensitive */
    expect_error(s, "SELECT id FROM db0.t1", NULL, "TABLE_OR_VIEW_NOT_FOUND");
    /* replaced, dropped, added again: the index follows */
    const char *one[] = {"x"}, *one_t[] = {"bigint"};
    cr_assert(cz_session_create_table(s, "db1.t1", 1, one, one_t, NULL, NULL, 0));
    expect_ok(s, "SELECT x FROM db1.t1", NULL);
    expect_ok(s, "DROP TABLE db1.t1", NULL);
    expect_error(s, "SELECT * FROM db1.t1", NULL, "TABLE_OR_VIEW_NOT_FOUND");
    expect_ok(s, "SELECT id FROM db2.t2", NULL);
    expect_ok(s, "CREATE TABLE db1.t1 (y INT) USING parquet", NULL);
    expect_ok(s, "SELECT y FROM db1.t1", NULL);
    expect_ok(s, "DROP DATABASE db6 CASCADE", NULL);
    expect_error(s, "SELECT * FROM db6.t6", NULL, "TABLE_OR_VIEW_NOT_FOUND");
    expect_ok(s, "SELECT id FROM db5.t5", NULL);
    /* functions the same way */
    const char *arg[] = {"int"};
    t0 = now_ns();
    for (int i = 0; i < 60000; i++) {
        snprintf(name, sizeof name, "f%d", i);
        cr_assert(cz_session_register_function(s, name, 1, arg, "string", true, NULL, 0));
    }
    secs = (double)(now_ns() - t0) / 1e9;
    cr_expect_lt(secs, 10.0, "60,000 functions took %.1f s", secs);
    CzResult *r = run_opts(s, "SELECT F59999(1) AS x, f0(2) AS y", NULL);
    cr_assert_eq(cz_result_status(r), CZ_OK, "%s", cz_result_error(r) ? cz_result_error(r)->message : "");
    cr_expect_str_eq(cz_result_schema(r), "struct<x:string,y:string>");
    cz_result_free(r);
    cr_assert(cz_session_register_function(s, "f7", 1, arg, "bigint", true, NULL, 0)); /* replaced */
    r = run_opts(s, "SELECT f7(1) AS x", NULL);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cr_expect_str_eq(cz_result_schema(r), "struct<x:bigint>");
    cz_result_free(r);
    expect_ok(s, "CREATE TABLE db0.after (x INT) USING parquet", NULL); /* a statement's copy keeps them */
    expect_ok(s, "SELECT f59998(x) FROM db0.after", NULL);
    cz_session_free(s);
}

/* ---- the memory budget ---- */

Test(redteam, substitution_is_under_the_budget) {
    CzSession *s = cz_session_new(false);
    char *big = malloc(100001);
    memset(big, 'x', 100000);
    big[100000] = 0;
    cr_assert(cz_session_set_conf(s, "x", big));
    free(big);
    /* 4,000 references to a 100 KB value: 400 MB of text */
    char *q = chain("SELECT '", "${x}", "", 4000, "'");
    CzRunOptions o = {.memory_limit = 16u << 20};
    CzResult *r = run_opts(s, q, &o);
    cr_assert_eq(cz_result_status(r), CZ_ERROR);
    cr_expect_str_eq(cz_result_error(r)->error_class, "CATALYZER_MEMORY_LIMIT_EXCEEDED");
    cr_expect_leq(cz_result_arena_bytes(r), (size_t)(32u << 20), "%zu bytes used", cz_result_arena_bytes(r));
    cz_result_free(r);
    free(q);
    expect_ok(s, "SELECT length('${x}')", &o);
    /* parsing only (AnalyzeRequest.parse_only) as well */
    q = chain("SELECT ", "1 + 2", ", ", 20000, "");
    CzRunOptions small = {.memory_limit = 256u << 10};
    r = cz_parse_sql(s, q, strlen(q), &small);
    cr_assert_eq(cz_result_status(r), CZ_ERROR);
    cr_expect_str_eq(cz_result_error(r)->error_class, "CATALYZER_MEMORY_LIMIT_EXCEEDED");
    cz_result_free(r);
    CzRunOptions roomy = {.memory_limit = 256u << 20};
    r = cz_parse_sql(s, q, strlen(q), &roomy);
    cr_expect_eq(cz_result_status(r), CZ_OK, "%s", cz_result_error(r) ? cz_result_error(r)->message : "");
    cz_result_free(r);
    free(q);
    cz_session_free(s);
}

/* ---- values the analyzer cannot compute ---- */

/* A variable whose value the analyzer cannot compute (a function the
 * constant evaluator lacks, a query over a table) was taken for NULL:
 * IDENTIFIER and EXECUTE IMMEDIATE then gave Spark's NULL errors for a value
 * Spark would have had. Now they say the value is unknown; a real NULL
 * keeps Spark's error. */
Test(redteam, unevaluated_values_are_not_null) {
    CzSession *s = cz_session_new(false);
    expect_ok(s, "DECLARE t = md5('x')", NULL);
    expect_ok(s, "SELECT t", NULL); /* its type is known */
    expect_error(s, "SELECT * FROM IDENTIFIER(t)", NULL, "CATALYZER_UNEVALUATED_VALUE");
    expect_error(s, "EXECUTE IMMEDIATE t", NULL, "CATALYZER_UNEVALUATED_VALUE");
    expect_error(s, "SELECT * FROM IDENTIFIER(md5('x'))", NULL, "CATALYZER_UNEVALUATED_VALUE");
    expect_ok(s, "CREATE TABLE tt (q STRING) USING parquet", NULL);
    expect_ok(s, "DECLARE q STRING", NULL);
    expect_error(s, "EXECUTE IMMEDIATE q", NULL, "NULL_QUERY_STRING_EXECUTE_IMMEDIATE"); /* NULL indeed */
    expect_ok(s, "SET VAR q = (SELECT max(q) FROM tt)", NULL);
    expect_error(s, "EXECUTE IMMEDIATE q", NULL, "CATALYZER_UNEVALUATED_VALUE");
    /* computed values still work */
    expect_ok(s, "SET VAR q = 'SELECT 1 AS one'", NULL);
    expect_ok(s, "EXECUTE IMMEDIATE q", NULL);
    expect_ok(s, "DECLARE n = 'tt'", NULL);
    expect_ok(s, "SELECT * FROM IDENTIFIER(n)", NULL);
    cz_session_free(s);
}

/* round(x, INT_MIN) negated INT_MIN (undefined behaviour, flagged by UBSan);
 * Spark's Java arithmetic wraps, which keeps the integral digits. */
Test(redteam, round_to_the_lowest_scale) {
    CzSession *s = cz_session_new(false);
    static const struct {
        const char *sql, *schema;
    } CASES[] = {
        {"SELECT round(1.5BD, -2147483648)", "struct<round(1.5, -2147483648):decimal(2,0)>"},
        {"SELECT round(1.5BD, -2147483647)", "struct<round(1.5, -2147483647):decimal(2,0)>"},
        {"SELECT ceil(12.5BD, -2147483648)", "struct<ceil(12.5, -2147483648):decimal(3,0)>"},
        {"SELECT bround(123.5BD, -2)", "struct<bround(123.5, -2):decimal(4,0)>"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        CzResult *r = run_opts(s, CASES[i].sql, NULL);
        cr_assert_eq(cz_result_status(r), CZ_OK, "%s", CASES[i].sql);
        cr_expect_str_eq(cz_result_schema(r), CASES[i].schema, "%s", CASES[i].sql);
        cz_result_free(r);
    }
    cz_session_free(s);
}
