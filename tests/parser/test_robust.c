/* Robustness on built-in inputs: deep nesting fails with an error instead
 * of overflowing the stack; literals built from edge values give a plan or
 * an error, never a crash (run under ASan+UBSan for leaks and undefined
 * behaviour). The corpus's statements, cut and mutated: test_corpus.c. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_parse.h"
#include "parser/parser.h"

Test(parser_robust, deep_nesting_is_an_error) {
    Arena *a = arena_new(0);
    size_t n = 200000;
    char *s = malloc(n * 2 + 16);
    strcpy(s, "SELECT ");
    size_t k = 7;
    for (size_t i = 0; i < n; i++) s[k++] = '(';
    s[k++] = '1';
    for (size_t i = 0; i < n; i++) s[k++] = ')';
    ErrorInfo *err = NULL;
    Node *r = parse_statement(a, s, k, NULL, &err);
    cr_assert_null(r);
    cr_assert_str_eq(err->error_class, "FAILED_TO_PARSE_TOO_COMPLEX");
    /* long flat lists are fine */
    k = 0;
    k += (size_t)sprintf(s, "SELECT 1");
    for (size_t i = 0; i < 20000; i++) k += (size_t)sprintf(s + k, ", %zu", i);
    k += (size_t)sprintf(s + k, " FROM t WHERE x IN (1");
    for (size_t i = 0; i < 20000; i++) k += (size_t)sprintf(s + k, ", %zu", i);
    k += (size_t)sprintf(s + k, ")");
    r = parse_statement(a, s, k, NULL, &err);
    cr_assert_not_null(r, "flat lists: %s", err ? err->message : "");
    /* a chain of binary operators is as deep as it is long (a left-deep
       tree, built in a loop): within the nesting limit it parses, past it
       it is too complex, as nesting is (issue 13: 80,000 terms parsed and
       then overflowed the analyzer's stack) */
    k = (size_t)sprintf(s, "SELECT 1");
    for (size_t i = 0; i < 900; i++) k += (size_t)sprintf(s + k, " + %zu", i);
    r = parse_statement(a, s, k, NULL, &err);
    cr_assert_not_null(r, "a 900-term sum: %s", err ? err->message : "");
    k = (size_t)sprintf(s, "SELECT 1");
    for (size_t i = 0; i < 20000; i++) k += (size_t)sprintf(s + k, " + %zu", i);
    r = parse_statement(a, s, k, NULL, &err);
    cr_assert_null(r);
    cr_assert_str_eq(err->error_class, "FAILED_TO_PARSE_TOO_COMPLEX");
    free(s);
    arena_free(a);
}

/* Literal-heavy statements built from edge values: overflow must be an error. */
Test(parser_robust, literal_edges) {
    static const char *const units[] = {"year", "months", "week", "day", "hours", "minute", "second", "millisecond",
                                        "microsecond", "nanosecond", "fake"};
    static const char *const vals[] = {"0", "-1", "9223372036854775807", "99999999999999999999", "1.5", ".5",
                                       "1e308", "1e-400", "123456789012345678901234567890", "2147483648", "127Y",
                                       "128Y", "9223372036854775808L", "1e-50BD", "1e999D", "'1'", "'1-2'",
                                       "'-1-13'", "'1 2:3:4.5'", "'999999999999 23:59:59.999999999'",
                                       "'2020-02-30'", "'+'", "'1 year 2 day'", "'178956970-8'", "''"};
    static const char *const typed[] = {"DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "X", "INTERVAL"};
    Arena *a = arena_new(0);
    char buf[512];
    size_t nv = sizeof vals / sizeof vals[0], nu = sizeof units / sizeof units[0];
    for (size_t i = 0; i < nv; i++)
        for (size_t j = 0; j < nu; j++) {
            snprintf(buf, sizeof buf, "SELECT INTERVAL %s %s", vals[i], units[j]);
            parse_check_answer(a, buf, strlen(buf));
            snprintf(buf, sizeof buf, "SELECT INTERVAL %s %s TO %s", vals[i], units[j], units[(j + 3) % nu]);
            parse_check_answer(a, buf, strlen(buf));
            snprintf(buf, sizeof buf, "SELECT INTERVAL %s %s %s %s", vals[i], units[j], vals[(i + 7) % nv], units[(j + 5) % nu]);
            parse_check_answer(a, buf, strlen(buf));
            snprintf(buf, sizeof buf, "SELECT %s + %s * -%s", vals[i], vals[(i + j) % nv], vals[j % nv]);
            parse_check_answer(a, buf, strlen(buf));
        }
    for (size_t i = 0; i < nv; i++)
        for (size_t t = 0; t < sizeof typed / sizeof typed[0]; t++) {
            snprintf(buf, sizeof buf, "SELECT %s %s", typed[t], vals[i]);
            parse_check_answer(a, buf, strlen(buf));
        }
    arena_free(a);
}
