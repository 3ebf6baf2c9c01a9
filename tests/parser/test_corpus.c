/* The parser against the whole corpus: every statement Spark parses must
 * parse; every statement Spark rejects at parse time must fail with the same
 * error class. Prints the counts; fails if anything is unexpected. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "corpus.h"
#include "parser/parser.h"

/* A parameter Spark gives (NULL: not checked) must be ours too. */
static bool same_param(const ErrorInfo *e, const char *name, const char *want) {
    if (!want) return true;
    for (int i = 0; i < e->nparams; i++)
        if (!strcmp(e->names[i], name)) return !strcmp(e->values[i], want);
    return false;
}

Test(parser_corpus, spark_and_workloads) {
    const char *shared = corpus_shared_dir();
    if (!shared) {
        cr_skip("CATALYZER_SHARED not set or corpus missing: corpus test skipped");
        return;
    }
    Corpus c;
    cr_assert(corpus_load(&c, shared), "cannot read the corpus under %s", shared);
    size_t parsed = 0, errors_ok = 0, unexpected = 0;
    Arena *a = arena_new(0);
    for (size_t i = 0; i < c.n; i++) {
        CorpusStmt *s = &c.v[i];
        ErrorInfo *err = NULL;
        Node *n = parse_statement(a, s->sql, s->len, NULL, &err);
        if (s->error_class) {
            if (!n && !strcmp(err->error_class, s->error_class) && same_param(err, "error", s->error_param) &&
                same_param(err, "hint", s->hint_param))
                errors_ok++;
            else {
                unexpected++;
                fprintf(stderr, "UNEXPECTED %s: expected %s (error=%s hint=%s), got %s\n  %s\n", s->where,
                        s->error_class, s->error_param ? s->error_param : "-", s->hint_param ? s->hint_param : "-",
                        n ? "a plan" : err->message, s->sql);
            }
        } else if (n) parsed++;
        else {
            unexpected++;
            fprintf(stderr, "UNEXPECTED %s: %s (at %d)\n  %.300s\n", s->where, err->message, err->start, s->sql);
        }
        arena_reset(a);
    }
    arena_free(a);
    fprintf(stderr, "parser corpus: %zu statements, %zu parsed, %zu expected parse errors reproduced, %zu unexpected\n", c.n,
           parsed, errors_ok, unexpected);
    corpus_free(&c);
    cr_expect_eq(unexpected, 0, "%zu unexpected parse results", unexpected);
}
