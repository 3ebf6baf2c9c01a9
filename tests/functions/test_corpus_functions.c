/* The function library against Spark's function table (spark-functions.jsonl):
 * each example query is parsed, its select list resolved bottom-up by the
 * library alone (columns of an inline VALUES table bound by name), and the
 * output schema string compared with Spark's. Prints the pass rate per
 * family and the failures; fails only if the rate drops below a floor.
 * Skips without the corpus. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "harness.h"
#include "../print/corpus.h"
#include "functions/functions.h"
#include "functions/registry.h"
#include "parser/parser.h"

typedef struct Tally {
    const char *family;
    int pass, total;
} Tally;

static Tally tallies[16];
static int ntallies;

static void count(const char *family, bool ok) {
    int i = 0;
    while (i < ntallies && strcmp(tallies[i].family, family) != 0) i++;
    if (i == ntallies) {
        if (ntallies == 16) return;
        tallies[ntallies++].family = family;
    }
    tallies[i].total++;
    if (ok) tallies[i].pass++;
}

Test(functions_corpus, spark_function_table) {
    Arena *a = arena_new(0);
    const char *path = corpus_path(a, "spark-functions.jsonl");
    if (!path) {
        arena_free(a);
        cr_skip("spark-functions.jsonl not found (CATALYZER_SHARED)");
    }
    size_t len;
    char *text = read_file_all(a, path, &len);
    int pass = 0, total = 0;
    bool verbose = getenv("CZ_FUNCTIONS_VERBOSE") != NULL;
    for (char *p = text; p && p < text + len;) {
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(text + len - p);
        Arena *ra = arena_new(0);
        JVal *rec = n ? json_parse(ra, p, n) : NULL;
        p += n + 1;
        const char *sql = rec ? json_str(rec, "sql") : NULL;
        const char *want = rec ? json_str(rec, "schema") : NULL;
        const char *fn = rec ? json_str(rec, "function") : NULL;
        if (!sql || !want || !fn) {
            arena_free(ra);
            continue;
        }
        bool ok;
        const char *got = harness_schema(ra, sql, &ok);
        bool pass1 = ok && strcmp(got, want) == 0;
        const FuncDef *d = func_lookup_builtin(fn);
        count(d ? func_family(d) : "unregistered", pass1);
        total++;
        pass += pass1;
        if (!pass1 && verbose) fprintf(stderr, "FAIL %s\n  sql  %s\n  want %s\n  got  %s\n", fn, sql, want, got);
        arena_free(ra);
    }
    arena_free(a);
    for (int i = 0; i < ntallies; i++)
        fprintf(stderr, "# %-12s %3d / %3d\n", tallies[i].family, tallies[i].pass, tallies[i].total);
    fprintf(stderr, "# spark-functions.jsonl: %d / %d schemas equal (%.1f%%)\n", pass, total,
            total ? 100.0 * pass / total : 0.0);
    cr_expect(pass * 100 >= total * 50, "pass rate fell below the floor: %d / %d", pass, total);
}
