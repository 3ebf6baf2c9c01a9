/* Suggested names in error messages as Spark orders them
 * (StringUtils.orderSuggestedIdentifiersBySimilarity; core/suggest.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "core/suggest.h"

static Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }

TestSuite(suggest, .init = setup, .fini = teardown);

/* "a.b" -> {a, b}: the test's own names never contain a dot inside a part */
static NameParts parts(const char *dotted) {
    char *s = arena_strdup(A, dotted);
    const char **v = ARENA_ARRAY(A, const char *, strlen(dotted) + 1);
    uint32_t n = 0;
    v[n++] = s;
    for (char *p = s; *p; p++)
        if (*p == '.') {
            *p = '\0';
            v[n++] = p + 1;
        }
    return (NameParts){n, v};
}

static const char *columns(const char *name, const char *const *cands, uint32_t n) {
    NameParts *c = ARENA_ARRAY(A, NameParts, n + 1);
    for (uint32_t i = 0; i < n; i++) c[i] = parts(cands[i]);
    return suggest_columns_ordered(A, parts(name), c, n);
}

Test(suggest, levenshtein_counts_java_chars_case_sensitively) {
    cr_expect_eq(levenshtein_utf16(A, "kitten", "sitting"), 3);
    cr_expect_eq(levenshtein_utf16(A, "a", "A"), 1);
    cr_expect_eq(levenshtein_utf16(A, "\xc3\xa9", "e"), 1);          /* é: one UTF-16 unit, two bytes */
    cr_expect_eq(levenshtein_utf16(A, "\xf0\x9f\x98\x80", ""), 2);   /* an emoji: a surrogate pair */
    cr_expect_eq(levenshtein_utf16(A, "", ""), 0);
}

Test(suggest, a_shared_qualifier_is_stripped) {
    const char *c[] = {"spark_catalog.default.t.x", "spark_catalog.default.t.y"};
    cr_expect_str_eq(columns("y", c, 2), "`y`, `x`");
    /* a two-part name keeps table and column when only the namespace is shared */
    const char *j[] = {"db.t1.a", "db.t2.b"};
    cr_expect_str_eq(columns("t2.b", j, 2), "`t2`.`b`, `t1`.`a`");
}

Test(suggest, different_qualifiers_are_kept_whole) {
    /* pipe-operators.sql: the distance is to the quoted candidate, qualifier and all */
    const char *c[] = {"spark_catalog.default.t.x", "z"};
    cr_expect_str_eq(columns("x", c, 2), "`z`, `spark_catalog`.`default`.`t`.`x`");
}

Test(suggest, multipart_and_single_part_mixed) {
    /* Spark's StringUtilsSuite, SPARK-43841: a dot inside a part is quoted */
    NameParts c[3] = {parts("c1"), parts("v1.c2"), {1, ARENA_ARRAY(A, const char *, 1)}};
    c[2].v[0] = "v2.c2";
    cr_expect_str_eq(suggest_columns_ordered(A, parts("b"), c, 3), "`c1`, `v2.c2`, `v1`.`c2`");
}

Test(suggest, case_matters_and_ties_keep_the_input_order) {
    const char *c[] = {"AB", "xb"};
    cr_expect_str_eq(columns("ab", c, 2), "`xb`, `AB`");
    const char *t[] = {"q", "p"};
    cr_expect_str_eq(columns("z", t, 2), "`q`, `p`");
}

Test(suggest, the_unnamed_subquery_alias_is_not_shown) {
    const char *c[] = {"__auto_generated_subquery_name.a", "x.b"};
    cr_expect_str_eq(columns("c", c, 2), "`x`.`b`, `a`");
}

Test(suggest, five_at_most_and_none) {
    const char *c[] = {"a1", "a2", "a3", "a4", "a5", "a6"};
    cr_expect_str_eq(columns("a", c, 6), "`a1`, `a2`, `a3`, `a4`, `a5`");
    cr_expect_str_eq(columns("a", c, 0), "");
}

Test(suggest, parameter_names) {
    const char *p[] = {"upperChar", "lowerChar", "digitChar", "otherChar"};
    cr_expect_str_eq(suggest_names(A, "lowerchar", p, 4, 3, " "), "`lowerChar` `otherChar` `upperChar`");
}
