/* Parser unit tests: the IR shape of each construct (see analyzer/parser/README.md). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "parser/lexer.h"
#include "parser/parser.h"

static Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }
TestSuite(parser_unit, .init = setup, .fini = teardown);

static Node *P(const char *sql) {
    ErrorInfo *err = NULL;
    Node *n = parse_statement(A, sql, strlen(sql), NULL, &err);
    cr_assert_not_null(n, "%s: %s", sql, err ? err->message : "?");
    return n;
}

static ErrorInfo *E(const char *sql) {
    ErrorInfo *err = NULL;
    Node *n = parse_statement(A, sql, strlen(sql), NULL, &err);
    cr_assert_null(n, "expected an error for %s", sql);
    cr_assert_not_null(err);
    cr_assert_str_eq(err->phase, "parse");
    return err;
}

static const char *param(const ErrorInfo *e, const char *name) {
    for (int i = 0; i < e->nparams; i++)
        if (!strcmp(e->names[i], name)) return e->values[i];
    return NULL;
}

/* The expression of `SELECT <expr>` (unwrapping UnresolvedAlias). */
static Node *X(const char *expr) {
    char buf[1024];
    snprintf(buf, sizeof buf, "SELECT %s", expr);
    Node *p = P(buf);
    cr_assert_eq(p->kind, NK_Project, "%s", node_kind_name(p->kind));
    Node *e = p->exprs[0];
    if (e->kind == NK_UnresolvedAlias) e = e->kids[0];
    return e;
}

static void is_fn(const Node *n, const char *name, bool op, uint32_t nargs) {
    cr_assert_eq(n->kind, NK_UnresolvedFunction, "kind %s, want function %s", node_kind_name(n->kind), name);
    cr_assert_str_eq(n->u.un.name.v[n->u.un.name.n - 1], name);
    cr_assert_eq(n->u.un.is_operator, op, "%s is_operator", name);
    cr_assert_eq(n->u.un.nargs, nargs, "%s nargs %u", name, n->u.un.nargs);
}

static void is_attr(const Node *n, const char *dotted) {
    cr_assert_eq(n->kind, NK_UnresolvedAttribute, "kind %s", node_kind_name(n->kind));
    char buf[256] = "";
    for (uint32_t i = 0; i < n->u.un.name.n; i++) {
        if (i) strcat(buf, ".");
        strcat(buf, n->u.un.name.v[i]);
    }
    cr_assert_str_eq(buf, dotted);
}

static void is_lit(const Node *n, TypeId t) {
    cr_assert_eq(n->kind, NK_Literal, "kind %s", node_kind_name(n->kind));
    cr_assert_eq(n->type->id, t, "type id %d want %d", n->type->id, t);
    cr_assert(n->flags & NF_RESOLVED);
}

/* ---- lexing and literals ---- */

/* Integers of up to 18 digits are converted without strtoll: the edges of
 * that fast path and of bigint agree with strtoll's. */
Test(parser_unit, integer_literal_digit_edges) {
    Node *n = X("999999999999999999");
    is_lit(n, T_LONG);
    cr_assert_eq(n->u.lit.v.u.i, 999999999999999999LL);
    n = X("-999999999999999999");
    cr_assert_eq(n->u.lit.v.u.i, -999999999999999999LL);
    n = X("9223372036854775807");
    is_lit(n, T_LONG);
    cr_assert_eq(n->u.lit.v.u.i, INT64_MAX);
    n = X("-9223372036854775808");
    is_lit(n, T_LONG);
    cr_assert_eq(n->u.lit.v.u.i, INT64_MIN);
    is_lit(X("9223372036854775808"), T_DECIMAL);
    n = X("000000000000000000000042");
    is_lit(n, T_INT);
    cr_assert_eq(n->u.lit.v.u.i, 42);
    n = X("-0");
    is_lit(n, T_INT);
    cr_assert_eq(n->u.lit.v.u.i, 0);
    n = X("127Y");
    cr_assert_eq(n->u.lit.v.u.i, 127);
}

Test(parser_unit, integer_literals) {
    Node *n = X("1");
    is_lit(n, T_INT);
    cr_assert_eq(n->u.lit.v.u.i, 1);
    n = X("-2147483648");
    is_lit(n, T_INT);
    cr_assert_eq(n->u.lit.v.u.i, -2147483648LL);
    is_lit(X("2147483648"), T_LONG);
    is_lit(X("10L"), T_LONG);
    is_lit(X("10S"), T_SHORT);
    is_lit(X("10Y"), T_BYTE);
    n = X("123456789012345678901234");
    is_lit(n, T_DECIMAL);
    cr_assert_eq(n->type->precision, 24);
    cr_assert_eq(n->type->scale, 0);
}

Test(parser_unit, fractional_literals) {
    Node *n = X("1.5");
    is_lit(n, T_DECIMAL);
    cr_assert_eq(n->type->precision, 2);
    cr_assert_eq(n->type->scale, 1);
    cr_assert(n->u.lit.v.u.dec == 15);
    n = X(".06");
    is_lit(n, T_DECIMAL);
    cr_assert_eq(n->type->precision, 2);
    cr_assert_eq(n->type->scale, 2);
    is_lit(X("1e3"), T_DOUBLE);
    is_lit(X("1.5D"), T_DOUBLE);
    is_lit(X("1.5F"), T_FLOAT);
    n = X("1.50BD");
    is_lit(n, T_DECIMAL);
    cr_assert_eq(n->type->scale, 2);
    n = X("-1.5");
    is_lit(n, T_DECIMAL);
    cr_assert(n->u.lit.v.u.dec == -15);
}

Test(parser_unit, string_literals) {
    Node *n = X("'a' \"b\" 'c'");
    is_lit(n, T_STRING);
    cr_assert_str_eq(n->u.lit.v.u.s.p, "abc");
    n = X("'it\\'s\\n\\%'");
    cr_assert_str_eq(n->u.lit.v.u.s.p, "it's\n\\%");
    n = X("r'\\d+'");
    cr_assert_str_eq(n->u.lit.v.u.s.p, "\\d+");
    n = X("X'0aFF'");
    is_lit(n, T_BINARY);
    cr_assert_eq(n->u.lit.v.u.s.len, 2);
    cr_assert_eq((unsigned char)n->u.lit.v.u.s.p[1], 0xFF);
}

/* Escapes always give UTF-8 (a fuzzer finding: '\377' was the lone byte
 * 0xFF, which no JSON or protobuf client can decode): octal and \u codes
 * are chars as in Java, surrogate pairs one code point, a lone surrogate '?'. */
Test(parser_unit, string_escapes_are_utf8) {
    cr_assert_str_eq(X("'\\101\\377'")->u.lit.v.u.s.p, "A\xC3\xBF");
    cr_assert_str_eq(X("'\\200'")->u.lit.v.u.s.p, "\xC2\x80");
    cr_assert_str_eq(X("'\\u00e9\\u20AC'")->u.lit.v.u.s.p, "\xC3\xA9\xE2\x82\xAC");
    cr_assert_str_eq(X("'\\uD83D\\uDE00'")->u.lit.v.u.s.p, "\xF0\x9F\x98\x80");
    cr_assert_str_eq(X("'\\uD83Dx\\uDE00'")->u.lit.v.u.s.p, "?x?");
    cr_assert_str_eq(X("'\\u12'")->u.lit.v.u.s.p, "u12");
}

Test(parser_unit, null_bool_typed_literals) {
    Node *n = X("NULL");
    is_lit(n, T_NULL);
    cr_assert(n->u.lit.v.is_null);
    is_lit(X("true"), T_BOOLEAN);
    n = X("DATE '1970-01-02'");
    is_lit(n, T_DATE);
    cr_assert_eq(n->u.lit.v.u.i, 1);
    n = X("TIMESTAMP_NTZ '1970-01-01 00:00:01.5'");
    is_lit(n, T_TIMESTAMP_NTZ);
    cr_assert_eq(n->u.lit.v.u.i, 1500000);
    is_lit(X("TIMESTAMP '2020-01-01'"), T_TIMESTAMP);
    ErrorInfo *e = E("SELECT DATE '2020-13-01'");
    cr_assert_str_eq(e->error_class, "INVALID_TYPED_LITERAL");
    cr_assert_str_eq(param(e, "valueType"), "\"DATE\"");
}

Test(parser_unit, interval_literals) {
    Node *n = X("INTERVAL '3' MONTH");
    is_lit(n, T_YM_INTERVAL);
    cr_assert_eq(n->u.lit.v.u.i, 3);
    n = X("INTERVAL '1-2' YEAR TO MONTH");
    is_lit(n, T_YM_INTERVAL);
    cr_assert_eq(n->u.lit.v.u.i, 14);
    cr_assert_eq(n->type->start_field, IF_YEAR);
    n = X("INTERVAL 30 days");
    is_lit(n, T_DT_INTERVAL);
    cr_assert_eq(n->u.lit.v.u.iv.micros, 30LL * 86400 * 1000000);
    n = X("INTERVAL 1 day 2 hours");
    is_lit(n, T_DT_INTERVAL);
    cr_assert_eq(n->type->start_field, IF_DAY);
    cr_assert_eq(n->type->end_field, IF_HOUR);
    n = X("INTERVAL '1 2:03:04.5' DAY TO SECOND");
    is_lit(n, T_DT_INTERVAL);
    cr_assert_eq(n->u.lit.v.u.iv.micros, ((26LL * 60 + 3) * 60 + 4) * 1000000 + 500000);
    /* a typed INTERVAL string is typed by the units it names (Spark 4) */
    n = X("INTERVAL '1 day 2 hours'");
    is_lit(n, T_DT_INTERVAL);
    cr_assert_eq(n->type->end_field, IF_HOUR);
    cr_assert_eq(n->u.lit.v.u.iv.micros, 26LL * 3600 * 1000000);
    n = X("INTERVAL '-1 year 1 month'");
    is_lit(n, T_YM_INTERVAL);
    cr_assert_eq(n->u.lit.v.u.i, -11);
    n = X("INTERVAL 3 week 8 millisecond");
    is_lit(n, T_DT_INTERVAL);
    cr_assert_eq(n->type->start_field, IF_DAY);
    cr_assert_eq(n->type->end_field, IF_SECOND);
    n = X("INTERVAL 13.123456789 seconds");
    cr_assert_eq(n->u.lit.v.u.iv.micros, 13123456);
    n = X("INTERVAL -'-1' year");
    cr_assert_eq(n->u.lit.v.u.i, 12);
    n = X("INTERVAL -'178956970-8' YEAR TO MONTH");
    cr_assert_eq(n->u.lit.v.u.i, INT32_MIN);
    cr_assert_str_eq(E("SELECT INTERVAL '178956970-8' YEAR TO MONTH")->error_class, "INVALID_INTERVAL_FORMAT.INTERVAL_PARSING");
    cr_assert_str_eq(E("SELECT INTERVAL '15:40' hour to second")->error_class, "INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE");
    cr_assert_str_eq(E("SELECT INTERVAL 1 year to month")->error_class, "_LEGACY_ERROR_TEMP_0027");
    cr_assert_str_eq(E("SELECT INTERVAL '1' year to second")->error_class, "INVALID_INTERVAL_FORMAT.UNSUPPORTED_FROM_TO_EXPRESSION");
    cr_assert_str_eq(E("SELECT INTERVAL 1 year '2-1' year to month")->error_class, "_LEGACY_ERROR_TEMP_0024");
    cr_assert_str_eq(E("SELECT INTERVAL '1 day 2' day")->error_class, "_LEGACY_ERROR_TEMP_0026");
    cr_assert_str_eq(E("SELECT INTERVAL 10 nanoseconds")->error_class, "INVALID_INTERVAL_FORMAT.INVALID_UNIT");
    cr_assert_str_eq(E("SELECT INTERVAL '1'")->error_class, "INVALID_TYPED_LITERAL");
    ErrorInfo *ee = E("SELECT INTERVAL 1 fake_unit");
    cr_assert_str_eq(param(ee, "error"), "'fake_unit'");
    ee = E("SELECT INTERVAL 30 day day day");
    cr_assert_str_eq(param(ee, "hint"), ": extra input 'day'");
    cr_assert_str_eq(E("SELECT INTERVAL 1 year 2 days")->error_class, "_LEGACY_ERROR_TEMP_0029");
}

/* ---- expressions ---- */

Test(parser_unit, operators_and_precedence) {
    Node *n = X("a + b * c");
    is_fn(n, "+", true, 2);
    is_fn(n->kids[1], "*", true, 2);
    n = X("a = 1 OR b = 2 AND NOT c");
    is_fn(n, "or", true, 2);
    is_fn(n->kids[1], "and", true, 2);
    is_fn(n->kids[1]->kids[1], "not", true, 1);
    n = X("a <> b");
    is_fn(n, "not", true, 1);
    is_fn(n->kids[0], "=", true, 2);
    is_fn(X("a == b"), "=", true, 2);
    is_fn(X("a DIV b"), "div", true, 2);
    is_fn(X("a <=> b"), "<=>", true, 2);
    is_fn(X("a | b ^ c & d"), "|", true, 2);
    is_fn(X("- a"), "-", true, 1);
    is_fn(X("~ a"), "~", true, 1);
    n = X("a || b");
    is_fn(n, "concat", false, 2);
}

Test(parser_unit, predicates) {
    Node *n = X("a BETWEEN 1 AND 2");
    is_fn(n, "between", false, 3);
    n = X("a NOT BETWEEN 1 AND 2");
    is_fn(n, "not", true, 1);
    n = X("a IN (1, 2)");
    cr_assert_eq(n->kind, NK_In);
    cr_assert_eq(n->nkids, 3);
    is_fn(X("a IS NULL"), "isnull", true, 1);
    is_fn(X("a IS NOT NULL"), "isnotnull", true, 1);
    n = X("a IS NOT TRUE");
    is_fn(n, "not", true, 1);
    is_fn(n->kids[0], "<=>", true, 2);
    is_fn(X("a IS UNKNOWN"), "isnull", true, 1);
    n = X("a IS DISTINCT FROM b");
    is_fn(n, "not", true, 1);
    is_fn(X("a IS NOT DISTINCT FROM b"), "<=>", true, 2);
    is_fn(X("a LIKE 'x'"), "like", true, 2);
    n = X("a LIKE 'x' ESCAPE '!'");
    is_fn(n, "like", true, 3);
    is_fn(X("a NOT ILIKE 'x'"), "not", true, 1);
    is_fn(X("a RLIKE 'x'"), "rlike", true, 2);
    is_fn(X("a LIKE ANY ('x', 'y')"), "like any", true, 3);
    is_fn(X("a NOT LIKE ALL ('x', 'y')"), "not like all", true, 3);
}

Test(parser_unit, names_and_extraction) {
    is_attr(X("a.b.c"), "a.b.c");
    is_attr(X("`a.b`.`c``d`"), "a.b.c`d");
    Node *n = X("f(x).y");
    cr_assert_eq(n->kind, NK_UnresolvedExtractValue);
    cr_assert(n->u.extract.is_field);
    n = X("a[1]");
    cr_assert_eq(n->kind, NK_UnresolvedExtractValue);
    cr_assert(!n->u.extract.is_field);
    n = X("*");
    cr_assert_eq(n->kind, NK_UnresolvedStar);
    cr_assert_eq(n->u.un.name.n, 0);
    n = X("t.*");
    cr_assert_eq(n->kind, NK_UnresolvedStar);
    cr_assert_str_eq(n->u.un.name.v[0], "t");
    /* a name the analyzer resolves to a column first (Spark's visitCurrentLike) ... */
    is_attr(X("CURRENT_DATE"), "CURRENT_DATE");
    is_attr(X("user"), "user");
    /* ... and the function when reserved keywords are enforced */
    ParserOptions o = {.enforce_reserved_keywords = true};
    ErrorInfo *err = NULL;
    const char *sql = "SELECT CURRENT_DATE";
    Node *q = parse_statement(A, sql, strlen(sql), &o, &err);
    cr_assert_not_null(q);
    Node *cd = q->exprs[0]->kind == NK_UnresolvedAlias ? q->exprs[0]->kids[0] : q->exprs[0];
    is_fn(cd, "current_date", false, 0);
    is_fn(X("current_date()"), "current_date", false, 0);
}

Test(parser_unit, functions) {
    Node *n = X("count(*)");
    is_fn(n, "count", false, 1);
    cr_assert_eq(n->kids[0]->kind, NK_UnresolvedStar);
    n = X("count(DISTINCT a) FILTER (WHERE b > 1)");
    is_fn(n, "count", false, 1);
    cr_assert(n->flags & NF_DISTINCT);
    cr_assert(n->flags & NF_HAS_FILTER);
    cr_assert_eq(n->nkids, 2);
    n = X("percentile_cont(0.5) WITHIN GROUP (ORDER BY a DESC)");
    cr_assert_eq(n->u.un.norder, 1);
    cr_assert_eq(n->kids[1]->kind, NK_SortOrder);
    cr_assert(n->kids[1]->u.sort_order.descending);
    cr_assert(!n->kids[1]->u.sort_order.nulls_first);
    n = X("first(a IGNORE NULLS)");
    cr_assert(n->u.un.ignore_nulls);
    n = X("db.f(1)");
    cr_assert_eq(n->u.un.name.n, 2);
    n = X("f(a => 1)");
    cr_assert_eq(n->kids[0]->kind, NK_NamedArgument);
    cr_assert_str_eq(n->kids[0]->u.named.name, "a");
    n = X("transform(xs, x -> x + 1)");
    cr_assert_eq(n->kids[1]->kind, NK_LambdaFunction);
    cr_assert_eq(n->kids[1]->nkids, 2);
    cr_assert_eq(n->kids[1]->kids[1]->kind, NK_UnresolvedNamedLambdaVariable);
    n = X("zip_with(a, b, (x, y) -> x)");
    cr_assert_eq(n->kids[2]->nkids, 3);
}

Test(parser_unit, special_forms) {
    Node *n = X("CAST(a AS DECIMAL(10, 2))");
    cr_assert_eq(n->kind, NK_Cast);
    cr_assert_eq(n->type->id, T_DECIMAL);
    cr_assert(!n->u.cast.try_);
    n = X("TRY_CAST(a AS INT)");
    cr_assert(n->u.cast.try_);
    n = X("a::string");
    cr_assert_eq(n->kind, NK_Cast);
    n = X("CASE a WHEN 1 THEN 'x' ELSE 'y' END");
    cr_assert_eq(n->kind, NK_CaseWhen);
    cr_assert(n->u.casew.has_else);
    is_fn(n->kids[0], "=", true, 2);
    n = X("CASE WHEN a THEN 1 END");
    cr_assert_eq(n->nkids, 2);
    is_fn(X("EXTRACT(YEAR FROM d)"), "extract", false, 2);
    is_fn(X("SUBSTRING(s FROM 2 FOR 3)"), "SUBSTRING", false, 3);
    is_fn(X("TRIM(LEADING 'x' FROM s)"), "ltrim", false, 2);
    is_fn(X("POSITION('a' IN s)"), "locate", false, 2);
    is_fn(X("OVERLAY(s PLACING 'x' FROM 2)"), "overlay", false, 3);
    n = X("(1, 2)");
    is_fn(n, "struct", false, 2);
    n = X("?");
    cr_assert_eq(n->kind, NK_PosParameter);
    n = X(":p");
    cr_assert_eq(n->kind, NK_NamedParameter);
    cr_assert_str_eq(n->u.named.name, "p");
}

Test(parser_unit, subqueries) {
    Node *n = X("(SELECT 1)");
    cr_assert_eq(n->kind, NK_ScalarSubquery);
    cr_assert_eq(n->u.subq.plan->kind, NK_Project);
    n = X("EXISTS (SELECT 1)");
    cr_assert_eq(n->kind, NK_Exists);
    n = X("a IN (SELECT b FROM t)");
    cr_assert_eq(n->kind, NK_InSubquery);
    cr_assert_eq(n->u.subq.nvalues, 1);
    n = X("(a, b) IN (SELECT 1, 2)");
    cr_assert_eq(n->u.subq.nvalues, 2);
    cr_assert_eq(n->nkids, 2);
    n = X("((SELECT 1) + 1)");
    is_fn(n, "+", true, 2);
}

Test(parser_unit, windows) {
    Node *n = X("sum(a) OVER (PARTITION BY b ORDER BY c ROWS BETWEEN 1 PRECEDING AND UNBOUNDED FOLLOWING)");
    cr_assert_eq(n->kind, NK_WindowExpression);
    Node *s = n->kids[1];
    cr_assert_eq(s->kind, NK_WindowSpecDefinition);
    cr_assert_eq(s->u.wspec.npartition, 1);
    cr_assert_eq(s->u.wspec.norder, 1);
    cr_assert(s->u.wspec.has_frame);
    Node *f = s->kids[2];
    cr_assert_eq(f->kind, NK_SpecifiedWindowFrame);
    cr_assert_eq(f->u.frame.type, FRAME_ROWS);
    is_fn(f->kids[0], "-", true, 1);
    cr_assert_eq(f->kids[1]->kind, NK_FrameBoundary);
    cr_assert_eq(f->kids[1]->u.bound.type, BOUND_UNBOUNDED_FOLLOWING);
    n = X("rank() OVER w");
    cr_assert_eq(n->kind, NK_UnresolvedWindowExpression);
    cr_assert_str_eq(n->u.un.name.v[0], "w");
    ErrorInfo *e = E("SELECT sum(a) OVER (ORDER BY a RANGE BETWEEN CURRENT ROW AND current_date PRECEDING) FROM t");
    cr_assert_str_eq(e->error_class, "_LEGACY_ERROR_TEMP_0064");
}

/* ---- queries ---- */

Test(parser_unit, select_items) {
    Node *p = P("SELECT a, b AS x, c y, a + 1, *, t.*, 1 AS `a b`");
    cr_assert_eq(p->kind, NK_Project);
    cr_assert_eq(p->kids[0]->kind, NK_OneRowRelation);
    cr_assert_eq(p->exprs[0]->kind, NK_UnresolvedAttribute);
    cr_assert_eq(p->exprs[1]->kind, NK_Alias);
    cr_assert_str_eq(p->exprs[1]->u.attr.name, "x");
    cr_assert_null(p->exprs[1]->type);
    cr_assert_str_eq(p->exprs[2]->u.attr.name, "y");
    cr_assert_eq(p->exprs[3]->kind, NK_UnresolvedAlias);
    cr_assert_eq(p->exprs[4]->kind, NK_UnresolvedStar);
    cr_assert_eq(p->exprs[5]->kind, NK_UnresolvedStar);
    cr_assert_str_eq(p->exprs[6]->u.attr.name, "a b");
    p = P("SELECT explode(m) AS (k, v) FROM t");
    cr_assert_eq(p->exprs[0]->kind, NK_MultiAlias);
    cr_assert_eq(p->exprs[0]->u.cols.ncols, 2);
}

Test(parser_unit, query_block_order) {
    Node *p = P("SELECT DISTINCT a, count(*) FROM t WHERE b GROUP BY a HAVING count(*) > 1 "
                "WINDOW w AS (ORDER BY a) ORDER BY a LIMIT 10 OFFSET 5");
    /* Spark: Limit over Offset */
    cr_assert_eq(p->kind, NK_GlobalLimit);
    cr_assert_eq(p->kids[0]->kind, NK_LocalLimit);
    Node *off = p->kids[0]->kids[0];
    cr_assert_eq(off->kind, NK_Offset);
    Node *sort = off->kids[0];
    cr_assert_eq(sort->kind, NK_Sort);
    cr_assert(sort->u.sort.global);
    Node *w = sort->kids[0];
    cr_assert_eq(w->kind, NK_WithWindowDefinition);
    cr_assert_str_eq(w->exprs[0]->u.wspec.ref_name, "w");
    Node *d = w->kids[0];
    cr_assert_eq(d->kind, NK_Distinct);
    Node *h = d->kids[0];
    cr_assert_eq(h->kind, NK_UnresolvedHaving);
    Node *agg = h->kids[0];
    cr_assert_eq(agg->kind, NK_Aggregate);
    cr_assert_eq(agg->u.aggregate.ngroup, 1);
    cr_assert_eq(agg->nexprs, 3);
    cr_assert_eq(agg->kids[0]->kind, NK_Filter);
    cr_assert_eq(agg->kids[0]->kids[0]->kind, NK_UnresolvedRelation);
}

Test(parser_unit, having_without_group_by) {
    Node *p = P("SELECT sum(a) FROM t HAVING sum(a) > 1");
    cr_assert_eq(p->kind, NK_UnresolvedHaving);
    cr_assert_eq(p->kids[0]->kind, NK_Aggregate);
    cr_assert_eq(p->kids[0]->u.aggregate.ngroup, 0);
    /* a non-predicate condition is cast to boolean, as Spark does */
    p = P("SELECT a FROM t GROUP BY a HAVING max(b)");
    cr_assert_eq(p->exprs[0]->kind, NK_Cast);
    ParserOptions o = {.having_without_group_by_as_where = true};
    ErrorInfo *err;
    const char *sql = "SELECT a FROM t HAVING a > 1";
    p = parse_statement(A, sql, strlen(sql), &o, &err);
    cr_assert_eq(p->kind, NK_Filter);
    cr_assert_eq(p->kids[0]->kind, NK_Project);
}

Test(parser_unit, grouping_analytics) {
    Node *p = P("SELECT a FROM t GROUP BY GROUPING SETS ((a), (a, b), ())");
    Node *g = p->exprs[0];
    cr_assert_eq(g->kind, NK_GroupingSets);
    cr_assert_eq(g->nkids, 3);
    cr_assert_eq(g->kids[1]->kind, NK_ExprList);
    cr_assert_eq(g->kids[1]->nkids, 2);
    cr_assert_eq(g->kids[2]->nkids, 0);
    p = P("SELECT a FROM t GROUP BY ROLLUP(a, (b, c)), CUBE(d)");
    cr_assert_eq(p->u.aggregate.ngroup, 2);
    cr_assert_eq(p->exprs[0]->kind, NK_Rollup);
    cr_assert_eq(p->exprs[0]->kids[1]->nkids, 2);
    cr_assert_eq(p->exprs[1]->kind, NK_Cube);
    p = P("SELECT a FROM t GROUP BY ALL");
    is_attr(p->exprs[0], "ALL");
    p = P("SELECT a FROM t GROUP BY a, b WITH ROLLUP");
    cr_assert_eq(p->exprs[0]->kind, NK_Rollup);
    cr_assert_eq(p->exprs[0]->nkids, 2);
}

Test(parser_unit, joins) {
    Node *p = P("SELECT * FROM a, b");
    Node *j = p->kids[0];
    cr_assert_eq(j->kind, NK_Join);
    cr_assert_eq(j->u.join.type, JOIN_INNER);
    cr_assert_eq(j->nexprs, 0);
    p = P("SELECT * FROM a LEFT JOIN b ON a.x = b.x RIGHT OUTER JOIN c USING (k, l) NATURAL FULL JOIN d "
          "LEFT SEMI JOIN e ON true ANTI JOIN f ON true CROSS JOIN g");
    j = p->kids[0];
    cr_assert_eq(j->u.join.type, JOIN_CROSS);
    j = j->kids[0];
    cr_assert_eq(j->u.join.type, JOIN_LEFT_ANTI);
    j = j->kids[0];
    cr_assert_eq(j->u.join.type, JOIN_LEFT_SEMI);
    j = j->kids[0];
    cr_assert_eq(j->u.join.type, JOIN_FULL_OUTER);
    cr_assert(j->u.join.natural);
    j = j->kids[0];
    cr_assert_eq(j->u.join.type, JOIN_RIGHT_OUTER);
    cr_assert_eq(j->u.join.nusing, 2);
    cr_assert_str_eq(j->u.join.using_cols[1], "l");
    j = j->kids[0];
    cr_assert_eq(j->u.join.type, JOIN_LEFT_OUTER);
    cr_assert_eq(j->nexprs, 1);
}

Test(parser_unit, lateral) {
    Node *p = P("SELECT * FROM t, LATERAL (SELECT t.a) AS x");
    Node *l = p->kids[0];
    cr_assert_eq(l->kind, NK_LateralJoin);
    cr_assert_eq(l->exprs[0]->kind, NK_LateralSubquery);
    Node *sa = l->exprs[0]->u.subq.plan;
    cr_assert_eq(sa->kind, NK_SubqueryAlias);
    cr_assert_str_eq(sa->u.alias.name.v[0], "x");
    p = P("SELECT * FROM t LEFT JOIN LATERAL (SELECT 1) ON true");
    l = p->kids[0];
    cr_assert_eq(l->u.join.type, JOIN_LEFT_OUTER);
    cr_assert_eq(l->nexprs, 2);
    cr_assert_str_eq(l->exprs[0]->u.subq.plan->u.alias.name.v[0], "__auto_generated_subquery_name");
    ErrorInfo *e = E("SELECT * FROM t RIGHT JOIN LATERAL (SELECT 1) ON true");
    cr_assert_str_eq(e->error_class, "INVALID_LATERAL_JOIN_TYPE");
    cr_assert_str_eq(param(e, "joinType"), "RIGHT OUTER");
    cr_assert_str_eq(E("SELECT * FROM t JOIN LATERAL (SELECT 1) USING (a)")->error_class,
                     "UNSUPPORTED_FEATURE.LATERAL_JOIN_USING");
    cr_assert_str_eq(E("SELECT * FROM t NATURAL JOIN LATERAL (SELECT 1)")->error_class, "INCOMPATIBLE_JOIN_TYPES");
}

Test(parser_unit, relations) {
    Node *p = P("SELECT * FROM db.t AS x(a, b)");
    Node *sa = p->kids[0];
    cr_assert_eq(sa->kind, NK_SubqueryAlias);
    cr_assert_eq(sa->kids[0]->kind, NK_UnresolvedSubqueryColumnAliases);
    cr_assert_eq(sa->kids[0]->kids[0]->kind, NK_UnresolvedRelation);
    cr_assert_eq(sa->kids[0]->kids[0]->u.un.name.n, 2);
    p = P("SELECT * FROM (SELECT 1)");
    cr_assert_str_eq(p->kids[0]->u.alias.name.v[0], "__auto_generated_subquery_name");
    p = P("TABLE t");
    cr_assert_eq(p->kind, NK_UnresolvedRelation);
    p = P("SELECT * FROM range(1, 10) r");
    cr_assert_eq(p->kids[0]->kids[0]->kind, NK_UnresolvedTableValuedFunction);
    cr_assert_eq(p->kids[0]->kids[0]->nexprs, 2);
    p = P("SELECT * FROM t LATERAL VIEW OUTER explode(a) tt AS c1, c2");
    Node *g = p->kids[0];
    cr_assert_eq(g->kind, NK_UnresolvedGenerate);
    cr_assert(g->u.generate.outer);
    cr_assert_eq(g->u.generate.ncols, 2);
    cr_assert_str_eq(g->u.generate.qualifier.v[0], "tt");
    is_fn(g->exprs[0], "explode", false, 1);
}

Test(parser_unit, inline_tables) {
    Node *p = P("VALUES (1, 'a'), (2, 'b')");
    cr_assert_eq(p->kind, NK_UnresolvedInlineTable);
    cr_assert_eq(p->u.cols.ncols, 2);
    cr_assert_str_eq(p->u.cols.cols[1], "col2");
    cr_assert_eq(p->nexprs, 2);
    cr_assert_eq(p->exprs[0]->kind, NK_ExprList);
    p = P("SELECT * FROM VALUES 1, 2 AS t(a)");
    Node *sa = p->kids[0];
    cr_assert_eq(sa->kind, NK_SubqueryAlias);
    cr_assert_str_eq(sa->kids[0]->u.cols.cols[0], "a");
    cr_assert_eq(sa->kids[0]->nexprs, 2);
    ErrorInfo *e = E("SELECT * FROM VALUES (1, 2), (3) AS t(a, b)");
    cr_assert_str_eq(e->error_class, "INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH");
    cr_assert_str_eq(param(e, "rowIndex"), "1");
}

Test(parser_unit, with_and_set_operations) {
    Node *p = P("WITH a(x) AS (SELECT 1), b AS (SELECT 2) SELECT * FROM a");
    cr_assert_eq(p->kind, NK_UnresolvedWith);
    cr_assert_eq(p->nkids, 3);
    cr_assert_eq(p->kids[1]->kind, NK_SubqueryAlias);
    cr_assert_eq(p->kids[1]->kids[0]->kind, NK_UnresolvedSubqueryColumnAliases);
    cr_assert_str_eq(E("WITH t AS (SELECT 1), t AS (SELECT 2) SELECT 1")->error_class, "DUPLICATED_CTE_NAMES");
    p = P("SELECT 1 UNION SELECT 2");
    cr_assert_eq(p->kind, NK_Distinct);
    cr_assert_eq(p->kids[0]->kind, NK_Union);
    p = P("SELECT 1 UNION ALL SELECT 2 INTERSECT SELECT 3");
    cr_assert_eq(p->kind, NK_Union);
    cr_assert_eq(p->kids[1]->kind, NK_Intersect);
    p = P("SELECT 1 EXCEPT ALL SELECT 2");
    cr_assert_eq(p->kind, NK_Except);
    cr_assert(p->u.setop.is_all);
    p = P("SELECT 1 MINUS SELECT 2");
    cr_assert_eq(p->kind, NK_Except);
    p = P("SELECT (WITH t AS (SELECT 1) SELECT * FROM t)");
    cr_assert_eq(p->exprs[0]->kids[0]->u.subq.plan->kind, NK_UnresolvedWith);
}

Test(parser_unit, result_clauses) {
    Node *p = P("SELECT * FROM t SORT BY a");
    cr_assert_eq(p->kind, NK_Sort);
    cr_assert(!p->u.sort.global);
    p = P("SELECT * FROM t DISTRIBUTE BY a SORT BY b");
    cr_assert_eq(p->kind, NK_Sort);
    cr_assert_eq(p->kids[0]->kind, NK_RepartitionByExpression);
    p = P("SELECT * FROM t CLUSTER BY a");
    cr_assert_eq(p->kind, NK_Sort);
    p = P("SELECT * FROM t ORDER BY a DESC NULLS FIRST, b");
    cr_assert(p->exprs[0]->u.sort_order.nulls_first);
    cr_assert(p->exprs[1]->u.sort_order.nulls_first);
    p = P("SELECT * FROM t LIMIT ALL");
    cr_assert_eq(p->kind, NK_Project);
}

/* ---- identifiers ---- */

Test(parser_unit, identifier_clause) {
    Node *p = P("SELECT IDENTIFIER('a'), IDENTIFIER('abs')(1) FROM IDENTIFIER('t')");
    Node *e = p->exprs[0]->kids[0];
    cr_assert_eq(e->kind, NK_UnresolvedIdentifierExpr);
    cr_assert(!e->u.idexpr.is_function);
    e = p->exprs[1]->kids[0];
    cr_assert_eq(e->kind, NK_UnresolvedIdentifierExpr);
    cr_assert(e->u.idexpr.is_function);
    cr_assert_eq(e->nkids, 2);
    cr_assert_eq(p->kids[0]->kind, NK_UnresolvedIdentifierPlan);
    cr_assert_eq(p->kids[0]->u.idplan.builds, NK_UnresolvedRelation);
    p = P("CREATE TABLE IDENTIFIER('t')(c INT) USING CSV");
    cr_assert_eq(p->kind, NK_UnresolvedIdentifierPlan);
    cr_assert_eq(p->u.idplan.builds, NK_CreateTable);
    cr_assert_eq(p->kids[0]->u.ddl.name.n, 0);
    ErrorInfo *err = E("SELECT IDENTIFIER('c 1') FROM t");
    cr_assert_str_eq(err->error_class, "PARSE_SYNTAX_ERROR");
    cr_assert_str_eq(param(err, "hint"), ": extra input '1'");
    cr_assert_str_eq(E("SELECT IDENTIFIER('') FROM t")->error_class, "PARSE_EMPTY_STATEMENT");
    err = E("SELECT row_number() OVER IDENTIFIER('win') FROM t");
    cr_assert_str_eq(param(err, "error"), "''win''");
}

Test(parser_unit, multipart_identifier_api) {
    NameParts np;
    ErrorInfo *err;
    cr_assert(parse_multipart_identifier(A, "`a.b`.c", 7, &np, &err));
    cr_assert_eq(np.n, 2);
    cr_assert_str_eq(np.v[0], "a.b");
    cr_assert(!parse_multipart_identifier(A, "a b", 3, &np, &err));
    const DataType *t = parse_data_type(A, "array<struct<a:int,b:string>>", 29, &err);
    cr_assert_not_null(t);
    cr_assert_eq(t->id, T_ARRAY);
}

/* ---- statements ---- */

Test(parser_unit, create_view) {
    const char *sql = "CREATE OR REPLACE TEMPORARY VIEW v (a COMMENT 'x', b) AS SELECT 1, 2";
    Node *p = P(sql);
    cr_assert_eq(p->kind, NK_CreateView);
    cr_assert(p->u.ddl.or_replace && p->u.ddl.temporary);
    cr_assert_eq(p->u.ddl.ncols, 2);
    cr_assert_str_eq(p->u.ddl.text, "SELECT 1, 2");
    cr_assert_eq(p->kids[0]->kind, NK_Project);
    cr_assert_str_eq(E("CREATE TEMPORARY VIEW a.b AS SELECT 1")->error_class, "TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS");
}

Test(parser_unit, create_drop_table) {
    Node *p = P("CREATE TABLE IF NOT EXISTS db.t (a INT NOT NULL COMMENT 'c', b DECIMAL(10,2)) USING parquet");
    cr_assert_eq(p->kind, NK_CreateTable);
    cr_assert(p->u.ddl.if_not_exists);
    cr_assert_eq(p->u.ddl.name.n, 2);
    cr_assert_eq(p->u.ddl.ncols, 2);
    cr_assert_eq(p->u.ddl.col_types[1]->id, T_DECIMAL);
    cr_assert_str_eq(p->u.ddl.col_comments[0], "c");
    cr_assert_str_eq(p->u.ddl.provider, "parquet");
    p = P("CREATE TABLE t USING csv AS SELECT 1");
    cr_assert_eq(p->nkids, 1);
    p = P("DROP VIEW IF EXISTS v");
    cr_assert_eq(p->kind, NK_DropTable);
    cr_assert(p->u.ddl.is_view && p->u.ddl.if_exists);
}

Test(parser_unit, namespaces) {
    Node *p = P("CREATE SCHEMA IF NOT EXISTS s");
    cr_assert_eq(p->kind, NK_CreateNamespace);
    p = P("DROP DATABASE IF EXISTS s CASCADE");
    cr_assert_eq(p->kind, NK_DropNamespace);
    cr_assert(p->u.ddl.cascade);
    p = P("USE NAMESPACE s");
    cr_assert_eq(p->kind, NK_UseNamespace);
    cr_assert_str_eq(p->u.ddl.name.v[0], "s");
    p = P("USE schema");
    cr_assert_str_eq(p->u.ddl.name.v[0], "schema");
}

Test(parser_unit, variables) {
    Node *p = P("DECLARE OR REPLACE VARIABLE v INT DEFAULT 5");
    cr_assert_eq(p->kind, NK_DeclareVariable);
    cr_assert(p->u.ddl.or_replace);
    cr_assert_eq(p->u.ddl.col_types[0]->id, T_INT);
    cr_assert_eq(p->nexprs, 1);
    p = P("DECLARE v = 'x'");
    cr_assert_null(p->u.ddl.col_types[0]);
    cr_assert_str_eq(E("DECLARE v")->error_class, "INVALID_SQL_SYNTAX.VARIABLE_TYPE_OR_DEFAULT_REQUIRED");
    ErrorInfo *e = E("DECLARE VARIABLE IF NOT EXISTS v INT");
    cr_assert_str_eq(param(e, "error"), "'EXISTS'");
    p = P("SET VAR a = 1, b = DEFAULT");
    cr_assert_eq(p->kind, NK_SetVariable);
    cr_assert_eq(p->nexprs, 2);
    cr_assert_eq(p->kids[0]->kind, NK_Project);
    cr_assert_eq(p->kids[0]->exprs[0]->kind, NK_Alias);
    cr_assert_str_eq(p->kids[0]->exprs[0]->u.attr.name, "a");
    p = P("SET VARIABLE (a, b) = (SELECT 1, 2)");
    cr_assert_eq(p->nexprs, 2);
    p = P("DROP TEMPORARY VARIABLE IF EXISTS system.session.v");
    cr_assert_eq(p->kind, NK_DropVariable);
    cr_assert_eq(p->u.ddl.name.n, 3);
    e = E("DROP VARIABLE v");
    cr_assert_str_eq(param(e, "error"), "'VARIABLE'");
}

Test(parser_unit, set_and_reset) {
    Node *p = P("SET spark.sql.ansi.enabled = false");
    cr_assert_eq(p->kind, NK_SetConfig);
    cr_assert_str_eq(p->u.ddl.text, "spark.sql.ansi.enabled");
    cr_assert_str_eq(p->u.ddl.value, "false");
    p = P("SET x");
    cr_assert_null(p->u.ddl.value);
    p = P("SET");
    cr_assert_null(p->u.ddl.text);
    cr_assert_str_eq(E("SET VARIABLE () = (SELECT 1)")->error_class, "INVALID_SET_SYNTAX");
    p = P("RESET spark.sql.x");
    cr_assert_eq(p->kind, NK_ResetConfig);
    cr_assert_str_eq(p->u.ddl.text, "spark.sql.x");
}

Test(parser_unit, execute_insert_commands) {
    Node *p = P("EXECUTE IMMEDIATE 'SELECT ?' INTO v USING 1 AS x, 2");
    cr_assert_eq(p->kind, NK_ExecuteImmediate);
    cr_assert_eq(p->u.ddl.nusing, 2);
    cr_assert_eq(p->nexprs, 4);
    cr_assert_eq(p->exprs[3]->kind, NK_UnresolvedAttribute);
    p = P("INSERT INTO t (a) VALUES (1)");
    cr_assert_eq(p->kind, NK_InsertInto);
    cr_assert_eq(p->kids[0]->kind, NK_UnresolvedInlineTable);
    p = P("DESCRIBE TABLE t");
    cr_assert_eq(p->kind, NK_DescribeRelation);
    cr_assert_str_eq(p->u.ddl.text, "DESCRIBE TABLE");
    cr_assert_str_eq(p->u.ddl.name.v[0], "t");
    p = P("SHOW CURRENT SCHEMA");
    cr_assert_eq(p->kind, NK_ShowCurrentNamespace);
    cr_assert_eq(p->u.ddl.name.n, 0);
}

/* ---- errors and positions ---- */

Test(parser_unit, syntax_errors) {
    ErrorInfo *e = E("SELECT 1 FROM");
    cr_assert_str_eq(e->error_class, "PARSE_SYNTAX_ERROR");
    cr_assert_str_eq(param(e, "error"), "end of input");
    e = E("WITH t() AS (SELECT 1) SELECT 1");
    cr_assert_str_eq(param(e, "error"), "')'");
    cr_assert_eq(e->start, 7);
    cr_assert_str_eq(E("")->error_class, "PARSE_EMPTY_STATEMENT");
    cr_assert_str_eq(E(" ; ")->error_class, "PARSE_EMPTY_STATEMENT");
    cr_assert_str_eq(E("SELECT 1 /* x")->error_class, "UNCLOSED_BRACKETED_COMMENT");
    e = E("SELECT sum(c1) FILTER (c1 != 1) FROM t");
    cr_assert_str_eq(param(e, "error"), "'('");
}

Test(parser_unit, positions) {
    const char *sql = "SELECT a + 1 AS x FROM t";
    Node *p = P(sql);
    Node *al = p->exprs[0];
    cr_assert_eq(al->start, 7);
    cr_assert_eq(al->stop, 16);
    Node *plus = al->kids[0];
    cr_assert_eq(plus->start, 7);
    cr_assert_eq(plus->stop, 11);
    cr_assert_eq(p->kids[0]->start, 23);
    cr_assert_eq(p->kids[0]->stop, 23);
    p = P("SELECT 1;");
    cr_assert_eq(p->kind, NK_Project);
}

Test(parser_unit, keywords_as_identifiers) {
    Node *p = P("SELECT order.date, year FROM t AS order");
    is_attr(p->exprs[0], "order.date");
    p = P("SELECT * FROM values (1), (2) as (my_col)");
    cr_assert_str_eq(p->kids[0]->u.alias.name.v[0], "as");
}

static const char *lookup_var(void *ctx, const char *prefix, const char *name) {
    (void)ctx;
    if (!strcmp(name, "colname") && (!prefix || !strcmp(prefix, "hivevar"))) return "'c'";
    return NULL;
}

Test(parser_unit, variable_substitution) {
    size_t n;
    const char *in = "SELECT ${colname}, ${hivevar:colname}, ${x}, $y";
    const char *s = parse_substitute_variables(A, in, strlen(in), lookup_var, NULL, &n);
    cr_assert_str_eq(s, "SELECT 'c', 'c', ${x}, $y");
    cr_assert_eq(n, strlen(s));
}

Test(parser_unit, lateral_relations) {
    Node *p = P("SELECT * FROM t1, LATERAL explode(t1.a) t(x)");
    cr_assert_eq(p->kids[0]->kind, NK_LateralJoin);
    p = P("SELECT * FROM LATERAL explode(array(1))");
    cr_assert_eq(p->kids[0]->kind, NK_UnresolvedTableValuedFunction);
    cr_assert_str_eq(E("SELECT * FROM t1, LATERAL t2")->error_class,
                     "INVALID_SQL_SYNTAX.LATERAL_WITHOUT_SUBQUERY_OR_TABLE_VALUED_FUNC");
    cr_assert_str_eq(E("SELECT * FROM t1 JOIN LATERAL t2")->error_class,
                     "INVALID_SQL_SYNTAX.LATERAL_WITHOUT_SUBQUERY_OR_TABLE_VALUED_FUNC");
}

/* Origins as Spark's (checked against the query contexts of Spark's golden files). */
Test(parser_unit, spark_origins) {
    const char *sql = "SELECT a, sum(b) OVER (ORDER BY c) FROM t1 JOIN t2 ON x GROUP BY a";
    Node *p = P(sql);
    cr_assert_eq(p->kind, NK_Aggregate);
    cr_assert_eq(p->start, (int32_t)(strstr(sql, "GROUP") - sql));
    cr_assert_eq(p->stop, (int32_t)strlen(sql) - 1);
    Node *j = p->kids[0];
    cr_assert_eq(j->kind, NK_Join);
    cr_assert_eq(j->start, (int32_t)(strstr(sql, "JOIN") - sql));
    Node *we = p->exprs[2]->kids[0];
    cr_assert_eq(we->kind, NK_WindowExpression);
    cr_assert_eq(we->kids[0]->stop, we->stop);
    sql = "SELECT * FROM t1, LATERAL (SELECT 1) WHERE true";
    p = P(sql);
    cr_assert_eq(p->kind, NK_Project);
    cr_assert_eq(p->stop, (int32_t)strlen(sql) - 1);
    Node *f = p->kids[0];
    cr_assert_eq(f->kind, NK_Filter);
    cr_assert_eq(f->start, 0);
    cr_assert_eq(f->stop, (int32_t)strlen(sql) - 1);
    Node *lj = f->kids[0];
    cr_assert_eq(lj->kind, NK_LateralJoin);
    cr_assert_eq(lj->start, (int32_t)(strstr(sql, "FROM") - sql));
    cr_assert_eq(lj->stop, (int32_t)(strstr(sql, " WHERE") - sql) - 1);
    ErrorInfo *e = E("SELECT IDENTIFIER('c 1') FROM t");
    cr_assert_eq(e->start, 7);
    cr_assert_eq(e->stop, 23);
    e = E("WITH t AS (SELECT 1), t AS (SELECT 2) SELECT 1");
    cr_assert_eq(e->start, 0);
    cr_assert_eq(e->stop, 45);
}

Test(parser_unit, data_source_temp_view) {
    Node *p = P("CREATE OR REPLACE TEMPORARY VIEW t (a INT, b STRING) USING csv OPTIONS (path '/x', header 'true')");
    cr_assert_eq(p->kind, NK_CreateTempViewUsing);
    cr_assert_str_eq(p->u.ddl.text, "CREATE TEMPORARY VIEW USING");
    cr_assert_str_eq(p->u.ddl.name.v[0], "t");
    cr_assert_eq(p->u.ddl.ncols, 2);
    cr_assert_str_eq(p->u.ddl.provider, "csv");
    cr_assert_eq(ddl_spec(p)->nprops, 2);
    cr_assert_str_eq(ddl_spec(p)->prop_keys[1], "header");
    cr_assert_str_eq(ddl_spec(p)->prop_values[1], "true");
    p = P("CREATE TEMPORARY VIEW t USING parquet OPTIONS (path '/x')");
    cr_assert_eq(p->kind, NK_CreateTempViewUsing);
}

Test(parser_unit, set_quoted) {
    Node *p = P("SET `a b` = `x;y`");
    cr_assert_str_eq(p->u.ddl.text, "a b");
    cr_assert_str_eq(p->u.ddl.value, "x;y");
    p = P("SET hivevar:colname = 'c'");
    cr_assert_str_eq(p->u.ddl.text, "hivevar:colname");
    cr_assert_str_eq(p->u.ddl.value, "'c'");
    p = P("SET TIME ZONE 'UTC'");
    cr_assert_str_eq(p->u.ddl.text, "spark.sql.session.timeZone");
    cr_assert_str_eq(p->u.ddl.value, "UTC");
}

Test(parser_unit, shift_operators_and_nested_types) {
    Node *n = X("1 << 2 + 3");
    is_fn(n, "shiftleft", false, 2);
    is_fn(n->kids[1], "+", true, 2);
    is_fn(X("a >> 1"), "shiftright", false, 2);
    is_fn(X("a >>> 1 & 3"), "&", true, 2);
    n = X("CAST(x AS ARRAY<ARRAY<INT>>)");
    cr_assert_eq(n->kind, NK_Cast);
    cr_assert_eq(n->type->elem->id, T_ARRAY);
    n = X("CAST(x AS MAP<STRING, ARRAY<ARRAY<INT>>>)");
    cr_assert_eq(n->type->value->elem->elem->id, T_INT);
}

Test(parser_unit, cast_operator_then_comparison) {
    Node *n = X("a::int < 5");
    is_fn(n, "<", true, 2);
    cr_assert_eq(n->kids[0]->kind, NK_Cast);
    n = X("a::decimal(10, 2) > 1");
    is_fn(n, ">", true, 2);
    cr_assert_eq(n->kids[0]->type->precision, 10);
}

Test(parser_unit, describe_query) {
    Node *p = P("DESCRIBE QUERY SELECT a FROM t");
    cr_assert_eq(p->kind, NK_DescribeQuery);
    cr_assert_str_eq(p->u.ddl.text, "DESCRIBE QUERY");
    cr_assert_eq(p->nkids, 1);
    cr_assert_eq(p->kids[0]->kind, NK_Project);
    p = P("DESC SELECT 1");
    cr_assert_eq(p->nkids, 1);
    p = P("DESCRIBE t");
    cr_assert_eq(p->nkids, 0);
    cr_assert_str_eq(p->u.ddl.name.v[0], "t");
    p = P("DESCRIBE select");
    cr_assert_str_eq(p->u.ddl.name.v[0], "select");
}

Test(parser_unit, literal_overflows_are_errors) {
    E("SELECT INTERVAL 9223372036854775 hours");
    E("SELECT INTERVAL '9999999999999 23' DAY TO HOUR");
    E("SELECT 1e99999999999999999999BD");
    Node *n = X("1e-3BD");
    is_lit(n, T_DECIMAL);
    cr_assert_eq(n->type->scale, 3);
}

Test(parser_unit, timestamp_range) {
    cr_assert_str_eq(E("SELECT TIMESTAMP '9999999-01-01'")->error_class, "INVALID_TYPED_LITERAL");
    is_lit(X("DATE '9999-12-31'"), T_DATE);
}

Test(parser_unit, pipe_syntax) {
    /* WHERE and result clauses stand over a PipeOperator boundary (Spark's
       PipeOperator); one result clause an operator */
    Node *p = P("FROM t |> WHERE a > 1 |> EXTEND a + 1 AS b |> SELECT a, b |> AS s |> ORDER BY a |> LIMIT 3");
    cr_assert_eq(p->kind, NK_GlobalLimit);
    cr_assert_eq(p->kids[0]->kids[0]->kind, NK_PipeOperator);
    Node *sort = p->kids[0]->kids[0]->kids[0];
    cr_assert_eq(sort->kind, NK_Sort);
    cr_assert_eq(sort->kids[0]->kind, NK_PipeOperator);
    Node *sa = sort->kids[0]->kids[0];
    cr_assert_eq(sa->kind, NK_SubqueryAlias);
    Node *proj = sa->kids[0];
    cr_assert_eq(proj->kind, NK_Project);
    cr_assert_eq(proj->nexprs, 2);
    cr_assert_str_eq(proj->u.project.pipe_clause, "SELECT");
    Node *ext = proj->kids[0];
    cr_assert_eq(ext->kind, NK_Project);
    cr_assert_str_eq(ext->u.project.pipe_clause, "EXTEND");
    cr_assert_eq(ext->exprs[0]->kind, NK_UnresolvedStar);
    cr_assert_eq(ext->kids[0]->kind, NK_Filter);
    cr_assert_eq(ext->kids[0]->kids[0]->kind, NK_PipeOperator);
    cr_assert_eq(ext->kids[0]->kids[0]->kids[0]->kind, NK_UnresolvedRelation);
    p = P("TABLE t |> AGGREGATE sum(x) AS s GROUP BY k |> WHERE s > 1");
    cr_assert_eq(p->kind, NK_Filter);
    cr_assert_eq(p->kids[0]->kind, NK_PipeOperator);
    Node *agg = p->kids[0]->kids[0];
    cr_assert_eq(agg->kind, NK_Aggregate);
    cr_assert_eq(agg->u.aggregate.ngroup, 1);
    cr_assert(agg->u.aggregate.pipe);
    cr_assert_eq(agg->nexprs, 3);
    /* SET: one Project per assignment, a replacing star */
    p = P("TABLE t |> SET a = 1, b = a");
    cr_assert_eq(p->kind, NK_Project);
    cr_assert_eq(p->exprs[0]->kind, NK_UnresolvedStar);
    cr_assert(p->exprs[0]->flags & NF_IMPLICIT);
    cr_assert_eq(p->exprs[0]->nkids, 2);
    cr_assert_eq(p->kids[0]->kind, NK_Project);
    /* clauses after the last operator are the query's */
    p = P("TABLE t |> ORDER BY a DESC ORDER BY b");
    cr_assert_eq(p->kind, NK_Sort);
    cr_assert_eq(p->kids[0]->kind, NK_Sort);
    cr_assert_eq(p->kids[0]->kids[0]->kind, NK_PipeOperator);
    p = P("SELECT 1 AS a |> UNION ALL SELECT 2 |> DROP a");
    cr_assert_eq(p->kind, NK_Project);
    cr_assert_eq(p->kids[0]->kind, NK_Union);
    p = P("FROM t |> LEFT JOIN u ON t.k = u.k");
    cr_assert_eq(p->kind, NK_Join);
    cr_assert_eq(p->u.join.type, JOIN_LEFT_OUTER);
}

Test(parser_unit, pivot_unpivot) {
    /* PIVOT: exprs = pivot column, aggregates, values; several columns are one named_struct */
    Node *p = P("SELECT * FROM t PIVOT (sum(x) AS s, max(y) FOR (a, b) IN ((1, 2) AS one, (3, 4)))");
    Node *pv = p->kids[0];
    cr_assert_eq(pv->kind, NK_Pivot);
    cr_assert_eq(pv->u.pivot.nagg, 2);
    cr_assert_eq(pv->u.pivot.nvalues, 2);
    is_fn(pv->exprs[0], "named_struct", false, 4);
    cr_assert_eq(pv->exprs[1]->kind, NK_Alias);
    cr_assert_eq(pv->exprs[3]->kind, NK_Alias);
    cr_assert_eq(pv->kids[0]->kind, NK_UnresolvedRelation);
    /* UNPIVOT: EXCLUDE NULLS (the default) is a Filter above, the alias a SubqueryAlias */
    p = P("SELECT * FROM t UNPIVOT ((v, w) FOR n IN ((a, b) AS ab, (c, d))) AS u");
    Node *sa = p->kids[0];
    cr_assert_eq(sa->kind, NK_SubqueryAlias);
    cr_assert_eq(sa->kids[0]->kind, NK_Filter);
    Node *up = sa->kids[0]->kids[0];
    cr_assert_eq(up->kind, NK_Unpivot);
    cr_assert_eq(up->nexprs, 2);
    cr_assert_eq(up->u.unpivot.nvalue_cols, 2);
    cr_assert_str_eq(up->u.unpivot.var_name, "n");
    cr_assert_str_eq(up->u.unpivot.aliases[0], "ab");
    cr_assert_null(up->u.unpivot.aliases[1]);
    p = P("SELECT * FROM t UNPIVOT INCLUDE NULLS (v FOR n IN (a, b))");
    cr_assert_eq(p->kids[0]->kind, NK_Unpivot);
}

Test(parser_unit, tablesample) {
    /* applied over the aliased relation: a fraction is a Sample, rows a Limit */
    Node *p = P("SELECT * FROM t TABLESAMPLE (25 PERCENT) REPEATABLE (9) x");
    Node *s = p->kids[0];
    cr_assert_eq(s->kind, NK_Sample);
    cr_assert_float_eq(s->u.sample.upper, 0.25, 1e-12);
    cr_assert_eq(s->u.sample.seed, 9);
    cr_assert_eq(s->kids[0]->kind, NK_SubqueryAlias);
    p = P("SELECT * FROM t TABLESAMPLE (5 ROWS)");
    cr_assert_eq(p->kids[0]->kind, NK_GlobalLimit);
    cr_assert_str_eq(E("SELECT * FROM t TABLESAMPLE ()")->error_class, "_LEGACY_ERROR_TEMP_0014");
    cr_assert_str_eq(E("SELECT * FROM t TABLESAMPLE (-10 PERCENT)")->error_class, "_LEGACY_ERROR_TEMP_0064");
    cr_assert_str_eq(E("SELECT * FROM t TABLESAMPLE (100)")->error_class, "_LEGACY_ERROR_TEMP_0016");
}

Test(parser_unit, script_transformation) {
    Node *p = P("SELECT TRANSFORM(a, b) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' USING 'cat' AS (x int, y) FROM t");
    cr_assert_eq(p->kind, NK_ScriptTransformation);
    cr_assert_str_eq(p->u.script.script, "cat");
    cr_assert_eq(p->u.script.ncols, 2);
    cr_assert_eq(p->u.script.nin, 1);
    cr_assert_str_eq(p->u.script.in_fmt[0], "TOK_TABLEROWFORMATFIELD");
    cr_assert_eq(p->kids[0]->kind, NK_Project);
    p = P("MAP a USING 'cat' FROM t");
    cr_assert_eq(p->kind, NK_ScriptTransformation);
    cr_assert(p->u.script.schema_less);
    /* the higher-order function keeps its name */
    p = P("SELECT transform(arr, x -> x + 1) FROM t");
    cr_assert_eq(p->kind, NK_Project);
    cr_assert_str_eq(E("SELECT TRANSFORM(DISTINCT a) USING 'cat' FROM t")->error_class, "UNSUPPORTED_FEATURE.TRANSFORM_DISTINCT_ALL");
}

/* The lexer's keyword table (generated keyword_hash.h): every keyword is
 * found in any letter case, and near misses are identifiers. */
Test(parser_unit, keyword_lookup_finds_every_keyword) {
    for (int k = 1; k < KW_COUNT_; k++) {
        const char *name = ps_keyword_name((Keyword)k);
        size_t n = strlen(name);
        char lower[32];
        for (size_t i = 0; i <= n; i++) lower[i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
        cr_expect_eq(ps_keyword_lookup(name, n), (Keyword)k, "%s", name);
        cr_expect_eq(ps_keyword_lookup(lower, n), (Keyword)k, "%s", lower);
        cr_expect_eq(ps_keyword_lookup(name, n - 1 ? n - 1 : 0) == (Keyword)k, false, "prefix of %s", name);
    }
    cr_expect_eq(ps_keyword_lookup("SELECTX", 7), KW_NONE);
    cr_expect_eq(ps_keyword_lookup("ss_item_sk", 10), KW_NONE);
    cr_expect_eq(ps_keyword_lookup("", 0), KW_NONE);
    cr_expect_eq(ps_keyword_lookup("sElEcT", 6), KW_SELECT);
    /* the probe folds case with | 0x20: only a letter's two cases may agree */
    cr_expect_eq(ps_keyword_lookup("Timestamp_Ntz", 13), KW_TIMESTAMP_NTZ);
    cr_expect_eq(ps_keyword_lookup("TIMESTAMP\x7fNTZ", 13), KW_NONE);
    cr_expect_eq(ps_keyword_lookup("SELEC\xc4", 6), KW_NONE);
    /* long identifiers and keywords inside a statement */
    LexResult lr;
    Arena *a = arena_new(0);
    const char *sql = "select ss_sold_date_sk_and_a_very_long_name FrOm\tt\n where";
    ps_lex_sql(a, sql, strlen(sql), &lr);
    cr_assert_eq(lr.ntoks, 6);
    cr_expect_eq(lr.toks[0].kw, KW_SELECT);
    cr_expect_eq(lr.toks[1].kw, KW_NONE);
    cr_expect_eq(lr.toks[1].end - lr.toks[1].start, 36);
    cr_expect_eq(lr.toks[2].kw, KW_FROM);
    cr_expect_eq(lr.toks[3].kw, KW_NONE);
    cr_expect_eq(lr.toks[4].kw, KW_WHERE);
    cr_expect_eq(lr.toks[5].kind, TK_EOF);
    arena_free(a);
}

/* Names are gathered on the stack up to eight parts and spill to a vector
 * past that; identifiers shorter than 16 bytes are copied 16 bytes at a time
 * (also at the very end of the text, where fewer than 16 bytes remain). */
Test(parser_unit, long_names_and_short_identifiers) {
    is_attr(X("a.b.c.d.e.f.g.h"), "a.b.c.d.e.f.g.h");
    is_attr(X("a.b.c.d.e.f.g.h.i.j.`k k`"), "a.b.c.d.e.f.g.h.i.j.k k");
    Node *f = X("db.s1.s2.s3.s4.s5.s6.s7.s8.fn(x)");
    is_fn(f, "fn", false, 1);
    cr_expect_eq(f->u.un.name.n, 10);
    cr_expect_str_eq(f->u.un.name.v[0], "db");
    is_attr(X("x"), "x");
    is_attr(X("abcdefghijklmno"), "abcdefghijklmno");   /* 15 bytes, at the end */
    is_attr(X("abcdefghijklmnop"), "abcdefghijklmnop"); /* 16 */
    Node *s = P("SELECT t.abc FROM db.sch.tbl t");
    cr_assert_eq(s->kind, NK_Project);
    is_attr(s->exprs[0], "t.abc");
    Node *r = s->kids[0]->kids[0];
    cr_assert_eq(r->kind, NK_UnresolvedRelation);
    cr_expect_eq(r->u.un.name.n, 3);
    cr_expect_str_eq(r->u.un.name.v[2], "tbl");
}
