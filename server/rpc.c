/* Analyzer RPC handlers (see rpc.h). Everything a handler builds for its
 * response lives in one scratch arena, freed when the job's output is queued. */
#include "rpc.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalogs.h"
#include "catalyzer.pb-c.h"
#include "connect_error.h"
#include "connect_service.h"
#include "functions/functions.h"
#include "grpc_codec.h"
#include "journal.h"
#include "pb_check.h"
#include "pb_json.h"
#include "plan_decode.h"
#include "plan_encode.h"
#include "plan_pack.h"
#include "plan_wire.h"
#include "server.h"

#define NEW(T, INIT)                      \
    ({                                    \
        T *p_ = arena_alloc(a, sizeof(T)); \
        *p_ = (T)INIT;                    \
        p_;                               \
    })

static const char *S(const char *s) { return s ? s : ""; }

const ProtobufCMessageDescriptor *rpc_request_descriptor(RpcMethod m) {
    switch (m) {
    case RPC_ANALYZE: return &catalyzer__v1__analyze_request__descriptor;
    case RPC_EXECUTE: return &catalyzer__v1__execute_request__descriptor;
    case RPC_REGISTER_CATALOG: return &catalyzer__v1__register_catalog_request__descriptor;
    case RPC_DROP_SESSION: return &catalyzer__v1__drop_session_request__descriptor;
    case RPC_LIST_FUNCTIONS: return &catalyzer__v1__list_functions_request__descriptor;
    case RPC_INVALIDATE_TABLE: return &catalyzer__v1__invalidate_table_request__descriptor;
    default: return connect_request_descriptor(m);
    }
}

/* A handler's context: the job, its scratch arena, the JSON body being built. */
typedef struct Rpc {
    Job *j;
    Arena *a;
    json_t *json_events; /* JSON: trace events so far */
    uint32_t seq;
    bool trace_plans;
    const char *server_session_id;
} Rpc;

/* Decodes the request into *out (caller frees with protobuf_c_message_free_unpacked). */
static int decode_request(Rpc *c, ProtobufCMessage **out, char *err, size_t errlen) {
    Job *j = c->j;
    const ProtobufCMessageDescriptor *desc = rpc_request_descriptor(j->method);
    const Config *cfg = &j->srv->cfg;
    if (j->req_msg) {
        *out = j->req_msg;
        j->req_msg = NULL;
    } else {
        PbLimits lim = {cfg->max_plan_depth, cfg->max_plan_nodes};
        PbCheck rc = pb_wire_check(j->req, j->req_len, desc, &lim, err, errlen);
        if (rc != PB_CHECK_OK) return GRPC_INVALID_ARGUMENT;
        *out = protobuf_c_message_unpack(desc, NULL, j->req_len, j->req);
        if (!*out) {
            snprintf(err, errlen, "malformed %s message", desc->name);
            return GRPC_INVALID_ARGUMENT;
        }
    }
    if (!pb_validate(*out, err, errlen)) {
        protobuf_c_message_free_unpacked(*out, NULL);
        *out = NULL;
        return GRPC_INVALID_ARGUMENT;
    }
    return GRPC_OK;
}

/* ---------------------------------------------------------------- catalog, conf */

static int run_status(Job *j);
static void fill_run_options(Rpc *c, CzRunOptions *o);

/* Registers an inline catalog; with worker processes each table, function
 * and view is recorded in the session's journal (jr) as it succeeds. It is
 * the call's work like any other: views are analysed under the call's
 * limits (nesting, memory budget, deadline, cancel) and the loops over
 * tables and functions stop at the deadline or a cancel. Returns GRPC_OK,
 * or the status to answer with (err says why). */
static int apply_catalog(Rpc *c, CzSession *s, Buf *jr, const Catalyzer__V1__Catalog *cat, int counts[3], char *err,
                         size_t errlen) {
    if (!cat) return GRPC_OK;
    Job *j = c->j;
    int st;
    for (size_t i = 0; i < cat->n_tables; i++) {
        if ((i & 255) == 255 && (st = run_status(j)) != GRPC_OK) goto stopped;
        if (!journal_create_table(jr, s, cat->tables[i], err, errlen)) return GRPC_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < cat->n_functions; i++) {
        if ((i & 255) == 255 && (st = run_status(j)) != GRPC_OK) goto stopped;
        if (!journal_register_function(jr, s, cat->functions[i], err, errlen)) return GRPC_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < cat->n_views; i++) {
        if ((st = run_status(j)) != GRPC_OK) goto stopped;
        const Catalyzer__V1__View *v = cat->views[i];
        size_t cap = strlen(v->name) * 2 + strlen(v->query) + 64;
        char *sql = malloc(cap);
        if (!sql) {
            snprintf(err, errlen, "out of memory");
            return GRPC_RESOURCE_EXHAUSTED;
        }
        /* Backquote the name with backquotes doubled, as Spark's quoteIdentifier. */
        size_t o = (size_t)snprintf(sql, cap, "CREATE OR REPLACE TEMPORARY VIEW `");
        for (const char *p = v->name; *p; p++) {
            if (*p == '`') sql[o++] = '`';
            sql[o++] = *p;
        }
        snprintf(sql + o, cap - o, "` AS %s", v->query);
        CzRunOptions opts;
        fill_run_options(c, &opts);
        CzResult *r = cz_run_sql(s, sql, strlen(sql), &opts);
        bool ok = cz_result_status(r) == CZ_OK;
        if (ok) journal_sql(jr, sql, strlen(sql), NULL);
        free(sql);
        if (!ok) {
            const CzError *ce = cz_result_error(r);
            if ((st = run_status(j)) == GRPC_OK) {
                snprintf(err, errlen, "catalog view \"%s\": %s", v->name, ce ? S(ce->message) : "rejected");
                st = ce && ce->error_class && !strcmp(ce->error_class, "CATALYZER_MEMORY_LIMIT_EXCEEDED")
                         ? GRPC_RESOURCE_EXHAUSTED
                         : GRPC_INVALID_ARGUMENT;
            }
        }
        cz_result_free(r);
        if (!ok) {
            if (st != GRPC_INVALID_ARGUMENT && st != GRPC_RESOURCE_EXHAUSTED) goto stopped;
            return st;
        }
    }
    if (counts) {
        counts[0] += (int)cat->n_tables;
        counts[1] += (int)cat->n_views;
        counts[2] += (int)cat->n_functions;
    }
    return GRPC_OK;
stopped:
    snprintf(err, errlen, "%s while registering the catalog", st == GRPC_DEADLINE_EXCEEDED ? "deadline exceeded" : "cancelled");
    return st;
}

typedef struct ConfEntry {
    const char *key, *value;
} ConfEntry;

/* Sets the request's configuration on the session. On a named session it
 * persists (as SET would): a per-call override could not be undone for keys
 * the session never set, since the library has no "unset". */
static bool apply_conf(CzSession *s, Buf *jr, const ConfEntry *kv, size_t n, char *err, size_t errlen) {
    for (size_t i = 0; i < n; i++) {
        if (!cz_session_set_conf(s, kv[i].key, kv[i].value)) {
            snprintf(err, errlen, "configuration %s does not accept \"%s\"", kv[i].key, kv[i].value);
            return false;
        }
        journal_conf_set(jr, kv[i].key, kv[i].value);
    }
    return true;
}

/* Takes the fault-injection keys (fault.h) out of a request's conf: they
 * apply to this request only and never reach the session. */
static bool take_faults(Job *j, ConfEntry *kv, size_t *n, char *err, size_t errlen) {
    size_t o = 0;
    for (size_t i = 0; i < *n; i++) {
        if (!fault_key(kv[i].key)) {
            kv[o++] = kv[i];
            continue;
        }
        const Config *cfg = &j->srv->cfg;
        if (!fault_set(&j->fault, kv[i].key, kv[i].value, cfg->enable_fault_injection && j->sink != NULL,
                       cfg->worker_memory_limit, err, errlen))
            return false;
    }
    *n = o;
    return true;
}

/* ---------------------------------------------------------------- results */

typedef enum PlanWanted { PLAN_NONE, PLAN_PLAIN, PLAN_DETAILED } PlanWanted;

static Catalyzer__V1__AnalyzeResult *make_result(Rpc *c, CzResult *r, int index, PlanWanted want_plan) {
    Arena *a = c->a;
    Catalyzer__V1__AnalyzeResult *o = NEW(Catalyzer__V1__AnalyzeResult, CATALYZER__V1__ANALYZE_RESULT__INIT);
    o->ok = cz_result_status(r) == CZ_OK;
    const CzError *e = cz_result_error(r);
    if (e) {
        Catalyzer__V1__AnalysisError *er = NEW(Catalyzer__V1__AnalysisError, CATALYZER__V1__ANALYSIS_ERROR__INIT);
        er->error_class = (char *)S(e->error_class);
        er->sqlstate = (char *)S(e->sqlstate);
        er->message = (char *)S(e->message);
        er->phase = (char *)S(e->phase);
        if (e->nparams > 0) {
            er->n_message_parameters = (size_t)e->nparams;
            er->message_parameters = ARENA_ARRAY(a, Catalyzer__V1__AnalysisError__MessageParametersEntry *, e->nparams);
            for (int i = 0; i < e->nparams; i++) {
                Catalyzer__V1__AnalysisError__MessageParametersEntry *kv =
                    NEW(Catalyzer__V1__AnalysisError__MessageParametersEntry,
                        CATALYZER__V1__ANALYSIS_ERROR__MESSAGE_PARAMETERS_ENTRY__INIT);
                kv->key = (char *)S(e->param_names[i]);
                kv->value = (char *)S(e->param_values[i]);
                er->message_parameters[i] = kv;
            }
        }
        Catalyzer__V1__QueryContext *qc = NEW(Catalyzer__V1__QueryContext, CATALYZER__V1__QUERY_CONTEXT__INIT);
        qc->start = e->start;
        qc->stop = e->stop;
        qc->fragment = (char *)S(e->fragment);
        er->context = qc;
        o->error = er;
        snprintf(c->j->error_class, sizeof c->j->error_class, "%s", S(e->error_class));
    }
    o->schema = (char *)S(cz_result_schema(r));
    o->tree_string = (char *)S(cz_result_tree(r));
    const Node *plan = cz_result_plan(r);
    /* On gRPC the plan goes from the IR straight to its bytes (plan_wire.c),
       carried so that the generic packer copies them; its depth comes with
       them. JSON reads the structs. */
    Catalyzer__V1__ResolvedPlan *wire_plan = NULL;
    unsigned wire_plan_depth = 0, wire_output_depth = 0;
    if (plan && o->ok) {
        if (c->j->fmt == JOB_GRPC) o->output = plan_wire_output(a, plan, &o->n_output, &wire_output_depth);
        if (!o->output) {
            o->output = plan_output_encode(a, plan, &o->n_output);
            wire_output_depth = 0;
        }
        if (want_plan != PLAN_NONE && c->j->fmt == JOB_GRPC) {
            PbRevWriter w;
            pb_rev_writer_init(&w);
            wire_plan_depth = plan_wire_prepend_plan(&w, a, plan, want_plan == PLAN_DETAILED);
            if (!w.failed) wire_plan = plan_carrier(a, pb_rev_writer_data(&w), pb_rev_writer_len(&w));
            pb_rev_writer_free(&w);
        }
        if (wire_plan) {
            /* set after the depth of the rest is known */
        } else if (want_plan == PLAN_DETAILED) o->plan = plan_encode_detailed(a, plan);
        else if (want_plan == PLAN_PLAIN) o->plan = plan_encode(a, plan);
    }
    const CzRuleTotal *t;
    int nt = cz_result_rule_totals(r, &t);
    if (nt > 0) {
        o->n_rule_totals = (size_t)nt;
        o->rule_totals = ARENA_ARRAY(a, Catalyzer__V1__RuleTotal *, nt);
        for (int i = 0; i < nt; i++) {
            Catalyzer__V1__RuleTotal *rt = NEW(Catalyzer__V1__RuleTotal, CATALYZER__V1__RULE_TOTAL__INIT);
            rt->batch = (char *)S(t[i].batch);
            rt->rule = (char *)S(t[i].rule);
            rt->runs = t[i].runs;
            rt->effective = t[i].effective;
            rt->nanos = t[i].nanos;
            o->rule_totals[i] = rt;
        }
        metrics_rules(&c->j->srv->metrics, t, nt);
    }
    /* within what stock decoders read: the result sits under one response
       message (AnalyzeResponse, ExecuteResponse) */
    /* The result's depth is the deepest of its fields', plus one. Carriers
       (wire_*) hide their fields from pb_message_depth: their depth comes
       from plan_wire. */
    unsigned rest = pb_message_depth(&o->base) + 1;
    if (wire_output_depth + 2 > rest) rest = wire_output_depth + 2;
    unsigned depth = rest;
    if (wire_plan) {
        o->plan = wire_plan;
        if (wire_plan_depth + 2 > depth) depth = wire_plan_depth + 2;
    }
    if (depth > PB_STOCK_DECODER_DEPTH && o->plan) {
        o->omitted = arena_printf(a, "plan: the response would nest %u protobuf messages deep, past the %d that stock "
                                     "decoders accept (see tree_string)",
                                  depth, PB_STOCK_DECODER_DEPTH);
        o->plan = NULL;
        depth = pb_message_depth(&o->base) + 1;
        if (wire_output_depth + 2 > depth) depth = wire_output_depth + 2;
    }
    if (depth > PB_STOCK_DECODER_DEPTH && o->n_output) {
        o->omitted = arena_printf(a, "%s%soutput: its types nest %u protobuf messages deep, past the %d that stock "
                                     "decoders accept (see schema)",
                                  o->omitted ? o->omitted : "", o->omitted ? "; " : "", depth, PB_STOCK_DECODER_DEPTH);
        o->n_output = 0;
        o->output = NULL;
    }
    o->is_command = cz_result_is_command(r);
    o->arena_bytes = cz_result_arena_bytes(r);
    o->result_json = (char *)S(cz_result_json(r, index));
    return o;
}

/* ---------------------------------------------------------------- output */

/* Sends one response message: framed on gRPC, a line on NDJSON, the body on JSON. */
static bool send_msg(Rpc *c, const ProtobufCMessage *m, const char *json_key) {
    Job *j = c->j;
    if (j->fmt == JOB_GRPC) return job_emit_grpc(j, m);
    json_t *body = pb_to_json(m);
    if (json_key && c->json_events) json_object_set(body, json_key, c->json_events);
    char *s = json_dumps(body, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(body);
    if (!s) return false;
    bool ok = job_emit(j, s, strlen(s)) && job_emit(j, "\n", 1);
    free(s);
    return ok;
}

static void trace_hook(void *ctx, const CzTraceEvent *ev) {
    Rpc *c = ctx;
    Catalyzer__V1__TraceEvent te = CATALYZER__V1__TRACE_EVENT__INIT;
    te.sequence = c->seq++;
    te.batch = (char *)S(ev->batch);
    te.rule = (char *)S(ev->rule);
    te.iteration = ev->iteration;
    te.effective = ev->effective;
    te.duration_nanos = ev->nanos;
    te.plan_after = (char *)S(ev->plan);
    te.changed_kinds = (char *)S(ev->changed_kinds);
    te.depth = ev->depth > 0 ? (uint32_t)ev->depth : 0;
    te.scope = (char *)S(ev->scope);
    te.scope_id = ev->scope_id;
    te.parent_scope_id = ev->parent_scope_id;
    te.plan_before = (char *)S(ev->plan_before);
    if (c->j->fmt == JOB_JSON) {
        json_array_append_new(c->json_events, pb_to_json(&te.base));
        return;
    }
    Catalyzer__V1__AnalyzeResponse resp = CATALYZER__V1__ANALYZE_RESPONSE__INIT;
    resp.kind_case = CATALYZER__V1__ANALYZE_RESPONSE__KIND_TRACE_EVENT;
    resp.trace_event = &te;
    resp.request_id = c->j->request_id;
    send_msg(c, &resp.base, NULL); /* false = cancelled: the analyzer sees the cancel flag */
}

static int run_status(Job *j) {
    if (__atomic_load_n(&j->cancel, __ATOMIC_RELAXED)) {
        if (j->deadline_ns && mono_ns() >= j->deadline_ns) return GRPC_DEADLINE_EXCEEDED;
        return GRPC_CANCELLED;
    }
    if (j->deadline_ns && mono_ns() >= j->deadline_ns) return GRPC_DEADLINE_EXCEEDED;
    return GRPC_OK;
}

static void fill_run_options(Rpc *c, CzRunOptions *o) {
    const Config *cfg = &c->j->srv->cfg;
    memset(o, 0, sizeof *o);
    o->memory_limit = cfg->max_memory_bytes;
    o->max_depth = cfg->max_plan_depth;
    o->deadline_ns = c->j->deadline_ns;
    o->cancel = &c->j->cancel;
}

/* ---------------------------------------------------------------- handlers */

static CzSession *session_for(Job *j, bool *temp) {
    if (j->session) {
        *temp = false;
        return j->session->cz;
    }
    *temp = true;
    return server_new_cz_session(j->srv);
}

static int do_analyze(Rpc *c, Catalyzer__V1__AnalyzeRequest *rq, char *err, size_t errlen) {
    Job *j = c->j;
    bool temp;
    CzSession *s = session_for(j, &temp);
    if (!s) {
        snprintf(err, errlen, "cannot create a session");
        return GRPC_INTERNAL;
    }
    int status = GRPC_OK;
    ConfEntry *kv = calloc(rq->n_conf + 1, sizeof *kv);
    CzResult *r = NULL;
    Buf *jr = temp ? NULL : j->journal;
    size_t nconf = rq->n_conf;
    for (size_t i = 0; i < rq->n_conf; i++) kv[i] = (ConfEntry){rq->conf[i]->key, rq->conf[i]->value};
    if (!take_faults(j, kv, &nconf, err, errlen)) {
        status = GRPC_INVALID_ARGUMENT;
        goto out;
    }
    fault_point(j, FAULT_AT_START);
    if ((status = apply_catalog(c, s, jr, rq->catalog, NULL, err, errlen)) != GRPC_OK) goto out;
    if (!apply_conf(s, jr, kv, nconf, err, errlen)) {
        status = GRPC_INVALID_ARGUMENT;
        goto out;
    }
    CzRunOptions o;
    fill_run_options(c, &o);
    if (rq->trace_level != CATALYZER__V1__TRACE_LEVEL__TRACE_LEVEL_NONE) {
        o.trace = trace_hook;
        o.trace_ctx = c;
        o.trace_level = rq->trace_level == CATALYZER__V1__TRACE_LEVEL__TRACE_LEVEL_ALL ? CZ_TRACE_ALL : CZ_TRACE_EFFECTIVE;
        o.trace_plans = rq->trace_plans;
    }
    o.want_tree = !rq->omit_tree_string;
    if (rq->input_case == CATALYZER__V1__ANALYZE_REQUEST__INPUT_SQL) {
        const Catalyzer__V1__SqlQuery *q = rq->sql;
        const char **pn = calloc(q->n_named_params + 1, sizeof *pn), **pv = calloc(q->n_named_params + 1, sizeof *pv);
        for (size_t i = 0; i < q->n_named_params; i++) {
            pn[i] = q->named_params[i]->key;
            pv[i] = q->named_params[i]->value;
        }
        o.nnamed_params = (int)q->n_named_params;
        o.param_names = pn;
        o.param_values_sql = pv;
        o.npos_params = (int)q->n_positional_params;
        o.pos_params_sql = (const char *const *)q->positional_params;
        if (!fault_point(j, FAULT_AT_ANALYZE)) r = cz_result_prepare();
        else if (rq->parse_only) r = cz_parse_sql(s, q->query, strlen(q->query), &o);
        else {
            r = cz_run_sql(s, q->query, strlen(q->query), &o);
            if (cz_result_status(r) == CZ_OK && cz_result_is_command(r)) journal_sql(jr, q->query, strlen(q->query), &o);
        }
        free(pn);
        free(pv);
    } else if (rq->input_case == CATALYZER__V1__ANALYZE_REQUEST__INPUT_PLAN) {
        r = cz_result_prepare();
        DecodeLimits lim = {j->srv->cfg.max_plan_depth, j->srv->cfg.max_plan_nodes};
        const char *ansi = cz_session_get_conf(s, "spark.sql.ansi.enabled");
        DecodeOptions dopt = {.ansi = !ansi || strcasecmp(ansi, "false") != 0,
                              .time_zone = cz_session_get_conf(s, "spark.sql.session.timeZone")};
        DecodeResult dr;
        Node *plan = plan_decode(cz_result_arena(r), rq->plan, &lim, &dopt, &dr);
        if (!plan) {
            snprintf(err, errlen, "%s", dr.message);
            status = dr.status == DECODE_UNSUPPORTED ? GRPC_UNIMPLEMENTED : GRPC_INVALID_ARGUMENT;
            goto out;
        }
        if (fault_point(j, FAULT_AT_ANALYZE)) cz_run_plan(s, r, plan, NULL, &o);
    } else {
        snprintf(err, errlen, "AnalyzeRequest needs sql or plan");
        status = GRPC_INVALID_ARGUMENT;
        goto out;
    }
    if ((status = run_status(j)) != GRPC_OK) {
        snprintf(err, errlen, "%s", status == GRPC_DEADLINE_EXCEEDED ? "deadline exceeded" : "cancelled");
        goto out;
    }
    Catalyzer__V1__AnalyzeResponse resp = CATALYZER__V1__ANALYZE_RESPONSE__INIT;
    resp.kind_case = CATALYZER__V1__ANALYZE_RESPONSE__KIND_RESULT;
    resp.result = make_result(c, r, 0, rq->omit_resolved_plan ? PLAN_NONE : rq->plan_details ? PLAN_DETAILED : PLAN_PLAIN);
    if (!fault_point(j, FAULT_AT_RESPOND)) {
        status = run_status(j) == GRPC_OK ? GRPC_CANCELLED : run_status(j);
        snprintf(err, errlen, "%s", status == GRPC_DEADLINE_EXCEEDED ? "deadline exceeded" : "cancelled");
        goto out;
    }
    resp.session_id = j->session_id;
    resp.server_session_id = (char *)S(c->server_session_id);
    resp.request_id = j->request_id;
    if (!send_msg(c, &resp.base, "traceEvents")) {
        status = run_status(j) == GRPC_OK ? GRPC_CANCELLED : run_status(j);
        snprintf(err, errlen, "cancelled");
    }
out:
    if (r) cz_result_free(r);
    free(kv);
    if (temp) cz_session_free(s);
    return status;
}

typedef struct Stmts {
    size_t n, cap;
    size_t *off, *len;
} Stmts;

static void on_stmt(void *ctx, const char *stmt, size_t len, size_t offset) {
    (void)stmt;
    Stmts *st = ctx;
    if (st->n == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 8;
        st->off = realloc(st->off, st->cap * sizeof *st->off);
        st->len = realloc(st->len, st->cap * sizeof *st->len);
    }
    st->off[st->n] = offset;
    st->len[st->n] = len;
    st->n++;
}

static int do_execute(Rpc *c, Catalyzer__V1__ExecuteRequest *rq, char *err, size_t errlen) {
    Job *j = c->j;
    Arena *a = c->a;
    bool temp;
    CzSession *s = session_for(j, &temp);
    if (!s) {
        snprintf(err, errlen, "cannot create a session");
        return GRPC_INTERNAL;
    }
    int status = GRPC_OK;
    Stmts st = {0};
    CzResult **rs = NULL;
    ConfEntry *kv = calloc(rq->n_conf + 1, sizeof *kv);
    Buf *jr = temp ? NULL : j->journal;
    size_t nconf = rq->n_conf;
    for (size_t i = 0; i < rq->n_conf; i++) kv[i] = (ConfEntry){rq->conf[i]->key, rq->conf[i]->value};
    if (!take_faults(j, kv, &nconf, err, errlen)) {
        status = GRPC_INVALID_ARGUMENT;
        goto out;
    }
    fault_point(j, FAULT_AT_START);
    if ((status = apply_catalog(c, s, jr, rq->catalog, NULL, err, errlen)) != GRPC_OK) goto out;
    if (!apply_conf(s, jr, kv, nconf, err, errlen)) {
        status = GRPC_INVALID_ARGUMENT;
        goto out;
    }
    cz_split_statements(rq->sql, strlen(rq->sql), on_stmt, &st);
    if (st.n == 0) {
        snprintf(err, errlen, "ExecuteRequest.sql has no statement");
        status = GRPC_INVALID_ARGUMENT;
        goto out;
    }
    rs = calloc(st.n, sizeof *rs);
    Catalyzer__V1__ExecuteResponse resp = CATALYZER__V1__EXECUTE_RESPONSE__INIT;
    resp.results = ARENA_ARRAY(a, Catalyzer__V1__AnalyzeResult *, st.n);
    const char **pn = calloc(rq->n_named_params + 1, sizeof *pn), **pv = calloc(rq->n_named_params + 1, sizeof *pv);
    for (size_t i = 0; i < rq->n_named_params; i++) {
        pn[i] = rq->named_params[i]->key;
        pv[i] = rq->named_params[i]->value;
    }
    for (size_t i = 0; i < st.n; i++) {
        CzRunOptions o;
        fill_run_options(c, &o);
        o.want_tree = true;
        o.nnamed_params = (int)rq->n_named_params;
        o.param_names = pn;
        o.param_values_sql = pv;
        o.npos_params = (int)rq->n_positional_params;
        o.pos_params_sql = (const char *const *)rq->positional_params;
        if (!fault_point(j, FAULT_AT_ANALYZE)) break;
        rs[i] = cz_run_sql(s, rq->sql + st.off[i], st.len[i], &o);
        if (cz_result_status(rs[i]) == CZ_OK && cz_result_is_command(rs[i]))
            journal_sql(jr, rq->sql + st.off[i], st.len[i], &o);
        resp.results[resp.n_results++] = make_result(c, rs[i], (int)i, PLAN_NONE);
        if (cz_result_status(rs[i]) != CZ_OK || run_status(j) != GRPC_OK) break;
    }
    free(pn);
    free(pv);
    if ((status = run_status(j)) != GRPC_OK) {
        snprintf(err, errlen, "%s", status == GRPC_DEADLINE_EXCEEDED ? "deadline exceeded" : "cancelled");
        goto out;
    }
    if (!fault_point(j, FAULT_AT_RESPOND)) {
        status = run_status(j) == GRPC_OK ? GRPC_CANCELLED : run_status(j);
        snprintf(err, errlen, "%s", status == GRPC_DEADLINE_EXCEEDED ? "deadline exceeded" : "cancelled");
        goto out;
    }
    resp.session_id = j->session_id;
    resp.server_session_id = (char *)S(c->server_session_id);
    resp.request_id = j->request_id;
    if (!send_msg(c, &resp.base, NULL)) status = GRPC_CANCELLED;
out:
    if (rs)
        for (size_t i = 0; i < st.n; i++)
            if (rs[i]) cz_result_free(rs[i]);
    free(rs);
    free(st.off);
    free(st.len);
    free(kv);
    if (temp) cz_session_free(s);
    return status;
}

static int do_register(Rpc *c, Catalyzer__V1__RegisterCatalogRequest *rq, char *err, size_t errlen) {
    Job *j = c->j;
    if (!j->session) {
        snprintf(err, errlen, "RegisterCatalog needs a session_id");
        return GRPC_INVALID_ARGUMENT;
    }
    int counts[3] = {0, 0, 0};
    int st = apply_catalog(c, j->session->cz, j->journal, rq->catalog, counts, err, errlen);
    if (st != GRPC_OK) return st;
    Catalyzer__V1__RegisterCatalogResponse resp = CATALYZER__V1__REGISTER_CATALOG_RESPONSE__INIT;
    resp.session_id = j->session_id;
    resp.server_session_id = (char *)S(c->server_session_id);
    resp.tables = counts[0];
    resp.views = counts[1];
    resp.functions = counts[2];
    return send_msg(c, &resp.base, NULL) ? GRPC_OK : GRPC_CANCELLED;
}

static int do_list_functions(Rpc *c) {
    static const char *const KINDS[] = {"scalar", "aggregate", "window", "generator"};
    const char *const *names;
    int n = func_builtin_names(&names);
    Catalyzer__V1__FunctionInfo **fs = arena_alloc(c->a, sizeof(*fs) * (size_t)(n ? n : 1));
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        const FuncDef *d = func_lookup_builtin(names[i]);
        if (!d) continue;
        Catalyzer__V1__FunctionInfo *f = arena_alloc(c->a, sizeof *f);
        catalyzer__v1__function_info__init(f);
        f->name = (char *)names[i];
        f->family = (char *)func_family(d);
        f->kind = (char *)KINDS[func_kind(d)];
        fs[k++] = f;
    }
    Catalyzer__V1__ListFunctionsResponse resp = CATALYZER__V1__LIST_FUNCTIONS_RESPONSE__INIT;
    resp.n_functions = k;
    resp.functions = fs;
    return send_msg(c, &resp.base, NULL) ? GRPC_OK : GRPC_CANCELLED;
}

/* InvalidateTable: this worker's copies go now; cz_catalogs' hook tells the
 * loop, which tells the other workers (worker_main.c, workers.c). */
static int do_invalidate(Rpc *c, Catalyzer__V1__InvalidateTableRequest *rq, char *err, size_t errlen) {
    if (!rq->catalog || !rq->catalog[0]) {
        snprintf(err, errlen, "InvalidateTable needs a catalog");
        return GRPC_INVALID_ARGUMENT;
    }
    if (!rq->table || !rq->table[0]) {
        if (rq->n_namespace_) {
            snprintf(err, errlen, "InvalidateTable: a namespace without a table (leave both empty for every table of the catalog)");
            return GRPC_INVALID_ARGUMENT;
        }
    }
    Catalyzer__V1__InvalidateTableResponse resp = CATALYZER__V1__INVALIDATE_TABLE_RESPONSE__INIT;
    struct CzCatalogs *cats = c->j->srv->catalogs;
    if (cats)
        resp.dropped = (uint32_t)cz_catalogs_invalidate(cats, rq->catalog, (int)rq->n_namespace_,
                                                        (const char *const *)rq->namespace_,
                                                        rq->table && rq->table[0] ? rq->table : NULL, true);
    return send_msg(c, &resp.base, NULL) ? GRPC_OK : GRPC_CANCELLED;
}

static int do_drop(Rpc *c) {
    /* The loop unlinks the session once this job completes (server.c). */
    Catalyzer__V1__DropSessionResponse resp = CATALYZER__V1__DROP_SESSION_RESPONSE__INIT;
    resp.existed = c->j->session != NULL;
    return send_msg(c, &resp.base, NULL) ? GRPC_OK : GRPC_CANCELLED;
}

/* Every failed call carries a google.rpc.Status with ErrorInfo, as Spark
 * Connect's do: the exception a Spark server would report for the status. */
static void attach_status_details(Job *j, int status, const char *msg) {
    if (status == GRPC_CANCELLED || status == GRPC_DEADLINE_EXCEEDED) return;
    RichError re = {0};
    re.kind = status == GRPC_INVALID_ARGUMENT ? EXC_INVALID_PLAN
              : status == GRPC_UNIMPLEMENTED  ? EXC_UNSUPPORTED
                                              : EXC_INTERNAL;
    size_t n = 0;
    uint8_t *det = rich_status_pack(status, msg, &re, &n);
    if (det) job_set_status_details(j, det, n);
}

void rpc_run(Job *j) {
    char err[512] = "";
    int status = run_status(j);
    if (status != GRPC_OK) {
        job_finish(j, status, status == GRPC_DEADLINE_EXCEEDED ? "deadline exceeded while queued" : "cancelled");
        return;
    }
    Rpc c = {j, arena_new(0), NULL, 0, false, j->session ? j->session->server_id : NULL};
    if (j->fmt == JOB_JSON) c.json_events = json_array();
    ProtobufCMessage *rq = NULL;
    status = decode_request(&c, &rq, err, sizeof err);
    if (status == GRPC_OK && rpc_is_connect(j->method)) {
        status = connect_rpc_run(j, rq, c.a, err, sizeof err);
    } else if (status == GRPC_OK) {
        switch (j->method) {
        case RPC_ANALYZE: status = do_analyze(&c, (Catalyzer__V1__AnalyzeRequest *)rq, err, sizeof err); break;
        case RPC_EXECUTE: status = do_execute(&c, (Catalyzer__V1__ExecuteRequest *)rq, err, sizeof err); break;
        case RPC_REGISTER_CATALOG:
            status = do_register(&c, (Catalyzer__V1__RegisterCatalogRequest *)rq, err, sizeof err);
            break;
        case RPC_DROP_SESSION: status = do_drop(&c); break;
        case RPC_LIST_FUNCTIONS: status = do_list_functions(&c); break;
        case RPC_INVALIDATE_TABLE:
            status = do_invalidate(&c, (Catalyzer__V1__InvalidateTableRequest *)rq, err, sizeof err);
            break;
        default:
            status = GRPC_UNIMPLEMENTED;
            snprintf(err, sizeof err, "method not implemented");
        }
    } else {
        metrics_bad_input(&j->srv->metrics);
    }
    if (status != GRPC_OK && !j->status_details) attach_status_details(j, status, err);
    if (rq) protobuf_c_message_free_unpacked(rq, NULL);
    json_decref(c.json_events);
    arena_free(c.a);
    job_finish(j, status, status == GRPC_OK ? "" : err);
}
