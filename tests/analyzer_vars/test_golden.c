/* Golden plans: each golden/NAME.sql script runs in one fresh session and
 * the analysed plan of every statement (tree string, expression ids as #x,
 * CTE ids as xxxx) or its error class must equal golden/NAME.plan.
 * CATALYZER_UPDATE_GOLDEN=1 rewrites the .plan files from the output. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "golden.h"
#include "core/strbuf.h"

typedef struct Script {
    CzSession *s;
    StrBuf *out;
    int index;
} Script;

static void one(void *ctx, const char *stmt, size_t len, size_t offset) {
    (void)offset;
    Script *sc = ctx;
    CzRunOptions o = {.want_tree = true};
    CzResult *r = cz_run_sql(sc->s, stmt, len, &o);
    sb_printf(sc->out, "-- statement %d\n", sc->index++);
    if (cz_result_status(r) == CZ_OK) {
        const char *t = cz_result_tree(r);
        golden_normalise_ids(sc->out, t ? t : "");
        if (!cz_result_is_command(r)) sb_printf(sc->out, "-- schema %s\n", cz_result_schema(r));
    } else {
        sb_printf(sc->out, "-- error %s\n", cz_result_error(r)->error_class);
    }
    cz_result_free(r);
}

static void check(const char *name) {
    const char *src = getenv("CATALYZER_SOURCE");
    if (!src) cr_skip_test("CATALYZER_SOURCE not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/analyzer_vars/golden/%s.sql", src, name);
    size_t len;
    char *sql = golden_slurp(path, &len);
    cr_assert(sql, "missing %s", path);
    Arena *a = arena_new(0);
    StrBuf out;
    sb_init(&out, a, 4096);
    Script sc = {cz_session_new(true), &out, 0};
    cz_split_statements(sql, len, one, &sc);
    snprintf(path, sizeof path, "%s/tests/analyzer_vars/golden/%s.plan", src, name);
    golden_expect_file(path, sb_str(&out));
    cz_session_free(sc.s);
    arena_free(a);
    free(sql);
}

Test(golden, identifier_cte) { check("identifier_cte"); }
Test(golden, identifier_forms) { check("identifier_forms"); }
Test(golden, cte_nested) { check("cte_nested"); }
Test(golden, cte_policies) { check("cte_policies"); }
Test(golden, variables) { check("variables"); }
Test(golden, execute_immediate) { check("execute_immediate"); }
