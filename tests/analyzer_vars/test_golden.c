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
#include "strbuf.h"

typedef struct Script {
    CzSession *s;
    StrBuf *out;
    int index;
} Script;

/* #123 → #x; "CTERelationDef 12," / "CTERelationRef 3," → xxxx */
static void normalise(StrBuf *sb, const char *t) {
    while (*t) {
        if (*t == '#' && isdigit((unsigned char)t[1])) {
            sb_puts(sb, "#x");
            t++;
            while (isdigit((unsigned char)*t)) t++;
            continue;
        }
        if (!strncmp(t, "CTERelationDef ", 15) || !strncmp(t, "CTERelationRef ", 15)) {
            sb_putn(sb, t, 15);
            t += 15;
            if (isdigit((unsigned char)*t)) {
                sb_puts(sb, "xxxx");
                while (isdigit((unsigned char)*t)) t++;
            }
            continue;
        }
        sb_putc(sb, *t++);
    }
}

static void one(void *ctx, const char *stmt, size_t len, size_t offset) {
    (void)offset;
    Script *sc = ctx;
    CzRunOptions o = {.want_tree = true};
    CzResult *r = cz_run_sql(sc->s, stmt, len, &o);
    sb_printf(sc->out, "-- statement %d\n", sc->index++);
    if (cz_result_status(r) == CZ_OK) {
        const char *t = cz_result_tree(r);
        normalise(sc->out, t ? t : "");
        if (!cz_result_is_command(r)) sb_printf(sc->out, "-- schema %s\n", cz_result_schema(r));
    } else {
        sb_printf(sc->out, "-- error %s\n", cz_result_error(r)->error_class);
    }
    cz_result_free(r);
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    size_t got = fread(b, 1, (size_t)n, f);
    b[got] = 0;
    fclose(f);
    if (len) *len = got;
    return b;
}

static void check(const char *name) {
    const char *src = getenv("CATALYZER_SOURCE");
    if (!src) cr_skip_test("CATALYZER_SOURCE not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/analyzer_vars/golden/%s.sql", src, name);
    size_t len;
    char *sql = slurp(path, &len);
    cr_assert(sql, "missing %s", path);
    Arena *a = arena_new(0);
    StrBuf out;
    sb_init(&out, a, 4096);
    Script sc = {cz_session_new(true), &out, 0};
    cz_split_statements(sql, len, one, &sc);
    snprintf(path, sizeof path, "%s/tests/analyzer_vars/golden/%s.plan", src, name);
    if (getenv("CATALYZER_UPDATE_GOLDEN")) {
        FILE *f = fopen(path, "wb");
        cr_assert(f);
        fwrite(out.data, 1, out.len, f);
        fclose(f);
    } else {
        char *want = slurp(path, NULL);
        cr_assert(want, "missing %s (run with CATALYZER_UPDATE_GOLDEN=1)", path);
        cr_expect_str_eq(sb_str(&out), want, "%s differs", name);
        free(want);
    }
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
