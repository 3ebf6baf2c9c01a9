/* Expressions: toString inside plans and the pretty SQL names of unaliased
 * select items (what Spark's schema strings show). */
#include <criterion/criterion.h>

#include "nodes.h"
#include "print/printer.h"

Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }
TestSuite(expr, .init = setup, .fini = teardown);

#define STR(e) expr_to_string(A, (e))
#define NAME(e) expr_auto_name(A, (e))
/* toPrettySQL without ResolveAliases' naming of named expressions */
static const char *pretty(const Node *e) {
    StrBuf sb;
    sb_init(&sb, A, 16);
    expr_print_sql(&sb, e);
    return sb_str(&sb);
}

static Node *cast(Node *child, const DataType *t, bool implicit) {
    Node *c = node_new(A, NK_Cast, -1, -1);
    c->type = t;
    c->u.cast.ansi = true;
    if (implicit) c->flags |= NF_IMPLICIT;
    return fin(with_kids(c, KIDS(child)));
}

static Node *call(const char *name, const DataType *t, int k, Node **args) {
    Node *c = node_new(A, NK_Call, -1, -1);
    c->u.call.name = name;
    c->type = t;
    return fin(with_kids(c, k, args));
}

Test(expr, unresolved_forms) {
    cr_expect_str_eq(STR(ua("a")), "'a");
    cr_expect_str_eq(STR(ua2("t", "a")), "'t.a");
    cr_expect_str_eq(STR(ua("a.b")), "'`a.b`");
    cr_expect_str_eq(STR(ufn("+", true, KIDS(ua("a"), lit_int(1)))), "('a + 1)");
    cr_expect_str_eq(STR(ufn("and", true, KIDS(ua("a"), ua("b")))), "('a AND 'b)");
    cr_expect_str_eq(STR(ufn("not", true, KIDS(ua("a")))), "NOT 'a");
    cr_expect_str_eq(STR(ufn("<>", true, KIDS(ua("a"), lit_int(1)))), "NOT ('a = 1)");
    cr_expect_str_eq(STR(ufn("-", true, KIDS(ua("a")))), "-'a");
    cr_expect_str_eq(STR(ufn("isnull", true, KIDS(ua("a")))), "isnull('a)");
    cr_expect_str_eq(STR(ufn("like", true, KIDS(ua("a"), lit_str("x%")))), "'a LIKE x%");
    cr_expect_str_eq(STR(ufn("in", true, KIDS(ua("a"), lit_int(1), lit_int(2)))), "'a IN (1,2)");
    cr_expect_str_eq(STR(ufn("count", false, KIDS(lit_int(1)))), "'count(1)");
    Node *d = ufn("count", false, KIDS(ua("b")));
    d = node_copy(A, d);
    d->flags |= NF_DISTINCT;
    cr_expect_str_eq(STR(fin(d)), "'count(distinct 'b)");
    cr_expect_str_eq(STR(unary(NK_UnresolvedAlias, ufn("+", true, KIDS(ua("a"), lit_int(1))))),
                     "unresolvedalias(('a + 1))");
    Node *star = fin(node_new(A, NK_UnresolvedStar, -1, -1));
    cr_expect_str_eq(STR(star), "*");
    Node *tstar = node_new(A, NK_UnresolvedStar, -1, -1);
    tstar->u.un.name = name_parts1(A, "t");
    cr_expect_str_eq(STR(fin(tstar)), "t.*");
    cr_expect_str_eq(STR(alias(ufn("+", true, KIDS(ua("a"), lit_int(1))), "b", 2)), "('a + 1) AS b#2");
}

Test(expr, resolved_to_string) {
    Node *a = attr("a", 1, &TYPE_INT);
    Node *l = attr("l", 12, &TYPE_LONG);
    cr_expect_str_eq(STR(a), "a#1");
    /* ids are written digit by digit: zero and the widest id too */
    cr_expect_str_eq(STR(attr("z", 0, &TYPE_INT)), "z#0");
    cr_expect_str_eq(STR(attr("w", 18446744073709551615ULL, &TYPE_INT)), "w#18446744073709551615");
    cr_expect_str_eq(STR(l), "l#12L");
    cr_expect_str_eq(STR(alias(l, "m", 13)), "l#12L AS m#13L");
    cr_expect_str_eq(STR(unary(NK_OuterReference, a)), "outer(a#1)");
    cr_expect_str_eq(STR(cast(a, &TYPE_LONG, true)), "cast(a#1 as bigint)");
    cr_expect_str_eq(STR(cast(a, type_decimal(A, 10, 2), false)), "cast(a#1 as decimal(10,2))");
    Node *so = node_new(A, NK_SortOrder, -1, -1);
    so->u.sort_order.nulls_first = true;
    cr_expect_str_eq(STR(fin(with_kids(so, KIDS(a)))), "a#1 ASC NULLS FIRST");
    Node *desc = node_new(A, NK_SortOrder, -1, -1);
    desc->u.sort_order.descending = true;
    cr_expect_str_eq(STR(fin(with_kids(desc, KIDS(a)))), "a#1 DESC NULLS LAST");
    Node *cw = node_new(A, NK_CaseWhen, -1, -1);
    cw->u.casew.has_else = true;
    cr_expect_str_eq(STR(fin(with_kids(cw, KIDS(lit_null(&TYPE_BOOLEAN), lit_int(1), lit_int(2))))),
                     "CASE WHEN null THEN 1 ELSE 2 END");
    Node *in = node_new(A, NK_In, -1, -1);
    in->type = &TYPE_BOOLEAN;
    cr_expect_str_eq(STR(fin(with_kids(in, KIDS(a, lit_int(1), lit_int(2))))), "a#1 IN (1,2)");
    cr_expect_str_eq(NAME(in), "(a IN (1, 2))");
}

Test(expr, subqueries) {
    Node *a = attr("c1", 1, &TYPE_INT);
    Node *b = attr("c2", 2, &TYPE_INT);
    Node *ss = node_new(A, NK_ScalarSubquery, -1, -1);
    ss->u.subq.plan = one_row();
    ss->u.subq.id = 7;
    fin(with_kids(ss, KIDS(a, b)));
    cr_expect_str_eq(STR(ss), "scalar-subquery#7 [c1#1 && c2#2]");
    cr_expect_str_eq(NAME(ss), "scalarsubquery(c1, c2)");
    Node *ex = node_new(A, NK_Exists, -1, -1);
    ex->u.subq.plan = one_row();
    ex->u.subq.id = 3;
    fin(ex);
    cr_expect_str_eq(STR(ex), "exists#3 []");
    cr_expect_str_eq(NAME(ex), "exists()");
    Node *ins = node_new(A, NK_InSubquery, -1, -1);
    ins->u.subq.plan = one_row();
    ins->u.subq.id = 4;
    ins->u.subq.nvalues = 1;
    fin(with_kids(ins, KIDS(lit_int(1))));
    cr_expect_str_eq(STR(ins), "1 IN (list#4 [])");
    cr_expect_str_eq(NAME(ins), "(1 IN (listquery()))");
    Node *ins2 = node_new(A, NK_InSubquery, -1, -1);
    ins2->u.subq.plan = one_row();
    ins2->u.subq.id = 4;
    ins2->u.subq.nvalues = 2;
    fin(with_kids(ins2, KIDS(lit_int(12), lit_int(13), b)));
    cr_expect_str_eq(STR(ins2), "named_struct(_0, 12, _1, 13) IN (list#4 [c2#2])");
    cr_expect_str_eq(NAME(ins2), "((12, 13) IN (listquery(c2)))");
}

Test(expr, pretty_names) {
    const char *q[] = {"spark_catalog", "default", "t1"};
    Node *c1 = qattr("c1", 1, &TYPE_INT, 3, q);
    cr_expect_str_eq(NAME(c1), "c1");
    cr_expect_str_eq(expr_sql_quoted(A, unary(NK_OuterReference, c1)), "\"outer(spark_catalog.default.t1.c1)\"");
    cr_expect_str_eq(NAME(ufn("+", true, KIDS(unary(NK_OuterReference, c1), lit_int(1)))),
                     "(outer(spark_catalog.default.t1.c1) + 1)");
    /* implicit casts vanish from names, user casts stay; a cast of a named
       expression is named after it (ResolveAliases) */
    cr_expect_str_eq(NAME(cast(c1, &TYPE_LONG, true)), "c1");
    cr_expect_str_eq(NAME(cast(c1, &TYPE_INT, false)), "c1");
    cr_expect_str_eq(NAME(cast(ufn("+", true, KIDS(c1, lit_int(1))), &TYPE_INT, false)), "CAST((c1 + 1) AS INT)");
    cr_expect_str_eq(NAME(cast(cast(c1, &TYPE_LONG, false), &TYPE_INT, false)), "CAST(CAST(c1 AS BIGINT) AS INT)");
    StrBuf psb;
    sb_init(&psb, A, 16);
    expr_print_sql(&psb, cast(c1, &TYPE_INT, false));
    cr_expect_str_eq(sb_str(&psb), "CAST(c1 AS INT)");
    cr_expect_str_eq(NAME(unary(NK_OuterReference, c1)), "c1");
    cr_expect_str_eq(NAME(cast(lit_null(&TYPE_NULL), &TYPE_DOUBLE, false)), "CAST(NULL AS DOUBLE)");
    /* literals: numbers as Java prints them, strings bare */
    cr_expect_str_eq(NAME(lit_int(1)), "1");
    cr_expect_str_eq(NAME(lit_str("abc")), "abc");
    cr_expect_str_eq(NAME(lit_null(&TYPE_INT)), "NULL");
    Value d = {.type = &TYPE_DOUBLE};
    d.u.d = 1e10;
    cr_expect_str_eq(NAME(lit_typed(d)), "1.0E10");
    Value l = {.type = &TYPE_LONG};
    l.u.i = 2147483648LL;
    cr_expect_str_eq(NAME(lit_typed(l)), "2147483648");
    cr_expect_str_eq(STR(lit_typed(l)), "2147483648");
    Value dec = {.type = type_decimal(A, 3, 1)};
    dec.u.dec = 25;
    cr_expect_str_eq(NAME(lit_typed(dec)), "2.5");
    Value bo = {.type = &TYPE_BOOLEAN};
    bo.u.b = true;
    cr_expect_str_eq(NAME(lit_typed(bo)), "true");
    Value dt = {.type = &TYPE_DATE};
    dt.u.i = 18262; /* 2020-01-01 */
    cr_expect_str_eq(NAME(lit_typed(dt)), "DATE '2020-01-01'");
    cr_expect_str_eq(STR(lit_typed(dt)), "2020-01-01");
    Value iv = {.type = type_dt_interval(A, IF_DAY, IF_DAY)};
    iv.u.iv.micros = 86400000000LL;
    cr_expect_str_eq(NAME(lit_typed(iv)), "INTERVAL '1' DAY");
    /* operators of the parsed form in sql style */
    cr_expect_str_eq(NAME(ufn("+", true, KIDS(ua("a"), lit_int(1)))), "(a + 1)");
    cr_expect_str_eq(NAME(ufn("not", true, KIDS(ufn("isnull", true, KIDS(ua("a")))))), "(NOT (a IS NULL))");
    cr_expect_str_eq(expr_sql_quoted(A, ufn("+", true, KIDS(ua("a"), lit_int(1)))), "\"(a + 1)\"");
}

Test(expr, struct_fields_and_variables) {
    StructField f[] = {{"b", &TYPE_INT, true, NULL}};
    Node *s = attr("a", 1, type_struct(A, 1, f));
    Node *g = node_new(A, NK_GetStructField, -1, -1);
    g->u.field.ordinal = 0;
    g->type = &TYPE_INT;
    fin(with_kids(g, KIDS(s)));
    cr_expect_str_eq(STR(g), "a#1.b");
    cr_expect_str_eq(NAME(g), "a.b");
    Node *v = node_new(A, NK_VariableReference, -1, -1);
    const char *q[] = {"system", "session"};
    v->u.attr.name = "v";
    v->u.attr.qualifier = name_parts(A, 2, q);
    Value *val = ARENA_NEW(A, Value);
    val->type = &TYPE_INT;
    val->u.i = 1;
    v->u.attr.value = val;
    v->type = &TYPE_INT;
    fin(v);
    cr_expect_str_eq(NAME(v), "variablereference(system.session.v=1)");
    cr_expect_str_eq(STR(v), "variablereference(system.session.v=1)");
    Value *sv = ARENA_NEW(A, Value);
    sv->type = &TYPE_STRING;
    sv->u.s.p = "it's";
    sv->u.s.len = 4;
    v = node_copy(A, v);
    v->u.attr.value = sv;
    cr_expect_str_eq(NAME(fin(v)), "variablereference(system.session.v='it\\'s')");
    Node *lca = node_new(A, NK_LateralColumnAliasReference, -1, -1);
    lca->u.lca.name = name_parts1(A, "a");
    fin(lca);
    cr_expect_str_eq(pretty(lca), "lateralAliasReference(a)");
    cr_expect_str_eq(NAME(ufn("+", true, KIDS(lca, lit_int(1)))), "(lateralAliasReference(a) + 1)");
}

Test(expr, windows) {
    Node *c1 = attr("c1", 1, &TYPE_INT);
    Node *c2 = attr("c2", 2, &TYPE_INT);
    Node *so = node_new(A, NK_SortOrder, -1, -1);
    so->u.sort_order.nulls_first = true;
    fin(with_kids(so, KIDS(c1)));
    Node *lo = node_new(A, NK_FrameBoundary, -1, -1);
    lo->u.bound.type = BOUND_UNBOUNDED_PRECEDING;
    Node *hi = node_new(A, NK_FrameBoundary, -1, -1);
    hi->u.bound.type = BOUND_CURRENT_ROW;
    Node *fr = node_new(A, NK_SpecifiedWindowFrame, -1, -1);
    fr->u.frame.type = FRAME_RANGE;
    fin(with_kids(fr, KIDS(fin(lo), fin(hi))));
    Node *spec = node_new(A, NK_WindowSpecDefinition, -1, -1);
    spec->u.wspec.norder = 1;
    spec->u.wspec.has_frame = true;
    fin(with_kids(spec, KIDS(so, fr)));
    Node *sum = call("sum", &TYPE_LONG, KIDS(c2));
    Node *we = node_new(A, NK_WindowExpression, -1, -1);
    we->type = &TYPE_LONG;
    fin(with_kids(we, KIDS(sum, spec)));
    cr_expect_str_eq(NAME(we), "sum(c2) OVER (ORDER BY c1 ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND "
                               "CURRENT ROW)");
    cr_expect_str_eq(STR(we), "sum(c2#2) windowspecdefinition(c1#1 ASC NULLS FIRST, specifiedwindowframe(RangeFrame, "
                              "unboundedpreceding$(), currentrow$()))");
    /* 1 PRECEDING is a unary minus of 1 */
    Node *fr2 = node_new(A, NK_SpecifiedWindowFrame, -1, -1);
    fr2->u.frame.type = FRAME_ROWS;
    fin(with_kids(fr2, KIDS(ufn("-", true, KIDS(lit_int(1))), lit_int(2))));
    cr_expect_str_eq(NAME(fr2), "ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING");
    cr_expect_str_eq(STR(fr2), "specifiedwindowframe(RowFrame, -1, 2)");
}

Test(expr, schema_strings) {
    Node *a = attr("a", 1, &TYPE_INT);
    Node *plus = alias(call("+", &TYPE_INT, KIDS(a, lit_int(1))), "(a + 1)", 2);
    StructField f[] = {{"x", &TYPE_INT, true, NULL}, {"y", &TYPE_DOUBLE, true, NULL}};
    Node *h = attr("h", 3, type_array(A, type_struct(A, 2, f), true));
    Node *d = attr("d", 4, type_decimal(A, 13, 4));
    Node *m = attr("m", 5, type_map(A, &TYPE_STRING, &TYPE_DOUBLE, true));
    Node *iv = attr("iv", 6, type_dt_interval(A, IF_DAY, IF_SECOND));
    Node *v = attr("Expect: INT, NULL", 7, &TYPE_STRING);
    Node *cols[] = {a, plus, h, d, m, iv, v};
    cr_expect_str_eq(schema_string(A, cols, 7),
                     "struct<a:int,(a + 1):int,h:array<struct<x:int,y:double>>,d:decimal(13,4),m:map<string,double>,"
                     "iv:interval day to second,Expect: INT, NULL:string>");
    cr_expect_str_eq(schema_string(A, NULL, 0), "struct<>");
}

Test(expr, more_auto_names) {
    /* lambdas: variables are nameless in sql */
    Node *x = node_new(A, NK_NamedLambdaVariable, -1, -1);
    x->u.attr.name = "x";
    x->u.attr.id = 9;
    x->type = &TYPE_INT;
    fin(x);
    Node *body = call("+", &TYPE_INT, KIDS(x, lit_int(1)));
    Node *lf = node_new(A, NK_LambdaFunction, -1, -1);
    lf->type = &TYPE_INT;
    fin(with_kids(lf, KIDS(body, x)));
    cr_expect_str_eq(pretty(x), "namedlambdavariable()");
    cr_expect_str_eq(NAME(x), "x");
    cr_expect_str_eq(STR(x), "lambda x#9");
    cr_expect_str_eq(NAME(lf), "lambdafunction(+(namedlambdavariable(), 1), namedlambdavariable())");
    cr_expect_str_eq(STR(lf), "lambdafunction(+(lambda x#9, 1), lambda x#9, false)");
    Node *ulv = node_new(A, NK_UnresolvedNamedLambdaVariable, -1, -1);
    ulv->u.un.name = name_parts1(A, "y");
    cr_expect_str_eq(STR(fin(ulv)), "lambda 'y");
    /* named arguments, tuples, extraction, ordering */
    Node *na = node_new(A, NK_NamedArgument, -1, -1);
    na->u.named.name = "k";
    cr_expect_str_eq(NAME(fin(with_kids(na, KIDS(lit_str("v"))))), "k => v");
    Node *tup = node_new(A, NK_ExprList, -1, -1);
    cr_expect_str_eq(NAME(fin(with_kids(tup, KIDS(lit_int(1), ua("a"))))), "(1, a)");
    Node *ev = node_new(A, NK_UnresolvedExtractValue, -1, -1);
    fin(with_kids(ev, KIDS(ua("arr"), lit_int(0))));
    cr_expect_str_eq(STR(ev), "'arr[0]");
    cr_expect_str_eq(NAME(ev), "arr[0]");
    Node *so = node_new(A, NK_SortOrder, -1, -1);
    so->u.sort_order.descending = true;
    cr_expect_str_eq(NAME(fin(with_kids(so, KIDS(attr("a", 1, &TYPE_INT))))), "a DESC NULLS LAST");
    /* CASE keeps its shape; implicit casts inside vanish */
    Node *cw = node_new(A, NK_CaseWhen, -1, -1);
    cw->u.casew.has_else = true;
    cw->type = &TYPE_LONG;
    Node *isn = ufn("isnull", true, KIDS(attr("s", 2, &TYPE_LONG)));
    fin(with_kids(cw, KIDS(isn, cast(lit_int(0), &TYPE_LONG, true), attr("s", 2, &TYPE_LONG))));
    cr_expect_str_eq(NAME(cw), "CASE WHEN (s IS NULL) THEN 0 ELSE s END");
    cr_expect_str_eq(STR(cw), "CASE WHEN isnull(s#2L) THEN cast(0 as bigint) ELSE s#2L END");
    /* aggregates go through func_print with DISTINCT */
    Node *agg = node_new(A, NK_AggregateExpression, -1, -1);
    agg->flags |= NF_DISTINCT;
    agg->type = &TYPE_LONG;
    fin(with_kids(agg, KIDS(call("count", &TYPE_LONG, KIDS(attr("b", 3, &TYPE_INT))))));
    cr_expect_str_eq(NAME(agg), "count(DISTINCT b)");
    cr_expect_str_eq(STR(agg), "count(distinct b#3)");
    cr_expect_str_eq(NAME(fin(node_new(A, NK_Star, -1, -1))), "*");
    /* typed literals in names */
    Value ts = {.type = &TYPE_TIMESTAMP};
    ts.u.i = 1565571600123456LL; /* 2019-08-12 01:00:00.123456 UTC */
    cr_expect_str_eq(NAME(lit_typed(ts)), "TIMESTAMP '2019-08-12 01:00:00.123456'");
    Value bin = {.type = &TYPE_BINARY};
    bin.u.s.p = "\x10\x10";
    bin.u.s.len = 2;
    cr_expect_str_eq(NAME(lit_typed(bin)), "X'1010'");
    Value neg = {.type = &TYPE_DOUBLE};
    neg.u.d = -7.1e10;
    cr_expect_str_eq(NAME(lit_typed(neg)), "-7.1E10");
    Value f = {.type = &TYPE_FLOAT};
    f.u.d = 1.5f;
    cr_expect_str_eq(NAME(lit_typed(f)), "1.5");
    Value ym = {.type = type_ym_interval(A, IF_YEAR, IF_MONTH)};
    ym.u.i = 13;
    cr_expect_str_eq(NAME(lit_typed(ym)), "INTERVAL '1-1' YEAR TO MONTH");
    /* a user cast of a string literal keeps the literal bare */
    cr_expect_str_eq(NAME(cast(lit_str("2020"), &TYPE_DATE, false)), "CAST(2020 AS DATE)");
    cr_expect_str_eq(expr_sql_quoted(A, cast(lit_str("x"), &TYPE_INT, false)), "\"CAST(x AS INT)\"");
}
