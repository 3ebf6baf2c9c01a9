/* gRPC over HTTP/2 cleartext on nghttp2 (1.52, non-"2" APIs), driven by the
 * server's libuv loop. One H2Conn per TCP connection, one H2Call per stream.
 *
 * A call becomes a Job once its request is complete: the worker's output is
 * pulled by nghttp2's data callback only as flow control allows (unsent
 * output stays bounded in the job). Errors found before a job exists are
 * answered Trailers-Only. Follows gRPC's doc/PROTOCOL-HTTP2.md. */
#include <nghttp2/nghttp2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "grpc_codec.h"
#include "grpc_methods.h"
#include "health.pb-c.h"
#include "connect_service.h"
#include "grpc_compress.h"
#include "reflection.h"
#include "log.h"
#include "pb_json.h"
#include "rpc.h"

enum { WRITE_HIGH_WATER = 1 << 20 }; /* stop producing frames while this much is unsent on the socket */

typedef struct H2Conn H2Conn;

typedef struct H2Call {
    H2Conn *conn;
    int32_t stream_id;
    RpcMethod method;
    bool known_method, is_post, ct_ok, has_ct, bad_timeout, unknown_path;
    GrpcEncoding encoding;  /* grpc-encoding of the request messages */
    uint8_t accept_mask;    /* 1 << GrpcEncoding for each encoding grpc-accept-encoding names */
    int traceparents;       /* traceparent headers seen (more than one: ignored, as the spec says) */
    bool streaming;         /* a bidi call served as its messages arrive (reflection) */
    bool ended;             /* the client half-closed (END_STREAM seen) */
    uint8_t *inflated;      /* the decompressed request message, malloc'ed */
    int authz_headers;     /* authorization headers seen (more than one: refused) */
    const char *principal; /* who calls (conn_principal); NULL: unauthenticated */
    int64_t timeout_ns;
    size_t header_bytes;
    char path[160];
    uint8_t *body;
    size_t body_len, body_cap;
    bool too_large;
    Job *job;              /* the call's reference */
    bool responded;        /* response HEADERS submitted */
    bool finished;         /* trailers (or Trailers-Only) submitted */
    bool forced;           /* loop decided the status (deadline, drain) */
    int forced_status;
    char forced_msg[256];
    bool recorded;
    uv_timer_t *deadline;
    char request_id[REQUEST_ID_MAX + 1]; /* the client's x-request-id, or one made here */
    bool client_request_id;
    TraceContext trace;
    uint64_t start_ns;
    int watch_sent;        /* health Watch: last status sent, -1 none */
    GrpcFrameCounter sent_frames; /* response messages, for grpc_server_msg_sent_total */
    bool service_unknown;  /* health Watch of a service we do not serve */
    struct H2Call *wnext, *wprev;
    struct H2Call *cnext, *cprev; /* the connection's calls */
} H2Call;

struct H2Conn {
    ConnHead head;
    nghttp2_session *ng;
    size_t pending_write; /* bytes handed to uv_write, not yet written */
    uint32_t ncalls;
    H2Call *calls;        /* nghttp2_session_del does not report stream closes: we free these */
    bool goaway_sent;
    bool in_flush;
    bool want_close;      /* close once the pending writes are out */
};

typedef struct WriteReq {
    uv_write_t req;
    size_t len;
    uint8_t data[];
} WriteReq;

static void h2_flush(H2Conn *c);
static void h2_close(ConnHead *ch);
static void really_close(H2Conn *c);

/* ---------------------------------------------------------------- watchers (health) */

static void watch_link(Server *srv, H2Call *call) {
    H2Call *head = srv->watchers;
    call->wprev = NULL;
    call->wnext = head;
    if (head) head->wprev = call;
    srv->watchers = call;
}

static void watch_unlink(Server *srv, H2Call *call) {
    if (call->wprev)
        call->wprev->wnext = call->wnext;
    else if (srv->watchers == call)
        srv->watchers = call->wnext;
    if (call->wnext) call->wnext->wprev = call->wprev;
    call->wnext = call->wprev = NULL;
}

/* ---------------------------------------------------------------- responses */

#define NV(n, v) {(uint8_t *)(n), (uint8_t *)(v), sizeof(n) - 1, strlen(v), NGHTTP2_NV_FLAG_NONE}

static void record(H2Call *call, int status, const char *msg) {
    if (call->recorded) return;
    call->recorded = true;
    Server *srv = call->conn->head.srv;
    const char *cls = call->job ? call->job->error_class : NULL;
    server_record_traced(srv, call->known_method ? call->method : RPC_COUNT_, "grpc", call->request_id,
                         call->trace.valid ? &call->trace : NULL, call->job ? call->job->session_id : NULL, status, cls,
                         msg, call->start_ns);
}

/* grpc-status-details-bin: the serialised google.rpc.Status, base64 without
 * padding (gRPC's rule for binary headers). malloc'ed; NULL when none. */
static char *details_header(const uint8_t *details, size_t len) {
    if (!details || !len) return NULL;
    char *b = base64_encode(details, len);
    if (b) {
        size_t n = strlen(b);
        while (n && b[n - 1] == '=') b[--n] = '\0';
    }
    return b;
}

/* The response's x-request-id (always: the client's, or the one the daemon
 * made) and, for a traced request, traceresponse naming the daemon's span
 * (W3C Trace Context Level 2). tr holds the latter's value. Returns the count. */
static size_t correlation_headers(H2Call *call, nghttp2_nv *nva, char tr[56]) {
    size_t n = 0;
    nva[n++] = (nghttp2_nv)NV("x-request-id", call->request_id);
    if (call->trace.valid) {
        trace_format_child(&call->trace, tr);
        nva[n++] = (nghttp2_nv)NV("traceresponse", tr);
    }
    return n;
}

/* Trailers-Only: a single HEADERS frame with END_STREAM carrying the status
 * (and its google.rpc.Status details when there are some). */
static void trailers_only_details(H2Call *call, int status, const char *msg, const uint8_t *details, size_t dlen) {
    char code[8], enc[512];
    snprintf(code, sizeof code, "%d", status);
    grpc_percent_encode(msg, strlen(msg), enc, sizeof enc);
    char *det = details_header(details, dlen);
    nghttp2_nv nva[9] = {NV(":status", "200"), NV("content-type", "application/grpc"), NV("grpc-status", code)};
    size_t n = 3;
    char tr[56];
    n += correlation_headers(call, nva + n, tr);
    if (*enc) nva[n++] = (nghttp2_nv)NV("grpc-message", enc);
    if (det) nva[n++] = (nghttp2_nv)NV("grpc-status-details-bin", det);
    nva[n++] = (nghttp2_nv)NV("grpc-accept-encoding", GRPC_ACCEPT_ENCODING);
    nghttp2_submit_response(call->conn->ng, call->stream_id, nva, n, NULL);
    free(det); /* nghttp2 copies header values on submit */
    call->responded = call->finished = true;
    record(call, status, msg);
}

static void trailers_only(H2Call *call, int status, const char *msg) {
    const Job *j = call->job;
    bool own = j && j->done && j->status == status; /* the job's own outcome, with its details */
    trailers_only_details(call, status, msg, own ? j->status_details : NULL, own ? j->status_details_len : 0);
}

static void submit_trailers(H2Call *call, int status, const char *msg) {
    char code[8], enc[512];
    snprintf(code, sizeof code, "%d", status);
    grpc_percent_encode(msg, strlen(msg), enc, sizeof enc);
    const Job *j = call->job;
    bool own = j && !call->forced && j->status == status;
    char *det = own ? details_header(j->status_details, j->status_details_len) : NULL;
    nghttp2_nv nva[3] = {NV("grpc-status", code)};
    size_t n = 1;
    if (*enc) nva[n++] = (nghttp2_nv)NV("grpc-message", enc);
    if (det) nva[n++] = (nghttp2_nv)NV("grpc-status-details-bin", det);
    nghttp2_submit_trailer(call->conn->ng, call->stream_id, nva, n);
    free(det);
    call->finished = true;
    record(call, status, msg);
}

static ssize_t data_read(nghttp2_session *ng, int32_t sid, uint8_t *buf, size_t len, uint32_t *flags,
                         nghttp2_data_source *src, void *ud) {
    (void)ng;
    (void)sid;
    (void)ud;
    H2Call *call = src->ptr;
    if (call->forced) {
        *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
        submit_trailers(call, call->forced_status, call->forced_msg);
        return 0;
    }
    if (!call->job) return NGHTTP2_ERR_DEFERRED;
    bool eof;
    size_t n = job_take(call->job, buf, len, &eof);
    if (n && call->known_method)
        metrics_grpc_messages(&call->conn->head.srv->metrics, call->method, 0, grpc_frame_count(&call->sent_frames, buf, n));
    if (eof) {
        *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
        submit_trailers(call, call->job->status, call->job->status_msg);
        return (ssize_t)n;
    }
    return n ? (ssize_t)n : NGHTTP2_ERR_DEFERRED;
}

static void start_response(H2Call *call) {
    nghttp2_nv nva[7] = {NV(":status", "200"), NV("content-type", "application/grpc"),
                         NV("grpc-accept-encoding", GRPC_ACCEPT_ENCODING)};
    size_t n = 3;
    if (call->job && call->job->compress != GRPC_ENC_IDENTITY)
        nva[n++] = (nghttp2_nv)NV("grpc-encoding", grpc_encoding_name((GrpcEncoding)call->job->compress));
    char tr[56];
    n += correlation_headers(call, nva + n, tr);
    nghttp2_data_provider dp = {.source.ptr = call, .read_callback = data_read};
    nghttp2_submit_response(call->conn->ng, call->stream_id, nva, n, &dp);
    call->responded = true;
}

/* Loop: the job has new output or is done. */
void h2_job_output(Job *j) {
    H2Call *call = j->call;
    if (!call || call->finished) return;
    if (!call->responded) {
        if (job_is_done(j) && j->status != GRPC_OK && !job_has_output(j))
            trailers_only(call, j->status, j->status_msg);
        else
            start_response(call);
    } else {
        nghttp2_session_resume_data(call->conn->ng, call->stream_id);
    }
    h2_flush(call->conn);
}

/* The loop decides the outcome (deadline, drain, cancel) and drops the job's output. */
static void force_status(H2Call *call, int status, const char *msg) {
    if (call->finished) return;
    if (call->job) {
        job_cancel(call->job);
        call->job->call = NULL;
    }
    if (!call->responded) {
        trailers_only(call, status, msg);
    } else {
        call->forced = true;
        call->forced_status = status;
        snprintf(call->forced_msg, sizeof call->forced_msg, "%s", msg);
        nghttp2_session_resume_data(call->conn->ng, call->stream_id);
    }
    h2_flush(call->conn);
}

static void on_deadline(uv_timer_t *t) {
    H2Call *call = t->data;
    if (call) force_status(call, GRPC_DEADLINE_EXCEEDED, "deadline exceeded");
}

static void timer_closed(uv_handle_t *h) { free(h); }

static void call_free(H2Call *call) {
    Server *srv = call->conn->head.srv;
    if (call->deadline) {
        call->deadline->data = NULL;
        uv_timer_stop(call->deadline);
        uv_close((uv_handle_t *)call->deadline, timer_closed);
    }
    if (call->method == RPC_HEALTH_WATCH && call->known_method) watch_unlink(srv, call);
    if (!call->recorded) record(call, GRPC_CANCELLED, "cancelled by the client");
    if (call->job) {
        Job *j = call->job;
        j->call = NULL;
        if (!call->finished) job_cancel(j); /* RST_STREAM or connection loss */
        /* A loop-owned job (health Watch) has no worker to finish it. */
        if (j->loop_owned && !job_is_done(j)) job_finish(j, GRPC_CANCELLED, "cancelled");
        job_unref(j);
    }
    H2Conn *c = call->conn;
    c->head.last_active_ns = mono_ns();
    if (call->cprev)
        call->cprev->cnext = call->cnext;
    else
        c->calls = call->cnext;
    if (call->cnext) call->cnext->cprev = call->cprev;
    c->ncalls--;
    free(call->body);
    free(call->inflated);
    free(call);
}

/* ---------------------------------------------------------------- health */

static void health_send(H2Call *call) {
    Server *srv = call->conn->head.srv;
    Grpc__Health__V1__HealthCheckResponse r = GRPC__HEALTH__V1__HEALTH_CHECK_RESPONSE__INIT;
    r.status = call->service_unknown ? GRPC__HEALTH__V1__HEALTH_CHECK_RESPONSE__SERVING_STATUS__SERVICE_UNKNOWN
               : srv->serving        ? GRPC__HEALTH__V1__HEALTH_CHECK_RESPONSE__SERVING_STATUS__SERVING
                                     : GRPC__HEALTH__V1__HEALTH_CHECK_RESPONSE__SERVING_STATUS__NOT_SERVING;
    call->watch_sent = (int)r.status;
    job_emit_grpc(call->job, &r.base);
}

/* The daemon serves "" (overall), "catalyzer.v1.Analyzer" and "spark.connect.SparkConnectService". */
static bool health_service_known(const uint8_t *msg, size_t len, char *err, size_t errlen) {
    Grpc__Health__V1__HealthCheckRequest *rq = grpc__health__v1__health_check_request__unpack(NULL, len, msg);
    if (!rq) {
        snprintf(err, errlen, "malformed HealthCheckRequest");
        return false;
    }
    bool ok = !*rq->service || strcmp(rq->service, "catalyzer.v1.Analyzer") == 0 ||
              strcmp(rq->service, "spark.connect.SparkConnectService") == 0;
    if (!ok) snprintf(err, errlen, "unknown service");
    grpc__health__v1__health_check_request__free_unpacked(rq, NULL);
    return ok;
}

void h2_health_changed(Server *srv) {
    for (H2Call *c = srv->watchers, *n; c; c = n) {
        n = c->wnext;
        if (!c->job || c->finished) continue;
        health_send(c);
        if (srv->draining) job_finish(c->job, GRPC_UNAVAILABLE, "server shutting down");
        else server_notify(srv, c->job);
    }
}

/* ---------------------------------------------------------------- dispatch */

/* session_id is field 1 (string) of every Analyzer request: find it at the
 * top level of the wire without unpacking (the loop stays cheap). *out is
 * NULL when absent; the session-id rule is checked by server_session. */
static bool wire_session_id(const uint8_t *p, size_t len, const char **out, size_t *out_len) {
    size_t pos = 0;
    *out = NULL;
    *out_len = 0;
    while (pos < len) {
        uint64_t key = 0, v = 0;
        int shift = 0;
        do {
            if (pos >= len || shift > 63) return false;
            key |= (uint64_t)(p[pos] & 0x7f) << shift;
            shift += 7;
        } while (p[pos++] & 0x80);
        unsigned wt = key & 7;
        if (wt == 0) {
            do {
                if (pos >= len) return false;
            } while (p[pos++] & 0x80);
            continue;
        }
        if (wt == 1 || wt == 5) {
            size_t k = wt == 1 ? 8 : 4;
            if (len - pos < k) return false;
            pos += k;
            continue;
        }
        if (wt != 2) return false;
        shift = 0;
        do {
            if (pos >= len || shift > 63) return false;
            v |= (uint64_t)(p[pos] & 0x7f) << shift;
            shift += 7;
        } while (p[pos++] & 0x80);
        if (v > len - pos) return false;
        if ((key >> 3) == 1) { /* the last occurrence wins, as when unpacking */
            *out = (const char *)p + pos;
            *out_len = v;
        }
        pos += v;
    }
    return true;
}

/* Calls whose response waits on the client's flow-control window: output
 * queued and no window to send it in (their workers wait too). */
static uint32_t pinned_calls(H2Conn *c) {
    uint32_t n = 0;
    bool conn_closed = nghttp2_session_get_remote_window_size(c->ng) <= 0;
    for (H2Call *k = c->calls; k; k = k->cnext) {
        if (!k->job || k->job->loop_owned || k->finished || !job_has_output(k->job)) continue;
        if (conn_closed || nghttp2_session_get_stream_remote_window_size(c->ng, k->stream_id) <= 0) n++;
    }
    return n;
}

static void arm_deadline(H2Call *call) {
    if (call->timeout_ns <= 0 || call->deadline) return;
    call->deadline = malloc(sizeof(uv_timer_t));
    if (!call->deadline) return;
    uv_timer_init(call->conn->head.srv->loop, call->deadline);
    call->deadline->data = call;
    uint64_t ms = (uint64_t)(call->timeout_ns + 999999) / 1000000;
    uv_timer_start(call->deadline, on_deadline, ms, 0);
}

/* The responses are compressed as the request was when the client accepts
 * that encoding back (grpc-go's rule: the server answers in the caller's
 * compressor); otherwise identity. */
static uint8_t response_encoding(const H2Call *call) {
    return call->encoding != GRPC_ENC_IDENTITY && call->encoding != GRPC_ENC_UNKNOWN &&
                   (call->accept_mask & (1u << call->encoding))
               ? (uint8_t)call->encoding
               : (uint8_t)GRPC_ENC_IDENTITY;
}

/* A message with the Compressed-Flag: decompressed under grpc-encoding, at
 * most --max-message-bytes once decompressed. *msg then points into
 * call->inflated. A gRPC status: OK, INTERNAL (no encoding, or corrupt, as
 * gRPC's doc/compression.md says) or RESOURCE_EXHAUSTED. */
static int decompress(H2Call *call, const uint8_t **msg, uint32_t *mlen) {
    if (call->encoding == GRPC_ENC_IDENTITY || call->encoding == GRPC_ENC_UNKNOWN) return GRPC_INTERNAL;
    uint8_t *out;
    size_t n;
    GrpcInflateResult r = grpc_inflate((GrpcEncoding)call->encoding, *msg, *mlen,
                                       call->conn->head.srv->cfg.max_message_bytes, &out, &n);
    if (r == GRPC_INFLATE_TOO_LARGE) return GRPC_RESOURCE_EXHAUSTED;
    if (r != GRPC_INFLATE_OK) return r == GRPC_INFLATE_NOMEM ? GRPC_RESOURCE_EXHAUSTED : GRPC_INTERNAL;
    free(call->inflated);
    call->inflated = out;
    *msg = out;
    *mlen = (uint32_t)n;
    return GRPC_OK;
}

/* ---------------------------------------------------------------- reflection (bidi, on the loop) */

enum { REFLECTION_MAX_UNSENT = 8 << 20 }; /* a client that asks without reading is cut off past this */

/* Answers each whole request message buffered so far; at the client's
 * half-close, finishes OK. */
static void reflection_feed(H2Call *call) {
    Server *srv = call->conn->head.srv;
    Job *j = call->job;
    if (!j || call->finished || job_is_done(j)) return;
    if (call->too_large) {
        metrics_bad_input(&srv->metrics);
        return force_status(call, GRPC_RESOURCE_EXHAUSTED, "request message too large");
    }
    size_t off = 0;
    int st = GRPC_OK;
    const char *why = NULL;
    while (off < call->body_len) {
        const uint8_t *msg;
        uint32_t mlen;
        size_t used;
        GrpcFrameResult fr = grpc_frame_parse(call->body + off, call->body_len - off, srv->cfg.max_message_bytes, &msg,
                                              &mlen, &used);
        if (fr == GRPC_FRAME_NEED_MORE) break;
        if (fr == GRPC_FRAME_BAD_FLAG) st = GRPC_INTERNAL, why = "bad gRPC message flag";
        else if (fr == GRPC_FRAME_TOO_LARGE) st = GRPC_RESOURCE_EXHAUSTED, why = "request message too large";
        else if (fr == GRPC_FRAME_COMPRESSED && (st = decompress(call, &msg, &mlen)) != GRPC_OK)
            why = st == GRPC_RESOURCE_EXHAUSTED ? "request message too large once decompressed"
                                                : "request message does not decompress";
        if (st != GRPC_OK) break;
        off += used;
        metrics_grpc_messages(&srv->metrics, call->method, 1, 0);
        Grpc__Reflection__V1__ServerReflectionResponse *r = reflection_answer(msg, mlen);
        if (!r) {
            st = GRPC_INVALID_ARGUMENT, why = "malformed ServerReflectionRequest";
            break;
        }
        job_emit_grpc(j, &r->base);
        reflection_response_free(r);
        if (j->out_bytes > REFLECTION_MAX_UNSENT) {
            st = GRPC_RESOURCE_EXHAUSTED, why = "too many reflection answers unread";
            break;
        }
    }
    if (st != GRPC_OK) {
        metrics_bad_input(&srv->metrics);
        return force_status(call, st, why);
    }
    if (off) {
        memmove(call->body, call->body + off, call->body_len - off);
        call->body_len -= off;
    }
    if (call->ended) {
        if (call->body_len) return force_status(call, GRPC_INTERNAL, "truncated gRPC message");
        job_finish(j, GRPC_OK, "");
    }
    server_notify(srv, j);
}

static void reflection_start(H2Call *call) {
    Server *srv = call->conn->head.srv;
    Job *j = job_new(srv, call->method, JOB_GRPC);
    if (!j) return trailers_only(call, GRPC_RESOURCE_EXHAUSTED, "out of memory");
    j->loop_owned = true;
    j->call = call;
    j->on_output = h2_job_output;
    j->completed = false;
    job_ref(j); /* the "worker" reference, dropped at completion */
    snprintf(j->request_id, sizeof j->request_id, "%s", call->request_id);
    j->trace = call->trace;
    j->compress = response_encoding(call);
    j->start_ns = call->start_ns;
    call->job = j;
    call->streaming = true;
    arm_deadline(call);
    reflection_feed(call);
}

static void dispatch(H2Call *call) {
    H2Conn *c = call->conn;
    Server *srv = c->head.srv;
    if (!call->is_post) {
        nghttp2_nv nva[] = {NV(":status", "405")};
        nghttp2_submit_response(c->ng, call->stream_id, nva, 1, NULL);
        call->responded = call->finished = true;
        record(call, GRPC_UNIMPLEMENTED, "method not POST");
        return;
    }
    if (!call->ct_ok) { /* gRPC: HTTP 415 for a wrong content-type */
        nghttp2_nv nva[] = {NV(":status", "415"), NV("grpc-status", "3"),
                            NV("grpc-message", "content-type must be application/grpc")};
        nghttp2_submit_response(c->ng, call->stream_id, nva, 3, NULL);
        call->responded = call->finished = true;
        metrics_bad_input(&srv->metrics);
        record(call, GRPC_INVALID_ARGUMENT, "bad content-type");
        return;
    }
    /* Health stays open (probes carry no token); everything else, known
     * method or not, needs a caller, and learns nothing more without one. */
    bool health = call->known_method && (call->method == RPC_HEALTH_CHECK || call->method == RPC_HEALTH_WATCH);
    if (!health) {
        if (!call->authz_headers) call->principal = conn_principal(&c->head, NULL, 0);
        if (!call->principal || call->authz_headers > 1) {
            call->principal = NULL;
            return trailers_only(call, GRPC_UNAUTHENTICATED, "missing or invalid bearer token");
        }
    }
    if (!call->known_method) return trailers_only(call, GRPC_UNIMPLEMENTED, "unknown method");
    if (call->encoding == GRPC_ENC_UNKNOWN)
        return trailers_only(call, GRPC_UNIMPLEMENTED, "grpc-encoding not supported (identity, gzip and deflate are)");
    if (call->bad_timeout) return trailers_only(call, GRPC_INVALID_ARGUMENT, "malformed grpc-timeout");
    if (call->too_large) {
        metrics_bad_input(&srv->metrics);
        char m[128];
        snprintf(m, sizeof m, "request message larger than the maximum of %u bytes", srv->cfg.max_message_bytes);
        return trailers_only(call, GRPC_RESOURCE_EXHAUSTED, m);
    }
    if (srv->draining) return trailers_only(call, GRPC_UNAVAILABLE, "server shutting down");
    if (call->method == RPC_REFLECTION_V1 || call->method == RPC_REFLECTION_V1ALPHA) return reflection_start(call);
    const uint8_t *msg;
    uint32_t mlen;
    size_t used;
    GrpcFrameResult fr = grpc_frame_parse(call->body, call->body_len, srv->cfg.max_message_bytes, &msg, &mlen, &used);
    const char *bad = NULL;
    int bad_status = GRPC_INTERNAL;
    if (fr == GRPC_FRAME_COMPRESSED && used == call->body_len) {
        int st = decompress(call, &msg, &mlen);
        if (st != GRPC_OK) {
            metrics_bad_input(&srv->metrics);
            return trailers_only(call, st, st == GRPC_RESOURCE_EXHAUSTED ? "request message too large once decompressed"
                                           : call->encoding == GRPC_ENC_IDENTITY ? "compressed message without a grpc-encoding"
                                                                                  : "request message does not decompress");
        }
        fr = GRPC_FRAME_MESSAGE;
    }
    if (fr == GRPC_FRAME_NEED_MORE) bad = call->body_len ? "truncated gRPC message" : "missing request message";
    else if (fr == GRPC_FRAME_BAD_FLAG) bad = "bad gRPC message flag";
    else if (fr == GRPC_FRAME_TOO_LARGE) bad = "request message too large", bad_status = GRPC_RESOURCE_EXHAUSTED;
    else if (used != call->body_len || fr == GRPC_FRAME_COMPRESSED)
        bad = "unary call with more than one request message", bad_status = GRPC_UNIMPLEMENTED;
    if (bad) {
        metrics_bad_input(&srv->metrics);
        return trailers_only(call, bad_status, bad);
    }
    metrics_grpc_messages(&srv->metrics, call->method, 1, 0);
    if (call->method == RPC_HEALTH_CHECK || call->method == RPC_HEALTH_WATCH) {
        char err[128];
        if (!health_service_known(msg, mlen, err, sizeof err)) {
            bool unknown = strcmp(err, "unknown service") == 0;
            /* The health protocol: Check answers NOT_FOUND, Watch streams SERVICE_UNKNOWN. */
            if (!unknown || call->method == RPC_HEALTH_CHECK)
                return trailers_only(call, unknown ? GRPC_NOT_FOUND : GRPC_INVALID_ARGUMENT, err);
            call->service_unknown = true;
        }
        Job *j = job_new(srv, call->method, JOB_GRPC);
        j->loop_owned = true;
        j->call = call;
        j->on_output = h2_job_output;
        j->completed = false;
        job_ref(j); /* the "worker" reference, dropped at completion */
        snprintf(j->request_id, sizeof j->request_id, "%s", call->request_id);
        j->trace = call->trace;
        j->compress = response_encoding(call);
        call->job = j;
        health_send(call);
        if (call->method == RPC_HEALTH_CHECK)
            job_finish(j, GRPC_OK, "");
        else
            watch_link(srv, call);
        server_notify(srv, j);
        return;
    }
    /* A client that does not read its responses (an unopened flow-control
     * window) keeps their workers waiting: only so many such calls per connection. */
    uint32_t pinned = pinned_calls(call->conn);
    if (srv->cfg.max_pinned_calls && pinned >= srv->cfg.max_pinned_calls) {
        metrics_bad_input(&srv->metrics);
        char why[200];
        snprintf(why, sizeof why,
                 "%u call(s) on this connection wait for the client to read their responses (HTTP/2 flow control); "
                 "read them first (--max-pinned-calls %u)",
                 pinned, srv->cfg.max_pinned_calls);
        return trailers_only(call, GRPC_RESOURCE_EXHAUSTED, why);
    }
    /* No call outlives --max-timeout-ms, whatever grpc-timeout the client sent. */
    int64_t cap = (int64_t)srv->cfg.max_timeout_ms * 1000000;
    if (cap && (call->timeout_ns <= 0 || call->timeout_ns > cap)) call->timeout_ns = cap;
    Job *j = job_new(srv, call->method, JOB_GRPC);
    if (!j) return trailers_only(call, GRPC_RESOURCE_EXHAUSTED, "out of memory");
    snprintf(j->request_id, sizeof j->request_id, "%s", call->request_id);
    j->trace = call->trace;
    j->compress = response_encoding(call);
    j->start_ns = call->start_ns;
    if (call->timeout_ns > 0) j->deadline_ns = call->start_ns + (uint64_t)call->timeout_ns;
    const char *sid;
    size_t sid_len;
    if (!wire_session_id(msg, mlen, &sid, &sid_len)) {
        job_unref(j);
        metrics_bad_input(&srv->metrics);
        return trailers_only(call, GRPC_INVALID_ARGUMENT, "malformed request message");
    }
    if (rpc_is_connect(call->method)) {
        /* Spark Connect's session ids are UUIDs, checked before a session exists. */
        char id[SESSION_ID_MAX + 1], why[256];
        size_t n = sid_len < SESSION_ID_MAX ? sid_len : SESSION_ID_MAX;
        if (sid_len) memcpy(id, sid, n);
        id[n] = '\0';
        uint8_t *det = NULL;
        size_t dlen = 0;
        if (sid_len > SESSION_ID_MAX || !connect_session_id_check(id, why, sizeof why, &det, &dlen)) {
            job_unref(j);
            metrics_bad_input(&srv->metrics);
            if (!det) return trailers_only(call, GRPC_INVALID_ARGUMENT, SESSION_ID_RULE);
            trailers_only_details(call, GRPC_INTERNAL, why, det, dlen);
            free(det);
            return;
        }
    }
    if (sid && sid_len) {
        int st;
        bool create = call->method != RPC_DROP_SESSION && call->method != RPC_CONNECT_RELEASE_SESSION;
        j->session = server_session(srv, sid, sid_len, call->principal, create, &st);
        if (st != GRPC_OK) {
            job_unref(j);
            if (st == GRPC_INVALID_ARGUMENT) metrics_bad_input(&srv->metrics);
            return trailers_only(call, st, server_session_refusal(st));
        }
        memcpy(j->session_id, sid, sid_len);
        j->session_id[sid_len] = '\0';
    }
    j->req = malloc(mlen ? mlen : 1);
    memcpy(j->req, msg, mlen);
    j->req_len = mlen;
    j->call = call;
    j->on_output = h2_job_output;
    call->job = j;
    int st = server_submit(srv, j);
    if (st != GRPC_OK) {
        char why[sizeof j->status_msg];
        snprintf(why, sizeof why, "%s", server_submit_refusal(j, st));
        call->job = NULL;
        j->call = NULL;
        job_unref(j);
        return trailers_only(call, st, why);
    }
    arm_deadline(call);
}

/* ---------------------------------------------------------------- nghttp2 callbacks */

static int on_begin_headers(nghttp2_session *ng, const nghttp2_frame *f, void *ud) {
    H2Conn *c = ud;
    if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    H2Call *call = calloc(1, sizeof *call);
    if (!call) return NGHTTP2_ERR_CALLBACK_FAILURE;
    call->conn = c;
    call->stream_id = f->hd.stream_id;
    call->start_ns = mono_ns();
    c->head.last_active_ns = call->start_ns; /* a call, not a byte, is activity */
    call->watch_sent = -1;
    Server *srv = c->head.srv;
    if (srv->cfg.default_timeout_ms) call->timeout_ns = (int64_t)srv->cfg.default_timeout_ms * 1000000;
    server_next_request_id(srv, call->request_id, sizeof call->request_id);
    c->ncalls++;
    call->cnext = c->calls;
    if (c->calls) c->calls->cprev = call;
    c->calls = call;
    nghttp2_session_set_stream_user_data(ng, f->hd.stream_id, call);
    return 0;
}

static bool header_is(const uint8_t *n, size_t nl, const char *s) { return nl == strlen(s) && memcmp(n, s, nl) == 0; }

static int on_header(nghttp2_session *ng, const nghttp2_frame *f, const uint8_t *name, size_t nl, const uint8_t *value,
                     size_t vl, uint8_t flags, void *ud) {
    (void)flags;
    H2Conn *c = ud;
    if (f->hd.type != NGHTTP2_HEADERS) return 0;
    H2Call *call = nghttp2_session_get_stream_user_data(ng, f->hd.stream_id);
    if (!call) return 0;
    if (f->headers.cat != NGHTTP2_HCAT_REQUEST) return 0; /* request trailers: ignored */
    call->header_bytes += nl + vl + 32; /* RFC 7540 6.5.2's accounting */
    if (call->header_bytes > c->head.srv->cfg.max_header_list_bytes) {
        metrics_bad_input(&c->head.srv->metrics);
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE; /* resets this stream only */
    }
    if (header_is(name, nl, ":method")) {
        call->is_post = vl == 4 && memcmp(value, "POST", 4) == 0;
    } else if (header_is(name, nl, ":path")) {
        size_t k = vl < sizeof call->path - 1 ? vl : sizeof call->path - 1;
        memcpy(call->path, value, k);
        call->path[k] = '\0';
        RpcMethod m = grpc_method_by_path((const char *)value, vl);
        call->known_method = m != RPC_COUNT_;
        if (call->known_method) {
            call->method = m;
            metrics_grpc_started(&c->head.srv->metrics, m);
        }
    } else if (header_is(name, nl, "content-type")) {
        /* application/grpc, optionally +proto or ;params */
        call->has_ct = true;
        call->ct_ok = vl >= 16 && memcmp(value, "application/grpc", 16) == 0 &&
                      (vl == 16 || value[16] == '+' || value[16] == ';') &&
                      !(vl > 16 && value[16] == '+' && !(vl >= 22 && memcmp(value + 17, "proto", 5) == 0));
    } else if (header_is(name, nl, "grpc-timeout")) {
        int64_t ns;
        if (grpc_parse_timeout((const char *)value, vl, &ns))
            call->timeout_ns = ns > 0 ? ns : 1;
        else
            call->bad_timeout = true;
    } else if (header_is(name, nl, "grpc-encoding")) {
        call->encoding = grpc_encoding_parse((const char *)value, vl);
    } else if (header_is(name, nl, "grpc-accept-encoding")) {
        /* grpc-encoding may come after it: response_encoding() looks at both */
        for (int e = GRPC_ENC_GZIP; e <= GRPC_ENC_DEFLATE; e++)
            if (grpc_accept_has((const char *)value, vl, (GrpcEncoding)e)) call->accept_mask |= (uint8_t)(1u << e);
    } else if (header_is(name, nl, "x-request-id")) {
        if (!call->client_request_id && request_id_valid((const char *)value, vl)) {
            memcpy(call->request_id, value, vl);
            call->request_id[vl] = '\0';
            call->client_request_id = true;
        }
    } else if (header_is(name, nl, "traceparent")) {
        if (++call->traceparents == 1) trace_parse(&call->trace, (const char *)value, vl);
        else call->trace.valid = false; /* two: which one? neither */
    } else if (header_is(name, nl, "authorization")) {
        call->authz_headers++;
        call->principal = conn_principal(&c->head, (const char *)value, vl);
    }
    return 0;
}

static int on_data_chunk(nghttp2_session *ng, uint8_t flags, int32_t sid, const uint8_t *data, size_t len, void *ud) {
    (void)flags;
    H2Conn *c = ud;
    H2Call *call = nghttp2_session_get_stream_user_data(ng, sid);
    if (!call || call->too_large || (call->job && !call->streaming) || call->finished) return 0;
    size_t max = (size_t)c->head.srv->cfg.max_message_bytes + 5;
    if (call->body_len + len > max) {
        /* Oversize: stop buffering; the answer goes out at END_STREAM (or now, if the client keeps sending). */
        call->too_large = true;
        free(call->body);
        call->body = NULL;
        call->body_len = call->body_cap = 0;
        return 0;
    }
    if (call->body_len + len > call->body_cap) {
        size_t nc = call->body_cap ? call->body_cap : 1024;
        while (nc < call->body_len + len) nc *= 2;
        if (nc > max) nc = max;
        uint8_t *nb = realloc(call->body, nc);
        if (!nb) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
        call->body = nb;
        call->body_cap = nc;
    }
    memcpy(call->body + call->body_len, data, len);
    call->body_len += len;
    return 0;
}

static int on_frame_recv(nghttp2_session *ng, const nghttp2_frame *f, void *ud) {
    (void)ud;
    if (f->hd.type != NGHTTP2_HEADERS && f->hd.type != NGHTTP2_DATA) return 0;
    H2Call *call = nghttp2_session_get_stream_user_data(ng, f->hd.stream_id);
    if (!call || call->finished) return 0;
    if (f->hd.flags & NGHTTP2_FLAG_END_STREAM) call->ended = true;
    if (call->streaming) {
        reflection_feed(call);
        return 0;
    }
    if (call->responded) return 0;
    if (call->ended) {
        dispatch(call);
    } else if (f->hd.type == NGHTTP2_HEADERS && call->known_method &&
               (call->method == RPC_REFLECTION_V1 || call->method == RPC_REFLECTION_V1ALPHA)) {
        dispatch(call); /* bidi: served as the messages come */
    } else if (call->too_large) {
        /* Answer at once; the rest of the oversize body is read and dropped
         * (an early RST_STREAM would race the trailers in some clients). */
        dispatch(call);
    }
    return 0;
}

static int on_stream_close(nghttp2_session *ng, int32_t sid, uint32_t err, void *ud) {
    (void)err;
    (void)ud;
    H2Call *call = nghttp2_session_get_stream_user_data(ng, sid);
    if (call) {
        nghttp2_session_set_stream_user_data(ng, sid, NULL);
        call_free(call);
        server_drain_check(((H2Conn *)ud)->head.srv);
    }
    return 0;
}

/* Debug aid: what the peer did wrong, and which streams we reset. */
static int on_invalid_frame(nghttp2_session *ng, const nghttp2_frame *f, int err, void *ud) {
    (void)ng;
    H2Conn *c = ud;
    log_json(c->head.srv->cfg.log_level, LOG_DEBUG, "http2 invalid frame",
             json_pack("{s:i,s:i,s:s}", "type", f->hd.type, "stream_id", f->hd.stream_id, "error", nghttp2_strerror(err)));
    return 0;
}

static int on_frame_send(nghttp2_session *ng, const nghttp2_frame *f, void *ud) {
    (void)ng;
    H2Conn *c = ud;
    if (f->hd.type == NGHTTP2_RST_STREAM || f->hd.type == NGHTTP2_GOAWAY)
        log_json(c->head.srv->cfg.log_level,
                 f->hd.type == NGHTTP2_GOAWAY && f->goaway.error_code != NGHTTP2_NO_ERROR ? LOG_WARN : LOG_DEBUG, f->hd.type == NGHTTP2_GOAWAY ? "http2 goaway sent" : "http2 reset sent",
                 json_pack("{s:i,s:i}", "stream_id", f->hd.stream_id, "error_code",
                           (int)(f->hd.type == NGHTTP2_GOAWAY ? f->goaway.error_code : f->rst_stream.error_code)));
    return 0;
}

/* ---------------------------------------------------------------- I/O */

static void on_write(uv_write_t *req, int status) {
    WriteReq *w = (WriteReq *)req;
    H2Conn *c = req->data;
    c->pending_write -= w->len;
    free(w);
    if (c->head.closing) return;
    if (status < 0) {
        really_close(c);
        return;
    }
    if (c->want_close && c->pending_write == 0) {
        really_close(c);
        return;
    }
    if (c->pending_write < WRITE_HIGH_WATER / 2) h2_flush(c);
}

static void h2_flush(H2Conn *c) {
    if (c->head.closing || c->in_flush) return;
    c->in_flush = true;
    /* Gather what nghttp2 has to send into one write request. */
    while (c->pending_write < WRITE_HIGH_WATER) {
        size_t cap = 65536, len = 0;
        WriteReq *w = malloc(sizeof *w + cap);
        if (!w) break;
        for (;;) {
            const uint8_t *data;
            ssize_t n = nghttp2_session_mem_send(c->ng, &data);
            if (n < 0) {
                free(w);
                c->in_flush = false;
                really_close(c);
                return;
            }
            if (n == 0) break;
            if (len + (size_t)n > cap) {
                cap = (len + (size_t)n) * 2;
                WriteReq *nw = realloc(w, sizeof *w + cap);
                if (!nw) break;
                w = nw;
            }
            memcpy(w->data + len, data, (size_t)n);
            len += (size_t)n;
            if (len >= 65536) break;
        }
        if (len == 0) {
            free(w);
            break;
        }
        /* Nothing in flight: the socket usually takes it all at once. */
        size_t sent = 0;
        if (c->pending_write == 0) {
            uv_buf_t b = uv_buf_init((char *)w->data, (unsigned)len);
            int k = conn_try_write(&c->head, &b);
            if (k < 0) {
                free(w);
                c->in_flush = false;
                really_close(c);
                return;
            }
            sent = (size_t)k;
            if (sent == len) {
                free(w);
                continue;
            }
        }
        len -= sent;
        w->len = len;
        w->req.data = c;
        uv_buf_t b = uv_buf_init((char *)w->data + sent, (unsigned)len);
        c->pending_write += len;
        if (conn_write(&c->head, &w->req, &b, 1, on_write) != 0) {
            c->pending_write -= len;
            free(w);
            c->in_flush = false;
            really_close(c);
            return;
        }
    }
    c->in_flush = false;
    if (!nghttp2_session_want_read(c->ng) && !nghttp2_session_want_write(c->ng)) c->want_close = true;
    if (c->want_close && c->pending_write == 0) really_close(c);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    (void)suggested;
    H2Conn *c = h->data;
    *buf = uv_buf_init(c->head.srv->rbuf, sizeof c->head.srv->rbuf); /* consumed synchronously in on_read */
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
    H2Conn *c = s->data;
    if (n < 0) {
        really_close(c); /* peer gone: nothing more can be delivered */
        return;
    }
    if (n == 0) return;
    ssize_t rc = nghttp2_session_mem_recv(c->ng, (const uint8_t *)buf->base, (size_t)n);
    if (rc < 0) {
        /* Protocol abuse (bad preface, flood, ...): nghttp2 queued a GOAWAY; send it and close. */
        log_json(c->head.srv->cfg.log_level, LOG_WARN, "http2 protocol error",
                 json_pack("{s:s}", "error", nghttp2_strerror((int)rc)));
        metrics_bad_input(&c->head.srv->metrics);
        nghttp2_session_terminate_session(c->ng, NGHTTP2_PROTOCOL_ERROR);
        c->want_close = true; /* after the GOAWAY is written */
        h2_flush(c);
        return;
    }
    h2_flush(c);
}

static void on_closed(uv_handle_t *h) {
    H2Conn *c = h->data;
    Server *srv = c->head.srv;
    while (c->calls) call_free(c->calls); /* streams still open: the peer is gone */
    nghttp2_session_del(c->ng);
    conn_unlink(srv, &c->head);
    free(c);
    server_drain_check(srv);
}

static void really_close(H2Conn *c) {
    if (c->head.closing) return;
    c->head.closing = true;
    conn_close(&c->head, on_closed);
}

/* Graceful: once what is queued has been written (a forced close, after the
 * drain timeout, does not wait). */
static void h2_close(ConnHead *ch) {
    H2Conn *c = (H2Conn *)ch;
    c->want_close = true;
    if (ch->force_close || (!c->in_flush && c->pending_write == 0)) really_close(c);
}

static void h2_drain(ConnHead *ch) {
    H2Conn *c = (H2Conn *)ch;
    if (c->goaway_sent || ch->closing) return;
    c->goaway_sent = true;
    nghttp2_submit_goaway(c->ng, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(c->ng), NGHTTP2_NO_ERROR,
                          NULL, 0);
    /* An open reflection stream waits on its client, not on work: ended now
     * (like health watches) so that it does not hold the drain up. */
    for (H2Call *call = c->calls, *next; call; call = next) {
        next = call->cnext;
        if (call->streaming) force_status(call, GRPC_UNAVAILABLE, "server shutting down");
    }
    h2_flush(c);
}

static bool h2_idle(const ConnHead *ch) { return ((const H2Conn *)ch)->ncalls == 0; }

static void h2_cancel_all(ConnHead *ch) {
    H2Conn *c = (H2Conn *)ch;
    if (ch->closing) return;
    for (H2Call *call = c->calls; call; call = call->cnext) force_status(call, GRPC_UNAVAILABLE, "server shutting down");
}

static const ConnOps H2_OPS = {h2_drain, h2_close, h2_idle, h2_cancel_all};

/* The connection's nghttp2 server session, its settings queued (tests/fuzz
 * feeds one bytes without a socket). False when out of memory. */
static bool h2_session_start(H2Conn *c) {
    Server *srv = c->head.srv;
    nghttp2_session_callbacks *cb;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, on_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data_chunk);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame_recv);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_stream_close);
    nghttp2_session_callbacks_set_on_invalid_frame_recv_callback(cb, on_invalid_frame);
    nghttp2_session_callbacks_set_on_frame_send_callback(cb, on_frame_send);
    nghttp2_option *opt;
    nghttp2_option_new(&opt);
    /* Hardening: bounded peer-announced concurrency and header sizes; the
     * built-in flood protections (outbound ACK queue, settings, reset rate,
     * CONTINUATION limit) stay at their defaults, i.e. on. */
    nghttp2_option_set_max_send_header_block_length(opt, 65536);
    nghttp2_option_set_max_deflate_dynamic_table_size(opt, 4096);
    nghttp2_option_set_max_outbound_ack(opt, 1000);
    nghttp2_option_set_max_settings(opt, 32);
    nghttp2_option_set_stream_reset_rate_limit(opt, 1000, 33); /* "rapid reset" (CVE-2023-44487) */
    nghttp2_option_set_max_continuations(opt, 8);              /* CONTINUATION flood (CVE-2024-28182) */
    int rc = nghttp2_session_server_new2(&c->ng, cb, c, opt);
    nghttp2_option_del(opt);
    nghttp2_session_callbacks_del(cb);
    if (rc != 0) return false;
    nghttp2_settings_entry iv[] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, srv->cfg.max_concurrent_streams},
        {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, srv->cfg.max_header_list_bytes},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 20},
    };
    nghttp2_submit_settings(c->ng, NGHTTP2_FLAG_NONE, iv, 3);
    /* Connection-level window to match the streams'. */
    nghttp2_session_set_local_window_size(c->ng, NGHTTP2_FLAG_NONE, 0, 4 << 20);
    return true;
}

void h2_on_connection(uv_stream_t *listener, int status) {
    Server *srv = listener->data;
    if (status < 0) return;
    H2Conn *c = calloc(1, sizeof *c);
    if (!c) return;
    c->head.ops = &H2_OPS;
    uv_tcp_init(srv->loop, &c->head.tcp);
    c->head.tcp.data = c;
    conn_link(srv, &c->head);
    if (uv_accept(listener, (uv_stream_t *)&c->head.tcp) != 0 || server_conn_over_limit(srv, &c->head) ||
        srv->draining) {
        really_close(c);
        return;
    }
    uv_tcp_nodelay(&c->head.tcp, 1);
    if (srv->tls_grpc && !conn_start_tls(&c->head, srv->tls_grpc)) {
        really_close(c);
        return;
    }

    if (!h2_session_start(c)) {
        really_close(c);
        return;
    }
    conn_read_start(&c->head, on_alloc, on_read);
    h2_flush(c);
}
