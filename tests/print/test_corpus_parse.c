/* Robustness: every statement of the shared corpus, parsed by the real
 * parser, prints as a tree (no crash, one line per node, `'`-prefixed while
 * unresolved); every expression prints in all three styles. Skips without
 * the corpus. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "corpus.h"
#include "parser/parser.h"
#include "print/printer.h"
#include "core/walk.h"

static int expr_count;

static WalkResult print_each_expr(const Node *n, void *ctx) {
    Arena *a = ctx;
    if (!node_is_plan(n)) {
        cr_assert(expr_to_string(a, n) != NULL);
        cr_assert(expr_auto_name(a, n) != NULL);
        cr_assert(expr_sql_quoted(a, n)[0] == '"');
        expr_count++;
    }
    return WALK_CONTINUE;
}

static void run_file(const char *name, int *parsed, int *total) {
    Arena *a = arena_new(0);
    const char *path = corpus_path(a, name);
    if (!path) {
        arena_free(a);
        return;
    }
    size_t len;
    char *text = read_file_all(a, path, &len);
    for (char *p = text; p && p < text + len;) {
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(text + len - p);
        Arena *ra = arena_new(0);
        JVal *rec = n ? json_parse(ra, p, n) : NULL;
        const char *sql = rec ? json_str(rec, "sql") : NULL;
        p += n + 1;
        if (!sql) {
            arena_free(ra);
            continue;
        }
        (*total)++;
        ErrorInfo *err = NULL;
        ParserOptions po = {0};
        Node *plan = parse_statement(ra, sql, strlen(sql), &po, &err);
        if (plan) {
            (*parsed)++;
            const char *tree = plan_tree_string_sql(ra, plan, sql, strlen(sql));
            cr_assert(tree && *tree, "empty tree for %s", sql);
            cr_assert(tree[strlen(tree) - 1] == '\n');
            if (!node_resolved(plan) && !node_kind_is_command(plan->kind)) cr_expect(tree[0] == '\'', "%s", tree);
            node_walk(plan, WALK_EXPRS | WALK_SUBQUERIES, print_each_expr, ra);
        }
        arena_free(ra);
    }
    arena_free(a);
}

Test(corpus_parse, every_statement_prints) {
    if (!getenv("CATALYZER_SHARED")) cr_skip("CATALYZER_SHARED not set");
    int parsed = 0, total = 0;
    run_file("spark-visible.jsonl", &parsed, &total);
    run_file("spark-functions.jsonl", &parsed, &total);
    if (!total) cr_skip("corpus not found");
    fprintf(stderr, "# parsed and printed %d of %d corpus statements (%d expressions)\n", parsed, total, expr_count);
}
