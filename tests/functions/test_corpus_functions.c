/* The function library against Spark's function table (spark-functions.jsonl):
 * each example query is parsed, its select list resolved bottom-up by the
 * library alone (columns of an inline VALUES table bound by name), and the
 * output schema string compared with Spark's. Prints the pass rate per
 * family (CZ_FUNCTIONS_VERBOSE=1: and the failures); the total is a figure
 * with a floor ("function_library" in tests/conformance/baseline.json,
 * floor.h). Exits 77 without ../shared (corpus_main.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "harness.h"
#include "corpus.h"
#include "floor.h"
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

Test(functions_corpus, spark_function_table, .timeout = 300) {
    Corpus c = {0};
    cr_assert(corpus_load_jsonl(&c, "spark-functions.jsonl"), "cannot read spark-functions.jsonl");
    long pass = 0, total = 0;
    bool verbose = getenv("CZ_FUNCTIONS_VERBOSE") != NULL;
    for (size_t i = 0; i < c.n; i++) {
        const CorpusRecord *rec = &c.v[i];
        if (!rec->schema || !rec->function) continue;
        Arena *ra = arena_new(0);
        bool ok;
        const char *got = harness_schema(ra, rec->sql, &ok);
        bool pass1 = ok && strcmp(got, rec->schema) == 0;
        const FuncDef *d = func_lookup_builtin(rec->function);
        count(d ? func_family(d) : "unregistered", pass1);
        total++;
        pass += pass1;
        if (!pass1 && verbose)
            fprintf(stderr, "FAIL %s\n  sql  %s\n  want %s\n  got  %s\n", rec->function, rec->sql, rec->schema, got);
        arena_free(ra);
    }
    corpus_free(&c);
    for (int i = 0; i < ntallies; i++)
        fprintf(stderr, "# %-12s %3d / %3d\n", tallies[i].family, tallies[i].pass, tallies[i].total);
    cr_expect(floor_check("function_library", pass, total), "spark-functions.jsonl schemas by the library alone: see the figure");
}
