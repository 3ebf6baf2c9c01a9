/* Golden plan tests of the seed features: each golden/NAME.sql is run in a
 * fresh session and its output (JSON line and normalised plan per
 * statement) must equal golden/NAME.out. Regenerate a file with
 * `seedrun --golden golden/NAME.sql > golden/NAME.out` after checking the
 * difference by eye. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    size_t got = fread(b, 1, (size_t)n, f);
    fclose(f);
    b[got] = 0;
    *len = got;
    return b;
}

static void check_golden(const char *name) {
    const char *src = getenv("CATALYZER_SOURCE");
    if (!src) cr_skip_test("CATALYZER_SOURCE not set");
    char path[4096];
    size_t len, elen;
    snprintf(path, sizeof path, "%s/tests/analyzer_seeds/golden/%s.sql", src, name);
    char *sql = slurp(path, &len);
    cr_assert_not_null(sql, "cannot read %s", path);
    snprintf(path, sizeof path, "%s/tests/analyzer_seeds/golden/%s.out", src, name);
    char *expected = slurp(path, &elen);
    cr_assert_not_null(expected, "cannot read %s", path);
    char *got = NULL;
    size_t glen = 0;
    FILE *out = open_memstream(&got, &glen);
    harness_run_script(out, sql, len);
    fclose(out);
    if (strcmp(got, expected) != 0) {
        /* the first differing line, for the log */
        size_t i = 0, line = 1;
        while (got[i] && got[i] == expected[i]) {
            if (got[i] == '\n') line++;
            i++;
        }
        cr_assert_fail("%s.out differs at line %zu", name, line);
    }
    free(got);
    free(expected);
    free(sql);
}

Test(golden, lateral_column_alias) { check_golden("lca"); }
Test(golden, lateral_column_alias_cases) { check_golden("lca_cases"); }
Test(golden, outer_aggregate) { check_golden("outer_aggregate"); }
Test(golden, alias_in_subquery) { check_golden("alias_in_subquery"); }
Test(golden, alias_in_subquery_off) { check_golden("alias_in_subquery_off"); }
Test(golden, lateral_join) { check_golden("lateral"); }
Test(golden, decorrelate) { check_golden("decorrelate"); }
