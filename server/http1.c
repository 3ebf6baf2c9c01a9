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
#include <nghttp2/nghttp2.h>
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
    bool seen_bytes;         /* the first read decides HTTP/1.1 or HTTP/2 (client preface) */
    struct H2Side *h2;       /* this connection speaks HTTP/2: its session and streams */
    struct H2Stream *bridge; /* a virtual connection carrying one HTTP/2 stream (no socket) */
} Http1Conn;

typedef struct H2Stream H2Stream;
static int h2s_write(H2Stream *st, uv_write_t *req, const uv_buf_t bufs[], unsigned n, uv_write_cb cb);
static void h2s_vc_closed(Http1Conn *c);

/* The transport of a request: the socket, or for an HTTP/2 stream the
 * stream's response (see "HTTP/2" below). */
static int h1_write(Http1Conn *c, uv_write_t *req, const uv_buf_t bufs[], unsigned n, uv_write_cb cb) {
    if (c->bridge) return h2s_write(c->bridge, req, bufs, n, cb);
    return conn_write(&c->head, req, bufs, n, cb);
}
static void h1_read_stop(Http1Conn *c) {
    if (!c->bridge) conn_read_stop(&c->head);
}

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
    if (h1_write(c, &w->req, &b, 1, on_written) != 0) {
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
    if (h1_write(c, &w->req, &b, 1, cb) != 0) {
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
        if (req && h1_write(c, req, &b, 1, continue_written) != 0) free(req);
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
        h1_read_stop(c);
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
        h1_read_stop(c);
    }
}

static bool h2s_start(Http1Conn *c);
static void h2s_recv(Http1Conn *c, const uint8_t *data, size_t n);
static void h2s_side_free(Http1Conn *c);

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
    Http1Conn *c = s->data;
    if (n < 0) {
        h1_close(&c->head);
        return;
    }
    if (n == 0) return;
    if (!c->seen_bytes) { /* "PRI * HTTP/2.0...": HTTP/2 with prior knowledge (h2c, or h2 after ALPN) */
        c->seen_bytes = true;
        if (n >= 3 && memcmp(buf->base, "PRI", 3) == 0 && !h2s_start(c)) return h1_close(&c->head);
    }
    if (c->h2) return h2s_recv(c, (const uint8_t *)buf->base, (size_t)n);
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
    if (c->head.closing || c->bridge) return;
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
    h2s_side_free(c);
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
    if (((Http1Conn *)ch)->bridge) return h2s_vc_closed((Http1Conn *)ch);
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

/* A connection of the JSON port, linked into the server's list, its socket
 * not yet accepted (tests/fuzz/fuzz_http1.c opens one of a socket pair). */
static Http1Conn *h1_conn_new(Server *srv) {
    Http1Conn *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->head.ops = &H1_OPS;
    c->url_cap = 256;
    c->url = malloc(c->url_cap);
    if (!c->url) {
        free(c);
        return NULL;
    }
    c->url[0] = '\0';
    uv_tcp_init(srv->loop, &c->head.tcp);
    c->head.tcp.data = c;
    c->head.http_port = true;
    conn_link(srv, &c->head);
    http_parser_init(&c->parser, HTTP_REQUEST);
    c->parser.data = c;
    return c;
}

void http1_on_connection(uv_stream_t *listener, int status) {
    Server *srv = listener->data;
    if (status < 0) return;
    Http1Conn *c = h1_conn_new(srv);
    if (!c) return;
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

/* ---------------------------------------------------------------- HTTP/2
 *
 * The same port speaks HTTP/2 to a client whose first bytes are the
 * HTTP/2 client preface (h2c with prior knowledge, as HAProxy's "proto h2"
 * and curl --http2-prior-knowledge send; or h2 chosen by ALPN on a TLS
 * port). Each stream is served by a virtual Http1Conn with no socket: the
 * stream's request is handed to it as HTTP/1.1 (the body chunked, as it
 * arrives) and the HTTP/1.1 response it writes is parsed back into HTTP/2
 * HEADERS and DATA. So every route, guard, limit, CORS rule, request id and
 * NDJSON stream is exactly the HTTP/1.1 one. nghttp2 enforces the
 * framing limits (streams per connection, header list size, the flood
 * protections), as on the gRPC port. */

enum { H2S_WRITE_HIGH_WATER = 1 << 20 };

typedef struct H2Ack {
    struct H2Ack *next;
    uv_write_t *req;
    uv_write_cb cb;
    uint64_t mark; /* the write is "on the socket" once the stream's DATA has sent this much */
} H2Ack;

typedef struct H2Side {
    nghttp2_session *ng;
    size_t pending_write;
    uint32_t nstreams;
    H2Stream *streams;
    bool goaway_sent, in_flush, in_recv, want_close;
    uv_timer_t *later; /* a flush on the next loop turn (data: the connection; NULL once it is gone) */
} H2Side;

struct H2Stream {
    Http1Conn *parent;
    H2Stream *next, *prev;
    int32_t id;
    Http1Conn *vc;
    size_t header_bytes;
    char method[16];
    char *path;
    char *hdrs; /* "name: value\r\n" lines of the request */
    size_t hdrs_len, hdrs_cap;
    bool bad_header, head_fed, ended;
    /* the response, parsed from what vc writes */
    http_parser rp;
    char rh[4096]; /* "name\0value\0" pairs */
    size_t rh_len;
    int rh_n;
    bool rh_in_value;
    bool resp_submitted, resp_has_body, resp_eof, resp_failed;
    uint8_t *out;
    size_t out_off, out_len, out_cap;
    uint64_t produced, consumed;
    H2Ack *acks, **acks_tail;
};

static void h2s_flush_acks(Http1Conn *c, bool acks);
/* Sends what nghttp2 has, then runs the write callbacks whose bytes went out. */
static void h2s_flush(Http1Conn *c) { h2s_flush_acks(c, true); }

static void h2s_later_cb(uv_timer_t *t) {
    Http1Conn *c = t->data;
    if (c && !c->head.closing) h2s_flush(c);
}

static void h2s_flush_later(Http1Conn *c) {
    H2Side *h = c->h2;
    if (!h->later) {
        h->later = malloc(sizeof *h->later);
        if (!h->later) return;
        uv_timer_init(c->head.srv->loop, h->later);
        h->later->data = c;
    }
    if (!uv_is_active((uv_handle_t *)h->later)) uv_timer_start(h->later, h2s_later_cb, 0, 0);
}

static void h2s_timer_closed(uv_handle_t *t) { free(t); }

static bool hdr_append(char **buf, size_t *len, size_t *cap, const char *a, size_t al) {
    if (*len + al + 1 > *cap) {
        size_t nc = *cap ? *cap : 512;
        while (nc < *len + al + 1) nc *= 2;
        char *nb = realloc(*buf, nc);
        if (!nb) return false;
        *buf = nb;
        *cap = nc;
    }
    memcpy(*buf + *len, a, al);
    *len += al;
    (*buf)[*len] = '\0';
    return true;
}

/* ---- response side: vc's HTTP/1.1 bytes back into HTTP/2 */

static int rp_header_field(http_parser *p, const char *at, size_t len) {
    H2Stream *st = p->data;
    if (st->rh_in_value || st->rh_n == 0) {
        if (st->rh_n && st->rh_len < sizeof st->rh) st->rh[st->rh_len++] = '\0'; /* end the value */
        st->rh_n++;
        st->rh_in_value = false;
    }
    for (size_t i = 0; i < len && st->rh_len + 2 < sizeof st->rh; i++) {
        char ch = at[i];
        st->rh[st->rh_len++] = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
    }
    return 0;
}

static int rp_header_value(http_parser *p, const char *at, size_t len) {
    H2Stream *st = p->data;
    if (!st->rh_in_value && st->rh_len < sizeof st->rh) st->rh[st->rh_len++] = '\0'; /* end the name */
    st->rh_in_value = true;
    for (size_t i = 0; i < len && st->rh_len + 2 < sizeof st->rh; i++) st->rh[st->rh_len++] = at[i];
    return 0;
}

static ssize_t h2s_data_read(nghttp2_session *ng, int32_t sid, uint8_t *buf, size_t len, uint32_t *flags,
                             nghttp2_data_source *src, void *ud) {
    (void)ng;
    (void)sid;
    (void)ud;
    H2Stream *st = src->ptr;
    size_t avail = st->out_len - st->out_off;
    size_t n = avail < len ? avail : len;
    memcpy(buf, st->out + st->out_off, n);
    st->out_off += n;
    st->consumed += n;
    if (st->out_off == st->out_len) st->out_off = st->out_len = 0;
    if (st->out_len == 0 && st->resp_eof) {
        *flags |= NGHTTP2_DATA_FLAG_EOF;
        return (ssize_t)n;
    }
    return n ? (ssize_t)n : NGHTTP2_ERR_DEFERRED;
}

static int rp_headers_complete(http_parser *p) {
    H2Stream *st = p->data;
    if (p->status_code < 200) return 0; /* 100 Continue: not relayed (nor asked for) */
    if (st->rh_n && st->rh_in_value && st->rh_len < sizeof st->rh) st->rh[st->rh_len++] = '\0';
    nghttp2_nv nva[40];
    char status[8];
    snprintf(status, sizeof status, "%u", p->status_code);
    size_t n = 0;
    nva[n++] = (nghttp2_nv){(uint8_t *)":status", (uint8_t *)status, 7, strlen(status), NGHTTP2_NV_FLAG_NONE};
    const char *q = st->rh, *end = st->rh + st->rh_len;
    for (int i = 0; i < st->rh_n && q < end && n < 38; i++) {
        const char *name = q;
        size_t nl = strnlen(name, (size_t)(end - q));
        q += nl + 1;
        if (q >= end) break;
        const char *val = q;
        size_t vl = strnlen(val, (size_t)(end - q));
        q += vl + 1;
        /* connection-specific fields have no place in HTTP/2 (RFC 9113 8.2.2) */
        if (!strcmp(name, "connection") || !strcmp(name, "transfer-encoding") || !strcmp(name, "keep-alive"))
            continue;
        nva[n++] = (nghttp2_nv){(uint8_t *)name, (uint8_t *)val, nl, vl, NGHTTP2_NV_FLAG_NONE};
    }
    nva[n++] = (nghttp2_nv){(uint8_t *)"x-catalyzer-protocol", (uint8_t *)"HTTP/2", 20, 6, NGHTTP2_NV_FLAG_NONE};
    bool head = strcmp(st->method, "HEAD") == 0;
    st->resp_has_body = !head && p->status_code != 204 && p->status_code != 304;
    nghttp2_data_provider dp = {.source.ptr = st, .read_callback = h2s_data_read};
    nghttp2_submit_response(st->parent->h2->ng, st->id, nva, n, st->resp_has_body ? &dp : NULL);
    st->resp_submitted = true;
    if (!st->resp_has_body) st->resp_eof = true;
    return head ? 1 : 0; /* a HEAD answer announces a length but has no body */
}

static int rp_body(http_parser *p, const char *at, size_t len) {
    H2Stream *st = p->data;
    if (st->out_len + len > st->out_cap) {
        size_t nc = st->out_cap ? st->out_cap : 4096;
        while (nc < st->out_len + len) nc *= 2;
        uint8_t *nb = realloc(st->out, nc);
        if (!nb) return -1;
        st->out = nb;
        st->out_cap = nc;
    }
    memcpy(st->out + st->out_len, at, len);
    st->out_len += len;
    st->produced += len;
    return 0;
}

static int rp_message_complete(http_parser *p) {
    H2Stream *st = p->data;
    if (p->status_code < 200) return 0;
    st->resp_eof = true;
    return 0;
}

static const http_parser_settings RESPONSE_SETTINGS = {
    .on_header_field = rp_header_field,
    .on_header_value = rp_header_value,
    .on_headers_complete = rp_headers_complete,
    .on_body = rp_body,
    .on_message_complete = rp_message_complete,
};

/* vc wrote: parse it into the stream's response now; the write's callback
 * runs once the stream's DATA has taken it (flow control holds it back). */
static int h2s_write(H2Stream *st, uv_write_t *req, const uv_buf_t bufs[], unsigned n, uv_write_cb cb) {
    H2Ack *a = malloc(sizeof *a);
    if (!a) return -1;
    for (unsigned i = 0; i < n && !st->resp_failed; i++) {
        size_t used = http_parser_execute(&st->rp, &RESPONSE_SETTINGS, bufs[i].base, bufs[i].len);
        if (HTTP_PARSER_ERRNO(&st->rp) != HPE_OK || used != bufs[i].len) st->resp_failed = true;
    }
    if (st->resp_failed) {
        free(a);
        return -1;
    }
    a->next = NULL;
    a->req = req;
    a->cb = cb;
    a->mark = st->produced;
    *st->acks_tail = a;
    st->acks_tail = &a->next;
    if (st->resp_submitted && st->resp_has_body) nghttp2_session_resume_data(st->parent->h2->ng, st->id);
    /* Not now: vc is in the middle of writing, and sending may close the
     * stream and free vc under it. On the next loop turn, as a real
     * uv_write's callback would come. */
    h2s_flush_later(st->parent);
    return 0;
}

/* vc closed itself (its answer written, or a failure): a stream whose
 * response is not whole is reset. vc itself lives as long as the stream. */
static void h2s_vc_closed(Http1Conn *c) {
    H2Stream *st = c->bridge;
    if (c->job) {
        job_cancel(c->job);
        c->job->call = NULL;
        job_unref(c->job);
        c->job = NULL;
    }
    if (!st->resp_eof && st->parent->h2) {
        nghttp2_submit_rst_stream(st->parent->h2->ng, NGHTTP2_FLAG_NONE, st->id, NGHTTP2_INTERNAL_ERROR);
        h2s_flush_later(st->parent);
    }
}

/* Runs the callbacks of the writes whose bytes have gone out (all of them,
 * cancelled, when the stream is gone). True if any ran. */
static bool h2s_fire_acks(H2Stream *st, bool all) {
    bool any = false;
    while (st->acks && (all || st->acks->mark <= st->consumed)) {
        H2Ack *a = st->acks;
        st->acks = a->next;
        if (!st->acks) st->acks_tail = &st->acks;
        a->cb(a->req, all ? UV_ECANCELED : 0);
        free(a);
        any = true;
    }
    return any;
}

static void h2s_stream_free(Http1Conn *c, H2Stream *st) {
    H2Side *h = c->h2;
    Http1Conn *vc = st->vc;
    if (vc) {
        vc->head.closing = true;
        h2s_fire_acks(st, true);
        if (vc->job) {
            job_cancel(vc->job);
            vc->job->call = NULL;
            job_unref(vc->job);
        }
        free(vc->body);
        free(vc->pending);
        free(vc->url);
        free(vc);
    }
    if (st->prev)
        st->prev->next = st->next;
    else
        h->streams = st->next;
    if (st->next) st->next->prev = st->prev;
    h->nstreams--;
    c->head.last_active_ns = mono_ns();
    free(st->path);
    free(st->hdrs);
    free(st->out);
    free(st);
}

/* ---- request side: the stream's request into vc, as HTTP/1.1 */

static void vc_feed(H2Stream *st, const char *data, size_t n) {
    Http1Conn *vc = st->vc;
    if (!vc || vc->head.closing || vc->busy || vc->complete) return; /* answered already: the rest is dropped */
    feed(vc, data, n);
}

static void h2s_feed_head(H2Stream *st) {
    if (st->head_fed) return;
    st->head_fed = true;
    char *line = NULL;
    size_t len = 0, cap = 0;
    const char *path = st->path && st->path[0] ? st->path : "/";
    bool ok = hdr_append(&line, &len, &cap, st->method[0] ? st->method : "GET", strlen(st->method[0] ? st->method : "GET")) &&
              hdr_append(&line, &len, &cap, " ", 1) && hdr_append(&line, &len, &cap, path, strlen(path)) &&
              hdr_append(&line, &len, &cap, " HTTP/1.1\r\n", 11) &&
              (!st->hdrs_len || hdr_append(&line, &len, &cap, st->hdrs, st->hdrs_len)) &&
              hdr_append(&line, &len, &cap, "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n", 49);
    if (ok) vc_feed(st, line, len);
    else nghttp2_submit_rst_stream(st->parent->h2->ng, NGHTTP2_FLAG_NONE, st->id, NGHTTP2_INTERNAL_ERROR);
    free(line);
}

static int h2s_on_begin_headers(nghttp2_session *ng, const nghttp2_frame *f, void *ud) {
    Http1Conn *c = ud;
    if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    H2Side *h = c->h2;
    H2Stream *st = calloc(1, sizeof *st);
    Http1Conn *vc = st ? calloc(1, sizeof *vc) : NULL;
    if (vc) vc->url = malloc(256);
    if (!st || !vc || !vc->url) {
        if (vc) free(vc->url);
        free(vc);
        free(st);
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    }
    vc->url_cap = 256;
    vc->url[0] = '\0';
    vc->head.ops = c->head.ops;
    vc->head.srv = c->head.srv;
    vc->head.http_port = true;
    vc->head.tls = c->head.tls; /* borrowed: conn_is_tls, conn_principal */
    memcpy(vc->head.cert_principal, c->head.cert_principal, sizeof vc->head.cert_principal);
    vc->seen_bytes = true;
    vc->bridge = st;
    http_parser_init(&vc->parser, HTTP_REQUEST);
    vc->parser.data = vc;
    st->vc = vc;
    st->parent = c;
    st->id = f->hd.stream_id;
    http_parser_init(&st->rp, HTTP_RESPONSE);
    st->rp.data = st;
    st->acks_tail = &st->acks;
    st->next = h->streams;
    if (h->streams) h->streams->prev = st;
    h->streams = st;
    h->nstreams++;
    c->head.last_active_ns = mono_ns(); /* a request, not a byte, is activity */
    nghttp2_session_set_stream_user_data(ng, f->hd.stream_id, st);
    return 0;
}

static int h2s_on_header(nghttp2_session *ng, const nghttp2_frame *f, const uint8_t *name, size_t nl,
                         const uint8_t *value, size_t vl, uint8_t flags, void *ud) {
    (void)flags;
    Http1Conn *c = ud;
    if (f->hd.type != NGHTTP2_HEADERS) return 0;
    H2Stream *st = nghttp2_session_get_stream_user_data(ng, f->hd.stream_id);
    if (!st || st->head_fed) return 0; /* request trailers: ignored */
    st->header_bytes += nl + vl + 32; /* RFC 9113 6.5.2's accounting */
    if (st->header_bytes > c->head.srv->cfg.max_header_list_bytes) {
        metrics_bad_input(&c->head.srv->metrics);
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE; /* resets this stream only */
    }
    if (nl == 7 && !memcmp(name, ":method", 7)) {
        snprintf(st->method, sizeof st->method, "%.*s", (int)(vl < 15 ? vl : 15), value);
        return 0;
    }
    if (nl == 5 && !memcmp(name, ":path", 5)) {
        free(st->path);
        st->path = strndup((const char *)value, vl);
        return st->path ? 0 : NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    }
    const char *hn = (const char *)name;
    size_t hl = nl;
    if (nl == 10 && !memcmp(name, ":authority", 10)) {
        hn = "host";
        hl = 4;
    } else if (nl && name[0] == ':') {
        return 0; /* :scheme */
    }
    /* framing and hop-by-hop fields are the bridge's own */
    static const char *const DROP[] = {"content-length", "transfer-encoding", "connection", "expect", "te",
                                       "keep-alive", "upgrade", NULL};
    for (int i = 0; DROP[i]; i++)
        if (hl == strlen(DROP[i]) && !memcmp(hn, DROP[i], hl)) return 0;
    /* nghttp2 has refused CR, LF and NUL in names and values already */
    if (!hdr_append(&st->hdrs, &st->hdrs_len, &st->hdrs_cap, hn, hl) ||
        !hdr_append(&st->hdrs, &st->hdrs_len, &st->hdrs_cap, ": ", 2) ||
        !hdr_append(&st->hdrs, &st->hdrs_len, &st->hdrs_cap, (const char *)value, vl) ||
        !hdr_append(&st->hdrs, &st->hdrs_len, &st->hdrs_cap, "\r\n", 2))
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    return 0;
}

static int h2s_on_data_chunk(nghttp2_session *ng, uint8_t flags, int32_t sid, const uint8_t *data, size_t len,
                             void *ud) {
    (void)flags;
    (void)ud;
    H2Stream *st = nghttp2_session_get_stream_user_data(ng, sid);
    if (!st || !len) return 0;
    h2s_feed_head(st);
    char hx[24];
    int n = snprintf(hx, sizeof hx, "%zx\r\n", len);
    vc_feed(st, hx, (size_t)n);
    vc_feed(st, (const char *)data, len);
    vc_feed(st, "\r\n", 2);
    return 0;
}

static int h2s_on_frame_recv(nghttp2_session *ng, const nghttp2_frame *f, void *ud) {
    (void)ud;
    if (f->hd.type != NGHTTP2_HEADERS && f->hd.type != NGHTTP2_DATA) return 0;
    H2Stream *st = nghttp2_session_get_stream_user_data(ng, f->hd.stream_id);
    if (!st) return 0;
    if (f->hd.type == NGHTTP2_HEADERS) h2s_feed_head(st);
    if ((f->hd.flags & NGHTTP2_FLAG_END_STREAM) && !st->ended) {
        st->ended = true;
        vc_feed(st, "0\r\n\r\n", 5);
    }
    return 0;
}

static int h2s_on_stream_close(nghttp2_session *ng, int32_t sid, uint32_t err, void *ud) {
    (void)err;
    Http1Conn *c = ud;
    H2Stream *st = nghttp2_session_get_stream_user_data(ng, sid);
    if (st) {
        nghttp2_session_set_stream_user_data(ng, sid, NULL);
        h2s_stream_free(c, st);
        server_drain_check(c->head.srv);
    }
    return 0;
}

/* ---- the connection */

static void h2s_really_close(Http1Conn *c) {
    if (c->head.closing) return;
    c->head.closing = true;
    conn_close(&c->head, on_closed);
}

static void h2s_on_write(uv_write_t *req, int status) {
    WriteReq *w = (WriteReq *)req;
    Http1Conn *c = req->data;
    H2Side *h = c->h2;
    h->pending_write -= w->len;
    free(w);
    if (c->head.closing) return;
    if (status < 0) return h2s_really_close(c);
    if (h->want_close && h->pending_write == 0) return h2s_really_close(c);
    if (h->pending_write < H2S_WRITE_HIGH_WATER / 2) h2s_flush(c);
}

static void h2s_flush_acks(Http1Conn *c, bool acks) {
    H2Side *h = c->h2;
    if (c->head.closing || h->in_flush || h->in_recv) return;
    h->in_flush = true;
    for (;;) {
        while (h->pending_write < H2S_WRITE_HIGH_WATER) {
            size_t cap = 65536, len = 0;
            WriteReq *w = malloc(sizeof *w + cap);
            if (!w) break;
            for (;;) {
                const uint8_t *data;
                ssize_t n = nghttp2_session_mem_send(h->ng, &data);
                if (n < 0) {
                    free(w);
                    h->in_flush = false;
                    return h2s_really_close(c);
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
            w->len = len;
            w->req.data = c;
            uv_buf_t b = uv_buf_init(w->data, (unsigned)len);
            h->pending_write += len;
            if (conn_write(&c->head, &w->req, &b, 1, h2s_on_write) != 0) {
                h->pending_write -= len;
                free(w);
                h->in_flush = false;
                return h2s_really_close(c);
            }
        }
        /* the writes whose bytes DATA has taken are done: their callbacks may write more */
        bool any = false;
        for (H2Stream *st = h->streams; st && acks; st = st->next) any |= h2s_fire_acks(st, false);
        if (!any || c->head.closing || h->pending_write >= H2S_WRITE_HIGH_WATER) break;
    }
    h->in_flush = false;
    if (!nghttp2_session_want_read(h->ng) && !nghttp2_session_want_write(h->ng)) h->want_close = true;
    if (h->want_close && h->pending_write == 0) h2s_really_close(c);
}

static void h2s_recv(Http1Conn *c, const uint8_t *data, size_t n) {
    H2Side *h = c->h2;
    h->in_recv = true;
    ssize_t rc = nghttp2_session_mem_recv(h->ng, data, n);
    h->in_recv = false;
    if (rc < 0) {
        /* bad preface, flood, ...: a GOAWAY, then close */
        log_json(c->head.srv->cfg.log_level, LOG_WARN, "http2 protocol error",
                 json_pack("{s:s,s:s}", "port", "http", "error", nghttp2_strerror((int)rc)));
        metrics_bad_input(&c->head.srv->metrics);
        nghttp2_session_terminate_session(h->ng, NGHTTP2_PROTOCOL_ERROR);
        h->want_close = true;
    }
    h2s_flush(c);
}

static void h2s_side_free(Http1Conn *c) {
    H2Side *h = c->h2;
    if (!h) return;
    while (h->streams) h2s_stream_free(c, h->streams);
    if (h->later) {
        h->later->data = NULL;
        uv_timer_stop(h->later);
        uv_close((uv_handle_t *)h->later, h2s_timer_closed);
    }
    nghttp2_session_del(h->ng);
    free(h);
    c->h2 = NULL;
}

static void h2s_close(ConnHead *ch) {
    Http1Conn *c = (Http1Conn *)ch;
    c->h2->want_close = true;
    if (ch->force_close || (!c->h2->in_flush && c->h2->pending_write == 0)) h2s_really_close(c);
}

static void h2s_drain(ConnHead *ch) {
    Http1Conn *c = (Http1Conn *)ch;
    H2Side *h = c->h2;
    if (h->goaway_sent || ch->closing) return;
    h->goaway_sent = true;
    nghttp2_submit_goaway(h->ng, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(h->ng), NGHTTP2_NO_ERROR,
                          NULL, 0);
    h2s_flush(c);
}

static bool h2s_idle(const ConnHead *ch) { return ((const Http1Conn *)ch)->h2->nstreams == 0; }

static void h2s_cancel_all(ConnHead *ch) {
    Http1Conn *c = (Http1Conn *)ch;
    for (H2Stream *st = c->h2->streams; st; st = st->next)
        if (st->vc && st->vc->job) job_cancel(st->vc->job);
}

static const ConnOps H2S_OPS = {h2s_drain, h2s_close, h2s_idle, h2s_cancel_all};

static bool h2s_start(Http1Conn *c) {
    Server *srv = c->head.srv;
    H2Side *h = calloc(1, sizeof *h);
    if (!h) return false;
    nghttp2_session_callbacks *cb;
    if (nghttp2_session_callbacks_new(&cb) != 0) {
        free(h);
        return false;
    }
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, h2s_on_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(cb, h2s_on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, h2s_on_data_chunk);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, h2s_on_frame_recv);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, h2s_on_stream_close);
    nghttp2_option *opt;
    nghttp2_option_new(&opt);
    /* the gRPC port's hardening (h2.c) */
    nghttp2_option_set_max_send_header_block_length(opt, 65536);
    nghttp2_option_set_max_deflate_dynamic_table_size(opt, 4096);
    nghttp2_option_set_max_outbound_ack(opt, 1000);
    nghttp2_option_set_max_settings(opt, 32);
    nghttp2_option_set_stream_reset_rate_limit(opt, 1000, 33);
    nghttp2_option_set_max_continuations(opt, 8);
    int rc = nghttp2_session_server_new2(&h->ng, cb, c, opt);
    nghttp2_option_del(opt);
    nghttp2_session_callbacks_del(cb);
    if (rc != 0) {
        free(h);
        return false;
    }
    c->h2 = h;
    c->head.ops = &H2S_OPS;
    nghttp2_settings_entry iv[] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, srv->cfg.max_concurrent_streams},
        {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, srv->cfg.max_header_list_bytes},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 20},
    };
    nghttp2_submit_settings(h->ng, NGHTTP2_FLAG_NONE, iv, 3);
    nghttp2_session_set_local_window_size(h->ng, NGHTTP2_FLAG_NONE, 0, 4 << 20);
    return true;
}
