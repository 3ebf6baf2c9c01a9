#include "golden.h"

#include "catalyzer.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *golden_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)(n < 0 ? 0 : n) + 1);
    size_t got = fread(b, 1, (size_t)(n < 0 ? 0 : n), f);
    b[got] = 0;
    fclose(f);
    if (len) *len = got;
    return b;
}

void golden_normalise_ids(StrBuf *out, const char *s) {
    for (const char *p = s; *p; p++) {
        if (!strncmp(p, "CTERelationDef ", 15) || !strncmp(p, "CTERelationRef ", 15)) {
            /* CTE ids as Spark's golden files print them */
            sb_putn(out, p, 15);
            p += 15;
            if (*p >= '0' && *p <= '9') {
                sb_puts(out, "xxxx");
                while (p[1] >= '0' && p[1] <= '9') p++;
            } else {
                p--;
            }
            continue;
        }
        sb_putc(out, *p);
        if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
            while (p[1] >= '0' && p[1] <= '9') p++;
            sb_putc(out, 'x');
        }
    }
}

void golden_expect_file(const char *path, const char *got) {
    if (getenv("CATALYZER_UPDATE_GOLDEN")) {
        FILE *f = fopen(path, "wb");
        cr_assert(f, "cannot write %s", path);
        fputs(got, f);
        fclose(f);
        return;
    }
    char *want = golden_slurp(path, NULL);
    cr_assert(want, "missing %s (run with CATALYZER_UPDATE_GOLDEN=1)", path);
    if (strcmp(got, want) != 0) {
        size_t i = 0, line = 1;
        while (got[i] && got[i] == want[i]) {
            if (got[i] == '\n') line++;
            i++;
        }
        free(want);
        cr_assert_fail("%s differs at line %zu", path, line);
    }
    free(want);
}

const char *golden_source_path(char *buf, size_t cap, const char *rel) {
    const char *src = getenv("CATALYZER_SOURCE");
    if (!src) return NULL;
    snprintf(buf, cap, "%s/%s", src, rel);
    return buf;
}

typedef struct DirRun {
    CzSession *s;
    StrBuf *out;
    int index;
    GoldenPrintFn print;
} DirRun;

static void run_stmt(void *ctx, const char *stmt, size_t len, size_t offset) {
    (void)offset;
    DirRun *d = ctx;
    CzRunOptions o = {.want_tree = true};
    CzResult *r = cz_run_sql(d->s, stmt, len, &o);
    d->print(d->out, d->index++, stmt, len, r);
    cz_result_free(r);
}

int golden_check_dir(const char *dir_rel, GoldenPrintFn print) {
    char dir[1024];
    cr_assert(golden_source_path(dir, sizeof dir, dir_rel), "CATALYZER_SOURCE not set");
    DIR *d = opendir(dir);
    cr_assert(d, "no %s", dir);
    int nfiles = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".sql")) continue;
        char path[2048], want_path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(want_path, sizeof want_path, "%s/%.*s.plan", dir, (int)(n - 4), e->d_name);
        size_t len;
        char *sql = golden_slurp(path, &len);
        cr_assert(sql, "cannot read %s", path);
        Arena *a = arena_new(0);
        StrBuf out;
        sb_init(&out, a, 4096);
        DirRun run = {cz_session_new(true), &out, 0, print};
        cz_split_statements(sql, len, run_stmt, &run);
        cz_session_free(run.s);
        golden_expect_file(want_path, sb_str(&out));
        nfiles++;
        arena_free(a);
        free(sql);
    }
    closedir(d);
    return nfiles;
}
