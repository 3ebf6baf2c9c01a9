/* Tree strings: Spark's treeString layout for parsed and analyzed plans. */
#include <criterion/criterion.h>

#include "nodes.h"
#include "print/printer.h"

Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }
TestSuite(tree, .init = setup, .fini = teardown);

Test(tree, parsed_project_filter) {
    /* SELECT a, a + 1 FROM t WHERE a > 1 */
    Node *rel = urel("t");
    Node *gt = ufn(">", true, KIDS(ua("a"), lit_int(1)));
    Node *filter = plan1(NK_Filter, rel, KIDS(gt));
    Node *plus = unary(NK_UnresolvedAlias, ufn("+", true, KIDS(ua("a"), lit_int(1))));
    Node *proj = plan1(NK_Project, filter, KIDS(ua("a"), plus));
    cr_expect_str_eq(plan_tree_string(A, proj),
                     "'Project ['a, unresolvedalias(('a + 1))]\n"
                     "+- 'Filter ('a > 1)\n"
                     "   +- 'UnresolvedRelation [t], [], false\n");
}

Test(tree, parsed_join_and_functions) {
    Node *l = sq_alias(urel("t1"), "x");
    Node *r = urel("t2");
    Node *j = node_new(A, NK_Join, -1, -1);
    with_kids(j, KIDS(l, r));
    with_exprs(j, KIDS(ufn("=", true, KIDS(ua2("x", "a"), ua2("t2", "b")))));
    fin(j);
    Node *cnt = unary(NK_UnresolvedAlias, ufn("count", false, KIDS(lit_int(1))));
    Node *sum = alias(ufn("sum", false, KIDS(ua("b"))), "s", 7);
    Node *agg = node_new(A, NK_Aggregate, -1, -1);
    with_exprs(agg, KIDS(ua("a"), cnt, sum));
    agg->u.aggregate.ngroup = 1;
    with_kids(agg, KIDS(j));
    fin(agg);
    cr_expect_str_eq(plan_tree_string(A, agg),
                     "'Aggregate ['a], [unresolvedalias('count(1)), 'sum('b) AS s#7]\n"
                     "+- 'Join Inner, ('x.a = 't2.b)\n"
                     "   :- 'SubqueryAlias x\n"
                     "   :  +- 'UnresolvedRelation [t1], [], false\n"
                     "   +- 'UnresolvedRelation [t2], [], false\n");
}

static Node *lit_bool(bool b) {
    Value v = {.type = &TYPE_BOOLEAN};
    v.u.b = b;
    return lit_typed(v);
}

Test(tree, resolved_with_subquery_inner_children) {
    Node *a = attr("a", 1, &TYPE_INT);
    Node *b = attr("b", 2, &TYPE_LONG);
    Node *lr = node_new(A, NK_LocalRelation, -1, -1);
    lr->u.local.nrows = 1;
    fin(with_exprs(lr, KIDS(a, b)));
    Node *sub_filter = plan1(NK_Filter, lr, KIDS(lit_bool(true)));
    Node *sub = plan1(NK_Project, sub_filter, KIDS(b, unary(NK_OuterReference, a)));
    Node *ss = node_new(A, NK_ScalarSubquery, -1, -1);
    ss->u.subq.plan = sub;
    ss->u.subq.id = 5;
    ss->type = &TYPE_LONG;
    fin(with_kids(ss, KIDS(a)));
    Node *ex = node_new(A, NK_Exists, -1, -1);
    ex->u.subq.plan = one_row();
    ex->u.subq.id = 3;
    ex->type = &TYPE_BOOLEAN;
    fin(ex);
    Node *f = plan1(NK_Filter, sq_alias(lr, "t"), KIDS(ex));
    Node *p = plan1(NK_Project, f, KIDS(a, alias(ss, "s", 6)));
    cr_expect_str_eq(plan_tree_string(A, p),
                     "Project [a#1, scalar-subquery#5 [a#1] AS s#6L]\n"
                     ":  +- Project [b#2L, outer(a#1)]\n"
                     ":     +- Filter true\n"
                     ":        +- LocalRelation [a#1, b#2L]\n"
                     "+- Filter exists#3 []\n"
                     "   :  +- OneRowRelation\n"
                     "   +- SubqueryAlias t\n"
                     "      +- LocalRelation [a#1, b#2L]\n");
}

Test(tree, inner_children_layout) {
    Node *a = attr("a", 1, &TYPE_INT);
    Node *one = one_row();
    Node *sub1 = plan1(NK_Project, one_row(), KIDS(attr("x", 2, &TYPE_INT)));
    Node *sub2 = plan1(NK_Project, one_row(), KIDS(attr("y", 3, &TYPE_INT)));
    Node *ss1 = node_new(A, NK_ScalarSubquery, -1, -1);
    ss1->u.subq.plan = sub1;
    ss1->u.subq.id = 10;
    ss1->type = &TYPE_INT;
    fin(ss1);
    Node *ss2 = node_new(A, NK_ScalarSubquery, -1, -1);
    ss2->u.subq.plan = sub2;
    ss2->u.subq.id = 11;
    ss2->type = &TYPE_INT;
    fin(with_kids(ss2, KIDS(a)));
    Node *p = plan1(NK_Project, one, KIDS(alias(ss1, "s1", 4), alias(ss2, "s2", 5)));
    cr_expect_str_eq(plan_tree_string(A, p),
                     "Project [scalar-subquery#10 [] AS s1#4, scalar-subquery#11 [a#1] AS s2#5]\n"
                     ":  :- Project [x#2]\n"
                     ":  :  +- OneRowRelation\n"
                     ":  +- Project [y#3]\n"
                     ":     +- OneRowRelation\n"
                     "+- OneRowRelation\n");
    /* a leaf with an inner child: continuation is blank */
    Node *lj = node_new(A, NK_LateralJoin, -1, -1);
    Node *ls = node_new(A, NK_LateralSubquery, -1, -1);
    ls->u.subq.plan = sub1;
    ls->u.subq.id = 12;
    ls->type = &TYPE_INT;
    fin(with_kids(ls, KIDS(a)));
    with_exprs(lj, KIDS(ls));
    with_kids(lj, KIDS(one_row()));
    fin(lj);
    cr_expect_str_eq(plan_tree_string(A, lj),
                     "LateralJoin lateral-subquery#12 [a#1], Inner\n"
                     ":  +- Project [x#2]\n"
                     ":     +- OneRowRelation\n"
                     "+- OneRowRelation\n");
}

Test(tree, cte_union_sort_limit) {
    Node *one = attr("1", 4, &TYPE_INT);
    Node *def_body = sq_alias(plan1(NK_Project, one_row(), KIDS(alias(lit_int(1), "1", 4))), "q");
    Node *def = node_new(A, NK_CTERelationDef, -1, -1);
    def->u.cte.id = 0;
    fin(with_kids(def, KIDS(def_body)));
    Node *ref = node_new(A, NK_CTERelationRef, -1, -1);
    ref->u.cte.id = 0;
    fin(with_exprs(ref, KIDS(one)));
    Node *u = node_new(A, NK_Union, -1, -1);
    fin(with_kids(u, KIDS(sq_alias(ref, "q"), sq_alias(ref, "q"))));
    Node *so = node_new(A, NK_SortOrder, -1, -1);
    so->u.sort_order.nulls_first = true;
    so->type = &TYPE_INT;
    fin(with_kids(so, KIDS(one)));
    Node *sort = plan1(NK_Sort, u, KIDS(so));
    sort = node_copy(A, sort);
    sort->u.sort.global = true;
    fin(sort);
    Node *ll = plan1(NK_LocalLimit, sort, KIDS(lit_int(10)));
    Node *gl = plan1(NK_GlobalLimit, ll, KIDS(lit_int(10)));
    Node *w = node_new(A, NK_WithCTE, -1, -1);
    fin(with_kids(w, KIDS(def, gl)));
    cr_expect_str_eq(plan_tree_string(A, w),
                     "WithCTE\n"
                     ":- CTERelationDef 0, false\n"
                     ":  +- SubqueryAlias q\n"
                     ":     +- Project [1 AS 1#4]\n"
                     ":        +- OneRowRelation\n"
                     "+- GlobalLimit 10\n"
                     "   +- LocalLimit 10\n"
                     "      +- Sort [1#4 ASC NULLS FIRST], true\n"
                     "         +- Union false, false\n"
                     "            :- SubqueryAlias q\n"
                     "            :  +- CTERelationRef 0, true, [1#4], false, false\n"
                     "            +- SubqueryAlias q\n"
                     "               +- CTERelationRef 0, true, [1#4], false, false\n");
}

Test(tree, aggregate_omits_empty_grouping) {
    Node *cnt_attr = attr("count(1)", 3, &TYPE_LONG);
    (void)cnt_attr;
    Node *lr = node_new(A, NK_LocalRelation, -1, -1);
    fin(with_exprs(lr, KIDS(attr("a", 1, &TYPE_INT))));
    Node *agg = node_new(A, NK_Aggregate, -1, -1);
    Node *al = alias(lit_int(1), "1", 2);
    with_exprs(agg, KIDS(al));
    fin(with_kids(agg, KIDS(lr)));
    cr_expect_str_eq(plan_tree_string(A, agg), "Aggregate [1 AS 1#2]\n+- LocalRelation <empty>, [a#1]\n");
    Node *p = plan1(NK_Project, one_row(), 0, NULL);
    cr_expect_str_eq(plan_tree_string(A, p), "Project\n+- OneRowRelation\n");
}

Test(tree, deep_plan_is_linear) {
    /* 5000 nested Projects: must not blow up in time or memory */
    Node *p = one_row();
    Node *a = attr("a", 1, &TYPE_INT);
    for (int i = 0; i < 5000; i++) p = plan1(NK_Project, p, KIDS(a));
    const char *s = plan_tree_string(A, p);
    size_t len = strlen(s);
    /* line i has 3*i prefix bytes */
    cr_expect_gt(len, (size_t)3 * 4999 * 5000 / 2);
    cr_expect(strstr(s, "+- OneRowRelation\n") != NULL);
}

/* Every node kind, bare (no children, no fields) and with an empty child
 * list: the printers must not crash on any of them. */
Test(tree, every_kind_prints) {
    for (int k = 0; k < NK_COUNT_; k++) {
        Node *n = fin(node_new(A, (NodeKind)k, -1, -1));
        const char *t = plan_tree_string(A, n);
        cr_expect(t && *t, "kind %s", node_kind_name((NodeKind)k));
        cr_expect(expr_to_string(A, n) != NULL);
        cr_expect(expr_auto_name(A, n) != NULL);
        cr_expect(expr_sql_quoted(A, n) != NULL);
        /* the same kind with one child and one expression */
        Node *m = node_new(A, (NodeKind)k, -1, -1);
        if (node_kind_is_plan((NodeKind)k)) {
            with_kids(m, KIDS(one_row()));
            with_exprs(m, KIDS(attr("a", 1, &TYPE_INT)));
        } else {
            with_kids(m, KIDS(attr("a", 1, &TYPE_INT)));
        }
        fin(m);
        cr_expect(plan_tree_string(A, m) != NULL);
        cr_expect(expr_to_string(A, m) != NULL);
        cr_expect(expr_auto_name(A, m) != NULL);
        Node *nodes[] = {m, n};
        cr_expect(schema_string(A, nodes, 2) != NULL);
    }
}

Test(tree, wide_plan) {
    /* a Union of 10000 children: one line each, the last one `+- ` */
    enum { N = 10000 };
    Node **kids = arena_alloc(A, sizeof(Node *) * N);
    Node *one = one_row();
    for (int i = 0; i < N; i++) kids[i] = one;
    Node *u = node_new(A, NK_Union, -1, -1);
    node_set_kids(A, u, kids, N);
    fin(u);
    const char *s = plan_tree_string(A, u);
    size_t expect = strlen("Union false, false\n") + (size_t)N * strlen(":- OneRowRelation\n");
    cr_expect_eq(strlen(s), expect);
    cr_expect(strstr(s, "\n+- OneRowRelation\n") != NULL);
    cr_expect_eq(strstr(s, "\n+- OneRowRelation\n") - s, (long)(expect - strlen("+- OneRowRelation\n") - 1));
}

Test(tree, long_lists_truncate_like_spark) {
    /* spark.sql.debug.maxToStringFields = 25: 25 items, then `... N more fields` */
    enum { N = 30 };
    Node *cols[N];
    char *names[N];
    for (int i = 0; i < N; i++) {
        names[i] = arena_printf(A, "c%d", i);
        cols[i] = attr(names[i], (ExprId)i, &TYPE_INT);
    }
    Node *p = plan1(NK_Project, one_row(), N, cols);
    const char *s = plan_tree_string(A, p);
    cr_expect(strstr(s, "c23#23, c24#24, ... 5 more fields]\n") != NULL, "%s", s);
    cr_expect(strstr(s, "c25#25") == NULL);
    Node *rel = node_new(A, NK_Relation, -1, -1);
    const char *q[] = {"spark_catalog", "default", "t"};
    rel->u.relation.name = name_parts(A, 3, q);
    fin(with_exprs(rel, N, cols));
    cr_expect(strstr(plan_tree_string(A, rel), ",c24#24,... 5 more fields] parquet\n") != NULL);
}
