/* Robustness: every statement of the shared corpus (Spark's two corpora),
 * parsed by the real parser, prints as a tree (no crash, ends in a newline,
 * `'`-prefixed while unresolved); every expression prints in all three
 * styles. Exits 77 without ../shared (corpus_main.c). */
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
    Corpus c = {0};
    cr_assert(corpus_load_jsonl(&c, name), "cannot read %s", name);
    for (size_t i = 0; i < c.n; i++) {
        const char *sql = c.v[i].sql;
        Arena *ra = arena_new(0);
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
    corpus_free(&c);
}

Test(corpus_parse, every_statement_prints, .timeout = 300) {
    int parsed = 0, total = 0;
    run_file("spark-visible.jsonl", &parsed, &total);
    run_file("spark-functions.jsonl", &parsed, &total);
    fprintf(stderr, "# parsed and printed %d of %d corpus statements (%d expressions)\n", parsed, total, expr_count);
    cr_expect_gt(total, 1000, "only %d corpus statements", total);
}
