/* The golden-file runner: every tests/golden/AREA/.../NAME.sql is run in a
 * fresh session (with the tables Spark's test harness creates) and what
 * happened to each statement must equal NAME.expected byte for byte:
 *
 *   -- statement N
 *   <the statement's text>
 *   -- ok <schema string>          or   -- error <error class>
 *   <the analysed plan's tree string, ids normalised as Spark's golden files>
 *   <blank line>
 *
 * Lines `-- conf: key=value` anywhere in a .sql file set configuration
 * before its first statement. Files are found by walking the folder, so a
 * new .sql file is a new test. Prints TAP, one line per file.
 *
 *   run_golden [--update] [DIR]     DIR: default $CATALYZER_SOURCE/tests/golden
 *
 * --update rewrites the .expected files from the output (check the
 * difference with git diff before committing). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalyzer.h"
#include "normalise.h"

typedef struct Names {
    char **v;
    size_t n, cap;
} Names;

static void names_add(Names *ns, const char *s) {
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? ns->cap * 2 : 64;
        ns->v = realloc(ns->v, ns->cap * sizeof *ns->v);
    }
    ns->v[ns->n++] = strdup(s);
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every NAME.sql below root/rel, as "rel/NAME" (without .sql). */
static void find_sql(const char *root, const char *rel, Names *out) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[8192], sub[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        size_t n = strlen(sub);
        if (S_ISDIR(st.st_mode)) find_sql(root, sub, out);
        else if (n > 4 && !strcmp(sub + n - 4, ".sql")) {
            sub[n - 4] = 0;
            names_add(out, sub);
        }
    }
    closedir(d);
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 14, n = 0, k;
    char *b = malloc(cap);
    while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) b = realloc(b, cap *= 2);
    }
    fclose(f);
    b[n] = 0;
    if (len) *len = n;
    return b;
}

typedef struct Script {
    CzSession *s;
    FILE *out;
    int index;
} Script;

static void run_statement(void *ctx, const char *stmt, size_t len, size_t offset) {
    (void)offset;
    Script *sc = ctx;
    /* the statement as written, without the blank space around it */
    size_t b = 0, e = len;
    while (b < e && (stmt[b] == ' ' || stmt[b] == '\n' || stmt[b] == '\t' || stmt[b] == '\r')) b++;
    while (e > b && (stmt[e - 1] == ' ' || stmt[e - 1] == '\n' || stmt[e - 1] == '\t' || stmt[e - 1] == '\r')) e--;
    fprintf(sc->out, "-- statement %d\n%.*s\n", sc->index++, (int)(e - b), stmt + b);
    CzRunOptions o = {.want_tree = true};
    CzResult *r = cz_run_sql(sc->s, stmt, len, &o);
    if (cz_result_status(r) == CZ_OK) fprintf(sc->out, "-- ok %s\n", cz_result_schema(r));
    else fprintf(sc->out, "-- error %s\n", cz_result_error(r)->error_class);
    const char *tree = cz_result_status(r) == CZ_OK ? cz_result_tree(r) : NULL;
    if (tree && *tree) {
        char *norm = plan_normalise(tree);
        size_t n = strlen(norm);
        fputs(norm, sc->out);
        if (norm[n - 1] != '\n') fputc('\n', sc->out);
        free(norm);
    }
    fputc('\n', sc->out);
    cz_result_free(r);
}

/* The output of one script (malloc'd). */
static char *run_script(const char *text, size_t len) {
    char *buf = NULL;
    size_t blen = 0;
    FILE *out = open_memstream(&buf, &blen);
    Script sc = {cz_session_new(true), out, 0};
    for (const char *p = text; (p = strstr(p, "-- conf: ")) != NULL;) {
        p += 9;
        size_t n = strcspn(p, "\n");
        char *kv = strndup(p, n);
        char *eq = strchr(kv, '=');
        if (eq) {
            *eq = 0;
            if (!cz_session_set_conf(sc.s, kv, eq + 1)) fprintf(out, "-- conf rejected: %s=%s\n", kv, eq + 1);
        } else {
            fprintf(out, "-- conf without '=': %s\n", kv);
        }
        free(kv);
    }
    cz_split_statements(text, len, run_statement, &sc);
    cz_session_free(sc.s);
    fclose(out);
    return buf;
}

/* Prints where got and want first differ, as TAP comments. */
static void show_difference(const char *got, const char *want) {
    size_t line = 1;
    const char *g = got, *w = want;
    while (*g && *g == *w) {
        if (*g == '\n') line++;
        g++, w++;
    }
    while (g > got && g[-1] != '\n') g--, w--;
    printf("# first difference at line %zu:\n#   expected: %.*s\n#   got:      %.*s\n", line, (int)strcspn(w, "\n"), w,
           (int)strcspn(g, "\n"), g);
}

int main(int argc, char **argv) {
    bool update = false;
    const char *dir = NULL;
    char defdir[4096];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--update")) update = true;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: run_golden [--update] [DIR]\n");
            return 2;
        } else dir = argv[i];
    }
    if (!dir) {
        const char *src = getenv("CATALYZER_SOURCE");
        if (!src) {
            fprintf(stderr, "run_golden: no DIR and CATALYZER_SOURCE not set\n");
            return 2;
        }
        snprintf(defdir, sizeof defdir, "%s/tests/golden", src);
        dir = defdir;
    }
    Names names = {0};
    find_sql(dir, "", &names);
    if (!names.n) {
        printf("Bail out! no .sql files under %s\n", dir);
        return 1;
    }
    qsort(names.v, names.n, sizeof *names.v, cmp_names);
    printf("1..%zu\n", names.n);
    int failed = 0;
    for (size_t i = 0; i < names.n; i++) {
        char path[8192];
        size_t len;
        snprintf(path, sizeof path, "%s/%s.sql", dir, names.v[i]);
        char *sql = slurp(path, &len);
        if (!sql) {
            printf("not ok %zu - %s: cannot read %s\n", i + 1, names.v[i], path);
            failed++;
            continue;
        }
        char *got = run_script(sql, len);
        snprintf(path, sizeof path, "%s/%s.expected", dir, names.v[i]);
        if (update) {
            FILE *f = fopen(path, "wb");
            bool ok = f && fputs(got, f) >= 0;
            if (f && fclose(f) != 0) ok = false;
            printf("%s %zu - %s: %s %s\n", ok ? "ok" : "not ok", i + 1, names.v[i], ok ? "wrote" : "cannot write", path);
            failed += !ok;
        } else {
            char *want = slurp(path, NULL);
            if (!want) {
                printf("not ok %zu - %s: no %s (run_golden --update writes it)\n", i + 1, names.v[i], path);
                failed++;
            } else if (strcmp(got, want) != 0) {
                printf("not ok %zu - %s: output differs from %s.expected\n", i + 1, names.v[i], names.v[i]);
                show_difference(got, want);
                failed++;
            } else {
                printf("ok %zu - %s\n", i + 1, names.v[i]);
            }
            free(want);
        }
        free(got);
        free(sql);
        free(names.v[i]);
    }
    free(names.v);
    return failed ? 1 : 0;
}
