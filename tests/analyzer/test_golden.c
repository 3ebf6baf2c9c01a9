/* Golden plan tests: each tests/golden/NAME.sql runs in a fresh session;
 * the analysed tree string of every statement (ids normalised to #x), or its
 * error class, must equal tests/golden/NAME.plan. CATALYZER_UPDATE_GOLDEN=1
 * rewrites the .plan files. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "catalyzer.h"
#include "strbuf.h"

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    size_t r = fread(b, 1, (size_t)n, f);
    b[r] = 0;
    fclose(f);
    return b;
}

/* `#123` → `#x` (and `#123L` → `#xL`), as Spark's golden files print ids. */
static void normalise(StrBuf *out, const char *s) {
    for (const char *p = s; *p; p++) {
        sb_putc(out, *p);
        if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
            while (p[1] >= '0' && p[1] <= '9') p++;
            sb_putc(out, 'x');
        }
    }
}

typedef struct Ctx {
    CzSession *s;
    StrBuf *out;
    int index;
} Ctx;

static void on_stmt(void *c, const char *stmt, size_t len, size_t offset) {
    (void)offset;
    Ctx *x = c;
    CzRunOptions o = {.want_tree = true};
    CzResult *r = cz_run_sql(x->s, stmt, len, &o);
    sb_printf(x->out, "-- statement %d\n", x->index++);
    if (cz_result_status(r) == CZ_OK) normalise(x->out, cz_result_tree(r));
    else sb_printf(x->out, "error %s", cz_result_error(r)->error_class);
    sb_putc(x->out, '\n');
    cz_result_free(r);
}

Test(golden, plans) {
    const char *src = getenv("CATALYZER_SOURCE");
    cr_assert(src, "CATALYZER_SOURCE not set");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/golden", src);
    DIR *d = opendir(dir);
    cr_assert(d, "no %s", dir);
    bool update = getenv("CATALYZER_UPDATE_GOLDEN") != NULL;
    int nfiles = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".sql")) continue;
        char path[2048], want_path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(want_path, sizeof want_path, "%s/%.*s.plan", dir, (int)(n - 4), e->d_name);
        char *sql = slurp(path);
        Arena *a = arena_new(0);
        StrBuf out;
        sb_init(&out, a, 4096);
        Ctx x = {cz_session_new(true), &out, 0};
        cz_split_statements(sql, strlen(sql), on_stmt, &x);
        cz_session_free(x.s);
        if (update) {
            FILE *f = fopen(want_path, "wb");
            fputs(sb_str(&out), f);
            fclose(f);
        } else {
            char *want = slurp(want_path);
            cr_expect(want, "missing %s", want_path);
            if (want) cr_expect_str_eq(sb_str(&out), want, "golden %s differs", e->d_name);
            free(want);
        }
        nfiles++;
        arena_free(a);
        free(sql);
    }
    closedir(d);
    cr_expect_gt(nfiles, 0);
}
