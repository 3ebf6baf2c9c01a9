/* The java.util.regex subset of core/jregex.c: whole-string matches as
 * Java's String.matches gives them (UnresolvedRegex.expand). */
#include <criterion/criterion.h>
#include <string.h>

#include "core/jregex.h"

static Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }

TestSuite(jregex, .init = setup, .fini = teardown);

static bool m(const char *pattern, bool ci, const char *s) {
    const char *err = NULL;
    JRegex *re = jregex_compile(A, pattern, ci, &err);
    cr_assert(re, "compile %s: %s", pattern, err ? err : "?");
    return jregex_matches(re, s, strlen(s));
}

Test(jregex, literals_and_alternation) {
    cr_expect(m("abc", false, "abc"));
    cr_expect(!m("abc", false, "abcd"), "whole-string match");
    cr_expect(m("(a|B)", false, "B"));
    cr_expect(!m("(a|B)", false, "b"));
    cr_expect(m("(a|B)", true, "b"), "(?i)");
    cr_expect(m("(?i)key", false, "KEY"));
    cr_expect(!m("(e|f)", false, "c"));
}

Test(jregex, possessive_optional) {
    /* Spark's idiom "every column but a": (a)?+ takes the a and never gives it back */
    cr_expect(!m("(a)?+.+", false, "a"));
    cr_expect(m("(a)?+.+", false, "b"));
    cr_expect(m("(a)?+.+", false, "ab"));
    cr_expect(m("(a)?+.+", false, "A"), "case-sensitive: A is not a");
    cr_expect(!m("(a)?+.+", true, "A"));
    cr_expect(!m("(key)?+.+", true, "KEY"));
    cr_expect(m("(key)?+.+", true, "value1"));
    /* greedy ? backtracks */
    cr_expect(m("(a)?.+", false, "a"));
    cr_expect(!m("a*+a", false, "aaa"));
    cr_expect(m("a*a", false, "aaa"));
}

Test(jregex, classes_and_counts) {
    cr_expect(m("[a-c]+\\d{2}", false, "abc12"));
    cr_expect(!m("[^a-c]x", false, "ax"));
    cr_expect(m("c.{0,2}", false, "c12"));
    cr_expect(!m("c.{0,2}", false, "c123"));
    cr_expect(m("x??y", false, "xy"));
    cr_expect(m("\\w+_\\w", false, "ab_c"));
    cr_expect(!jregex_compile(A, "(a", false, NULL), "unclosed group");
    cr_expect(!jregex_compile(A, "*a", false, NULL), "dangling meta character");
}
