/* The single-pass resolver and the hybrid analyzer through the public API:
 * the confs that choose the analyzer, the dual run's verdicts, the guard's
 * declines, errors (always the batches'), the trace of each path. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "catalyzer.h"

static const char *const SCHEMA[] = {
    "CREATE TABLE t (a INT, b STRING, c DECIMAL(10,2))",
    "CREATE TABLE u (x INT, y STRING)",
    "CREATE TEMPORARY VIEW v AS SELECT a, b FROM t WHERE a > 0",
};

static CzSession *session(const char *key, const char *value) {
    CzSession *s = cz_session_new(false);
    for (size_t i = 0; i < sizeof SCHEMA / sizeof SCHEMA[0]; i++) {
        CzResult *r = cz_run_sql(s, SCHEMA[i], strlen(SCHEMA[i]), NULL);
        cr_assert_eq(cz_result_status(r), CZ_OK, "%s", SCHEMA[i]);
        cz_result_free(r);
    }
    if (key) cr_assert(cz_session_set_conf(s, key, value));
    return s;
}

static const char *const QUERIES[] = {
    "SELECT a, b FROM t",
    "SELECT a + 1 AS a1, a1 * 2 FROM t",
    "SELECT a, count(*), sum(c) FROM t WHERE a > 1 GROUP BY a HAVING count(*) > 1 ORDER BY a",
    "SELECT b FROM t ORDER BY a",
    "SELECT * FROM t JOIN u ON t.a = u.x WHERE y LIKE 'z%'",
    "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.x = t.a)",
    "SELECT a FROM t WHERE a > (SELECT avg(x) FROM u WHERE u.y = t.b)",
    "WITH w AS (SELECT a FROM t), z AS (SELECT a, x FROM w JOIN u ON a = x) SELECT * FROM z",
    "SELECT a, rank() OVER (PARTITION BY b ORDER BY c) FROM t",
    "SELECT a, b, sum(c) FROM t GROUP BY ROLLUP(a, b) ORDER BY 1, 2",
    "SELECT a, sum(c) FROM t GROUP BY ROLLUP(a, b) HAVING a > 1",
    "SELECT a FROM t UNION ALL SELECT x FROM u ORDER BY 1 LIMIT 10",
    "SELECT * FROM v",
    "SELECT s.a FROM (SELECT a, b FROM t) s WHERE s.b IN ('p', 'q')",
    "SELECT * FROM t JOIN u ON true JOIN (SELECT a AS x FROM t) w USING (x)",
    /* ORDER BY a grouping column not selected, over window functions of an aggregation (TPC-DS q12) */
    "SELECT b, sum(c) * 100 / sum(sum(c)) OVER (PARTITION BY b) AS r FROM t GROUP BY a, b ORDER BY b, a, r",
    "SELECT a, w.x FROM t NATURAL JOIN (SELECT a, b AS x FROM t) w",
};

/* The dual run's verdict on a statement, from its JSON line. */
static const char *verdict(CzResult *r) {
    const char *j = cz_result_json(r, 0);
    const char *p = strstr(j, "\"single_pass\":\"");
    if (!p) return "none";
    p += strlen("\"single_pass\":\"");
    if (!strncmp(p, "covered", 7)) return "covered";
    if (!strncmp(p, "declined", 8)) return "declined";
    if (!strncmp(p, "mismatch", 8)) return "mismatch";
    return "?";
}

Test(resolver, dual_run_covers_and_agrees) {
    CzSession *s = session("catalyzer.analyzer.dualRun", "true");
    for (size_t i = 0; i < sizeof QUERIES / sizeof QUERIES[0]; i++) {
        CzResult *r = cz_run_sql(s, QUERIES[i], strlen(QUERIES[i]), NULL);
        cr_assert_eq(cz_result_status(r), CZ_OK, "%s: %s", QUERIES[i],
                     cz_result_error(r) ? cz_result_error(r)->message : "");
        cr_expect_str_eq(verdict(r), "covered", "%s: %s", QUERIES[i], cz_result_json(r, 0));
        cz_result_free(r);
    }
    cz_session_free(s);
}

/* With the single pass on, the answer (schema, plan up to ids) is the batches'. */
Test(resolver, single_pass_answers_as_the_batches) {
    CzSession *fp = session(NULL, NULL), *sp = session("catalyzer.analyzer.singlePass", "true");
    CzRunOptions opts = {.want_tree = true};
    for (size_t i = 0; i < sizeof QUERIES / sizeof QUERIES[0]; i++) {
        CzResult *a = cz_run_sql(fp, QUERIES[i], strlen(QUERIES[i]), &opts);
        CzResult *b = cz_run_sql(sp, QUERIES[i], strlen(QUERIES[i]), &opts);
        cr_assert_eq(cz_result_status(b), CZ_OK, "%s", QUERIES[i]);
        cr_expect_str_eq(cz_result_schema(b), cz_result_schema(a), "%s", QUERIES[i]);
        cr_expect_str_eq(verdict(b), "covered", "%s", QUERIES[i]);
        cz_result_free(a);
        cz_result_free(b);
    }
    cz_session_free(fp);
    cz_session_free(sp);
}

Test(resolver, errors_are_the_batches) {
    static const char *const BAD[][2] = {
        {"SELECT nope FROM t", "UNRESOLVED_COLUMN.WITH_SUGGESTION"},
        {"SELECT a FROM nope", "TABLE_OR_VIEW_NOT_FOUND"},
        {"SELECT a, count(*) FROM t", "MISSING_GROUP_BY"},
        {"SELECT nosuchfn(a) FROM t", "UNRESOLVED_ROUTINE"},
    };
    for (int mode = 0; mode < 2; mode++) {
        CzSession *s = session(mode ? "catalyzer.analyzer.dualRun" : "catalyzer.analyzer.singlePass", "true");
        for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
            CzResult *r = cz_run_sql(s, BAD[i][0], strlen(BAD[i][0]), NULL);
            cr_assert_eq(cz_result_status(r), CZ_ERROR, "%s", BAD[i][0]);
            cr_expect_str_eq(cz_result_error(r)->error_class, BAD[i][1], "%s", BAD[i][0]);
            cr_expect_neq(strcmp(verdict(r), "mismatch"), 0, "%s", BAD[i][0]);
            cz_result_free(r);
        }
        cz_session_free(s);
    }
}

Test(resolver, guard_declines_whole_plans) {
    CzSession *s = session("catalyzer.analyzer.dualRun", "true");
    cr_assert(cz_session_set_conf(s, "catalyzer.analyzer.singlePass.declineKinds", "Window, Join"));
    const char *q = "SELECT * FROM t WHERE a IN (SELECT x FROM u JOIN t ON x = a)"; /* a Join in a subquery */
    CzResult *r = cz_run_sql(s, q, strlen(q), NULL);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cr_expect_str_eq(verdict(r), "declined");
    cr_expect(strstr(cz_result_json(r, 0), "\"single_pass_detail\":\"Join\"") != NULL, "%s", cz_result_json(r, 0));
    cz_result_free(r);
    q = "SELECT a FROM t WHERE a > 1";
    r = cz_run_sql(s, q, strlen(q), NULL);
    cr_expect_str_eq(verdict(r), "covered");
    cz_result_free(r);
    cz_session_free(s);
}

Test(resolver, off_by_default) {
    CzSession *s = session(NULL, NULL);
    CzResult *r = cz_run_sql(s, QUERIES[0], strlen(QUERIES[0]), NULL);
    cr_expect_str_eq(verdict(r), "none");
    cz_result_free(r);
    cz_session_free(s);
}

typedef struct Events {
    int n, single_pass, rules;
    int project_steps;
} Events;

static void on_event(void *ctx, const CzTraceEvent *ev) {
    Events *e = ctx;
    e->n++;
    if (!strcmp(ev->batch, "SinglePass")) {
        e->single_pass++;
        if (!strcmp(ev->rule, "ProjectResolver") && ev->changed_kinds && !strcmp(ev->changed_kinds, "Project"))
            e->project_steps++;
    }
    if (!strcmp(ev->rule, "ResolveRelations")) e->rules++;
}

Test(resolver, trace_one_event_per_resolver_step) {
    const char *q = "SELECT a, b FROM t WHERE a > 1";
    CzSession *s = session("catalyzer.analyzer.singlePass", "true");
    Events e = {0};
    CzRunOptions opts = {.trace = on_event, .trace_ctx = &e, .trace_level = CZ_TRACE_ALL};
    CzResult *r = cz_run_sql(s, q, strlen(q), &opts);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    /* UnresolvedRelation, SubqueryAlias? no: Relation, Filter, Project: one step each */
    cr_expect_eq(e.single_pass, e.n, "only single-pass events");
    cr_expect_eq(e.n, 3, "one per operator: %d", e.n);
    cr_expect_eq(e.project_steps, 1);
    cz_result_free(r);
    /* the rule-by-rule trace asks for the batches */
    cr_assert(cz_session_set_conf(s, "catalyzer.analyzer.ruleTrace", "true"));
    Events f = {0};
    opts.trace_ctx = &f;
    r = cz_run_sql(s, q, strlen(q), &opts);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    cr_expect_eq(f.single_pass, 0);
    cr_expect_gt(f.rules, 0);
    cz_result_free(r);
    cz_session_free(s);
}
