/* Spark's analysed plans and schemas from the shared corpus against ours:
 * every statement runs in its file's session (with the file's
 * configuration); where Spark expects ok and printed a plan, our tree string
 * (ids normalised as Spark's golden files) must equal it; where it printed a
 * schema, ours must equal it. The shares that match are figures with floors
 * in tests/conformance/baseline.json (visible_plans, visible_schemas,
 * broad_plans, broad_schemas, functions_schemas; floor.h); the differences go to
 * $CATALYZER_BUILD/print-*-diffs.txt. Exits 77 without ../shared. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "corpus.h"
#include "floor.h"
#include "normalise.h"

typedef struct Stats {
    long plans, ran_ok, matched;
    long schemas, schemas_ok, schemas_matched;
} Stats;

static Stats run_corpus(const Corpus *c, FILE *diffs, FILE *sdiffs) {
    Stats st = {0};
    CzSession *s = NULL;
    for (size_t i = 0; i < c->n; i++) {
        const CorpusRecord *rec = &c->v[i];
        if (!i || !corpus_same_file(rec, &c->v[i - 1])) {
            if (s) cz_session_free(s);
            s = cz_session_new(true);
            for (size_t k = 0; k < rec->nconf; k++) cz_session_set_conf(s, rec->conf_keys[k], rec->conf_values[k]);
        }
        CzRunOptions opts = {.want_tree = true};
        CzResult *r = cz_run_sql(s, rec->sql, strlen(rec->sql), &opts);
        bool want_ok = rec->expect && !strcmp(rec->expect, "ok");
        if (want_ok && rec->analyzed_plan && !rec->plan_redacted) {
            st.plans++;
            const char *tree = cz_result_status(r) == CZ_OK ? cz_result_tree(r) : NULL;
            if (tree) {
                st.ran_ok++;
                char *ours = plan_normalise(tree);
                size_t ol = strlen(ours);
                /* Spark's golden plans carry no trailing newline */
                if (ol && ours[ol - 1] == '\n') ol--;
                if (strlen(rec->analyzed_plan) == ol && !strncmp(rec->analyzed_plan, ours, ol)) st.matched++;
                else if (diffs)
                    fprintf(diffs, "=== %s\n%s\n--- spark\n%s\n--- ours\n%.*s\n\n", rec->file, rec->sql, rec->analyzed_plan,
                            (int)ol, ours);
                free(ours);
            }
        }
        if (want_ok && rec->schema) {
            st.schemas++;
            const char *ours = cz_result_status(r) == CZ_OK ? cz_result_schema(r) : NULL;
            if (ours) {
                st.schemas_ok++;
                if (!strcmp(ours, rec->schema)) st.schemas_matched++;
                else if (sdiffs) fprintf(sdiffs, "=== %s\n%s\nspark: %s\nours:  %s\n\n", rec->file, rec->sql, rec->schema, ours);
            }
        }
        cz_result_free(r);
    }
    if (s) cz_session_free(s);
    return st;
}

static Stats run_file(const char *name, const char *tag) {
    Corpus c = {0};
    cr_assert(corpus_load_jsonl(&c, name), "cannot read %s", name);
    FILE *diffs = NULL, *sdiffs = NULL;
    const char *build = getenv("CATALYZER_BUILD");
    char path[4096];
    if (build) {
        snprintf(path, sizeof path, "%s/print-%s-plan-diffs.txt", build, tag);
        diffs = fopen(path, "w");
        snprintf(path, sizeof path, "%s/print-%s-schema-diffs.txt", build, tag);
        sdiffs = fopen(path, "w");
    }
    Stats st = run_corpus(&c, diffs, sdiffs);
    if (diffs) fclose(diffs);
    if (sdiffs) fclose(sdiffs);
    corpus_free(&c);
    fprintf(stderr, "# %s: analysed plans: %ld in the corpus, %ld analysed ok, %ld identical to Spark's\n", tag, st.plans,
            st.ran_ok, st.matched);
    fprintf(stderr, "# %s: schemas: %ld in the corpus, %ld analysed ok, %ld identical to Spark's\n", tag, st.schemas,
            st.schemas_ok, st.schemas_matched);
    return st;
}

Test(corpus, analysed_plans_match_spark, .timeout = 300) {
    Stats st = run_file("spark-visible.jsonl", "visible");
    cr_expect(floor_check("visible_plans", st.matched, st.plans), "analysed plans identical to Spark's: see the figure");
    cr_expect(floor_check("visible_schemas", st.schemas_matched, st.schemas), "schemas identical to Spark's: see the figure");
}

/* The broad corpus (131 more of Spark's golden files): its plans and schemas. */
Test(corpus, broad_plans_match_spark, .timeout = 600) {
    Stats st = run_file("spark-broad.jsonl", "broad");
    cr_expect(floor_check("broad_plans", st.matched, st.plans), "analysed plans identical to Spark's: see the figure");
    cr_expect(floor_check("broad_schemas", st.schemas_matched, st.schemas), "schemas identical to Spark's: see the figure");
}

/* The function examples have no plans; their column names are Spark's pretty names. */
Test(corpus, function_names_match_spark, .timeout = 300) {
    Stats st = run_file("spark-functions.jsonl", "functions");
    cr_expect_eq(st.plans, 0, "the functions corpus now has plans: give them a floor");
    cr_expect(floor_check("functions_schemas", st.schemas_matched, st.schemas), "schemas identical to Spark's: see the figure");
}
