/* Statements print as the analyzed commands Spark shows. */
#include <criterion/criterion.h>

#include "nodes.h"
#include "print/printer.h"

Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }
TestSuite(stmt, .init = setup, .fini = teardown);

static Node *stmt(NodeKind k, int nparts, const char **parts) {
    Node *n = node_new(A, k, -1, -1);
    n->u.ddl.name = name_parts(A, (uint32_t)nparts, parts);
    return n;
}

Test(stmt, create_view) {
    const char *v[] = {"v1"};
    Node *n = stmt(NK_CreateView, 1, v);
    n->u.ddl.temporary = true;
    n->u.ddl.text = "VALUES (1) AS t(a)";
    Node *lr = node_new(A, NK_LocalRelation, -1, -1);
    lr->u.local.nrows = 1;
    fin(with_exprs(lr, KIDS(attr("a", 1, &TYPE_INT))));
    fin(with_kids(n, KIDS(sq_alias(lr, "t"))));
    cr_expect_str_eq(plan_tree_string(A, n),
                     "CreateViewCommand `v1`, VALUES (1) AS t(a), false, false, LocalTempView, UNSUPPORTED, true\n"
                     "   +- SubqueryAlias t\n"
                     "      +- LocalRelation [a#1]\n");
    const char *pv[] = {"spark_catalog", "default", "v"};
    Node *p = stmt(NK_CreateView, 3, pv);
    p->u.ddl.or_replace = true;
    p->u.ddl.text = "VALUES(1)";
    const char *cols[] = {"c1"};
    p->u.ddl.ncols = 1;
    p->u.ddl.col_names = cols;
    fin(with_kids(p, KIDS(lr)));
    cr_expect_str_eq(plan_tree_string(A, p),
                     "CreateViewCommand `spark_catalog`.`default`.`v`, [(c1,None)], VALUES(1), false, true, "
                     "PersistedView, COMPENSATION, true\n"
                     "   +- LocalRelation [a#1]\n");
}

Test(stmt, variables) {
    const char *sql = "DECLARE VARIABLE var1 INT DEFAULT 5";
    const char *v[] = {"var1"};
    Node *d = stmt(NK_DeclareVariable, 1, v);
    Node *five = node_new(A, NK_Literal, 34, 34);
    five->u.lit.v.type = &TYPE_INT;
    five->u.lit.v.u.i = 5;
    five->type = &TYPE_INT;
    fin(five);
    Node *c = node_new(A, NK_Cast, 34, 34);
    c->type = &TYPE_INT;
    c->flags |= NF_IMPLICIT;
    fin(with_kids(c, KIDS(five)));
    fin(with_exprs(d, KIDS(c)));
    cr_expect_str_eq(plan_tree_string_sql(A, d, sql, strlen(sql)),
                     "CreateVariable defaultvalueexpression(cast(5 as int), 5), false\n"
                     "+- ResolvedIdentifier org.apache.spark.sql.catalyst.analysis.FakeSystemCatalog$@xxxxxxxx, "
                     "session.var1\n");
    Node *nd = fin(stmt(NK_DeclareVariable, 1, v));
    cr_expect_str_eq(plan_tree_string(A, nd),
                     "CreateVariable defaultvalueexpression(null, null), false\n"
                     "+- ResolvedIdentifier org.apache.spark.sql.catalyst.analysis.FakeSystemCatalog$@xxxxxxxx, "
                     "session.var1\n");
    Node *dv = stmt(NK_DropVariable, 1, v);
    dv->u.ddl.if_exists = true;
    cr_expect_str_eq(plan_tree_string(A, fin(dv)),
                     "DropVariable true\n"
                     "+- ResolvedIdentifier org.apache.spark.sql.catalyst.analysis.FakeSystemCatalog$@xxxxxxxx, "
                     "session.var1\n");
    Node *ref = node_new(A, NK_VariableReference, -1, -1);
    const char *q[] = {"system", "session"};
    ref->u.attr.name = "var1";
    ref->u.attr.qualifier = name_parts(A, 2, q);
    Value *val = ARENA_NEW(A, Value);
    val->type = &TYPE_INT;
    val->is_null = true;
    ref->u.attr.value = val;
    ref->type = &TYPE_INT;
    fin(ref);
    Node *sv = stmt(NK_SetVariable, 0, NULL);
    with_exprs(sv, KIDS(ref));
    fin(with_kids(sv, KIDS(plan1(NK_Project, one_row(), KIDS(alias(lit_int(7), "var1", 4))))));
    cr_expect_str_eq(plan_tree_string(A, sv),
                     "SetVariable [variablereference(system.session.var1=CAST(NULL AS INT))]\n"
                     "+- Project [7 AS var1#4]\n"
                     "   +- OneRowRelation\n");
}

Test(stmt, namespaces_tables_config) {
    const char *db[] = {"mydb1"};
    Node *cn = fin(stmt(NK_CreateNamespace, 1, db));
    cr_expect_str_eq(plan_tree_string(A, cn),
                     "CreateNamespace false\n+- ResolvedNamespace V2SessionCatalog(spark_catalog), [mydb1]\n");
    Node *dn = stmt(NK_DropNamespace, 1, db);
    dn->u.ddl.cascade = true;
    cr_expect_str_eq(plan_tree_string(A, fin(dn)),
                     "DropNamespace false, true\n+- ResolvedNamespace V2SessionCatalog(spark_catalog), [mydb1]\n");
    const char *use_sql = "USE mydb1";
    Node *use = node_new(A, NK_UseNamespace, 0, 8);
    use->u.ddl.name = name_parts(A, 1, db);
    fin(use);
    cr_expect_str_eq(plan_tree_string_sql(A, use, use_sql, strlen(use_sql)),
                     "SetCatalogAndNamespace\n+- ResolvedNamespace V2SessionCatalog(spark_catalog), [mydb1]\n");
    const char *use2 = "USE SCHEMA mydb1";
    Node *us = node_new(A, NK_UseNamespace, 0, 15);
    us->u.ddl.name = name_parts(A, 1, db);
    fin(us);
    cr_expect_str_eq(plan_tree_string_sql(A, us, use2, strlen(use2)), "SetNamespaceCommand [mydb1]\n");
    const char *tab[] = {"s", "tab"};
    Node *ct = stmt(NK_CreateTable, 2, tab);
    cr_expect_str_eq(plan_tree_string(A, fin(ct)), "CreateDataSourceTableCommand `spark_catalog`.`s`.`tab`, false\n");
    Node *dt = stmt(NK_DropTable, 2, tab);
    cr_expect_str_eq(plan_tree_string(A, fin(dt)),
                     "DropTable false, false\n+- ResolvedIdentifier V2SessionCatalog(spark_catalog), s.tab\n");
    const char *tv[] = {"t2"};
    Node *dtv = stmt(NK_DropTable, 1, tv);
    dtv->u.ddl.is_view = true;
    dtv->u.ddl.temporary = true;
    dtv->u.ddl.if_exists = true;
    cr_expect_str_eq(plan_tree_string(A, fin(dtv)), "DropTempViewCommand t2\n");
    Node *set = node_new(A, NK_SetConfig, -1, -1);
    set->u.ddl.text = "spark.sql.crossJoin.enabled";
    set->u.ddl.value = "true";
    cr_expect_str_eq(plan_tree_string(A, fin(set)), "SetCommand (spark.sql.crossJoin.enabled,Some(true))\n");
    /* a CTAS query is an inner child */
    const char *t1[] = {"spark_catalog", "mydb1", "t1"};
    Node *ctas = stmt(NK_CreateTable, 3, t1);
    fin(with_kids(ctas, KIDS(plan1(NK_Project, one_row(), KIDS(alias(lit_int(1), "i1", 2))))));
    cr_expect_str_eq(plan_tree_string(A, ctas),
                     "CreateDataSourceTableAsSelectCommand `spark_catalog`.`mydb1`.`t1`, ErrorIfExists, [i1]\n"
                     "   +- Project [1 AS i1#2]\n"
                     "      +- OneRowRelation\n");
}
