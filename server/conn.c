/* A client connection's transport: cleartext TCP, or TLS on memory BIOs
 * between the socket and the protocol (see conn.h, tls.h); and who the
 * client is (conn_principal). */
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "log.h"

/* A protocol write waiting for the handshake to finish. */
typedef struct HeldWrite {
    struct HeldWrite *next;
    uv_write_t *req;
    uv_write_cb cb;
    unsigned nbufs;
    uv_buf_t bufs[];
} HeldWrite;

struct TlsLink {
    TlsSession *s;
    uv_alloc_cb alloc_cb; /* the protocol's */
    uv_read_cb read_cb;
    bool failed;
    HeldWrite *held, *held_tail;
};

/* Ciphertext on the socket; then the protocol's own callback, if any. */
typedef struct CipherWrite {
    uv_write_t req;
    uv_write_t *user;
    uv_write_cb cb;
    uint8_t data[];
} CipherWrite;

bool conn_is_tls(const ConnHead *c) { return c->tls != NULL; }

static void cipher_written(uv_write_t *req, int status) {
    CipherWrite *w = (CipherWrite *)req;
    uv_write_t *user = w->user;
    uv_write_cb cb = w->cb;
    free(w);
    if (cb) cb(user, status);
}

/* Sends what TLS has produced; the protocol's cb (may be NULL) follows it. */
static int send_output(ConnHead *c, uv_write_t *user, uv_write_cb cb) {
    size_t n = tls_output_pending(c->tls->s);
    if (n == 0 && !cb) return 0;
    CipherWrite *w = malloc(sizeof *w + (n ? n : 1));
    if (!w) return UV_ENOMEM;
    n = tls_take_output(c->tls->s, w->data, n);
    w->user = user;
    w->cb = cb;
    uv_buf_t b = uv_buf_init((char *)w->data, (unsigned)n);
    int rc = uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, cipher_written);
    if (rc != 0) free(w);
    return rc;
}

static int encrypt_and_send(ConnHead *c, uv_write_t *req, const uv_buf_t bufs[], unsigned nbufs, uv_write_cb cb) {
    for (unsigned i = 0; i < nbufs; i++)
        if (bufs[i].len && !tls_write(c->tls->s, (const uint8_t *)bufs[i].base, bufs[i].len)) {
            c->tls->failed = true;
            return UV_EPROTO;
        }
    return send_output(c, req, cb);
}

bool conn_start_tls(ConnHead *c, TlsContext *ctx) {
    TlsLink *t = calloc(1, sizeof *t);
    if (!t) return false;
    t->s = tls_session_new(ctx);
    if (!t->s) {
        free(t);
        return false;
    }
    c->tls = t;
    return true;
}

/* The handshake just finished: who the client is, then the writes the
 * protocol made meanwhile (the HTTP/2 server preface), in order. */
static void on_established(ConnHead *c) {
    TlsLink *t = c->tls;
    char name[AUTH_PRINCIPAL_MAX + 1];
    if (tls_peer_name(t->s, name, sizeof name)) {
        bool ok = true;
        for (const char *p = name; *p; p++)
            if ((unsigned char)*p < 0x21 || (unsigned char)*p > 0x7e) ok = false;
        if (ok) memcpy(c->cert_principal, name, sizeof name);
    }
    log_json(c->srv->cfg.log_level, LOG_DEBUG, "tls established",
             json_pack("{s:s,s:s}", "version", tls_version(t->s), "client", c->cert_principal));
    while (t->held) {
        HeldWrite *h = t->held;
        t->held = h->next;
        if (!t->held) t->held_tail = NULL;
        int rc = encrypt_and_send(c, h->req, h->bufs, h->nbufs, h->cb);
        if (rc != 0 && h->cb) h->cb(h->req, rc); /* conn_write had said yes */
        free(h);
    }
}

static void fail_handshake(ConnHead *c, uv_stream_t *st, const uv_buf_t *buf) {
    TlsLink *t = c->tls;
    t->failed = true;
    log_json_limited(c->srv->cfg.log_level, LOG_WARN, "tls handshake failed", "tls handshake failed",
                     json_pack("{s:s}", "error", tls_error(t->s)));
    /* The alert goes out if the socket takes it now; the close does not wait. */
    uint8_t alert[512];
    size_t n = tls_take_output(t->s, alert, sizeof alert);
    if (n) {
        uv_buf_t b = uv_buf_init((char *)alert, (unsigned)n);
        (void)uv_try_write(st, &b, 1);
    }
    t->read_cb(st, UV_EPROTO, buf);
}

static void tls_on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *buf) {
    ConnHead *c = st->data; /* each protocol's connection begins with its ConnHead */
    TlsLink *t = c->tls;
    if (n < 0 || t->failed) {
        t->read_cb(st, n < 0 ? n : UV_EPROTO, buf);
        return;
    }
    if (n == 0) return;
    if (!tls_feed(t->s, (const uint8_t *)buf->base, (size_t)n)) {
        t->failed = true;
        t->read_cb(st, UV_ENOMEM, buf);
        return;
    }
    if (!tls_established(t->s)) {
        TlsStatus hs = tls_handshake(t->s);
        if (hs == TLS_FAIL) return fail_handshake(c, st, buf);
        if (send_output(c, NULL, NULL) != 0) {
            t->failed = true;
            t->read_cb(st, UV_EPIPE, buf);
            return;
        }
        if (hs == TLS_AGAIN) return;
        on_established(c);
        if (c->closing) return;
    }
    /* The ciphertext was copied into TLS: the read buffer takes the
     * plaintext. Everything decrypted goes up, even after the protocol
     * stopped reading (HTTP/1.1 keeps pipelined bytes itself); the socket
     * read stop still bounds it to one read's worth. */
    while (!c->closing) {
        uv_buf_t pb;
        t->alloc_cb((uv_handle_t *)st, 65536, &pb);
        ssize_t k = tls_read(t->s, (uint8_t *)pb.base, pb.len);
        if (k == 0) break;
        if (k < 0) {
            send_output(c, NULL, NULL);
            t->read_cb(st, UV_EOF, &pb);
            return;
        }
        t->read_cb(st, k, &pb);
    }
    if (!c->closing && send_output(c, NULL, NULL) != 0) t->read_cb(st, UV_EPIPE, buf);
}

int conn_read_start(ConnHead *c, uv_alloc_cb alloc_cb, uv_read_cb read_cb) {
    if (!c->tls) return uv_read_start((uv_stream_t *)&c->tcp, alloc_cb, read_cb);
    c->tls->alloc_cb = alloc_cb;
    c->tls->read_cb = read_cb;
    return uv_read_start((uv_stream_t *)&c->tcp, alloc_cb, tls_on_read);
}

void conn_read_stop(ConnHead *c) { uv_read_stop((uv_stream_t *)&c->tcp); }

int conn_write(ConnHead *c, uv_write_t *req, const uv_buf_t bufs[], unsigned nbufs, uv_write_cb cb) {
    if (!c->tls) return uv_write(req, (uv_stream_t *)&c->tcp, bufs, nbufs, cb);
    TlsLink *t = c->tls;
    if (t->failed) return UV_EPIPE;
    if (tls_established(t->s)) return encrypt_and_send(c, req, bufs, nbufs, cb);
    /* Before the handshake ends: held (the buffers stay valid until cb). */
    HeldWrite *h = malloc(sizeof *h + nbufs * sizeof(uv_buf_t));
    if (!h) return UV_ENOMEM;
    h->next = NULL;
    h->req = req;
    h->cb = cb;
    h->nbufs = nbufs;
    memcpy(h->bufs, bufs, nbufs * sizeof(uv_buf_t));
    if (t->held_tail)
        t->held_tail->next = h;
    else
        t->held = h;
    t->held_tail = h;
    return 0;
}

int conn_try_write(ConnHead *c, const uv_buf_t *b) {
    if (c->tls || uv_stream_get_write_queue_size((uv_stream_t *)&c->tcp)) return 0;
    int k = uv_try_write((uv_stream_t *)&c->tcp, b, 1);
    return k == UV_EAGAIN ? 0 : k;
}

void conn_close(ConnHead *c, uv_close_cb cb) {
    TlsLink *t = c->tls;
    if (t && !t->failed && tls_established(t->s)) {
        /* close_notify, if the socket takes it at once (a close never waits). */
        tls_close_notify(t->s);
        uint8_t alert[256];
        size_t n = tls_take_output(t->s, alert, sizeof alert);
        if (n) {
            uv_buf_t b = uv_buf_init((char *)alert, (unsigned)n);
            (void)uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
        }
    }
    uv_close((uv_handle_t *)&c->tcp, cb);
}

void conn_transport_free(ConnHead *c) {
    TlsLink *t = c->tls;
    if (!t) return;
    c->tls = NULL;
    while (t->held) { /* never sent: the protocol still frees its requests */
        HeldWrite *h = t->held;
        t->held = h->next;
        if (h->cb) h->cb(h->req, UV_ECANCELED);
        free(h);
    }
    tls_session_free(t->s);
    free(t);
}

const char *conn_principal(const ConnHead *c, const char *authorization, size_t len) {
    const AuthTokens *tokens = c->srv->tokens;
    if (tokens) return authorization ? auth_check_bearer(tokens, authorization, len) : NULL;
    return c->cert_principal;
}
