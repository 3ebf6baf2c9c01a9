/* The parser against the whole corpus: every statement Spark parses must
 * parse; every statement Spark rejects at parse time must fail with the same
 * error class. Prints the counts; fails if anything is unexpected. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "corpus.h"
#include "parser.h"

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
            if (!n && !strcmp(err->error_class, s->error_class)) errors_ok++;
            else {
                unexpected++;
                fprintf(stderr, "UNEXPECTED %s: expected %s, got %s\n  %s\n", s->where, s->error_class,
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
    printf("parser corpus: %zu statements, %zu parsed, %zu expected parse errors reproduced, %zu unexpected\n", c.n,
           parsed, errors_ok, unexpected);
    corpus_free(&c);
    cr_expect_eq(unexpected, 0, "%zu unexpected parse results", unexpected);
}
