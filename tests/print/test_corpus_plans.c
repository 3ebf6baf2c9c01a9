/* Spark's analyzed plans from the shared corpus against ours: every ok
 * statement is run in its file's session and, where Spark printed a plan,
 * our tree string (ids normalised) is compared with it. The figures are
 * printed (and the differences written to $CATALYZER_BUILD/print-*-diffs.txt);
 * the test fails only on a crash or when nothing at all matches, so it can
 * run while the analyzer is still growing. Skips without the corpus. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "corpus.h"

typedef struct Stats {
    int plans, ran_ok, matched;
    int schemas, schemas_ok, schemas_matched;
} Stats;

static void apply_settings(CzSession *s, const JVal *rec) {
    const JVal *cfg = json_get(rec, "file_config");
    const JVal *set = json_get(cfg, "set");
    if (!set || set->kind != J_ARR) return;
    for (size_t i = 0; i < set->n; i++) {
        const JVal *kv = &set->items[i];
        if (kv->kind == J_ARR && kv->n == 2 && kv->items[0].kind == J_STR && kv->items[1].kind == J_STR)
            cz_session_set_conf(s, kv->items[0].s, kv->items[1].s);
    }
}

static Stats run_corpus(Arena *a, const char *text, size_t len, FILE *diffs, FILE *sdiffs) {
    Stats st = {0};
    CzSession *s = NULL;
    const char *cur_file = "";
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        JVal *rec = n ? json_parse(a, p, n) : NULL;
        p += n + 1;
        if (!rec) continue;
        const char *file = json_str(rec, "file");
        const char *sql = json_str(rec, "sql");
        if (!file || !sql) continue;
        if (strcmp(file, cur_file) != 0) {
            if (s) cz_session_free(s);
            s = cz_session_new(true);
            apply_settings(s, rec);
            cur_file = file;
        }
        CzRunOptions opts = {0};
        opts.want_tree = true;
        CzResult *r = cz_run_sql(s, sql, strlen(sql), &opts);
        const char *expect = json_str(rec, "expect");
        const char *plan = json_str(rec, "analyzed_plan");
        const JVal *red = json_get(rec, "plan_redacted");
        bool redacted = red && red->kind == J_BOOL && red->b;
        if (expect && !strcmp(expect, "ok") && plan && !redacted) {
            st.plans++;
            const char *tree = cz_result_status(r) == CZ_OK ? cz_result_tree(r) : NULL;
            if (tree) {
                st.ran_ok++;
                const char *ours = plan_normalise(a, tree);
                size_t ol = strlen(ours);
                /* Spark's golden plans carry no trailing newline */
                if (ol && ours[ol - 1] == '\n') ol--;
                if (strlen(plan) == ol && !strncmp(plan, ours, ol)) {
                    st.matched++;
                } else if (diffs) {
                    fprintf(diffs, "=== %s\n%s\n--- spark\n%s\n--- ours\n%.*s\n\n", file, sql, plan, (int)ol, ours);
                }
            }
        }
        const char *schema = json_str(rec, "schema");
        if (expect && !strcmp(expect, "ok") && schema) {
            st.schemas++;
            const char *ours = cz_result_status(r) == CZ_OK ? cz_result_schema(r) : NULL;
            if (ours) {
                st.schemas_ok++;
                if (!strcmp(ours, schema))
                    st.schemas_matched++;
                else if (sdiffs)
                    fprintf(sdiffs, "=== %s\n%s\nspark: %s\nours:  %s\n\n", file, sql, schema, ours);
            }
        }
        cz_result_free(r);
    }
    if (s) cz_session_free(s);
    return st;
}

static void run_file(const char *name, const char *tag) {
    Arena *a = arena_new(0);
    const char *path = corpus_path(a, name);
    if (!path) {
        arena_free(a);
        cr_skip("CATALYZER_SHARED corpus not available");
    }
    size_t len;
    char *text = read_file_all(a, path, &len);
    cr_assert(text != NULL);
    FILE *diffs = NULL, *sdiffs = NULL;
    const char *build = getenv("CATALYZER_BUILD");
    if (build) {
        diffs = fopen(arena_printf(a, "%s/print-%s-plan-diffs.txt", build, tag), "w");
        sdiffs = fopen(arena_printf(a, "%s/print-%s-schema-diffs.txt", build, tag), "w");
    }
    Stats st = run_corpus(a, text, len, diffs, sdiffs);
    if (diffs) fclose(diffs);
    if (sdiffs) fclose(sdiffs);
    fprintf(stderr, "# %s: analyzed plans: %d in the corpus, %d analysed ok, %d identical to Spark's\n", tag, st.plans,
            st.ran_ok, st.matched);
    fprintf(stderr, "# %s: schemas: %d in the corpus, %d analysed ok, %d identical to Spark's\n", tag, st.schemas,
            st.schemas_ok, st.schemas_matched);
    if (st.ran_ok > 0) cr_expect_gt(st.matched, 0, "no plan matches Spark's at all");
    if (st.schemas_ok > 0) cr_expect_gt(st.schemas_matched, 0, "no schema matches Spark's at all");
    arena_free(a);
}

Test(corpus, analyzed_plans_match_spark) { run_file("spark-visible.jsonl", "visible"); }

/* The function examples: their column names are Spark's pretty names. */
Test(corpus, function_names_match_spark) { run_file("spark-functions.jsonl", "functions"); }

Test(corpus, normalise) {
    Arena *a = arena_new(0);
    cr_expect_str_eq(plan_normalise(a, "Project [a#12, b#3L]\n+- CTERelationRef 4, true, [a#12], false, false"),
                     "Project [a#x, b#xL]\n+- CTERelationRef xxxx, true, [a#x], false, false");
    cr_expect_str_eq(plan_normalise(a, ":- CTERelationDef 17, false"), ":- CTERelationDef xxxx, false");
    arena_free(a);
}
