/* TLS on memory BIOs (see tls.h). */
#include "tls.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct TlsContext {
    SSL_CTX *ctx;
    unsigned char alpn[32]; /* the port's protocol, as ALPN wire bytes (length-prefixed) */
    size_t alpn_len;
    bool mutual;
};

struct TlsSession {
    SSL *ssl;
    BIO *in, *out; /* ciphertext: from the peer / to the peer */
    bool established;
    char error[160];
};

static void ssl_error(char *out, size_t cap, const char *what) {
    unsigned long e = ERR_get_error();
    char buf[120] = "";
    if (e) ERR_error_string_n(e, buf, sizeof buf);
    snprintf(out, cap, "%s%s%s", what, *buf ? ": " : "", buf);
    ERR_clear_error();
}

/* The server chooses the port's protocol, or refuses a client that offers
 * ALPN without it (RFC 7301 no_application_protocol). */
static int select_alpn(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                       unsigned int inlen, void *arg) {
    (void)ssl;
    TlsContext *c = arg;
    unsigned char *sel;
    unsigned char sellen;
    if (SSL_select_next_proto(&sel, &sellen, c->alpn, (unsigned)c->alpn_len, in, inlen) != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    *out = sel;
    *outlen = sellen;
    return SSL_TLSEXT_ERR_OK;
}

TlsContext *tls_context_new(const char *cert_file, const char *key_file, const char *client_ca_file,
                            const char *alpn, char *err, size_t errlen) {
    TlsContext *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    /* "h2,http/1.1": in the server's order of preference, as wire bytes */
    for (const char *p = alpn;;) {
        size_t al = strcspn(p, ",");
        if (al == 0 || al > 255 || c->alpn_len + al + 1 > sizeof c->alpn) {
            snprintf(err, errlen, "bad ALPN protocol");
            free(c);
            return NULL;
        }
        c->alpn[c->alpn_len] = (unsigned char)al;
        memcpy(c->alpn + c->alpn_len + 1, p, al);
        c->alpn_len += al + 1;
        p += al;
        if (!*p++) break;
    }
    c->ctx = SSL_CTX_new(TLS_server_method());
    if (!c->ctx) {
        ssl_error(err, errlen, "cannot create a TLS context");
        free(c);
        return NULL;
    }
    SSL_CTX_set_min_proto_version(c->ctx, TLS1_2_VERSION);
    /* HTTP/2 (RFC 7540 9.2) forbids renegotiation and compression. */
    SSL_CTX_set_options(c->ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(c->ctx, SSL_MODE_RELEASE_BUFFERS);
    if (SSL_CTX_use_certificate_chain_file(c->ctx, cert_file) != 1) {
        ssl_error(err, errlen, "cannot load --tls-cert");
        goto fail;
    }
    if (SSL_CTX_use_PrivateKey_file(c->ctx, key_file, SSL_FILETYPE_PEM) != 1) {
        ssl_error(err, errlen, "cannot load --tls-key");
        goto fail;
    }
    if (SSL_CTX_check_private_key(c->ctx) != 1) {
        ssl_error(err, errlen, "--tls-key does not match --tls-cert");
        goto fail;
    }
    if (client_ca_file && *client_ca_file) {
        STACK_OF(X509_NAME) *names = SSL_load_client_CA_file(client_ca_file);
        if (!names || SSL_CTX_load_verify_locations(c->ctx, client_ca_file, NULL) != 1) {
            if (names) sk_X509_NAME_pop_free(names, X509_NAME_free);
            ssl_error(err, errlen, "cannot load --tls-client-ca");
            goto fail;
        }
        SSL_CTX_set_client_CA_list(c->ctx, names);
        SSL_CTX_set_verify(c->ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
        c->mutual = true;
    }
    SSL_CTX_set_alpn_select_cb(c->ctx, select_alpn, c);
    /* Session tickets let clients resume without a full handshake. */
    SSL_CTX_set_session_cache_mode(c->ctx, SSL_SESS_CACHE_SERVER);
    return c;
fail:
    SSL_CTX_free(c->ctx);
    free(c);
    return NULL;
}

void tls_context_free(TlsContext *c) {
    if (!c) return;
    SSL_CTX_free(c->ctx);
    free(c);
}

bool tls_context_mutual(const TlsContext *c) { return c && c->mutual; }

TlsSession *tls_session_new(TlsContext *c) {
    TlsSession *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->ssl = SSL_new(c->ctx);
    s->in = BIO_new(BIO_s_mem());
    s->out = BIO_new(BIO_s_mem());
    if (!s->ssl || !s->in || !s->out) {
        SSL_free(s->ssl);
        BIO_free(s->in);
        BIO_free(s->out);
        free(s);
        return NULL;
    }
    BIO_set_mem_eof_return(s->in, -1); /* empty input: "retry", not EOF */
    SSL_set_bio(s->ssl, s->in, s->out); /* the SSL owns both now */
    SSL_set_accept_state(s->ssl);
    return s;
}

void tls_session_free(TlsSession *s) {
    if (!s) return;
    SSL_free(s->ssl);
    free(s);
}

bool tls_feed(TlsSession *s, const uint8_t *data, size_t len) {
    while (len) {
        int k = BIO_write(s->in, data, len > (1u << 30) ? 1 << 30 : (int)len);
        if (k <= 0) return false;
        data += k;
        len -= (size_t)k;
    }
    return true;
}

TlsStatus tls_handshake(TlsSession *s) {
    if (s->established) return TLS_DONE;
    int rc = SSL_do_handshake(s->ssl);
    if (rc == 1) {
        s->established = true;
        return TLS_DONE;
    }
    int e = SSL_get_error(s->ssl, rc);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) return TLS_AGAIN;
    long vr = SSL_get_verify_result(s->ssl);
    if (vr != X509_V_OK) {
        snprintf(s->error, sizeof s->error, "client certificate rejected: %s", X509_verify_cert_error_string(vr));
        ERR_clear_error();
    } else {
        ssl_error(s->error, sizeof s->error, "handshake failed");
    }
    return TLS_FAIL;
}

bool tls_established(const TlsSession *s) { return s->established; }

ssize_t tls_read(TlsSession *s, uint8_t *buf, size_t cap) {
    int k = SSL_read(s->ssl, buf, cap > (1u << 30) ? 1 << 30 : (int)cap);
    if (k > 0) return k;
    int e = SSL_get_error(s->ssl, k);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) return 0;
    if (e == SSL_ERROR_ZERO_RETURN)
        snprintf(s->error, sizeof s->error, "closed by the peer");
    else
        ssl_error(s->error, sizeof s->error, "read failed");
    return -1;
}

bool tls_write(TlsSession *s, const uint8_t *data, size_t len) {
    while (len) {
        /* A memory BIO takes everything: SSL_write never wants to wait. */
        int k = SSL_write(s->ssl, data, len > (1u << 30) ? 1 << 30 : (int)len);
        if (k <= 0) {
            ssl_error(s->error, sizeof s->error, "write failed");
            return false;
        }
        data += k;
        len -= (size_t)k;
    }
    return true;
}

void tls_close_notify(TlsSession *s) {
    if (s->established) SSL_shutdown(s->ssl);
    ERR_clear_error();
}

size_t tls_output_pending(const TlsSession *s) { return BIO_ctrl_pending(s->out); }

size_t tls_take_output(TlsSession *s, uint8_t *buf, size_t cap) {
    int k = BIO_read(s->out, buf, cap > (1u << 30) ? 1 << 30 : (int)cap);
    return k > 0 ? (size_t)k : 0;
}

const char *tls_error(const TlsSession *s) { return s->error; }

bool tls_peer_name(const TlsSession *s, char *out, size_t cap) {
    X509 *cert = SSL_get0_peer_certificate(s->ssl);
    if (!cert || SSL_get_verify_result(s->ssl) != X509_V_OK) return false;
    int n = X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, out, (int)cap);
    return n > 0 && (size_t)n < cap;
}

const char *tls_version(const TlsSession *s) { return SSL_get_version(s->ssl); }
