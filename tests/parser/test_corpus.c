/* The parser against the whole shared corpus (Spark's two corpora and the
 * workload scripts): every statement Spark parses must parse; every
 * statement Spark rejects at parse time must fail with the same error class
 * (and PARSE_SYNTAX_ERROR's error/hint parameters where Spark gives them).
 * Then robustness: every prefix of every statement and a few thousand
 * seeded random byte mutations get an answer, never a crash. Spark's test
 * harness substitutes ${var} from the file's earlier SET statements before
 * parsing; the statements here get the same (with the parser's own
 * substitution). Exits 77 without ../shared (corpus_main.c). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_parse.h"
#include "corpus.h"
#include "parser/parser.h"

typedef struct Stmt {
    char where[512];
    const char *sql; /* in the arena */
    size_t len;
    const char *error_class, *error_param, *hint_param; /* the expected parse error, or NULL */
} Stmt;

/* `SET [hivevar:]name = value` of the current file, for ${name} / ${hivevar:name}. */
typedef struct Vars {
    const char *file;
    int n;
    char names[16][64];
    char values[16][256];
} Vars;

static void note_set(Vars *v, const char *sql) {
    if (strncasecmp(sql, "SET ", 4) != 0) return;
    const char *k = sql + 4;
    while (*k == ' ') k++;
    if (strncasecmp(k, "hivevar:", 8) == 0) k += 8;
    const char *e = k;
    while (*e && *e != '=' && *e != ' ') e++;
    const char *eq = strchr(e, '=');
    if (!eq || v->n >= 16 || (size_t)(e - k) >= 64) return;
    const char *val = eq + 1;
    while (*val == ' ') val++;
    snprintf(v->names[v->n], 64, "%.*s", (int)(e - k), k);
    snprintf(v->values[v->n], 256, "%s", val);
    v->n++;
}

static const char *lookup(void *ctx, const char *prefix, const char *name) {
    Vars *v = ctx;
    if (prefix && strcasecmp(prefix, "hivevar") != 0) return NULL;
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->names[i], name)) return v->values[i];
    return NULL;
}

/* The functions table is markdown: its examples write `|` as &#124;. */
static const char *unescape_pipes(Arena *a, const char *sql) {
    if (!strstr(sql, "&#124;")) return sql;
    char *s = arena_strndup(a, sql, strlen(sql)), *q;
    while ((q = strstr(s, "&#124;"))) {
        *q = '|';
        memmove(q + 1, q + 6, strlen(q + 6) + 1);
    }
    return s;
}

static Stmt *statements(Arena *a, size_t *n) {
    Corpus c = {0};
    cr_assert(corpus_load_jsonl(&c, "spark-visible.jsonl"), "cannot read spark-visible.jsonl");
    size_t nspark = c.n;
    cr_assert(corpus_load_jsonl(&c, "spark-functions.jsonl"), "cannot read spark-functions.jsonl");
    size_t nfunctions = c.n;
    cr_assert(corpus_load_workloads(&c), "cannot read the workloads");
    Stmt *v = arena_alloc(a, sizeof(Stmt) * (c.n + 1));
    Vars vars = {0};
    for (size_t i = 0; i < c.n; i++) {
        const CorpusRecord *r = &c.v[i];
        Stmt *s = &v[i];
        memset(s, 0, sizeof *s);
        const char *label = i < nspark ? "spark-visible" : i < nfunctions ? "spark-functions" : "workloads";
        snprintf(s->where, sizeof s->where, "%s:%s#%ld", label, r->file, r->index);
        if (!vars.file || strcmp(vars.file, r->file) != 0) {
            memset(&vars, 0, sizeof vars);
            vars.file = r->file;
        }
        note_set(&vars, r->sql);
        const char *sql = unescape_pipes(a, r->sql);
        s->sql = parse_substitute_variables(a, sql, strlen(sql), lookup, &vars, &s->len);
        s->sql = arena_strndup(a, s->sql, s->len);
        if (r->error_phase && !strcmp(r->error_phase, "parse") && r->error_class) {
            s->error_class = arena_strndup(a, r->error_class, strlen(r->error_class));
            if (r->param_error) s->error_param = arena_strndup(a, r->param_error, strlen(r->param_error));
            if (r->param_hint) s->hint_param = arena_strndup(a, r->param_hint, strlen(r->param_hint));
        }
    }
    *n = c.n;
    corpus_free(&c);
    return v;
}

/* A parameter Spark gives (NULL: not checked) must be ours too. */
static bool same_param(const ErrorInfo *e, const char *name, const char *want) {
    if (!want) return true;
    for (int i = 0; i < e->nparams; i++)
        if (!strcmp(e->names[i], name)) return !strcmp(e->values[i], want);
    return false;
}

Test(parser_corpus, spark_and_workloads, .timeout = 300) {
    Arena *keep = arena_new(0);
    size_t n;
    Stmt *v = statements(keep, &n);
    size_t parsed = 0, errors_ok = 0, unexpected = 0;
    Arena *a = arena_new(0);
    for (size_t i = 0; i < n; i++) {
        Stmt *s = &v[i];
        ErrorInfo *err = NULL;
        Node *plan = parse_statement(a, s->sql, s->len, NULL, &err);
        if (s->error_class) {
            if (!plan && !strcmp(err->error_class, s->error_class) && same_param(err, "error", s->error_param) &&
                same_param(err, "hint", s->hint_param))
                errors_ok++;
            else {
                unexpected++;
                fprintf(stderr, "UNEXPECTED %s: expected %s (error=%s hint=%s), got %s\n  %s\n", s->where,
                        s->error_class, s->error_param ? s->error_param : "-", s->hint_param ? s->hint_param : "-",
                        plan ? "a plan" : err->message, s->sql);
            }
        } else if (plan) parsed++;
        else {
            unexpected++;
            fprintf(stderr, "UNEXPECTED %s: %s (at %d)\n  %.300s\n", s->where, err->message, err->start, s->sql);
        }
        arena_reset(a);
    }
    arena_free(a);
    fprintf(stderr, "parser corpus: %zu statements, %zu parsed, %zu expected parse errors reproduced, %zu unexpected\n", n,
            parsed, errors_ok, unexpected);
    arena_free(keep);
    cr_expect_gt(n, 1000, "the corpus has only %zu statements", n);
    cr_expect_eq(unexpected, 0, "%zu unexpected parse results", unexpected);
}

Test(parser_corpus, prefixes_and_mutations, .timeout = 600) {
    Arena *keep = arena_new(0);
    size_t n;
    Stmt *v = statements(keep, &n);
    Arena *a = arena_new(0);
    size_t runs = 0;
    for (size_t i = 0; i < n; i++) {
        Stmt *s = &v[i];
        /* every prefix of short statements; a sample of cut points for long ones */
        size_t step = s->len > 600 ? s->len / 300 : 1;
        for (size_t k = 0; k <= s->len; k += step, runs++) parse_check_answer(a, s->sql, k);
    }
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    static const char alphabet[] = "()'\"`;,.*-+/%=<>!|&^~:?[]{}$\\ \n\t0123456789eEaAxX_\x80\xff";
    for (int m = 0; m < 5000 && n; m++, runs++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        Stmt *s = &v[seed % n];
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
        parse_check_answer(a, buf, len);
        free(buf);
    }
    arena_free(a);
    arena_free(keep);
    fprintf(stderr, "parser robustness: %zu parses, no crash\n", runs);
}
