/* The JSON debugging endpoint: HTTP/1.1 parsed by Debian's http-parser,
 * driven from the same libuv loop as gRPC.
 *
 *   POST /v1/analyze, /v1/execute, /v1/register-catalog, /v1/drop-session
 *        body: the proto3 JSON mapping of the request message (pb_json.h),
 *        or for analyze simply {"sql": "SELECT ..."}
 *   GET  /v1/analyze, /v1/list-functions: the read-only calls, the request
 *        in the query string (http_query.h)
 *   GET  /healthz   GET /metrics (Prometheus text)
 *   GET  / and /assets/NAME: the plan debugger page (http_static.h)
 *   OPTIONS: CORS preflight for the origins of --http-cors (cors.h)
 *
 * One request at a time per connection: reading pauses while a job runs,
 * and pipelined bytes wait in the connection's buffer.
 *
 * Browsers are kept out unless invited (http_guard.h): every request needs
 * an allowed Host (no DNS rebinding) and, when it carries an Origin, the
 * endpoint's own or an allowed one (no cross-site calls); calls take
 * application/json only (a form post is never one). With
 * --auth-token-file everything but /healthz needs its bearer token. */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conn.h"
#include "cors.h"
#include "grpc_codec.h"
#include "grpc_compress.h"
#include "http_guard.h"
#include "http_query.h"
#include "http_static.h"
#include "log.h"
#include "pb_json.h"
#include "rpc.h"

typedef struct Http1Conn {
    ConnHead head;
    http_parser parser;
    char *url;               /* grows up to MAX_URL_BYTES (GET requests carry SQL) */
    size_t url_len, url_cap;
    bool url_too_long;
    char hdr_field[32];
    size_t hdr_field_len;
    bool in_ct;              /* the last header callback was a value */
    char ctype[64];
    char host[256];          /* Host header */
    char origin[256];        /* Origin header */
    char authz[1024];        /* Authorization header */
    size_t host_len, origin_len, authz_len;
    bool has_host, has_origin, has_authz, header_too_long;
    char if_none_match[128]; /* page assets' ETag revalidation */
    char acr_method[16];     /* Access-Control-Request-Method (preflight) */
    char acr_headers[256];   /* Access-Control-Request-Headers */
    char cors[512];          /* this response's CORS header lines; empty when none */
    bool expect_continue;    /* Expect: 100-continue (curl sends it for bodies over 1 KiB) */
    int64_t timeout_ns;      /* grpc-timeout header, as on the gRPC port; 0 none */
    bool wants_ndjson;       /* Accept: application/x-ndjson */
    bool streaming;          /* this response is chunked NDJSON, streamed as produced */
    bool chunk_started;      /* status line and headers written */
    size_t chunk_pending;    /* chunk bytes handed to uv_write, not yet written */
    char *body;
    size_t body_len, body_cap;
    bool too_large;
    bool complete;           /* a whole request is parsed, not yet answered */
    bool keep_alive;
    bool busy;               /* a job is running or a response is being written */
    bool drain;
    Job *job;
    RpcMethod method;
    char request_id[REQUEST_ID_MAX + 1];
    char rid_hdr[REQUEST_ID_MAX + 2]; /* the client's X-Request-Id (one past the maximum: too long is invalid) */
    char tp_hdr[128];        /* the client's traceparent */
    char accept_enc[128];    /* Accept-Encoding: a gzip'ed answer when it allows one */
    TraceContext trace;
    uint64_t start_ns;
    char *pending;           /* unparsed bytes received while busy */
    size_t pending_len;
} Http1Conn;

enum { MAX_URL_BYTES = 64 << 10 };

typedef struct WriteReq {
    uv_write_t req;
    size_t len;
    char data[];
} WriteReq;

static void h1_close(ConnHead *ch);
static void h1_resume(Http1Conn *c);
static void on_written(uv_write_t *req, int status);

static const http_parser_settings SETTINGS;

static int http_status_of(int grpc) {
    switch (grpc) {
    case GRPC_OK: return 200;
    case GRPC_INVALID_ARGUMENT:
    case GRPC_FAILED_PRECONDITION:
    case GRPC_OUT_OF_RANGE: return 400;
    case GRPC_NOT_FOUND: return 404;
    case GRPC_UNAUTHENTICATED: return 401;
    case GRPC_PERMISSION_DENIED: return 403;
    case GRPC_RESOURCE_EXHAUSTED: return 429;
    case GRPC_CANCELLED: return 499;
    case GRPC_UNIMPLEMENTED: return 501;
    case GRPC_UNAVAILABLE: return 503;
    case GRPC_DEADLINE_EXCEEDED: return 504;
    default: return 500;
    }
}

static const char *reason(int code) {
    switch (code) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Payload Too Large";
    case 204: return "No Content";
    case 304: return "Not Modified";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 429: return "Too Many Requests";
    case 499: return "Client Closed Request";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Internal Server Error";
    }
}

static void on_written(uv_write_t *req, int status) {
    (void)status;
    Http1Conn *c = req->data;
    free(req);
    c->busy = false;
    c->head.last_active_ns = mono_ns();
    if (c->head.closing) return; /* cancelled by uv_close: on_closed follows */
    if (!c->keep_alive || c->drain || c->head.srv->draining) {
        h1_close(&c->head);
        return;
    }
    h1_resume(c);
}

/* "X-Request-Id: ...\r\n", and for a traced request "traceresponse: ...\r\n". */
static const char *correlation_lines(const Http1Conn *c, char *buf, size_t cap) {
    int n = snprintf(buf, cap, "X-Request-Id: %s\r\n", c->request_id);
    if (c->trace.valid && n > 0 && (size_t)n < cap) {
        char tr[56];
        trace_format_child(&c->trace, tr);
        snprintf(buf + n, cap - (size_t)n, "traceresponse: %s\r\n", tr);
    }
    return buf;
}

/* Whether an Accept-Encoding value allows gzip (RFC 9110 12.5.3): "gzip" or
 * "x-gzip", else "*", with a q-value above 0. */
static bool accepts_gzip(const char *v) {
    int named = -1, star = -1; /* -1: not listed; 0: q=0; 1: acceptable */
    for (const char *p = v; *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',') p++;
        size_t n = strcspn(p, ","), name = strcspn(p, ";, \t");
        if (name > n) name = n;
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item - 1 ? n : sizeof item - 1), p);
        const char *q = strstr(item, "q=");
        int ok = !(q && strtod(q + 2, NULL) <= 0.0);
        if ((name == 4 && strncasecmp(p, "gzip", 4) == 0) || (name == 6 && strncasecmp(p, "x-gzip", 6) == 0))
            named = ok;
        else if (name == 1 && *p == '*')
            star = ok;
        p += n;
    }
    return named >= 0 ? named == 1 : star == 1;
}

/* JSON answers and /metrics are worth compressing; the page's assets keep
 * their strong ETags (one per representation) and go as they are. */
static bool compressible(const char *ctype) {
    return strncmp(ctype, "application/json", 16) == 0 || strncmp(ctype, "text/plain", 10) == 0;
}

enum { GZIP_MIN_BYTES = 1024 }; /* below this the gzip header and the CPU are not worth it */

/* extra: more header lines (CRLF-terminated) or NULL; head_only: HEAD or
 * 304, the Content-Length announced but no body sent. */
static void respond_full(Http1Conn *c, int code, const char *ctype, const char *extra, const char *body, size_t len,
                         bool head_only) {
    char head[2048];
    bool ka = c->keep_alive && !c->drain && !c->head.srv->draining;
    uint8_t *z = NULL;
    size_t zn = 0;
    /* eligible: the representation depends on Accept-Encoding (Vary says so either way) */
    bool eligible = code != 204 && code != 304 && len >= GZIP_MIN_BYTES && compressible(ctype);
    bool gz = eligible && !head_only && accepts_gzip(c->accept_enc) &&
              grpc_deflate(GRPC_ENC_GZIP, (const uint8_t *)body, len, &z, &zn) && zn < len;
    if (gz) {
        body = (const char *)z;
        len = zn;
    }
    char framing[200] = ""; /* a 204 has neither body nor Content-Length (RFC 9110 8.6) */
    if (code != 204)
        snprintf(framing, sizeof framing, "Content-Type: %s\r\nContent-Length: %zu\r\n%s", ctype, len,
                 gz ? "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n" : eligible ? "Vary: Accept-Encoding\r\n" : "");
    char corr[160];
    int hl = snprintf(head, sizeof head, "HTTP/1.1 %d %s\r\n%s%s%s%s%s\r\n", code, reason(code), framing,
                      correlation_lines(c, corr, sizeof corr), c->cors, extra ? extra : "", ka ? "" : "Connection: close\r\n");
    if (hl < 0 || (size_t)hl >= sizeof head) {
        free(z);
        h1_close(&c->head);
        return;
    }
    c->keep_alive = ka;
    if (head_only) len = 0;
    WriteReq *w = malloc(sizeof *w + (size_t)hl + len);
    if (!w) {
        free(z);
        h1_close(&c->head);
        return;
    }
    memcpy(w->data, head, (size_t)hl);
    if (len) memcpy(w->data + hl, body, len);
    free(z);
    w->len = (size_t)hl + len;
    w->req.data = c;
    c->busy = true;
    c->complete = false;
    uv_buf_t b = uv_buf_init(w->data, (unsigned)w->len);
    if (conn_write(&c->head, &w->req, &b, 1, on_written) != 0) {
        free(w);
        c->busy = false;
        h1_close(&c->head);
    }
}

static void respond(Http1Conn *c, int code, const char *ctype, const char *body, size_t len) {
    respond_full(c, code, ctype, NULL, body, len, false);
}

static void respond_error(Http1Conn *c, int grpc, const char *msg) {
    json_t *o = json_pack("{s:i,s:s,s:s}", "code", grpc, "status", grpc_status_name(grpc), "message", msg);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    /* RFC 6750 3: a 401 names the scheme it wants. */
    const char *extra = grpc == GRPC_UNAUTHENTICATED ? "WWW-Authenticate: Bearer realm=\"catalyzer\"\r\n" : "";
    respond_full(c, http_status_of(grpc), "application/json", extra, s ? s : "{}", s ? strlen(s) : 2, false);
    free(s);
}

/* ---------------------------------------------------------------- NDJSON streaming */

static void chunk_written(uv_write_t *req, int status) {
    (void)status;
    WriteReq *w = (WriteReq *)req;
    Http1Conn *c = req->data;
    c->chunk_pending -= w->len;
    free(w);
    if (!c->head.closing && c->job) http1_job_output(c->job); /* room again: pump more */
}

static bool write_raw(Http1Conn *c, const char *head, size_t hl, const uint8_t *data, size_t n, const char *tail,
                      size_t tl, uv_write_cb cb) {
    WriteReq *w = malloc(sizeof *w + hl + n + tl);
    if (!w) return false;
    memcpy(w->data, head, hl);
    if (n) memcpy(w->data + hl, data, n);
    memcpy(w->data + hl + n, tail, tl);
    w->len = hl + n + tl;
    w->req.data = c;
    uv_buf_t b = uv_buf_init(w->data, (unsigned)w->len);
    if (cb == chunk_written) c->chunk_pending += w->len;
    if (conn_write(&c->head, &w->req, &b, 1, cb) != 0) {
        if (cb == chunk_written) c->chunk_pending -= w->len;
        free(w);
        return false;
    }
    return true;
}

/* Streams the job's lines as HTTP chunks while the socket keeps up; the
 * worker waits (job.c) when the client reads slowly. */
static void stream_output(Http1Conn *c, Job *j) {
    Server *srv = c->head.srv;
    if (!c->chunk_started) {
        char head[1024], corr[160];
        bool ka = c->keep_alive && !c->drain && !srv->draining;
        c->keep_alive = ka;
        int hl = snprintf(head, sizeof head,
                          "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n"
                          "%s%s%s\r\n",
                          correlation_lines(c, corr, sizeof corr), c->cors, ka ? "" : "Connection: close\r\n");
        if (!write_raw(c, head, (size_t)hl, NULL, 0, "", 0, chunk_written)) return h1_close(&c->head);
        c->chunk_started = true;
        c->busy = true;
    }
    uint8_t buf[65536];
    while (c->chunk_pending < (256u << 10)) {
        bool eof;
        size_t n = job_take(j, buf, sizeof buf, &eof);
        if (n) {
            char hx[24];
            int hl = snprintf(hx, sizeof hx, "%zx\r\n", n);
            if (!write_raw(c, hx, (size_t)hl, buf, n, "\r\n", 2, chunk_written)) return h1_close(&c->head);
        }
        if (eof) {
            server_record_traced(srv, c->method, "json", c->request_id, &c->trace, j->session_id, j->status, j->error_class,
                                  j->status_msg, c->start_ns);
            char tail[768] = "";
            size_t tl = 0;
            if (j->status != GRPC_OK) { /* the status line is out already: the error is the last line */
                json_t *o = json_pack("{s:i,s:s,s:s}", "code", j->status, "status", grpc_status_name(j->status),
                                      "message", j->status_msg);
                char *e = json_dumps(o, JSON_COMPACT);
                json_decref(o);
                if (e) tl = (size_t)snprintf(tail, sizeof tail, "%zx\r\n%s\n\r\n", strlen(e) + 1, e);
                free(e);
            }
            tl += (size_t)snprintf(tail + tl, sizeof tail - tl, "0\r\n\r\n");
            j->call = NULL;
            c->job = NULL;
            job_unref(j);
            c->complete = false;
            if (!write_raw(c, "", 0, NULL, 0, tail, tl, on_written)) h1_close(&c->head);
            return;
        }
        if (!n) return;
    }
}

/* Loop: new output or done. JSON is collected whole and sent once done;
 * NDJSON streams. */
void http1_job_output(Job *j) {
    Http1Conn *c = j->call;
    if (!c) return;
    if (c->streaming) {
        if (!c->chunk_started && job_is_done(j) && j->status != GRPC_OK && !job_has_output(j)) {
            server_record(c->head.srv, c->method, "json", c->request_id, j->status, j->error_class, j->status_msg,
                          c->start_ns);
            respond_error(c, j->status, j->status_msg);
            j->call = NULL;
            c->job = NULL;
            job_unref(j);
            return;
        }
        return stream_output(c, j);
    }
    if (!job_is_done(j)) return;
    Server *srv = c->head.srv;
    server_record_traced(srv, c->method, "json", c->request_id, &c->trace, j->session_id, j->status, j->error_class,
                          j->status_msg, c->start_ns);
    if (j->status != GRPC_OK) {
        respond_error(c, j->status, j->status_msg);
    } else {
        size_t cap = 4096, len = 0;
        char *buf = malloc(cap);
        bool eof = false;
        while (buf && !eof) {
            if (cap - len < 4096) {
                cap *= 2;
                char *nb = realloc(buf, cap);
                if (!nb) break;
                buf = nb;
            }
            len += job_take(j, (uint8_t *)buf + len, cap - len, &eof);
        }
        respond(c, 200, "application/json", buf ? buf : "", buf ? len : 0);
        free(buf);
    }
    j->call = NULL;
    c->job = NULL;
    job_unref(j);
}

/* ---------------------------------------------------------------- routing */

static const struct {
    const char *path;
    RpcMethod m;
    bool read_only; /* also answers GET, the request in the query string */
} ROUTES[] = {
    {"/v1/analyze", RPC_ANALYZE, true},
    {"/v1/execute", RPC_EXECUTE, false},
    {"/v1/register-catalog", RPC_REGISTER_CATALOG, false},
    {"/v1/drop-session", RPC_DROP_SESSION, false},
    {"/v1/list-functions", RPC_LIST_FUNCTIONS, true},
    {"/v1/invalidate-table", RPC_INVALIDATE_TABLE, false},
};

/* Host and Origin (see http_guard.h): NULL when the request may go on, else
 * why not. */
static const char *cross_site_refusal(Http1Conn *c) {
    const Config *cfg = &c->head.srv->cfg;
    if (c->header_too_long) return "a Host, Origin or Authorization header is repeated or too long";
    /* The address the endpoint is bound to is a name it answers to too (not a wildcard). */
    bool bound_name = cfg->http_host[0] && strcmp(cfg->http_host, "0.0.0.0") != 0 && strcmp(cfg->http_host, "::") != 0 &&
                      http_host_allowed(c->host, c->host_len, cfg->http_host);
    if (!c->has_host || !(bound_name || http_host_allowed(c->host, c->host_len, cfg->http_allowed_hosts)))
        return "the Host header is not a name this endpoint answers to (--http-allowed-hosts)";
    /* an origin given CORS (--http-cors) is one the endpoint admits too */
    const char *const origins[] = {cfg->http_allowed_origins, cfg->http_cors, NULL};
    if (c->has_origin &&
        !http_origin_allowed(c->origin, c->origin_len, c->host, conn_is_tls(&c->head), origins))
        return "cross-origin request refused (--http-allowed-origins)";
    return NULL;
}

/* The query string's parameter name has exactly this value. */
static bool query_param_is(const char *url, const char *name, const char *value) {
    const char *q = strchr(url, '?');
    size_t nl = strlen(name), vl = strlen(value);
    for (const char *p = q ? q + 1 : ""; *p;) {
        size_t n = strcspn(p, "&");
        if (n == nl + 1 + vl && !strncmp(p, name, nl) && p[nl] == '=' && !strncmp(p + nl + 1, value, vl)) return true;
        p += n;
        if (*p) p++;
    }
    return false;
}

static void serve_asset(Http1Conn *c, const WebAsset *as, int method) {
    char extra[1024];
    snprintf(extra, sizeof extra, "%sETag: %s\r\n", HTTP_STATIC_HEADERS, as->etag);
    if (http_static_not_modified(as, c->if_none_match))
        return respond_full(c, 304, as->content_type, extra, NULL, 0, true);
    respond_full(c, 200, as->content_type, extra, (const char *)as->data, as->len, method == HTTP_HEAD);
}

static void handle(Http1Conn *c) {
    Server *srv = c->head.srv;
    /* The client's X-Request-Id when it is one (trace.h's rule), else ours;
     * a traceparent that parses puts the request in the caller's trace. A
     * second header of either name is appended to the first and so fails
     * the rule: neither is used. */
    size_t rl = strlen(c->rid_hdr);
    if (request_id_valid(c->rid_hdr, rl)) {
        memcpy(c->request_id, c->rid_hdr, rl); /* rl <= REQUEST_ID_MAX */
        c->request_id[rl] = '\0';
    } else {
        server_next_request_id(srv, c->request_id, sizeof c->request_id);
    }
    trace_parse(&c->trace, c->tp_hdr, strlen(c->tp_hdr));
    c->start_ns = mono_ns();
    char path[256];
    size_t pl = strcspn(c->url, "?");
    snprintf(path, sizeof path, "%.*s", (int)pl, c->url);
    int method = c->parser.method;
    const char *refusal = cross_site_refusal(c);
    if (refusal) {
        metrics_bad_input(&srv->metrics);
        server_record(srv, RPC_COUNT_, "json", c->request_id, GRPC_PERMISSION_DENIED, NULL, refusal, c->start_ns);
        c->keep_alive = false;
        return respond_error(c, GRPC_PERMISSION_DENIED, refusal);
    }
    cors_response_headers(srv->cfg.http_cors, c->origin, c->cors, sizeof c->cors);
    const WebAsset *asset = http_static_find(path);
    if (asset) {
        if (method != HTTP_GET && method != HTTP_HEAD) return respond_error(c, GRPC_UNIMPLEMENTED, "use GET");
        return serve_asset(c, asset, method);
    }
    if (strcmp(path, "/healthz") == 0) {
        if (method != HTTP_GET && method != HTTP_HEAD) return respond_error(c, GRPC_UNIMPLEMENTED, "use GET");
        const char *b = srv->serving ? "{\"status\":\"SERVING\"}\n" : "{\"status\":\"NOT_SERVING\"}\n";
        return respond(c, srv->serving ? 200 : 503, "application/json", b, strlen(b));
    }
    const char *principal = conn_principal(&c->head, c->has_authz ? c->authz : NULL, c->authz_len);
    if (!principal) {
        server_record(srv, RPC_COUNT_, "json", c->request_id, GRPC_UNAUTHENTICATED, NULL, "", c->start_ns);
        return respond_error(c, GRPC_UNAUTHENTICATED, "missing or invalid bearer token");
    }
    if (strcmp(path, "/metrics") == 0) {
        Arena *a = arena_new(0);
        StrBuf sb;
        sb_init(&sb, a, 8192);
        uint32_t q, r, nw;
        server_counts(srv, &q, &r, &nw);
        metrics_render(&srv->metrics, &sb, q + srv->session_waiting, r, nw, srv->nsessions,
                       srv->nconnections);
        respond(c, 200, "text/plain; version=0.0.4", sb.data, sb.len);
        arena_free(a);
        return;
    }
    int route = -1;
    for (size_t i = 0; i < sizeof ROUTES / sizeof ROUTES[0]; i++)
        if (strcmp(path, ROUTES[i].path) == 0) route = (int)i;
    if (route < 0) return respond_error(c, GRPC_NOT_FOUND, "no such endpoint");
    c->method = ROUTES[route].m;
    if (method == HTTP_OPTIONS && c->acr_method[0]) { /* CORS preflight */
        char hdrs[512];
        int code = cors_preflight(srv->cfg.http_cors, c->origin, c->acr_method, c->acr_headers, hdrs, sizeof hdrs);
        c->cors[0] = '\0'; /* the preflight's own headers say it all */
        return respond_full(c, code, "text/plain", hdrs, "", 0, false);
    }
    bool get = method == HTTP_GET && ROUTES[route].read_only;
    if (method != HTTP_POST && !get) {
        char m[] = "{\"code\":12,\"status\":\"UNIMPLEMENTED\",\"message\":\"use POST\"}";
        char g[] = "{\"code\":12,\"status\":\"UNIMPLEMENTED\",\"message\":\"use GET or POST\"}";
        const char *msg = ROUTES[route].read_only ? g : m;
        return respond_full(c, 405, "application/json", ROUTES[route].read_only ? "Allow: GET, POST\r\n" : "Allow: POST\r\n",
                            msg, strlen(msg), false);
    }
    if (c->too_large) {
        metrics_bad_input(&srv->metrics);
        char m[128];
        snprintf(m, sizeof m, "request body larger than the maximum of %u bytes", srv->cfg.max_message_bytes);
        server_record(srv, c->method, "json", c->request_id, GRPC_RESOURCE_EXHAUSTED, NULL, m, c->start_ns);
        return respond_error(c, GRPC_RESOURCE_EXHAUSTED, m);
    }
    /* JSON only: the types an HTML form can send (urlencoded, multipart,
     * text/plain) without a CORS preflight are all refused. */
    if (!get && !http_is_json_type(c->ctype, strlen(c->ctype))) {
        metrics_bad_input(&srv->metrics);
        char m[] = "{\"code\":3,\"status\":\"INVALID_ARGUMENT\",\"message\":\"content-type must be application/json\"}";
        return respond(c, 415, "application/json", m, strlen(m));
    }
    if (srv->draining) return respond_error(c, GRPC_UNAVAILABLE, "server shutting down");
    if (c->timeout_ns < 0) return respond_error(c, GRPC_INVALID_ARGUMENT, "malformed grpc-timeout");
    json_error_t jerr;
    char err[512];
    json_t *body;
    if (get) {
        const char *q = strchr(c->url, '?');
        body = http_query_request(q ? q + 1 : "", err, sizeof err);
        /* GET stays read-only: no session state changes through a link. */
        json_t *sid = body ? json_object_get(body, "sessionId") : NULL;
        if (!sid && body) sid = json_object_get(body, "session_id");
        if (body && json_is_string(sid) && *json_string_value(sid) &&
            (json_object_get(body, "conf") || json_object_get(body, "catalog"))) {
            json_decref(body);
            body = NULL;
            snprintf(err, sizeof err, "GET does not change a session: send conf and catalog with POST");
        }
    } else {
        body = json_loadb(c->body ? c->body : "", c->body_len, JSON_REJECT_DUPLICATES, &jerr);
        if (!body || !json_is_object(body))
            snprintf(err, sizeof err, "invalid JSON: %s", body ? "expected an object" : jerr.text);
    }
    if (!body || !json_is_object(body)) {
        json_decref(body);
        metrics_bad_input(&srv->metrics);
        server_record(srv, c->method, "json", c->request_id, GRPC_INVALID_ARGUMENT, NULL, err, c->start_ns);
        return respond_error(c, GRPC_INVALID_ARGUMENT, err);
    }
    /* Shorthand: {"sql": "SELECT ..."} for AnalyzeRequest.sql.query. */
    json_t *sql = json_object_get(body, "sql");
    if (c->method == RPC_ANALYZE && json_is_string(sql))
        json_object_set_new(body, "sql", json_pack("{s:O}", "query", sql));
    const ProtobufCMessageDescriptor *desc = rpc_request_descriptor(c->method);
    /* Each plan level is at most a few JSON levels (Relation → Project → Relation). */
    ProtobufCMessage *msg = pb_from_json(body, desc, srv->cfg.max_plan_depth * 4 + 16, err, sizeof err);
    json_decref(body);
    if (!msg) {
        metrics_bad_input(&srv->metrics);
        server_record(srv, c->method, "json", c->request_id, GRPC_INVALID_ARGUMENT, NULL, err, c->start_ns);
        return respond_error(c, GRPC_INVALID_ARGUMENT, err);
    }
    c->streaming = c->method == RPC_ANALYZE && (c->wants_ndjson || query_param_is(c->url, "stream", "1"));
    Job *j = job_new(srv, c->method, c->streaming ? JOB_NDJSON : JOB_JSON);
    snprintf(j->request_id, sizeof j->request_id, "%s", c->request_id);
    j->trace = c->trace;
    j->req_msg = msg;
    if (c->timeout_ns > 0)
        j->deadline_ns = c->start_ns + (uint64_t)c->timeout_ns;
    else if (srv->cfg.default_timeout_ms)
        j->deadline_ns = c->start_ns + (uint64_t)srv->cfg.default_timeout_ms * 1000000;
    /* No call outlives --max-timeout-ms, whatever grpc-timeout the client sent. */
    uint64_t cap = (uint64_t)srv->cfg.max_timeout_ms * 1000000;
    if (cap && (!j->deadline_ns || j->deadline_ns > c->start_ns + cap)) j->deadline_ns = c->start_ns + cap;
    const ProtobufCFieldDescriptor *sf = protobuf_c_message_descriptor_get_field_by_name(desc, "session_id");
    const char *sid = sf ? *(char **)((char *)msg + sf->offset) : NULL;
    if (sid && *sid) {
        int st;
        j->session = server_session(srv, sid, strlen(sid), principal, c->method != RPC_DROP_SESSION, &st);
        if (st != GRPC_OK) {
            job_unref(j);
            if (st == GRPC_INVALID_ARGUMENT) metrics_bad_input(&srv->metrics);
            server_record(srv, c->method, "json", c->request_id, st, NULL, server_session_refusal(st), c->start_ns);
            return respond_error(c, st, server_session_refusal(st));
        }
        snprintf(j->session_id, sizeof j->session_id, "%s", sid);
    }
    j->call = c;
    j->on_output = http1_job_output;
    c->job = j;
    c->busy = true;
    int st = server_submit(srv, j);
    if (st != GRPC_OK) {
        char why[sizeof j->status_msg];
        snprintf(why, sizeof why, "%s", server_submit_refusal(j, st));
        c->job = NULL;
        j->call = NULL;
        job_unref(j);
        c->busy = false;
        server_record(srv, c->method, "json", c->request_id, st, NULL, "rejected", c->start_ns);
        return respond_error(c, st, why);
    }
}

/* ---------------------------------------------------------------- parser callbacks */

static int on_message_begin(http_parser *p) {
    Http1Conn *c = p->data;
    c->url_len = 0;
    if (c->url) c->url[0] = '\0';
    c->url_too_long = false;
    c->ctype[0] = '\0';
    c->host_len = c->origin_len = c->authz_len = 0;
    c->host[0] = c->origin[0] = c->authz[0] = '\0';
    c->has_host = c->has_origin = c->has_authz = c->header_too_long = false;
    c->if_none_match[0] = c->acr_method[0] = c->acr_headers[0] = c->cors[0] = '\0';
    c->rid_hdr[0] = c->tp_hdr[0] = c->accept_enc[0] = '\0';
    c->trace.valid = false;
    c->expect_continue = false;
    c->timeout_ns = 0;
    c->wants_ndjson = false;
    c->streaming = c->chunk_started = false;
    c->body_len = 0;
    c->too_large = false;
    c->hdr_field_len = 0;
    c->in_ct = false;
    return 0;
}

static int on_url(http_parser *p, const char *at, size_t len) {
    Http1Conn *c = p->data;
    if (c->url_too_long) return 0;
    if (c->url_len + len >= MAX_URL_BYTES) {
        c->url_too_long = true;
        return 0;
    }
    if (c->url_len + len >= c->url_cap) {
        size_t nc = c->url_cap ? c->url_cap : 256;
        while (nc <= c->url_len + len) nc *= 2;
        char *nu = realloc(c->url, nc);
        if (!nu) return -1;
        c->url = nu;
        c->url_cap = nc;
    }
    memcpy(c->url + c->url_len, at, len);
    c->url_len += len;
    c->url[c->url_len] = '\0';
    return 0;
}

static int on_header_field(http_parser *p, const char *at, size_t len) {
    Http1Conn *c = p->data;
    if (c->in_ct) { /* a value came last: this is a new field */
        c->hdr_field_len = 0;
        c->in_ct = false;
    }
    size_t room = sizeof c->hdr_field - 1 - c->hdr_field_len;
    size_t k = len < room ? len : room;
    memcpy(c->hdr_field + c->hdr_field_len, at, k);
    c->hdr_field_len += k;
    c->hdr_field[c->hdr_field_len] = '\0';
    return 0;
}

/* A header value may come in pieces; a second header of the same name is
 * refused like an overlong one (which of two Hosts would count?). */
static void append_value(Http1Conn *c, char *buf, size_t cap, size_t *blen, bool *seen, const char *at, size_t len) {
    if (*seen && !c->in_ct) { /* a new header of this name */
        c->header_too_long = true;
        return;
    }
    *seen = true;
    if (*blen + len >= cap) {
        c->header_too_long = true;
        return;
    }
    memcpy(buf + *blen, at, len);
    *blen += len;
    buf[*blen] = '\0';
}

/* Appends a header value piece (values may arrive in several callbacks); cut at cap. */
static void append_piece(char *buf, size_t cap, const char *at, size_t len) {
    size_t cur = strlen(buf);
    size_t k = len < cap - 1 - cur ? len : cap - 1 - cur;
    memcpy(buf + cur, at, k);
    buf[cur + k] = '\0';
}

static int on_header_value(http_parser *p, const char *at, size_t len) {
    Http1Conn *c = p->data;
    if (strcasecmp(c->hdr_field, "x-request-id") == 0) append_piece(c->rid_hdr, sizeof c->rid_hdr, at, len);
    if (strcasecmp(c->hdr_field, "traceparent") == 0) append_piece(c->tp_hdr, sizeof c->tp_hdr, at, len);
    if (strcasecmp(c->hdr_field, "accept-encoding") == 0) append_piece(c->accept_enc, sizeof c->accept_enc, at, len);
    if (strcasecmp(c->hdr_field, "if-none-match") == 0) append_piece(c->if_none_match, sizeof c->if_none_match, at, len);
    if (strcasecmp(c->hdr_field, "access-control-request-method") == 0)
        append_piece(c->acr_method, sizeof c->acr_method, at, len);
    if (strcasecmp(c->hdr_field, "access-control-request-headers") == 0)
        append_piece(c->acr_headers, sizeof c->acr_headers, at, len);
    if (strcasecmp(c->hdr_field, "expect") == 0 && len >= 12 && strncasecmp(at, "100-continue", 12) == 0)
        c->expect_continue = true;
    if (strcasecmp(c->hdr_field, "accept") == 0 && memmem(at, len, "application/x-ndjson", 20)) c->wants_ndjson = true;
    if (strcasecmp(c->hdr_field, "grpc-timeout") == 0) {
        int64_t ns;
        c->timeout_ns = grpc_parse_timeout(at, len, &ns) ? (ns > 0 ? ns : 1) : -1;
    }
    if (strcasecmp(c->hdr_field, "host") == 0) append_value(c, c->host, sizeof c->host, &c->host_len, &c->has_host, at, len);
    if (strcasecmp(c->hdr_field, "origin") == 0)
        append_value(c, c->origin, sizeof c->origin, &c->origin_len, &c->has_origin, at, len);
    if (strcasecmp(c->hdr_field, "authorization") == 0)
        append_value(c, c->authz, sizeof c->authz, &c->authz_len, &c->has_authz, at, len);
    if (strcasecmp(c->hdr_field, "content-type") == 0) {
        size_t cur = strlen(c->ctype);
        size_t room = sizeof c->ctype - 1 - cur;
        size_t k = len < room ? len : room;
        memcpy(c->ctype + cur, at, k);
        c->ctype[cur + k] = '\0';
    }
    c->in_ct = true; /* "last callback was a value" */
    return 0;
}

static void continue_written(uv_write_t *req, int status) {
    (void)status;
    free(req);
}

/* Answers Expect: 100-continue at once instead of letting the client wait. */
static int on_headers_complete(http_parser *p) {
    Http1Conn *c = p->data;
    if (c->expect_continue && !c->head.closing) {
        static const char CONT[] = "HTTP/1.1 100 Continue\r\n\r\n";
        uv_write_t *req = malloc(sizeof *req);
        uv_buf_t b = uv_buf_init((char *)CONT, sizeof CONT - 1);
        if (req && conn_write(&c->head, req, &b, 1, continue_written) != 0) free(req);
    }
    return 0;
}

static int on_body(http_parser *p, const char *at, size_t len) {
    Http1Conn *c = p->data;
    size_t max = c->head.srv->cfg.max_message_bytes;
    if (c->too_large) return 0;
    if (c->body_len + len > max) {
        c->too_large = true;
        return 0;
    }
    if (c->body_len + len > c->body_cap) {
        size_t nc = c->body_cap ? c->body_cap : 4096;
        while (nc < c->body_len + len) nc *= 2;
        char *nb = realloc(c->body, nc);
        if (!nb) return -1;
        c->body = nb;
        c->body_cap = nc;
    }
    memcpy(c->body + c->body_len, at, len);
    c->body_len += len;
    return 0;
}

static int on_message_complete(http_parser *p) {
    Http1Conn *c = p->data;
    c->keep_alive = http_should_keep_alive(p);
    c->complete = true;
    c->head.last_active_ns = mono_ns(); /* a whole request, not a byte, is activity */
    http_parser_pause(p, 1); /* one request at a time */
    return 0;
}

static const http_parser_settings SETTINGS = {
    .on_message_begin = on_message_begin,
    .on_url = on_url,
    .on_header_field = on_header_field,
    .on_header_value = on_header_value,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

/* ---------------------------------------------------------------- I/O */

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    (void)suggested;
    Http1Conn *c = h->data;
    *buf = uv_buf_init(c->head.srv->rbuf, sizeof c->head.srv->rbuf); /* consumed synchronously in on_read */
}

/* Feeds bytes to the parser; keeps the unparsed rest when a request completes. */
static void feed(Http1Conn *c, const char *data, size_t n) {
    size_t used = http_parser_execute(&c->parser, &SETTINGS, data, n);
    enum http_errno e = HTTP_PARSER_ERRNO(&c->parser);
    if (e == HPE_PAUSED) {
        http_parser_pause(&c->parser, 0);
        if (used < n) {
            char *np = malloc(n - used);
            if (np) memcpy(np, data + used, n - used);
            free(c->pending);
            c->pending = np;
            c->pending_len = np ? n - used : 0;
        }
        conn_read_stop(&c->head);
        if (c->url_too_long) {
            c->keep_alive = false;
            static const char M[] = "{\"code\":3,\"status\":\"INVALID_ARGUMENT\",\"message\":\"URL too long\"}";
            respond_full(c, 414, "application/json", NULL, M, sizeof M - 1, false);
        } else {
            handle(c);
        }
        return;
    }
    if (e != HPE_OK) {
        metrics_bad_input(&c->head.srv->metrics);
        c->keep_alive = false;
        char m[160];
        snprintf(m, sizeof m, "malformed HTTP request: %s", http_errno_description(e));
        snprintf(c->request_id, sizeof c->request_id, "-");
        c->trace.valid = false;
        respond_error(c, GRPC_INVALID_ARGUMENT, m);
        conn_read_stop(&c->head);
    }
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
    Http1Conn *c = s->data;
    if (n < 0) {
        h1_close(&c->head);
        return;
    }
    if (n == 0) return;
    if (!c->busy) {
        feed(c, buf->base, (size_t)n);
        return;
    }
    /* Pipelined bytes while a request is in progress: keep them for later
     * (the read buffer is shared by every connection). */
    if (c->pending_len + (size_t)n > (size_t)c->head.srv->cfg.max_message_bytes + 65536) {
        h1_close(&c->head);
        return;
    }
    char *np = realloc(c->pending, c->pending_len + (size_t)n);
    if (!np) {
        h1_close(&c->head);
        return;
    }
    memcpy(np + c->pending_len, buf->base, (size_t)n);
    c->pending = np;
    c->pending_len += (size_t)n;
}

static void h1_resume(Http1Conn *c) {
    if (c->head.closing) return;
    if (c->pending) {
        char *p = c->pending;
        size_t n = c->pending_len;
        c->pending = NULL;
        c->pending_len = 0;
        feed(c, p, n);
        free(p);
        if (c->busy || c->head.closing) return;
    }
    conn_read_start(&c->head, on_alloc, on_read);
}

static void on_closed(uv_handle_t *h) {
    Http1Conn *c = h->data;
    Server *srv = c->head.srv;
    if (c->job) {
        job_cancel(c->job);
        c->job->call = NULL;
        job_unref(c->job);
    }
    conn_unlink(srv, &c->head);
    free(c->body);
    free(c->pending);
    free(c->url);
    free(c);
    server_drain_check(srv);
}

static void h1_close(ConnHead *ch) {
    if (ch->closing) return;
    ch->closing = true;
    conn_close(ch, on_closed);
}

static void h1_drain(ConnHead *ch) {
    Http1Conn *c = (Http1Conn *)ch;
    c->drain = true;
    if (!c->busy) h1_close(ch);
}

static bool h1_idle(const ConnHead *ch) { return !((const Http1Conn *)ch)->busy; }

static void h1_cancel_all(ConnHead *ch) {
    Http1Conn *c = (Http1Conn *)ch;
    if (c->job) job_cancel(c->job);
}

static const ConnOps H1_OPS = {h1_drain, h1_close, h1_idle, h1_cancel_all};

void http1_on_connection(uv_stream_t *listener, int status) {
    Server *srv = listener->data;
    if (status < 0) return;
    Http1Conn *c = calloc(1, sizeof *c);
    if (!c) return;
    c->head.ops = &H1_OPS;
    c->url_cap = 256;
    c->url = malloc(c->url_cap);
    if (!c->url) {
        free(c);
        return;
    }
    c->url[0] = '\0';
    uv_tcp_init(srv->loop, &c->head.tcp);
    c->head.tcp.data = c;
    c->head.http_port = true;
    conn_link(srv, &c->head);
    http_parser_init(&c->parser, HTTP_REQUEST);
    c->parser.data = c;
    if (uv_accept(listener, (uv_stream_t *)&c->head.tcp) != 0 || server_conn_over_limit(srv, &c->head) ||
        srv->draining) {
        h1_close(&c->head);
        return;
    }
    uv_tcp_nodelay(&c->head.tcp, 1);
    if (srv->tls_http && !conn_start_tls(&c->head, srv->tls_http)) {
        h1_close(&c->head);
        return;
    }
    conn_read_start(&c->head, on_alloc, on_read);
}
