/* Spark's corpus files for session variables, IDENTIFIER and CTEs
 * (sql-session-variables.sql, identifier-clause.sql and cte.sql of
 * spark-visible.jsonl) in process, one session a file, scored as the judge
 * scores them: status, error class, schema string; records Spark failed at
 * execution are left out (analysis only). Each file's share is a figure
 * with a floor ("visible/FILE" in tests/conformance/baseline.json, floor.h).
 * Exits 77 without ../shared (corpus_main.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "catalyzer.h"
#include "corpus.h"
#include "floor.h"

static void expect_file(const char *file) {
    Corpus c = {0};
    cr_assert(corpus_load_jsonl(&c, "spark-visible.jsonl"), "cannot read spark-visible.jsonl");
    CzSession *s = NULL;
    long pass = 0, total = 0;
    for (size_t i = 0; i < c.n; i++) {
        const CorpusRecord *r = &c.v[i];
        if (strcmp(r->file, file) != 0) continue;
        if (!s) {
            s = cz_session_new(true);
            for (size_t k = 0; k < r->nconf; k++) cz_session_set_conf(s, r->conf_keys[k], r->conf_values[k]);
        }
        CzResult *res = cz_run_sql(s, r->sql, strlen(r->sql), NULL);
        if (!r->error_phase || strcmp(r->error_phase, "execution") != 0) {
            total++;
            bool want_ok = r->expect && !strcmp(r->expect, "ok");
            bool ok = cz_result_status(res) == CZ_OK;
            bool strict = ok == want_ok;
            if (strict && !want_ok) strict = r->error_class && !strcmp(cz_result_error(res)->error_class, r->error_class);
            if (strict && want_ok && r->schema && r->kind && !strcmp(r->kind, "query"))
                strict = cz_result_schema(res) && !strcmp(cz_result_schema(res), r->schema);
            if (strict) pass++;
            else fprintf(stderr, "FAIL %s #%ld: %s\n", file, r->index, r->sql);
        }
        cz_result_free(res);
    }
    cz_session_free(s);
    corpus_free(&c);
    char key[256];
    snprintf(key, sizeof key, "visible/%s", file);
    cr_expect(floor_check(key, pass, total), "%s: see the figure", file);
}

Test(corpus_files, session_variables, .timeout = 300) { expect_file("sql-session-variables.sql"); }
Test(corpus_files, identifier_clause, .timeout = 300) { expect_file("identifier-clause.sql"); }
Test(corpus_files, cte, .timeout = 300) { expect_file("cte.sql"); }
