/* The field-specific plan packer (server/plan_pack.c) against protobuf-c's
 * generic packing: for plans of many shapes (joins, aggregates, windows,
 * subqueries, CTEs, generators, nested and parameterised types, literals,
 * plain and detailed), the bytes must be identical, and an enclosing
 * message carrying the plan prepacked must pack to the same bytes as with
 * the plan's structs. A divergence in either fails here. The IR encoder
 * (server/plan_wire.c), which skips the structs, must give the same bytes
 * as plan_encode + packing, and the depth pb_message_depth finds, for those
 * plans and for every workload query (TPC-DS, TPC-H, TPC-DS v2.7). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "catalyzer.pb-c.h"
#include "plan_encode.h"
#include "plan_pack.h"
#include "plan_wire.h"

static const char *const SCHEMA[] = {
    "CREATE TABLE t (a INT, b BIGINT NOT NULL, c STRING, d DECIMAL(12,3), e DATE, f TIMESTAMP, g DOUBLE, "
    "h ARRAY<INT>, m MAP<STRING, ARRAY<STRUCT<x: INT, y: STRING>>>, s STRUCT<p: INT, q: VARCHAR(10), r: CHAR(3)>, "
    "bin BINARY, bo BOOLEAN, ts_ntz TIMESTAMP_NTZ)",
    "CREATE TABLE u (a INT, k STRING, v DOUBLE)",
    "CREATE TEMPORARY VIEW tv AS SELECT a, c FROM t WHERE a > 0",
};

static const char *const QUERIES[] = {
    "SELECT 1",
    "SELECT a, b + 1 AS b1, c FROM t WHERE a > -5 AND c LIKE 'x%'",
    "SELECT -1, -2147483648, 9223372036854775807L, -9223372036854775808L, 1.5BD, -0.001, 1e10, 'str', "
    "X'0AFF', DATE'2020-01-01', TIMESTAMP'2020-01-01 00:00:00', INTERVAL '1-2' YEAR TO MONTH, "
    "INTERVAL '3 04:05:06' DAY TO SECOND, NULL, true, false, array(1, 2), map('k', 1), named_struct('a', 1)",
    "SELECT t.a, u.k, sum(u.v) FROM t JOIN u ON t.a = u.a GROUP BY t.a, u.k HAVING sum(u.v) > 0 ORDER BY 1 DESC",
    "SELECT a, rank() OVER (PARTITION BY c ORDER BY d) r, sum(g) OVER (ORDER BY e ROWS BETWEEN 1 PRECEDING AND "
    "CURRENT ROW) FROM t",
    "SELECT a FROM t WHERE a IN (SELECT a FROM u) AND EXISTS (SELECT 1 FROM u WHERE u.a = t.a) "
    "AND b > (SELECT max(a) FROM u)",
    "WITH w AS (SELECT a, count(*) n FROM u GROUP BY a) SELECT * FROM w x JOIN w y ON x.a = y.a",
    "SELECT a, explode(h) FROM t",
    "SELECT a, x FROM t LATERAL VIEW explode(h) q AS x",
    "SELECT m['k'][0].x, s.p, s.q, h[1], transform(h, z -> z + 1) FROM t",
    "SELECT a FROM t UNION ALL SELECT a FROM u EXCEPT SELECT a FROM tv",
    "SELECT a, c, count(*) FROM t GROUP BY ROLLUP(a, c)",
    "SELECT CAST(a AS DECIMAL(38, 10)), CAST(c AS VARCHAR(5)), ts_ntz, bin, bo FROM t",
    "SELECT * FROM t LEFT SEMI JOIN u ON t.a = u.a",
    "SELECT * FROM (SELECT a, c FROM t) sub(x, y) WHERE x IS NOT NULL LIMIT 10",
    "SELECT a, (SELECT count(*) FROM u WHERE u.a = t.a) FROM t",
    "SELECT * FROM range(10)",
    "SELECT * FROM VALUES (1, 'a'), (2, 'b') AS v(i, j)",
    /* scalar types equal but for one field (the IR encoder caches them by value) */
    "SELECT c COLLATE UTF8_LCASE, c, c COLLATE UNICODE, CAST(c AS CHAR(4)), CAST(c AS VARCHAR(4)), "
    "CAST(a AS DECIMAL(12, 2)), CAST(a AS DECIMAL(12, 3)), CAST(a AS DECIMAL(13, 3)), "
    "INTERVAL '1' YEAR, INTERVAL '1' MONTH, INTERVAL '1' DAY, INTERVAL '1' HOUR FROM t",
};

static uint8_t *generic_pack(const ProtobufCMessage *m, size_t *n) {
    *n = protobuf_c_message_get_packed_size(m);
    uint8_t *b = malloc(*n ? *n : 1);
    cr_assert_not_null(b);
    cr_assert_eq(protobuf_c_message_pack(m, b), *n);
    return b;
}

static void assert_same_bytes(const uint8_t *want, size_t nwant, const uint8_t *got, size_t ngot, const char *what,
                              const char *sql) {
    cr_assert_eq(ngot, nwant, "%s: %zu bytes, protobuf-c packs %zu, for %s", what, ngot, nwant, sql);
    for (size_t i = 0; i < nwant; i++)
        cr_assert_eq(got[i], want[i], "%s: byte %zu differs from protobuf-c's, for %s", what, i, sql);
}

/* One plan, plain or detailed: the packer, and the prepacked plan inside an
 * AnalyzeResponse, against protobuf-c. */
/* `shared` is reset and reused from plan to plan, as the bench does: what
 * it packed before (types from freed arenas) must not leak into the bytes. */
static void check_plan(Arena *a, PbRevWriter *shared, Catalyzer__V1__ResolvedPlan *pb, Catalyzer__V1__Attribute **out,
                       size_t nout, const char *sql) {
    size_t nwant;
    uint8_t *want = generic_pack(&pb->base, &nwant);
    pb_rev_writer_reset(shared);
    pb_prepend_resolved_plan(shared, pb);
    cr_assert(!shared->failed);
    assert_same_bytes(want, nwant, pb_rev_writer_data(shared), pb_rev_writer_len(shared), "ResolvedPlan", sql);
    PbRevWriter w;
    pb_rev_writer_init(&w);
    pb_prepend_resolved_plan(&w, pb);
    cr_assert(!w.failed);
    assert_same_bytes(want, nwant, pb_rev_writer_data(&w), pb_rev_writer_len(&w), "ResolvedPlan, fresh writer", sql);
    free(want);
    for (size_t i = 0; i < nout; i++) {
        want = generic_pack(&out[i]->base, &nwant);
        pb_rev_writer_free(&w);
        pb_prepend_attribute(&w, out[i]);
        assert_same_bytes(want, nwant, pb_rev_writer_data(&w), pb_rev_writer_len(&w), "Attribute", sql);
        free(want);
    }
    pb_rev_writer_free(&w);

    /* as the daemon sends it: fields after the plan (rule totals, is_command,
       ...) must stay after it */
    Catalyzer__V1__AnalyzeResult res = CATALYZER__V1__ANALYZE_RESULT__INIT;
    res.ok = true;
    res.schema = (char *)"struct<a:int>";
    res.output = out;
    res.n_output = nout;
    res.tree_string = (char *)"tree";
    res.plan = pb;
    res.is_command = true;
    res.arena_bytes = 12345;
    res.result_json = (char *)"{}";
    Catalyzer__V1__AnalyzeResponse resp = CATALYZER__V1__ANALYZE_RESPONSE__INIT;
    resp.kind_case = CATALYZER__V1__ANALYZE_RESPONSE__KIND_RESULT;
    resp.result = &res;
    resp.session_id = (char *)"s";
    want = generic_pack(&resp.base, &nwant);
    res.plan = plan_prepacked(a, pb);
    cr_assert_not_null(res.plan);
    size_t ngot;
    uint8_t *got = generic_pack(&resp.base, &ngot);
    assert_same_bytes(want, nwant, got, ngot, "AnalyzeResponse with the plan prepacked", sql);
    free(want);
    free(got);
}

/* plan_wire against plan_encode(_detailed) + pb_prepend_resolved_plan, and
 * its depth against pb_message_depth; `shared` reused as the bench does. */
static void check_wire(Arena *a, PbRevWriter *shared, const Node *plan, bool details, const char *sql) {
    Catalyzer__V1__ResolvedPlan *pb = details ? plan_encode_detailed(a, plan) : plan_encode(a, plan);
    PbRevWriter want;
    pb_rev_writer_init(&want);
    pb_prepend_resolved_plan(&want, pb);
    cr_assert(!want.failed);
    pb_rev_writer_reset(shared);
    unsigned depth = plan_wire_prepend_plan(shared, a, plan, details);
    cr_assert(!shared->failed);
    assert_same_bytes(pb_rev_writer_data(&want), pb_rev_writer_len(&want), pb_rev_writer_data(shared),
                      pb_rev_writer_len(shared), details ? "plan_wire, detailed" : "plan_wire", sql);
    cr_assert_eq(depth, pb_message_depth(&pb->base), "plan_wire depth %u, pb_message_depth %u, for %s", depth,
                 pb_message_depth(&pb->base), sql);
    if (details) {
        pb_rev_writer_free(&want);
        return;
    }
    /* the output attributes: packed back to back as the bench does, and as
       carriers inside an AnalyzeResponse as the daemon does */
    size_t nout = 0, nwire = 0;
    Catalyzer__V1__Attribute **out = plan_output_encode(a, plan, &nout);
    pb_rev_writer_reset(&want);
    unsigned want_depth = 0;
    for (size_t i = nout; i-- > 0;) {
        pb_prepend_attribute(&want, out[i]);
        unsigned d = pb_message_depth(&out[i]->base);
        if (d > want_depth) want_depth = d;
    }
    pb_rev_writer_reset(shared);
    depth = plan_wire_prepend_output(shared, a, plan, &nwire);
    cr_assert_eq(nwire, nout);
    assert_same_bytes(pb_rev_writer_data(&want), pb_rev_writer_len(&want), pb_rev_writer_data(shared),
                      pb_rev_writer_len(shared), "plan_wire output", sql);
    cr_assert_eq(depth, want_depth, "plan_wire output depth %u, pb_message_depth %u, for %s", depth, want_depth, sql);
    Catalyzer__V1__AnalyzeResult res = CATALYZER__V1__ANALYZE_RESULT__INIT;
    res.ok = true;
    res.schema = (char *)"struct<a:int>";
    res.output = out;
    res.n_output = nout;
    res.tree_string = (char *)"tree";
    res.is_command = true;
    size_t nw, ng;
    uint8_t *w = generic_pack(&res.base, &nw);
    res.output = plan_wire_output(a, plan, &res.n_output, &depth);
    cr_assert_not_null(res.output);
    cr_assert_eq(res.n_output, nout);
    cr_assert_eq(depth, want_depth);
    uint8_t *g = generic_pack(&res.base, &ng);
    assert_same_bytes(w, nw, g, ng, "AnalyzeResult with output carriers", sql);
    free(w);
    free(g);
    pb_rev_writer_free(&want);
}

Test(plan_pack, same_bytes_as_protobuf_c) {
    PbRevWriter shared;
    pb_rev_writer_init(&shared);
    CzSession *s = cz_session_new(false);
    for (size_t i = 0; i < sizeof SCHEMA / sizeof *SCHEMA; i++) {
        CzResult *r = cz_run_sql(s, SCHEMA[i], strlen(SCHEMA[i]), NULL);
        cr_assert_eq(cz_result_status(r), CZ_OK, "%s: %s", SCHEMA[i], cz_result_error(r)->message);
        cz_result_free(r);
    }
    for (size_t q = 0; q < sizeof QUERIES / sizeof *QUERIES; q++) {
        const char *sql = QUERIES[q];
        CzResult *r = cz_run_sql(s, sql, strlen(sql), NULL);
        cr_assert_eq(cz_result_status(r), CZ_OK, "%s: %s", sql, cz_result_error(r)->message);
        Arena *a = cz_result_arena(r);
        const Node *plan = cz_result_plan(r);
        size_t nout;
        Catalyzer__V1__Attribute **out = plan_output_encode(a, plan, &nout);
        check_plan(a, &shared, plan_encode(a, plan), out, nout, sql);
        check_plan(a, &shared, plan_encode_detailed(a, plan), out, nout, sql);
        check_wire(a, &shared, plan, false, sql);
        check_wire(a, &shared, plan, true, sql);
        cz_result_free(r);
    }
    /* origins past 16 KB of text (varints of three bytes) */
    size_t pad = 17000;
    char *longsql = malloc(pad + 64);
    cr_assert_not_null(longsql);
    memcpy(longsql, "SELECT /*", 9);
    memset(longsql + 9, 'x', pad);
    strcpy(longsql + 9 + pad, "*/ a, b + 1 AS b1 FROM t WHERE a > 2");
    CzResult *r = cz_run_sql(s, longsql, strlen(longsql), NULL);
    cr_assert_eq(cz_result_status(r), CZ_OK);
    check_wire(cz_result_arena(r), &shared, cz_result_plan(r), false, "a query after 17000 bytes of comment");
    check_wire(cz_result_arena(r), &shared, cz_result_plan(r), true, "a query after 17000 bytes of comment");
    cz_result_free(r);
    free(longsql);
    cz_session_free(s);
    pb_rev_writer_free(&shared);
}

/* Values the analyser rarely produces: a oneof set to zero, negative int32
 * (ten-byte varints), empty and NULL strings, empty repeated elements, an
 * empty submessage. */
Test(plan_pack, edge_values) {
    Arena *a = arena_new(0);
    Catalyzer__V1__DataType dt = CATALYZER__V1__DATA_TYPE__INIT;
    dt.kind = CATALYZER__V1__DATA_TYPE__KIND__KIND_DECIMAL;
    dt.precision = -1;
    dt.scale = INT32_MIN;
    dt.catalog_string = (char *)"";
    Catalyzer__V1__DataType empty_type = CATALYZER__V1__DATA_TYPE__INIT;
    dt.element_type = &empty_type;
    Catalyzer__V1__Origin org = CATALYZER__V1__ORIGIN__INIT;
    org.start = 0;
    org.stop = -7;
    char *names[] = {(char *)"", (char *)"x", (char *)""}; /* repeated: never NULL (protobuf-c reads them) */
    Catalyzer__V1__ResolvedExpression e = CATALYZER__V1__RESOLVED_EXPRESSION__INIT;
    e.kind = (char *)"Literal";
    e.expr_id = -3;
    e.type = &dt;
    e.origin = &org;
    e.qualifier = names;
    e.n_qualifier = 3;
    Catalyzer__V1__ResolvedExpression *ev[] = {&e, &e};
    Catalyzer__V1__ResolvedPlan p = CATALYZER__V1__RESOLVED_PLAN__INIT;
    p.kind = NULL;
    p.plan_id_present_case = CATALYZER__V1__RESOLVED_PLAN__PLAN_ID_PRESENT_PLAN_ID;
    p.plan_id = 0;
    p.name = names;
    p.n_name = 3;
    p.expressions = ev;
    p.n_expressions = 2;
    p.origin = &org;
    p.description = (char *)"";
    Catalyzer__V1__ResolvedPlan child = p;
    child.plan_id = -1;
    Catalyzer__V1__ResolvedPlan *kids[] = {&child};
    p.children = kids;
    p.n_children = 1;
    PbRevWriter shared;
    pb_rev_writer_init(&shared);
    check_plan(a, &shared, &p, NULL, 0, "edge values");
    Catalyzer__V1__ResolvedPlan bare = CATALYZER__V1__RESOLVED_PLAN__INIT;
    check_plan(a, &shared, &bare, NULL, 0, "an empty plan");
    pb_rev_writer_free(&shared);
    arena_free(a);
}

/* Reads a whole file; NULL if it cannot. */
static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    cr_assert_not_null(b);
    *n = fread(b, 1, (size_t)len, f);
    b[*n] = 0;
    fclose(f);
    return b;
}

/* One workload set: its schema's ';'-separated CREATE TABLEs run, then each
 * query file (one statement each) analysed and its plan checked. */
static void check_workload_dir(const char *shared_dir, const char *set, const char *schema_set) {
    char path[4096];
    snprintf(path, sizeof path, "%s/workloads/%s/schema.sql", shared_dir, schema_set);
    size_t n;
    char *schema = slurp(path, &n);
    cr_assert_not_null(schema, "cannot read %s", path);
    CzSession *s = cz_session_new(false);
    for (char *p = schema, *semi; (semi = strchr(p, ';')); p = semi + 1) {
        cz_result_free(cz_run_sql(s, p, (size_t)(semi - p), NULL));
    }
    free(schema);
    PbRevWriter shared;
    pb_rev_writer_init(&shared);
    unsigned checked = 0, found = 0;
    for (int q = 1; q <= 120; q++) {
        static const char *const SUFFIX[] = {"", "a", "b"};
        for (size_t k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "%s/workloads/%s/q%d%s.sql", shared_dir, set, q, SUFFIX[k]);
            char *sql = slurp(path, &n);
            if (!sql) continue;
            found++;
            CzResult *r = cz_run_sql(s, sql, n, NULL);
            const Node *plan = cz_result_plan(r);
            if (cz_result_status(r) == CZ_OK && plan) {
                check_wire(cz_result_arena(r), &shared, plan, false, path);
                check_wire(cz_result_arena(r), &shared, plan, true, path);
                checked++;
            }
            cz_result_free(r);
            free(sql);
        }
    }
    cr_assert_gt(found, 10, "%s: only %u queries found", set, found);
    cr_assert_eq(checked, found, "%s: %u of %u queries analysed", set, checked, found);
    pb_rev_writer_free(&shared);
    cz_session_free(s);
}

Test(plan_pack, wire_same_bytes_over_workloads, .timeout = 600) {
    const char *shared_dir = getenv("CATALYZER_SHARED");
    cr_assert(shared_dir && *shared_dir, "CATALYZER_SHARED unset");
    check_workload_dir(shared_dir, "tpch", "tpch");
    check_workload_dir(shared_dir, "tpcds", "tpcds");
    check_workload_dir(shared_dir, "tpcds-v2.7.0", "tpcds");
}
