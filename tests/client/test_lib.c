/* The client library against a real catalyzerd (started per test on port 0):
 * streamed Analyze (events in order, then the result), Execute in a session,
 * deadline exceeded, cancellation, many streams on one connection, reconnect
 * after the daemon restarts. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czclient.h"
#include "daemon_proc.h"

static DaemonProc D;

static void start(void) { cr_assert_eq(daemon_start(&D, 0), 0, "catalyzerd must start"); }
static void stop(void) { daemon_stop(&D); }

static CzcClient *client(void) {
    char addr[64], err[128];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", D.port);
    CzcClient *cl = czc_client_new(addr, err, sizeof err);
    cr_assert(cl, "%s", err);
    return cl;
}

/* A query whose analysis takes tens of milliseconds: 8000 projected columns. */
static char *wide_query(int n) {
    size_t cap = (size_t)n * 32 + 64, o = 0;
    char *q = malloc(cap);
    o += (size_t)snprintf(q + o, cap - o, "SELECT ");
    for (int i = 0; i < n; i++) o += (size_t)snprintf(q + o, cap - o, "%sa + %d AS c%d", i ? ", " : "", i, i);
    snprintf(q + o, cap - o, " FROM VALUES (1) AS t(a)");
    return q;
}

static Catalyzer__V1__AnalyzeRequest sql_request(Catalyzer__V1__SqlQuery *q, const char *sql, const char *session) {
    *q = (Catalyzer__V1__SqlQuery)CATALYZER__V1__SQL_QUERY__INIT;
    q->query = (char *)sql;
    Catalyzer__V1__AnalyzeRequest rq = CATALYZER__V1__ANALYZE_REQUEST__INIT;
    rq.session_id = (char *)(session ? session : "");
    rq.input_case = CATALYZER__V1__ANALYZE_REQUEST__INPUT_SQL;
    rq.sql = q;
    return rq;
}

/* ---------------------------------------------------------------- streamed Analyze */

typedef struct Seen {
    int events, results, done, status;
    uint32_t next_seq;
    bool in_order, result_after_events, effective_seen;
    char schema[256], message[256];
    CzcCall *call;
    int cancel_after; /* cancel once this many events arrived (0: never) */
} Seen;

static void on_event(void *ud, const Catalyzer__V1__TraceEvent *ev) {
    Seen *s = ud;
    if (ev->sequence != s->next_seq) s->in_order = false;
    s->next_seq = ev->sequence + 1;
    if (s->results) s->result_after_events = false;
    if (ev->effective) s->effective_seen = true;
    s->events++;
    if (s->cancel_after && s->events == s->cancel_after) czc_call_cancel(s->call);
}

static void on_result(void *ud, const Catalyzer__V1__AnalyzeResponse *r) {
    Seen *s = ud;
    s->results++;
    snprintf(s->schema, sizeof s->schema, "%s", r->result->ok ? r->result->schema : r->result->error->error_class);
}

static void on_done(void *ud, int status, const char *msg) {
    Seen *s = ud;
    s->done++;
    s->status = status;
    snprintf(s->message, sizeof s->message, "%s", msg);
}

static void raw_result(void *ud, const uint8_t *msg, size_t len) {
    Catalyzer__V1__AnalyzeResponse *r = catalyzer__v1__analyze_response__unpack(NULL, len, msg);
    cr_assert_not_null(r);
    if (r->kind_case == CATALYZER__V1__ANALYZE_RESPONSE__KIND_RESULT) on_result(ud, r);
    catalyzer__v1__analyze_response__free_unpacked(r, NULL);
}

static void run_until(uv_loop_t *loop, const int *flag) {
    while (!*flag) uv_run(loop, UV_RUN_ONCE);
}

Test(client, analyze_streams_events_in_order_then_result, .init = start, .fini = stop) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    CzcConn *c = czc_conn_new(&loop, "127.0.0.1", D.port);
    Catalyzer__V1__SqlQuery q;
    Catalyzer__V1__AnalyzeRequest rq =
        sql_request(&q, "SELECT a + 1 AS b, count(*) OVER () FROM VALUES (1), (2) AS t(a) WHERE a > 0", NULL);
    rq.trace_level = CATALYZER__V1__TRACE_LEVEL__TRACE_LEVEL_ALL;
    Seen s = {.in_order = true, .result_after_events = true};
    CzcAnalyzeHandler h = {on_event, on_result, on_done, &s};
    czc_analyze(c, &rq, NULL, &h);
    run_until(&loop, &s.done);
    cr_assert_eq(s.status, CZC_OK, "status %s: %s", czc_status_name(s.status), s.message);
    cr_assert_gt(s.events, 5, "trace events streamed: %d", s.events);
    cr_assert(s.in_order, "events numbered 0, 1, 2, ... in order");
    cr_assert(s.effective_seen);
    cr_assert_eq(s.results, 1);
    cr_assert(s.result_after_events);
    cr_assert_str_eq(s.schema, "struct<b:int,count(1) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING):bigint>");
    czc_conn_free(c);
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(&loop), 0, "every handle closed");
}

Test(client, many_streams_on_one_connection, .init = start, .fini = stop) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    CzcConn *c = czc_conn_new(&loop, "127.0.0.1", D.port);
    enum { N = 300 }; /* more than the daemon's 100 concurrent streams */
    static Seen s[N];
    int done = 0;
    char sql[N][64];
    for (int i = 0; i < N; i++) {
        snprintf(sql[i], sizeof sql[i], "SELECT %d AS c%d", i, i);
        Catalyzer__V1__SqlQuery q;
        Catalyzer__V1__AnalyzeRequest rq = sql_request(&q, sql[i], NULL);
        s[i] = (Seen){0};
        CzcAnalyzeHandler h = {NULL, on_result, on_done, &s[i]};
        czc_analyze(c, &rq, NULL, &h);
    }
    while (done < N) {
        uv_run(&loop, UV_RUN_ONCE);
        done = 0;
        for (int i = 0; i < N; i++) done += s[i].done;
    }
    for (int i = 0; i < N; i++) {
        char want[64];
        snprintf(want, sizeof want, "struct<c%d:int>", i);
        cr_assert_eq(s[i].status, CZC_OK, "call %d: %s", i, s[i].message);
        cr_assert_str_eq(s[i].schema, want);
    }
    cr_assert_eq(czc_conn_connects(c), 1, "one connection");
    czc_conn_free(c);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
}

/* ---------------------------------------------------------------- sessions */

Test(client, execute_then_analyze_in_a_session, .init = start, .fini = stop) {
    CzcClient *cl = client();
    Catalyzer__V1__ExecuteRequest ex = CATALYZER__V1__EXECUTE_REQUEST__INIT;
    ex.session_id = "s1";
    ex.sql = "CREATE TEMPORARY VIEW v AS SELECT 1 AS x; DECLARE VARIABLE y INT DEFAULT 2";
    Catalyzer__V1__ExecuteResponse *er = NULL;
    char msg[256];
    cr_assert_eq(czc_client_execute(cl, &ex, &er, msg, sizeof msg), CZC_OK, "%s", msg);
    cr_assert_eq(er->n_results, 2);
    cr_assert(er->results[0]->ok && er->results[1]->ok);
    cr_assert_str_eq(er->session_id, "s1");
    catalyzer__v1__execute_response__free_unpacked(er, NULL);

    Catalyzer__V1__SqlQuery q;
    Catalyzer__V1__AnalyzeRequest rq = sql_request(&q, "SELECT x + y AS z FROM v", "s1");
    Catalyzer__V1__AnalyzeResponse *ar = NULL;
    cr_assert_eq(czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg), CZC_OK, "%s", msg);
    cr_assert(ar->result->ok, "%s", ar->result->error ? ar->result->error->message : "");
    cr_assert_str_eq(ar->result->schema, "struct<z:int>");
    cr_assert_gt(strlen(ar->result->tree_string), 0);
    cr_assert_not_null(ar->result->plan, "structured resolved plan");
    catalyzer__v1__analyze_response__free_unpacked(ar, NULL);

    /* another session (and the stateless one) does not see it */
    rq = sql_request(&q, "SELECT x FROM v", "s2");
    cr_assert_eq(czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg), CZC_OK, "%s", msg);
    cr_assert(!ar->result->ok);
    cr_assert_str_eq(ar->result->error->error_class, "TABLE_OR_VIEW_NOT_FOUND");
    cr_assert_str_eq(ar->result->error->sqlstate, "42P01");
    catalyzer__v1__analyze_response__free_unpacked(ar, NULL);

    cr_assert_eq(czc_client_drop_session(cl, "s1", msg, sizeof msg), CZC_OK, "%s", msg);
    rq = sql_request(&q, "SELECT x FROM v", "s1");
    cr_assert_eq(czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg), CZC_OK, "%s", msg);
    cr_assert(!ar->result->ok, "dropped session forgot the view");
    catalyzer__v1__analyze_response__free_unpacked(ar, NULL);
    czc_client_free(cl);
}

Test(client, register_catalog_then_analyze, .init = start, .fini = stop) {
    CzcClient *cl = client();
    Catalyzer__V1__Column c1 = CATALYZER__V1__COLUMN__INIT, c2 = CATALYZER__V1__COLUMN__INIT;
    c1.name = "id";
    c1.type = "bigint";
    c2.name = "price";
    c2.type = "decimal(10,2)";
    Catalyzer__V1__Column *cols[] = {&c1, &c2};
    Catalyzer__V1__Table t = CATALYZER__V1__TABLE__INIT;
    t.name = "items";
    t.n_columns = 2;
    t.columns = cols;
    Catalyzer__V1__Table *tables[] = {&t};
    Catalyzer__V1__Catalog cat = CATALYZER__V1__CATALOG__INIT;
    cat.n_tables = 1;
    cat.tables = tables;
    Catalyzer__V1__RegisterCatalogRequest rr = CATALYZER__V1__REGISTER_CATALOG_REQUEST__INIT;
    rr.session_id = "cat";
    rr.catalog = &cat;
    Catalyzer__V1__RegisterCatalogResponse *resp = NULL;
    char msg[256];
    cr_assert_eq(czc_client_register_catalog(cl, &rr, &resp, msg, sizeof msg), CZC_OK, "%s", msg);
    cr_assert_eq(resp->tables, 1);
    catalyzer__v1__register_catalog_response__free_unpacked(resp, NULL);
    Catalyzer__V1__SqlQuery q;
    Catalyzer__V1__AnalyzeRequest rq = sql_request(&q, "SELECT id, sum(price) FROM items GROUP BY id", "cat");
    Catalyzer__V1__AnalyzeResponse *ar = NULL;
    cr_assert_eq(czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg), CZC_OK, "%s", msg);
    cr_assert_str_eq(ar->result->schema, "struct<id:bigint,sum(price):decimal(20,2)>");
    catalyzer__v1__analyze_response__free_unpacked(ar, NULL);
    czc_client_free(cl);
}

/* A Spark Connect plan, built with the spark.connect messages a C engine
 * links: df.filter(col("a") > 1).select(col("a")) over a SQL relation. */
Test(client, analyze_a_spark_connect_plan, .init = start, .fini = stop) {
    CzcClient *cl = client();
    /* the generated initialisers: the INIT macros of these two messages spell
       out deprecated fields (SQL.args/pos_args, RelationCommon.source_info),
       which clang reports as uses */
    Spark__Connect__SQL sql;
    spark__connect__sql__init(&sql);
    sql.query = "SELECT 1 AS a UNION ALL SELECT 2";
    Spark__Connect__RelationCommon c0;
    spark__connect__relation_common__init(&c0);
    c0._plan_id_case = SPARK__CONNECT__RELATION_COMMON___PLAN_ID_PLAN_ID;
    c0.plan_id = 0;
    Spark__Connect__Relation src = SPARK__CONNECT__RELATION__INIT;
    src.common = &c0;
    src.rel_type_case = SPARK__CONNECT__RELATION__REL_TYPE_SQL;
    src.sql = &sql;
    Spark__Connect__Expression__UnresolvedAttribute ua = SPARK__CONNECT__EXPRESSION__UNRESOLVED_ATTRIBUTE__INIT;
    ua.unparsed_identifier = "a";
    ua._plan_id_case = SPARK__CONNECT__EXPRESSION__UNRESOLVED_ATTRIBUTE___PLAN_ID_PLAN_ID;
    ua.plan_id = 0;
    Spark__Connect__Expression a = SPARK__CONNECT__EXPRESSION__INIT;
    a.expr_type_case = SPARK__CONNECT__EXPRESSION__EXPR_TYPE_UNRESOLVED_ATTRIBUTE;
    a.unresolved_attribute = &ua;
    Spark__Connect__Expression__Literal one_l = SPARK__CONNECT__EXPRESSION__LITERAL__INIT;
    one_l.literal_type_case = SPARK__CONNECT__EXPRESSION__LITERAL__LITERAL_TYPE_INTEGER;
    one_l.integer = 1;
    Spark__Connect__Expression one = SPARK__CONNECT__EXPRESSION__INIT;
    one.expr_type_case = SPARK__CONNECT__EXPRESSION__EXPR_TYPE_LITERAL;
    one.literal = &one_l;
    Spark__Connect__Expression *gt_args[] = {&a, &one};
    Spark__Connect__Expression__UnresolvedFunction gt_f = SPARK__CONNECT__EXPRESSION__UNRESOLVED_FUNCTION__INIT;
    gt_f.function_name = ">";
    gt_f.n_arguments = 2;
    gt_f.arguments = gt_args;
    Spark__Connect__Expression gt = SPARK__CONNECT__EXPRESSION__INIT;
    gt.expr_type_case = SPARK__CONNECT__EXPRESSION__EXPR_TYPE_UNRESOLVED_FUNCTION;
    gt.unresolved_function = &gt_f;
    Spark__Connect__Filter filter = SPARK__CONNECT__FILTER__INIT;
    filter.input = &src;
    filter.condition = &gt;
    Spark__Connect__Relation filtered = SPARK__CONNECT__RELATION__INIT;
    filtered.rel_type_case = SPARK__CONNECT__RELATION__REL_TYPE_FILTER;
    filtered.filter = &filter;
    Spark__Connect__Expression *cols[] = {&a};
    Spark__Connect__Project proj = SPARK__CONNECT__PROJECT__INIT;
    proj.input = &filtered;
    proj.n_expressions = 1;
    proj.expressions = cols;
    Spark__Connect__Relation root = SPARK__CONNECT__RELATION__INIT;
    root.rel_type_case = SPARK__CONNECT__RELATION__REL_TYPE_PROJECT;
    root.project = &proj;

    Catalyzer__V1__AnalyzeRequest rq = CATALYZER__V1__ANALYZE_REQUEST__INIT;
    rq.input_case = CATALYZER__V1__ANALYZE_REQUEST__INPUT_PLAN;
    rq.plan = &root;
    Catalyzer__V1__AnalyzeResponse *ar = NULL;
    char msg[256];
    cr_assert_eq(czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg), CZC_OK, "%s", msg);
    cr_assert(ar->result->ok, "%s", ar->result->error ? ar->result->error->message : "");
    cr_assert_str_eq(ar->result->schema, "struct<a:int>");
    cr_assert(strstr(ar->result->tree_string, "+- Filter (a#"), "%s", ar->result->tree_string);
    catalyzer__v1__analyze_response__free_unpacked(ar, NULL);
    /* a plan without a relation type: INVALID_ARGUMENT naming where */
    Spark__Connect__Relation empty = SPARK__CONNECT__RELATION__INIT;
    rq.plan = &empty;
    ar = NULL;
    cr_assert_eq(czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg), CZC_INVALID_ARGUMENT);
    cr_assert(strstr(msg, "rel_type is not set"), "%s", msg);
    czc_client_free(cl);
}

/* ---------------------------------------------------------------- deadlines, cancellation */

Test(client, deadline_exceeded, .init = start, .fini = stop) {
    CzcClient *cl = client();
    char *sql = wide_query(8000);
    Catalyzer__V1__SqlQuery q;
    Catalyzer__V1__AnalyzeRequest rq = sql_request(&q, sql, NULL);
    czc_client_set_timeout(cl, 3);
    Catalyzer__V1__AnalyzeResponse *ar = NULL;
    char msg[256];
    int st = czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg);
    cr_assert_eq(st, CZC_DEADLINE_EXCEEDED, "status %s: %s", czc_status_name(st), msg);
    cr_assert_null(ar);
    /* the connection still serves */
    czc_client_set_timeout(cl, 10000);
    rq = sql_request(&q, "SELECT 1 AS one", NULL);
    cr_assert_eq(czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg), CZC_OK, "%s", msg);
    cr_assert_str_eq(ar->result->schema, "struct<one:int>");
    catalyzer__v1__analyze_response__free_unpacked(ar, NULL);
    cr_assert_eq(czc_conn_connects(czc_client_conn(cl)), 1);
    free(sql);
    czc_client_free(cl);
}

Test(client, cancel_mid_stream, .init = start, .fini = stop) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    CzcConn *c = czc_conn_new(&loop, "127.0.0.1", D.port);
    char *sql = wide_query(4000);
    Catalyzer__V1__SqlQuery q;
    Catalyzer__V1__AnalyzeRequest rq = sql_request(&q, sql, NULL);
    rq.trace_level = CATALYZER__V1__TRACE_LEVEL__TRACE_LEVEL_ALL;
    rq.trace_plans = true; /* slow: the plan text after every effective rule */
    Seen s = {.in_order = true, .cancel_after = 1};
    CzcAnalyzeHandler h = {on_event, on_result, on_done, &s};
    s.call = czc_analyze(c, &rq, NULL, &h);
    run_until(&loop, &s.done);
    cr_assert_eq(s.status, CZC_CANCELLED, "status %s: %s", czc_status_name(s.status), s.message);
    cr_assert_eq(s.events, 1, "no event after the cancel");
    cr_assert_eq(s.results, 0, "no result after the cancel");
    /* the same connection goes on serving */
    Seen s2 = {.in_order = true};
    rq = sql_request(&q, "SELECT 2 AS two", NULL);
    CzcAnalyzeHandler h2 = {NULL, on_result, on_done, &s2};
    czc_analyze(c, &rq, NULL, &h2);
    run_until(&loop, &s2.done);
    cr_assert_eq(s2.status, CZC_OK, "%s", s2.message);
    cr_assert_str_eq(s2.schema, "struct<two:int>");
    cr_assert_eq(czc_conn_connects(c), 1);
    /* cancelling a call before it was even sent */
    Seen s3 = {0};
    CzcAnalyzeHandler h3 = {NULL, on_result, on_done, &s3};
    czc_call_cancel(czc_analyze(c, &rq, NULL, &h3));
    cr_assert_eq(s3.done, 1);
    cr_assert_eq(s3.status, CZC_CANCELLED);
    free(sql);
    czc_conn_free(c);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
}

/* ---------------------------------------------------------------- reconnect */

Test(client, reconnects_after_the_daemon_restarts, .init = start) {
    CzcClient *cl = client();
    Catalyzer__V1__SqlQuery q;
    Catalyzer__V1__AnalyzeRequest rq = sql_request(&q, "SELECT 1 AS one", NULL);
    Catalyzer__V1__AnalyzeResponse *ar = NULL;
    char msg[256];
    cr_assert_eq(czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg), CZC_OK, "%s", msg);
    catalyzer__v1__analyze_response__free_unpacked(ar, NULL);
    int port = D.port;
    daemon_stop(&D);
    /* down: the call fails fast with UNAVAILABLE */
    int st = czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg);
    cr_assert_eq(st, CZC_UNAVAILABLE, "status %s: %s", czc_status_name(st), msg);
    /* back on the same port: the next call dials again and succeeds */
    cr_assert_eq(daemon_start(&D, port), 0);
    st = czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg);
    cr_assert_eq(st, CZC_OK, "status %s: %s", czc_status_name(st), msg);
    cr_assert_str_eq(ar->result->schema, "struct<one:int>");
    catalyzer__v1__analyze_response__free_unpacked(ar, NULL);
    cr_assert_eq(czc_conn_connects(czc_client_conn(cl)), 2);
    /* and again without a pause in between: restart while idle */
    daemon_stop(&D);
    cr_assert_eq(daemon_start(&D, port), 0);
    st = czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg);
    cr_assert_eq(st, CZC_OK, "after an idle restart: %s: %s", czc_status_name(st), msg);
    catalyzer__v1__analyze_response__free_unpacked(ar, NULL);
    czc_client_free(cl);
    daemon_stop(&D);
}

Test(client, bad_addresses) {
    char err[128];
    cr_assert_null(czc_client_new("no-port", err, sizeof err));
    cr_assert_null(czc_client_new("host:99999", err, sizeof err));
    CzcClient *cl = czc_client_new("name.invalid:1", err, sizeof err);
    cr_assert_not_null(cl);
    Catalyzer__V1__SqlQuery q;
    Catalyzer__V1__AnalyzeRequest rq = sql_request(&q, "SELECT 1", NULL);
    Catalyzer__V1__AnalyzeResponse *ar = NULL;
    char msg[256];
    cr_assert_eq(czc_client_analyze(cl, &rq, NULL, NULL, &ar, msg, sizeof msg), CZC_UNAVAILABLE);
    czc_client_free(cl);
}

Test(client, trailers_only_statuses, .init = start, .fini = stop) {
    CzcClient *cl = client();
    char msg[256];
    Catalyzer__V1__DropSessionRequest rq = CATALYZER__V1__DROP_SESSION_REQUEST__INIT;
    ProtobufCMessage *out = NULL;
    int st = czc_client_unary(cl, "/catalyzer.v1.Analyzer/NoSuchMethod", &rq.base,
                              &catalyzer__v1__drop_session_response__descriptor, &out, msg, sizeof msg);
    cr_assert_eq(st, CZC_UNIMPLEMENTED, "%s: %s", czc_status_name(st), msg);
    cr_assert_null(out);
    /* an Analyze without input: INVALID_ARGUMENT with the daemon's message */
    Catalyzer__V1__AnalyzeRequest ar = CATALYZER__V1__ANALYZE_REQUEST__INIT;
    Catalyzer__V1__AnalyzeResponse *resp = NULL;
    st = czc_client_analyze(cl, &ar, NULL, NULL, &resp, msg, sizeof msg);
    cr_assert_eq(st, CZC_INVALID_ARGUMENT, "%s: %s", czc_status_name(st), msg);
    cr_assert_gt(strlen(msg), 0, "grpc-message decoded");
    /* raw call: the bytes of each response message */
    Catalyzer__V1__SqlQuery q;
    Catalyzer__V1__AnalyzeRequest ok = sql_request(&q, "SELECT 1 AS one", NULL);
    uint8_t buf[256];
    size_t n = catalyzer__v1__analyze_request__pack(&ok, buf);
    czc_client_free(cl);
    uv_loop_t loop;
    uv_loop_init(&loop);
    CzcConn *c = czc_conn_new(&loop, "127.0.0.1", D.port);
    Seen s = {0};
    czc_call_start_raw(c, "/catalyzer.v1.Analyzer/Analyze", buf, n, NULL, raw_result, on_done, &s);
    run_until(&loop, &s.done);
    cr_assert_eq(s.status, CZC_OK, "%s", s.message);
    cr_assert_str_eq(s.schema, "struct<one:int>");
    czc_conn_free(c);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
}
