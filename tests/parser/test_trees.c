/* Parsed plans printed with the printer's plan_tree_string, against the
 * parsed-plan trees Spark prints for the same statements. */
#include <criterion/criterion.h>
#include <string.h>

#include "parser/parser.h"
#include "print/printer.h"

static Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }
TestSuite(parser_trees, .init = setup, .fini = teardown);

static void T(const char *sql, const char *want) {
    ErrorInfo *err = NULL;
    Node *n = parse_statement(A, sql, strlen(sql), NULL, &err);
    cr_assert_not_null(n, "%s: %s", sql, err ? err->message : "");
    const char *got = plan_tree_string(A, n);
    size_t gl = strlen(got);
    while (gl && got[gl - 1] == '\n') gl--;
    cr_expect(strlen(want) == gl && !strncmp(got, want, gl), "%s\n--- got ---\n%s\n--- want ---\n%s", sql, got, want);
}

Test(parser_trees, project_filter_relation) {
    T("SELECT a, b FROM t WHERE a > 1",
      "'Project ['a, 'b]\n"
      "+- 'Filter ('a > 1)\n"
      "   +- 'UnresolvedRelation [t], [], false");
}

Test(parser_trees, aggregate_sort_limit) {
    T("SELECT a, sum(b) AS s FROM db.t GROUP BY a ORDER BY a DESC LIMIT 5",
      "'GlobalLimit 5\n"
      "+- 'LocalLimit 5\n"
      "   +- 'Sort ['a DESC NULLS LAST], true\n"
      "      +- 'Aggregate ['a], ['a, 'sum('b) AS s#0]\n"
      "         +- 'UnresolvedRelation [db, t], [], false");
}

Test(parser_trees, union_distinct_and_subquery_alias) {
    T("SELECT * FROM (SELECT 1 AS x UNION SELECT 2) u",
      "'Project [*]\n"
      "+- 'SubqueryAlias u\n"
      "   +- 'Distinct\n"
      "      +- 'Union false, false\n"
      "         :- 'Project [1 AS x#0]\n"
      "         :  +- OneRowRelation\n"
      "         +- 'Project [unresolvedalias(2)]\n"
      "            +- OneRowRelation");
}

Test(parser_trees, joins) {
    T("SELECT * FROM a JOIN b ON a.k = b.k",
      "'Project [*]\n"
      "+- 'Join Inner, ('a.k = 'b.k)\n"
      "   :- 'UnresolvedRelation [a], [], false\n"
      "   +- 'UnresolvedRelation [b], [], false");
}
