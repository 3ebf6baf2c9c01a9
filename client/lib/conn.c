/* The asynchronous layer of czclient.h: one HTTP/2 connection (nghttp2 on a
 * libuv TCP handle) carrying gRPC calls as streams. Follows gRPC's
 * doc/PROTOCOL-HTTP2.md: POST, content-type application/grpc, te: trailers,
 * 5-byte length-prefixed messages, grpc-status/grpc-message in trailers (or in
 * a Trailers-Only response).
 *
 * A Sock is one dial of the connection: a dropped socket is left to close on
 * its own while the CzcConn dials a fresh Sock for the next call, so late
 * libuv callbacks of the old socket never touch the new one.
 *
 * With czc_conn_set_security's ca_file, a Sock speaks TLS through OpenSSL
 * memory BIOs between the socket and nghttp2 (ALPN h2, the server's name
 * verified): what nghttp2 produces before the handshake ends is held, then
 * encrypted; nothing blocks the loop. */
#include <arpa/inet.h>
#include <netdb.h>
#include <nghttp2/nghttp2.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "czclient.h"

enum { READ_BUF = 1 << 16, WINDOW = 1 << 24, MAX_FRAME = 1 << 20 };

typedef struct Sock Sock;

struct CzcCall {
    CzcConn *conn;
    Sock *sock;             /* the socket it was submitted on; NULL while queued */
    int32_t stream_id;
    char path[128];
    uint8_t *req;           /* framed request (5-byte prefix + message) */
    size_t req_len, req_off;
    const ProtobufCMessageDescriptor *resp_desc;
    CzcMessageFn on_message;
    CzcRawFn on_raw;        /* czc_call_start_raw: responses as bytes */
    CzcDoneFn on_done;
    void *ud;
    CzcAnalyzeHandler analyze; /* czc_analyze's adapter state */
    void (*on_execute)(void *, const Catalyzer__V1__ExecuteResponse *);
    uint32_t timeout_ms;
    uv_timer_t *timer;
    uint8_t *buf;           /* response bytes not yet framed */
    size_t buf_len, buf_cap;
    int http_status;
    int grpc_status;        /* -1 until seen */
    char grpc_message[256];
    bool got_headers, got_data, retried, done;
    int busy;               /* inside a callback of this call: freeing waits */
    CzcCall *next, *prev;
};

struct Sock {
    uv_tcp_t tcp;
    uv_connect_t connect_req;
    uv_getaddrinfo_t gai;
    bool tcp_init;          /* tcp handle initialised (after name resolution) */
    CzcConn *conn;          /* NULL once the connection was freed */
    Sock *snext, *sprev;    /* the connection's live sockets (a GOAWAY'd one may drain beside the current) */
    nghttp2_session *ng;
    bool connected, dead, in_recv;
    SSL *ssl;               /* TLS: NULL for cleartext */
    bool tls_done;          /* handshake finished */
    uint8_t *held;          /* plaintext produced before the handshake finished */
    size_t held_len;
    char rbuf[READ_BUF];
};

struct CzcConn {
    uv_loop_t *loop;
    bool own_loop;
    char host[256];
    int port;
    char authority[300];
    Sock *sock;             /* current socket, NULL when idle */
    Sock *socks;            /* every live socket */
    uv_timer_t kick;        /* deferred work: dial, submit queued calls, flush */
    bool closing;
    CzcCall *calls;         /* every call not yet done */
    size_t ncalls;
    uint64_t connects;
    SSL_CTX *tls;           /* czc_conn_set_security: TLS to the server */
    char *server_name;      /* verified name and SNI; NULL: host */
    char *authorization;    /* "Bearer TOKEN" or NULL */
};

typedef struct WriteReq {
    uv_write_t req;
    uint8_t data[];
} WriteReq;

static const char *const STATUS_NAMES[CZC_STATUS_COUNT] = {
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
    "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};

const char *czc_status_name(int status) {
    return status >= 0 && status < CZC_STATUS_COUNT ? STATUS_NAMES[status] : "UNKNOWN";
}

bool czc_parse_hostport(const char *s, char *host, size_t hostcap, int *port) {
    const char *colon = s ? strrchr(s, ':') : NULL;
    if (!colon) return false;
    size_t hl = (size_t)(colon - s);
    if (hl >= 2 && s[0] == '[' && s[hl - 1] == ']') {
        s++;
        hl -= 2;
    }
    if (hl == 0 || hl >= hostcap) return false;
    char *end;
    long p = strtol(colon + 1, &end, 10);
    if (!colon[1] || *end || p <= 0 || p > 65535) return false;
    memcpy(host, s, hl);
    host[hl] = '\0';
    *port = (int)p;
    return true;
}

static void sock_flush(Sock *s);
static void sock_drop(Sock *s, const char *why);
static bool submit_call(Sock *s, CzcCall *call);
static void conn_kick(CzcConn *c);
static void dial_failed(Sock *s, int status);

/* ---------------------------------------------------------------- calls */

static void timer_closed(uv_handle_t *h) { free(h); }

static void call_unlink(CzcCall *call) {
    CzcConn *c = call->conn;
    if (call->prev) call->prev->next = call->next;
    else if (c->calls == call) c->calls = call->next;
    if (call->next) call->next->prev = call->prev;
    call->next = call->prev = NULL;
    c->ncalls--;
}

/* Drops a callback's hold; the last one frees a finished call (a callback
 * may cancel its own call). */
static void call_release(CzcCall *call) {
    if (--call->busy > 0 || !call->done) return;
    free(call->req);
    free(call->buf);
    free(call);
}

/* Ends the call: exactly one on_done, then the call is freed. */
static void call_finish(CzcCall *call, int status, const char *msg) {
    if (call->done) return;
    call->done = true;
    if (call->timer) {
        uv_timer_stop(call->timer);
        uv_close((uv_handle_t *)call->timer, timer_closed);
        call->timer = NULL;
    }
    if (call->sock && call->sock->ng && call->stream_id > 0)
        nghttp2_session_set_stream_user_data(call->sock->ng, call->stream_id, NULL);
    call_unlink(call);
    call->busy++;
    if (call->on_done) call->on_done(call->ud, status, msg ? msg : "");
    call_release(call);
}

/* Stops the stream on the wire (if it is there) and ends the call. */
static void call_abort(CzcCall *call, int status, const char *msg) {
    Sock *s = call->sock;
    if (s && s->ng && !s->dead && call->stream_id > 0) {
        nghttp2_submit_rst_stream(s->ng, NGHTTP2_FLAG_NONE, call->stream_id, NGHTTP2_CANCEL);
        call_finish(call, status, msg);
        if (!s->in_recv) sock_flush(s);
        return;
    }
    call_finish(call, status, msg);
}

void czc_call_cancel(CzcCall *call) {
    if (call && !call->done) call_abort(call, CZC_CANCELLED, "cancelled by the client");
}

static void on_deadline(uv_timer_t *t) {
    CzcCall *call = t->data;
    if (call) call_abort(call, CZC_DEADLINE_EXCEEDED, "deadline exceeded");
}

/* Frames whole messages out of the call's buffer and hands them over. */
static void call_deliver_held(CzcCall *call);
static void call_deliver(CzcCall *call) {
    call->busy++;
    call_deliver_held(call);
    call_release(call);
}

static void call_deliver_held(CzcCall *call) {
    size_t off = 0;
    while (!call->done && call->buf_len - off >= 5) {
        const uint8_t *p = call->buf + off;
        uint32_t len = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 8 | p[4];
        if (p[0] != 0) {
            call_abort(call, CZC_INTERNAL, "compressed or malformed gRPC message from the server");
            return;
        }
        if (call->buf_len - off - 5 < len) break;
        if (call->on_raw) {
            off += 5 + (size_t)len;
            call->on_raw(call->ud, p + 5, len);
            continue;
        }
        ProtobufCMessage *m = protobuf_c_message_unpack(call->resp_desc, NULL, len, p + 5);
        off += 5 + (size_t)len;
        if (!m) {
            call_abort(call, CZC_INTERNAL, "malformed response message");
            return;
        }
        bool keep = call->on_message ? call->on_message(call->ud, m) : false;
        if (!keep) protobuf_c_message_free_unpacked(m, NULL);
    }
    if (call->done) return;
    memmove(call->buf, call->buf + off, call->buf_len - off);
    call->buf_len -= off;
}

static void call_append(CzcCall *call, const uint8_t *data, size_t len) {
    if (call->buf_len + len > call->buf_cap) {
        size_t cap = call->buf_cap ? call->buf_cap : 4096;
        while (cap < call->buf_len + len) cap *= 2;
        uint8_t *nb = realloc(call->buf, cap);
        if (!nb) {
            call_abort(call, CZC_RESOURCE_EXHAUSTED, "out of memory");
            return;
        }
        call->buf = nb;
        call->buf_cap = cap;
    }
    memcpy(call->buf + call->buf_len, data, len);
    call->buf_len += len;
    call_deliver(call);
}

/* A response without grpc-status: gRPC's HTTP-to-status mapping (a proxy's
 * 502/503/504 when a backend is gone is UNAVAILABLE, worth a retry). */
static int http_to_grpc(int http) {
    switch (http) {
    case 404:
    case 501: return CZC_UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504: return CZC_UNAVAILABLE;
    default: return CZC_UNKNOWN;
    }
}

/* The stream ended: its status from the trailers, or what the transport says. */
static void call_closed(CzcCall *call, uint32_t error_code) {
    if (call->grpc_status >= 0) {
        if (call->buf_len && call->grpc_status == CZC_OK)
            call_finish(call, CZC_INTERNAL, "truncated response message");
        else
            call_finish(call, call->grpc_status, call->grpc_message);
        return;
    }
    if (error_code == NGHTTP2_REFUSED_STREAM && !call->got_headers && !call->retried) {
        /* The server never saw it (GOAWAY / refused): safe to send again. */
        call->retried = true;
        call->sock = NULL;
        call->stream_id = 0;
        call->req_off = 0;
        conn_kick(call->conn);
        return;
    }
    char m[128];
    if (call->got_headers && call->http_status != 200) {
        snprintf(m, sizeof m, "HTTP status %d", call->http_status);
        call_finish(call, http_to_grpc(call->http_status), m);
    } else if (error_code == NGHTTP2_REFUSED_STREAM) {
        call_finish(call, CZC_UNAVAILABLE, "stream refused by the server");
    } else {
        snprintf(m, sizeof m, "stream closed without a gRPC status (HTTP/2 error %u)", error_code);
        call_finish(call, error_code == NGHTTP2_CANCEL ? CZC_CANCELLED : CZC_UNAVAILABLE, m);
    }
}

/* ---------------------------------------------------------------- nghttp2 callbacks */

static CzcCall *stream_call(nghttp2_session *ng, int32_t sid) {
    return nghttp2_session_get_stream_user_data(ng, sid);
}

static int on_header(nghttp2_session *ng, const nghttp2_frame *f, const uint8_t *name, size_t nlen,
                     const uint8_t *value, size_t vlen, uint8_t flags, void *ud) {
    (void)flags;
    (void)ud;
    if (f->hd.type != NGHTTP2_HEADERS) return 0;
    CzcCall *call = stream_call(ng, f->hd.stream_id);
    if (!call) return 0;
    call->got_headers = true;
    if (nlen == 7 && !memcmp(name, ":status", 7)) {
        call->http_status = atoi((const char *)value);
    } else if (nlen == 11 && !memcmp(name, "grpc-status", 11)) {
        char v[16];
        size_t n = vlen < sizeof v - 1 ? vlen : sizeof v - 1;
        memcpy(v, value, n);
        v[n] = 0;
        call->grpc_status = atoi(v);
    } else if (nlen == 12 && !memcmp(name, "grpc-message", 12)) {
        /* percent-decoding (gRPC's grpc-message is percent-encoded UTF-8) */
        size_t o = 0;
        for (size_t i = 0; i < vlen && o + 1 < sizeof call->grpc_message; i++) {
            int hi, lo;
            if (value[i] == '%' && i + 2 < vlen && sscanf((const char *)value + i + 1, "%1x%1x", &hi, &lo) == 2) {
                call->grpc_message[o++] = (char)(hi * 16 + lo);
                i += 2;
            } else {
                call->grpc_message[o++] = (char)value[i];
            }
        }
        call->grpc_message[o] = 0;
    }
    return 0;
}

static int on_data(nghttp2_session *ng, uint8_t flags, int32_t sid, const uint8_t *data, size_t len, void *ud) {
    (void)flags;
    (void)ud;
    CzcCall *call = stream_call(ng, sid);
    if (!call) return 0;
    call->got_data = true;
    call_append(call, data, len);
    return 0;
}

static int on_stream_close(nghttp2_session *ng, int32_t sid, uint32_t error_code, void *ud) {
    (void)ud;
    CzcCall *call = stream_call(ng, sid);
    if (!call) return 0;
    nghttp2_session_set_stream_user_data(ng, sid, NULL);
    call->stream_id = 0; /* the stream is gone: call_finish must not touch it */
    call_closed(call, error_code);
    return 0;
}

static ssize_t req_read(nghttp2_session *ng, int32_t sid, uint8_t *buf, size_t len, uint32_t *flags,
                        nghttp2_data_source *src, void *ud) {
    (void)src;
    (void)ud;
    /* Through the stream's user data, not src: a finished call clears it */
    CzcCall *call = nghttp2_session_get_stream_user_data(ng, sid);
    if (!call) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE; /* resets the stream */
    size_t n = call->req_len - call->req_off;
    if (n > len) n = len;
    memcpy(buf, call->req + call->req_off, n);
    call->req_off += n;
    if (call->req_off == call->req_len) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return (ssize_t)n;
}

/* ---------------------------------------------------------------- socket */

static void write_done(uv_write_t *w, int status) {
    (void)status;
    free(w);
}

static void sock_closed(uv_handle_t *h) {
    Sock *s = h->data;
    if (s->ng) nghttp2_session_del(s->ng);
    SSL_free(s->ssl);
    free(s->held);
    free(s);
}

static void sock_unlink(Sock *s) {
    CzcConn *c = s->conn;
    if (!c) return;
    if (c->sock == s) c->sock = NULL;
    if (s->sprev) s->sprev->snext = s->snext;
    else if (c->socks == s) c->socks = s->snext;
    if (s->snext) s->snext->sprev = s->sprev;
    s->snext = s->sprev = NULL;
    s->conn = NULL;
}

/* Closes the handle (freeing the Sock after); a Sock still resolving its
 * name is freed by the resolver's callback. */
static void sock_close(Sock *s) {
    if (!s->tcp_init) return;
    uv_read_stop((uv_stream_t *)&s->tcp);
    uv_close((uv_handle_t *)&s->tcp, sock_closed);
}

/* Bytes onto the socket (copied). */
static bool write_bytes(Sock *s, const uint8_t *data, size_t n) {
    if (!n) return true;
    WriteReq *w = malloc(sizeof *w + n);
    if (!w) return false;
    memcpy(w->data, data, n);
    uv_buf_t b = uv_buf_init((char *)w->data, (unsigned)n);
    if (uv_write(&w->req, (uv_stream_t *)&s->tcp, &b, 1, write_done) != 0) {
        free(w);
        return false;
    }
    return true;
}

/* TLS's output (handshake or records) onto the socket. */
static bool tls_send(Sock *s) {
    BIO *out = SSL_get_wbio(s->ssl);
    uint8_t buf[16384];
    int n;
    while ((n = BIO_read(out, buf, sizeof buf)) > 0)
        if (!write_bytes(s, buf, (size_t)n)) return false;
    return true;
}

static void tls_reason(Sock *s, const char *what, char *out, size_t cap) {
    long vr = SSL_get_verify_result(s->ssl);
    unsigned long e = ERR_get_error();
    char buf[160] = "";
    if (vr != X509_V_OK)
        snprintf(buf, sizeof buf, "%s", X509_verify_cert_error_string(vr));
    else if (e)
        ERR_error_string_n(e, buf, sizeof buf);
    ERR_clear_error();
    snprintf(out, cap, "%s%s%s", what, *buf ? ": " : "", buf);
}

/* Plaintext from nghttp2: encrypted now, or held until the handshake ends. */
static bool tls_out(Sock *s, const uint8_t *data, size_t n) {
    if (!s->tls_done) {
        uint8_t *nh = realloc(s->held, s->held_len + n);
        if (!nh) return false;
        memcpy(nh + s->held_len, data, n);
        s->held = nh;
        s->held_len += n;
        return true;
    }
    if (n && SSL_write(s->ssl, data, (int)n) != (int)n) return false;
    return tls_send(s);
}

static void sock_flush(Sock *s) {
    if (s->dead || !s->ng) return;
    uint8_t *out = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        const uint8_t *data;
        ssize_t k = nghttp2_session_mem_send(s->ng, &data);
        if (k < 0) {
            free(out);
            sock_drop(s, nghttp2_strerror((int)k));
            return;
        }
        if (k == 0) break;
        if (n + (size_t)k > cap) {
            cap = cap ? cap * 2 : 16384;
            while (cap < n + (size_t)k) cap *= 2;
            uint8_t *nb = realloc(out, sizeof(WriteReq) + cap);
            if (!nb) {
                free(out);
                sock_drop(s, "out of memory");
                return;
            }
            out = nb;
        }
        memcpy(out + sizeof(WriteReq) + n, data, (size_t)k);
        n += (size_t)k;
    }
    if (n && s->ssl) {
        bool ok = tls_out(s, out + sizeof(WriteReq), n);
        free(out);
        if (!ok) {
            sock_drop(s, "TLS write failed");
            return;
        }
    } else if (n) {
        WriteReq *w = (WriteReq *)out;
        uv_buf_t b = uv_buf_init((char *)w->data, (unsigned)n);
        if (uv_write(&w->req, (uv_stream_t *)&s->tcp, &b, 1, write_done) != 0) {
            free(out);
            sock_drop(s, "write failed");
            return;
        }
    } else {
        free(out);
    }
    if (!nghttp2_session_want_read(s->ng) && !nghttp2_session_want_write(s->ng)) sock_drop(s, "connection closed");
}

/* The socket is finished: calls on it end (or are re-sent if the server
 * never saw them); queued calls make the connection dial again. */
static void sock_drop(Sock *s, const char *why) {
    if (s->dead) return;
    s->dead = true;
    CzcConn *c = s->conn;
    sock_unlink(s);
    sock_close(s);
    if (!c) return;
    char m[512];
    snprintf(m, sizeof m, "connection to %s lost: %s", c->authority, why);
    bool redial = false;
    for (CzcCall *call = c->calls, *next; call; call = next) {
        next = call->next;
        if (call->sock != s) {
            if (!call->sock) redial = true; /* queued before the socket connected */
            continue;
        }
        call->stream_id = 0;
        if (!call->got_headers && !call->retried && !s->connected) {
            call->sock = NULL; /* never reached the server */
            redial = true;
        } else {
            call->sock = NULL;
            call_finish(call, CZC_UNAVAILABLE, m);
        }
    }
    if (redial) conn_kick(c);
}

static void alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *b) {
    (void)hint;
    Sock *s = h->data;
    *b = uv_buf_init(s->rbuf, sizeof s->rbuf);
}

/* Plaintext to nghttp2; false when the socket was dropped. */
static bool h2_recv(Sock *s, const uint8_t *data, size_t n) {
    s->in_recv = true;
    ssize_t k = nghttp2_session_mem_recv(s->ng, data, n);
    s->in_recv = false;
    if (k < 0) {
        sock_drop(s, nghttp2_strerror((int)k));
        return false;
    }
    sock_flush(s);
    return !s->dead;
}

/* Ciphertext from the server: the handshake, then records decrypted into
 * the read buffer (the ciphertext was copied into TLS already). */
static void tls_recv(Sock *s, const uint8_t *data, size_t n) {
    char why[256];
    if (BIO_write(SSL_get_rbio(s->ssl), data, (int)n) != (int)n) {
        sock_drop(s, "out of memory");
        return;
    }
    if (!s->tls_done) {
        int rc = SSL_do_handshake(s->ssl);
        if (rc != 1) {
            int e = SSL_get_error(s->ssl, rc);
            if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
                if (!tls_send(s)) sock_drop(s, "write failed");
                return;
            }
            tls_reason(s, "TLS handshake failed", why, sizeof why);
            tls_send(s); /* the alert */
            sock_drop(s, why);
            return;
        }
        const unsigned char *alpn;
        unsigned alen;
        SSL_get0_alpn_selected(s->ssl, &alpn, &alen);
        if (alen != 2 || memcmp(alpn, "h2", 2) != 0) {
            sock_drop(s, "TLS: the server did not negotiate HTTP/2 (ALPN h2)");
            return;
        }
        s->tls_done = true;
        uint8_t *held = s->held;
        size_t hl = s->held_len;
        s->held = NULL;
        s->held_len = 0;
        bool ok = tls_out(s, held, hl);
        free(held);
        if (!ok) {
            sock_drop(s, "TLS write failed");
            return;
        }
    }
    for (;;) {
        int k = SSL_read(s->ssl, s->rbuf, sizeof s->rbuf);
        if (k <= 0) {
            int e = SSL_get_error(s->ssl, k);
            if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) break;
            if (e == SSL_ERROR_ZERO_RETURN)
                snprintf(why, sizeof why, "closed by the server");
            else
                tls_reason(s, "TLS read failed", why, sizeof why);
            sock_drop(s, why);
            return;
        }
        if (!h2_recv(s, (const uint8_t *)s->rbuf, (size_t)k)) return;
    }
    if (!tls_send(s)) sock_drop(s, "write failed");
}

static void read_cb(uv_stream_t *st, ssize_t n, const uv_buf_t *b) {
    Sock *s = st->data;
    if (s->dead) return;
    if (n < 0) {
        sock_drop(s, n == UV_EOF ? "closed by the server" : uv_strerror((int)n));
        return;
    }
    if (n == 0) return;
    if (s->ssl) {
        tls_recv(s, (const uint8_t *)b->base, (size_t)n);
        return;
    }
    h2_recv(s, (const uint8_t *)b->base, (size_t)n);
}

/* Queues the call's HEADERS and DATA on the session (no I/O). */
static bool submit_call(Sock *s, CzcCall *call) {
    CzcConn *c = call->conn;
    char timeout[24] = "";
    if (call->timeout_ms) {
        /* grpc-timeout: at most 8 digits; fall back to seconds for huge values */
        if (call->timeout_ms < 100000000u) snprintf(timeout, sizeof timeout, "%um", call->timeout_ms);
        else snprintf(timeout, sizeof timeout, "%uS", call->timeout_ms / 1000);
    }
#define NV(n, v) {(uint8_t *)(n), (uint8_t *)(v), strlen(n), strlen(v), NGHTTP2_NV_FLAG_NONE}
    nghttp2_nv nva[9] = {NV(":method", "POST"),           NV(":scheme", s->ssl ? "https" : "http"),
                         NV(":path", call->path),          NV(":authority", c->authority),
                         NV("content-type", "application/grpc"), NV("te", "trailers"),
                         NV("user-agent", "catalyzer-c/0.1")};
    size_t nnv = 7;
    if (*timeout) nva[nnv++] = (nghttp2_nv)NV("grpc-timeout", timeout);
    /* The token is a secret: never put in HPACK's dynamic table. */
    if (c->authorization)
        nva[nnv++] = (nghttp2_nv){(uint8_t *)"authorization", (uint8_t *)c->authorization, 13,
                                  strlen(c->authorization), NGHTTP2_NV_FLAG_NO_INDEX};
#undef NV
    nghttp2_data_provider dp = {.source.ptr = call, .read_callback = req_read};
    int32_t sid = nghttp2_submit_request(s->ng, NULL, nva, nnv, &dp, call);
    if (sid < 0) return false;
    call->sock = s;
    call->stream_id = sid;
    return true;
}

/* A TLS client on memory BIOs: SNI, the server's name or address verified,
 * ALPN h2; the ClientHello goes out once reading starts. */
static bool tls_begin(Sock *s) {
    CzcConn *c = s->conn;
    s->ssl = SSL_new(c->tls);
    BIO *in = BIO_new(BIO_s_mem()), *out = BIO_new(BIO_s_mem());
    if (!s->ssl || !in || !out) {
        BIO_free(in);
        BIO_free(out);
        return false;
    }
    BIO_set_mem_eof_return(in, -1);
    SSL_set_bio(s->ssl, in, out);
    SSL_set_connect_state(s->ssl);
    const char *name = c->server_name ? c->server_name : c->host;
    unsigned char addr[16];
    bool is_ip = inet_pton(AF_INET, name, addr) == 1 || inet_pton(AF_INET6, name, addr) == 1;
    if (is_ip) {
        if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(s->ssl), name) != 1) return false;
    } else {
        SSL_set_tlsext_host_name(s->ssl, name);
        if (SSL_set1_host(s->ssl, name) != 1) return false;
    }
    return true;
}

static void on_connect(uv_connect_t *req, int status) {
    Sock *s = req->data;
    if (s->dead) return;
    CzcConn *c = s->conn;
    if (status < 0) {
        dial_failed(s, status);
        return;
    }
    s->connected = true;
    c->connects++;
    uv_tcp_nodelay(&s->tcp, 1);
    if (c->tls && !tls_begin(s)) {
        sock_drop(s, "cannot start TLS");
        return;
    }
    nghttp2_session_callbacks *cb;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_stream_close);
    nghttp2_option *opt;
    nghttp2_option_new(&opt);
    nghttp2_option_set_max_reserved_remote_streams(opt, 0);
    nghttp2_session_client_new2(&s->ng, cb, s, opt);
    nghttp2_option_del(opt);
    nghttp2_session_callbacks_del(cb);
    nghttp2_settings_entry iv[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
                                   {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, WINDOW},
                                   {NGHTTP2_SETTINGS_MAX_FRAME_SIZE, MAX_FRAME}};
    nghttp2_submit_settings(s->ng, NGHTTP2_FLAG_NONE, iv, 3);
    nghttp2_session_set_local_window_size(s->ng, NGHTTP2_FLAG_NONE, 0, WINDOW);
    for (CzcCall *call = c->calls, *next; call; call = next) {
        next = call->next;
        if (!call->sock && !submit_call(s, call)) call_finish(call, CZC_UNAVAILABLE, "cannot start a stream");
    }
    uv_read_start((uv_stream_t *)&s->tcp, alloc_cb, read_cb);
    if (s->ssl) {
        SSL_do_handshake(s->ssl); /* the ClientHello */
        if (!tls_send(s)) {
            sock_drop(s, "write failed");
            return;
        }
    }
    sock_flush(s);
}

/* Dialling failed: the calls waiting for this socket end UNAVAILABLE. */
static void dial_failed(Sock *s, int status) {
    CzcConn *c = s->conn;
    s->dead = true;
    sock_unlink(s);
    if (s->tcp_init) uv_close((uv_handle_t *)&s->tcp, sock_closed);
    else free(s);
    if (!c) return;
    char m[512];
    snprintf(m, sizeof m, "cannot connect to %s: %s", c->authority, uv_strerror(status));
    for (CzcCall *call = c->calls, *next; call; call = next) {
        next = call->next;
        if (!call->sock) call_finish(call, CZC_UNAVAILABLE, m);
    }
}

static void on_resolved(uv_getaddrinfo_t *g, int status, struct addrinfo *ai) {
    Sock *s = g->data;
    if (s->dead) { /* the connection was freed meanwhile */
        if (ai) uv_freeaddrinfo(ai);
        free(s);
        return;
    }
    if (status < 0 || !ai) {
        if (ai) uv_freeaddrinfo(ai);
        dial_failed(s, status < 0 ? status : UV_EAI_NONAME);
        return;
    }
    uv_tcp_init(g->loop, &s->tcp);
    s->tcp_init = true;
    int rc = uv_tcp_connect(&s->connect_req, &s->tcp, ai->ai_addr, on_connect);
    uv_freeaddrinfo(ai);
    if (rc != 0) dial_failed(s, rc);
}

/* Resolves the name (libuv's thread pool: the loop never blocks), then connects. */
static void conn_dial(CzcConn *c) {
    Sock *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->conn = c;
    s->tcp.data = s;
    s->connect_req.data = s;
    s->gai.data = s;
    c->sock = s;
    s->snext = c->socks;
    if (c->socks) c->socks->sprev = s;
    c->socks = s;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    char port[8];
    snprintf(port, sizeof port, "%d", c->port);
    int rc = uv_getaddrinfo(c->loop, &s->gai, on_resolved, c->host, port, &hints);
    if (rc != 0) dial_failed(s, rc);
}

/* Deferred work, so that no call ends inside czc_call_start and the frames
 * of calls started together leave in one write. */
static void on_kick(uv_timer_t *t) {
    CzcConn *c = t->data;
    bool queued = false;
    for (CzcCall *call = c->calls; call && !queued; call = call->next) queued = !call->sock;
    Sock *s = c->sock;
    if (!s) {
        if (queued) conn_dial(c);
        return;
    }
    if (!s->connected || s->dead) return;
    if (queued && !nghttp2_session_check_request_allowed(s->ng)) {
        /* GOAWAY received: this socket takes no more streams; dial afresh */
        c->sock = NULL; /* streams in flight finish on the old socket */
        conn_dial(c);
        sock_flush(s);
        return;
    }
    for (CzcCall *call = c->calls, *next; call; call = next) {
        next = call->next;
        if (!call->sock && !submit_call(s, call)) call_finish(call, CZC_UNAVAILABLE, "cannot start a stream");
    }
    sock_flush(s);
}

static void conn_kick(CzcConn *c) {
    if (!c->closing && !uv_is_active((uv_handle_t *)&c->kick)) uv_timer_start(&c->kick, on_kick, 0, 0);
}

/* ---------------------------------------------------------------- public */

CzcConn *czc_conn_new(uv_loop_t *loop, const char *host, int port) {
    CzcConn *c = calloc(1, sizeof *c);
    if (!c) abort();
    if (!loop) {
        loop = malloc(sizeof *loop);
        if (!loop) abort();
        uv_loop_init(loop);
        c->own_loop = true;
    }
    c->loop = loop;
    snprintf(c->host, sizeof c->host, "%s", host);
    c->port = port;
    snprintf(c->authority, sizeof c->authority, strchr(host, ':') ? "[%s]:%d" : "%s:%d", host, port);
    uv_timer_init(loop, &c->kick);
    c->kick.data = c;
    return c;
}

bool czc_conn_set_security(CzcConn *c, const CzcSecurity *sec, char *err, size_t errlen) {
    if (sec->ca_file) {
        SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
        const char *bad = NULL;
        if (!ctx)
            bad = "cannot create a TLS context";
        else if (SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1 ||
                 SSL_CTX_load_verify_locations(ctx, sec->ca_file, NULL) != 1)
            bad = "cannot load the CA file";
        else if (sec->cert_file && SSL_CTX_use_certificate_chain_file(ctx, sec->cert_file) != 1)
            bad = "cannot load the client certificate";
        else if (sec->cert_file && SSL_CTX_use_PrivateKey_file(ctx, sec->key_file ? sec->key_file : sec->cert_file,
                                                               SSL_FILETYPE_PEM) != 1)
            bad = "cannot load the client key";
        else if (SSL_CTX_set_alpn_protos(ctx, (const unsigned char *)"\x02h2", 3) != 0)
            bad = "cannot set ALPN";
        if (bad) {
            unsigned long e = ERR_get_error();
            char buf[160] = "";
            if (e) ERR_error_string_n(e, buf, sizeof buf);
            ERR_clear_error();
            snprintf(err, errlen, "%s%s%s", bad, *buf ? ": " : "", buf);
            SSL_CTX_free(ctx);
            return false;
        }
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
        SSL_CTX_free(c->tls);
        c->tls = ctx;
    }
    free(c->server_name);
    c->server_name = sec->server_name ? strdup(sec->server_name) : NULL;
    free(c->authorization);
    c->authorization = NULL;
    if (sec->token) {
        size_t n = strlen(sec->token) + 8;
        c->authorization = malloc(n);
        if (!c->authorization) abort();
        snprintf(c->authorization, n, "Bearer %s", sec->token);
    }
    return true;
}

bool czc_read_token_file(const char *path, char *out, size_t cap, char *err, size_t errlen) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", path);
        return false;
    }
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || !*p) continue;
        size_t n = strcspn(p, " \t\r\n");
        if (n + 1 > cap) break;
        memcpy(out, p, n);
        out[n] = '\0';
        found = true;
    }
    OPENSSL_cleanse(line, sizeof line);
    fclose(f);
    if (!found) snprintf(err, errlen, "%s: no token in it", path);
    return found;
}

uv_loop_t *czc_conn_loop(CzcConn *c) { return c->loop; }
size_t czc_conn_active(const CzcConn *c) { return c->ncalls; }
uint64_t czc_conn_connects(const CzcConn *c) { return c->connects; }

static void conn_closed(uv_handle_t *h) { free(h->data); }

void czc_conn_free(CzcConn *c) {
    if (!c) return;
    while (c->calls) call_abort(c->calls, CZC_CANCELLED, "connection closed by the client");
    c->closing = true;
    while (c->socks) {
        Sock *s = c->socks;
        if (s->ng && !s->dead) {
            nghttp2_session_terminate_session(s->ng, NGHTTP2_NO_ERROR);
            sock_flush(s);
        }
        sock_unlink(s);
        if (!s->dead) {
            s->dead = true;
            sock_close(s);
        }
    }
    uv_loop_t *loop = c->loop;
    bool own = c->own_loop;
    SSL_CTX_free(c->tls); /* sockets still closing hold their own reference */
    free(c->server_name);
    if (c->authorization) OPENSSL_cleanse(c->authorization, strlen(c->authorization));
    free(c->authorization);
    uv_close((uv_handle_t *)&c->kick, conn_closed);
    if (own) {
        uv_run(loop, UV_RUN_DEFAULT); /* let the closes finish */
        uv_loop_close(loop);
        free(loop);
    }
}

/* A call, linked to the connection but not yet started. */
static CzcCall *call_new(CzcConn *c, const char *method_path, const ProtobufCMessage *req, const uint8_t *raw,
                         size_t raw_len, const ProtobufCMessageDescriptor *resp_desc, const CzcCallOptions *opts) {
    CzcCall *call = calloc(1, sizeof *call);
    if (!call) abort();
    call->conn = c;
    snprintf(call->path, sizeof call->path, "%s", method_path);
    call->resp_desc = resp_desc;
    call->grpc_status = -1;
    call->timeout_ms = opts ? opts->timeout_ms : 0;
    size_t n = req ? protobuf_c_message_get_packed_size(req) : raw_len;
    call->req = malloc(n + 5);
    if (!call->req) abort();
    call->req[0] = 0;
    call->req[1] = (uint8_t)(n >> 24);
    call->req[2] = (uint8_t)(n >> 16);
    call->req[3] = (uint8_t)(n >> 8);
    call->req[4] = (uint8_t)n;
    if (req) protobuf_c_message_pack(req, call->req + 5);
    else if (n && raw) memcpy(call->req + 5, raw, n);
    call->req_len = n + 5;
    call->next = c->calls;
    if (c->calls) c->calls->prev = call;
    c->calls = call;
    c->ncalls++;
    return call;
}

static CzcCall *call_go(CzcCall *call) {
    CzcConn *c = call->conn;
    if (call->timeout_ms) {
        call->timer = malloc(sizeof *call->timer);
        if (!call->timer) abort();
        uv_timer_init(c->loop, call->timer);
        call->timer->data = call;
        uv_timer_start(call->timer, on_deadline, call->timeout_ms, 0);
    }
    conn_kick(c);
    return call;
}

CzcCall *czc_call_start(CzcConn *c, const char *method_path, const ProtobufCMessage *req,
                        const ProtobufCMessageDescriptor *resp_desc, const CzcCallOptions *opts, CzcMessageFn on_message,
                        CzcDoneFn on_done, void *ud) {
    CzcCall *call = call_new(c, method_path, req, NULL, 0, resp_desc, opts);
    call->on_message = on_message;
    call->on_done = on_done;
    call->ud = ud;
    return call_go(call);
}

CzcCall *czc_call_start_raw(CzcConn *c, const char *method_path, const uint8_t *req, size_t len,
                            const CzcCallOptions *opts, CzcRawFn on_message, CzcDoneFn on_done, void *ud) {
    CzcCall *call = call_new(c, method_path, NULL, req, len, NULL, opts);
    call->on_raw = on_message;
    call->on_done = on_done;
    call->ud = ud;
    return call_go(call);
}

/* ---------------------------------------------------------------- typed calls */

static bool analyze_msg(void *ud, ProtobufCMessage *m) {
    CzcCall *call = ud;
    Catalyzer__V1__AnalyzeResponse *r = (Catalyzer__V1__AnalyzeResponse *)m;
    if (r->kind_case == CATALYZER__V1__ANALYZE_RESPONSE__KIND_TRACE_EVENT) {
        if (call->analyze.on_event) call->analyze.on_event(call->analyze.ud, r->trace_event);
    } else if (call->analyze.on_result) {
        call->analyze.on_result(call->analyze.ud, r);
    }
    return false;
}

static void adapter_done(void *ud, int status, const char *msg) {
    CzcCall *call = ud;
    if (call->analyze.on_done) call->analyze.on_done(call->analyze.ud, status, msg);
}

CzcCall *czc_analyze(CzcConn *c, const Catalyzer__V1__AnalyzeRequest *req, const CzcCallOptions *opts,
                     const CzcAnalyzeHandler *h) {
    CzcCall *call = call_new(c, "/catalyzer.v1.Analyzer/Analyze", &req->base, NULL, 0,
                             &catalyzer__v1__analyze_response__descriptor, opts);
    call->on_message = analyze_msg;
    call->on_done = adapter_done;
    call->ud = call;
    call->analyze = *h;
    return call_go(call);
}

static bool execute_msg(void *ud, ProtobufCMessage *m) {
    CzcCall *call = ud;
    if (call->on_execute) call->on_execute(call->analyze.ud, (const Catalyzer__V1__ExecuteResponse *)m);
    return false;
}

CzcCall *czc_execute(CzcConn *c, const Catalyzer__V1__ExecuteRequest *req, const CzcCallOptions *opts,
                     void (*on_response)(void *ud, const Catalyzer__V1__ExecuteResponse *resp), CzcDoneFn on_done,
                     void *ud) {
    CzcCall *call = call_new(c, "/catalyzer.v1.Analyzer/Execute", &req->base, NULL, 0,
                             &catalyzer__v1__execute_response__descriptor, opts);
    call->on_message = execute_msg;
    call->on_done = adapter_done;
    call->ud = call;
    call->on_execute = on_response;
    call->analyze = (CzcAnalyzeHandler){NULL, NULL, on_done, ud};
    return call_go(call);
}
