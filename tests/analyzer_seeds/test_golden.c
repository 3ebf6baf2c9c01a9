/* Golden plan tests of the seed features: each golden/NAME.sql is run in a
 * fresh session and its output (JSON line and normalised plan per
 * statement) must equal golden/NAME.out. Regenerate a file with
 * `seedrun --golden golden/NAME.sql > golden/NAME.out` after checking the
 * difference by eye. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "harness.h"

static void check_golden(const char *name) {
    const char *src = getenv("CATALYZER_SOURCE");
    if (!src) cr_skip_test("CATALYZER_SOURCE not set");
    char path[4096];
    size_t len;
    snprintf(path, sizeof path, "%s/tests/analyzer_seeds/golden/%s.sql", src, name);
    char *sql = golden_slurp(path, &len);
    cr_assert_not_null(sql, "cannot read %s", path);
    snprintf(path, sizeof path, "%s/tests/analyzer_seeds/golden/%s.out", src, name);
    char *got = NULL;
    size_t glen = 0;
    FILE *out = open_memstream(&got, &glen);
    harness_run_script(out, sql, len);
    fclose(out);
    golden_expect_file(path, got);
    free(got);
    free(sql);
}

Test(golden, lateral_column_alias) { check_golden("lca"); }
Test(golden, lateral_column_alias_cases) { check_golden("lca_cases"); }
Test(golden, outer_aggregate) { check_golden("outer_aggregate"); }
Test(golden, alias_in_subquery) { check_golden("alias_in_subquery"); }
Test(golden, alias_in_subquery_off) { check_golden("alias_in_subquery_off"); }
Test(golden, lateral_join) { check_golden("lateral"); }
Test(golden, decorrelate) { check_golden("decorrelate"); }
