/* The session's SQL functions (catalog/session.c): lookups by the hash
 * index agree with Spark's rules (case-insensitive, a temporary function
 * apart from a database's), and a clone — one per CREATE statement — costs
 * memory linear in the number of functions (it was quadratic: 3,000
 * chained CREATE TEMPORARY FUNCTION took minutes). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "catalyzer.h"
#include "catalog/session.h"

static void put(SessionState *s, const char *ns, const char *name, const char *body) {
    SqlFunction f = {.name = name, .ns = ns, .ret_type = &TYPE_INT, .body = body};
    state_put_func(s, &f);
}

static SessionState *with_functions(int n) {
    SessionState *s = state_new();
    char name[32];
    for (int i = 1; i <= n; i++) {
        snprintf(name, sizeof name, "f%d", i);
        put(s, NULL, name, "1");
    }
    return s;
}

Test(session_functions, lookup_rules) {
    SessionState *s = with_functions(100);
    put(s, "db", "F7", "2");
    cr_assert_str_eq(state_find_func(s, NULL, "F7")->body, "1");
    cr_assert_str_eq(state_find_func(s, "DB", "f7")->body, "2");
    cr_assert_null(state_find_func(s, "other", "f7"));
    cr_assert_null(state_find_func(s, NULL, "f101"));
    put(s, NULL, "f50", "3"); /* OR REPLACE: same slot */
    cr_assert_eq(s->nfuncs, 101);
    cr_assert_str_eq(state_find_func(s, NULL, "F50")->body, "3");
    cr_assert(state_drop_func(s, NULL, "f1"));
    cr_assert_null(state_find_func(s, NULL, "f1"));
    char name[32];
    for (int i = 2; i <= 100; i++) {
        snprintf(name, sizeof name, "F%d", i);
        cr_assert_not_null(state_find_func(s, NULL, name), "%s lost after the drop", name);
    }
    cr_assert_str_eq(state_find_func(s, "db", "f7")->body, "2");
    SessionState *c = state_clone(s);
    cr_assert_eq(c->nfuncs, s->nfuncs);
    cr_assert_str_eq(state_find_func(c, NULL, "f50")->body, "3");
    cr_assert_str_eq(state_find_func(c, "db", "f7")->body, "2");
    put(c, NULL, "f1", "4");
    cr_assert_null(state_find_func(s, NULL, "f1"), "the clone shares nothing with its source");
    state_free(c);
    state_free(s);
}

/* twice the functions, about twice the clone's memory (not four times) */
Test(session_functions, clone_is_linear) {
    size_t used[2];
    for (int k = 0; k < 2; k++) {
        SessionState *s = with_functions(1000 << k);
        SessionState *c = state_clone(s);
        used[k] = arena_used(c->arena);
        state_free(c);
        state_free(s);
    }
    cr_assert(used[1] <= used[0] * 22 / 10, "clone of 1000 functions: %zu bytes, of 2000: %zu", used[0], used[1]);
}

/* The chain of the issue, through the public API: each function calls the
 * previous one; the last call expands the whole chain. */
Test(session_functions, chain_resolves) {
    CzSession *s = cz_session_new(false);
    char sql[160];
    CzResult *r = cz_run_sql(s, "CREATE TEMPORARY FUNCTION f1(x INT) RETURNS INT RETURN x + 1", 60, NULL);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cz_result_free(r);
    for (int i = 2; i <= 60; i++) {
        snprintf(sql, sizeof sql, "CREATE TEMPORARY FUNCTION F%d(x INT) RETURNS INT RETURN f%d(x) + 1", i, i - 1);
        r = cz_run_sql(s, sql, strlen(sql), NULL);
        cr_assert_eq(cz_result_status(r), CZ_OK, "%s", sql);
        cz_result_free(r);
    }
    r = cz_run_sql(s, "SELECT f60(1)", 13, NULL);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cz_result_free(r);
    r = cz_run_sql(s, "DROP TEMPORARY FUNCTION f30", 27, NULL);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cz_result_free(r);
    r = cz_run_sql(s, "SELECT f60(1)", 13, NULL);
    cr_assert_neq(cz_result_status(r), CZ_OK, "f31 calls the dropped f30");
    cz_result_free(r);
    r = cz_run_sql(s, "SELECT f29(1)", 13, NULL);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cz_result_free(r);
    cz_session_free(s);
}
