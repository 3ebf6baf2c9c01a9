/* Robustness: every prefix of every corpus statement and a few thousand
 * seeded random byte mutations must give a plan or an error, never a crash
 * (run under ASan+UBSan for leaks and undefined behaviour). Also: deep
 * nesting fails with an error instead of overflowing the stack. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "parser/parser.h"

static void check_one(Arena *a, const char *sql, size_t len) {
    ErrorInfo *err = NULL;
    Node *n = parse_statement(a, sql, len, NULL, &err);
    cr_assert(n || err, "no plan and no error for: %.*s", (int)len, sql);
    if (!n) {
        cr_assert(err->error_class && err->message, "error without class/message");
        cr_assert(err->phase && !strcmp(err->phase, "parse"), "parse error with phase %s", err->phase);
    }
    /* the other entry points on the same bytes: an answer, never a crash */
    err = NULL;
    cr_assert(parse_expression(a, sql, len, NULL, &err) || err);
    NameParts np;
    err = NULL;
    cr_assert(parse_multipart_identifier(a, sql, len, &np, &err) || err);
    err = NULL;
    cr_assert(parse_data_type(a, sql, len, &err) || err);
    arena_reset(a);
}

Test(parser_robust, deep_nesting_is_an_error) {
    Arena *a = arena_new(0);
    size_t n = 200000;
    char *s = malloc(n * 2 + 16);
    strcpy(s, "SELECT ");
    size_t k = 7;
    for (size_t i = 0; i < n; i++) s[k++] = '(';
    s[k++] = '1';
    for (size_t i = 0; i < n; i++) s[k++] = ')';
    ErrorInfo *err = NULL;
    Node *r = parse_statement(a, s, k, NULL, &err);
    cr_assert_null(r);
    cr_assert_str_eq(err->error_class, "FAILED_TO_PARSE_TOO_COMPLEX");
    /* long flat lists are fine */
    k = 0;
    k += (size_t)sprintf(s, "SELECT 1");
    for (size_t i = 0; i < 20000; i++) k += (size_t)sprintf(s + k, " + %zu", i);
    r = parse_statement(a, s, k, NULL, &err);
    cr_assert_not_null(r, "flat sum: %s", err ? err->message : "");
    free(s);
    arena_free(a);
}

/* Literal-heavy statements built from edge values: overflow must be an error. */
Test(parser_robust, literal_edges) {
    static const char *const units[] = {"year", "months", "week", "day", "hours", "minute", "second", "millisecond",
                                        "microsecond", "nanosecond", "fake"};
    static const char *const vals[] = {"0", "-1", "9223372036854775807", "99999999999999999999", "1.5", ".5",
                                       "1e308", "1e-400", "123456789012345678901234567890", "2147483648", "127Y",
                                       "128Y", "9223372036854775808L", "1e-50BD", "1e999D", "'1'", "'1-2'",
                                       "'-1-13'", "'1 2:3:4.5'", "'999999999999 23:59:59.999999999'",
                                       "'2020-02-30'", "'+'", "'1 year 2 day'", "'178956970-8'", "''"};
    static const char *const typed[] = {"DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "X", "INTERVAL"};
    Arena *a = arena_new(0);
    char buf[512];
    size_t nv = sizeof vals / sizeof vals[0], nu = sizeof units / sizeof units[0];
    for (size_t i = 0; i < nv; i++)
        for (size_t j = 0; j < nu; j++) {
            snprintf(buf, sizeof buf, "SELECT INTERVAL %s %s", vals[i], units[j]);
            check_one(a, buf, strlen(buf));
            snprintf(buf, sizeof buf, "SELECT INTERVAL %s %s TO %s", vals[i], units[j], units[(j + 3) % nu]);
            check_one(a, buf, strlen(buf));
            snprintf(buf, sizeof buf, "SELECT INTERVAL %s %s %s %s", vals[i], units[j], vals[(i + 7) % nv], units[(j + 5) % nu]);
            check_one(a, buf, strlen(buf));
            snprintf(buf, sizeof buf, "SELECT %s + %s * -%s", vals[i], vals[(i + j) % nv], vals[j % nv]);
            check_one(a, buf, strlen(buf));
        }
    for (size_t i = 0; i < nv; i++)
        for (size_t t = 0; t < sizeof typed / sizeof typed[0]; t++) {
            snprintf(buf, sizeof buf, "SELECT %s %s", typed[t], vals[i]);
            check_one(a, buf, strlen(buf));
        }
    arena_free(a);
}

Test(parser_robust, prefixes_and_mutations) {
    const char *shared = corpus_shared_dir();
    if (!shared) {
        cr_skip("CATALYZER_SHARED not set or corpus missing: robustness corpus skipped");
        return;
    }
    Corpus c;
    cr_assert(corpus_load(&c, shared));
    Arena *a = arena_new(0);
    size_t runs = 0;
    for (size_t i = 0; i < c.n; i++) {
        CorpusStmt *s = &c.v[i];
        /* every prefix of short statements; a sample of cut points for long ones */
        size_t step = s->len > 600 ? s->len / 300 : 1;
        for (size_t k = 0; k <= s->len; k += step, runs++) check_one(a, s->sql, k);
    }
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    static const char alphabet[] = "()'\"`;,.*-+/%=<>!|&^~:?[]{}$\\ \n\t0123456789eEaAxX_\x80\xff";
    for (int m = 0; m < 5000 && c.n; m++, runs++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        CorpusStmt *s = &c.v[seed % c.n];
        char *buf = malloc(s->len + 8);
        memcpy(buf, s->sql, s->len);
        size_t len = s->len;
        int edits = 1 + (int)(seed >> 40) % 4;
        for (int e = 0; e < edits && len; e++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            size_t pos = (seed >> 8) % len;
            switch ((seed >> 3) % 3) {
            case 0: buf[pos] = alphabet[(seed >> 20) % (sizeof alphabet - 1)]; break;
            case 1: memmove(buf + pos, buf + pos + 1, len - pos - 1), len--; break;
            default: buf[pos] = (char)(seed >> 32); break;
            }
        }
        check_one(a, buf, len);
        free(buf);
    }
    arena_free(a);
    fprintf(stderr, "parser robustness: %zu parses, no crash\n", runs);
    corpus_free(&c);
}
