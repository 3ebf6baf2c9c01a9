/* Criterion units for the daemon's security pieces, without sockets: the
 * session-id rule, bearer-token files and checks, Host/Origin/Content-Type
 * checks, TLS on memory BIOs (a real handshake against an in-process OpenSSL
 * client, certificates made by the openssl CLI at test time), log tags and
 * the warning rate limit. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth.h"
#include "http_guard.h"
#include "log.h"
#include "session_id.h"
#include "tls.h"

/* ---------------------------------------------------------------- session ids */

Test(session_id, one_rule) {
    char id[200];
    memset(id, 'a', sizeof id);
    cr_assert(session_id_valid(id, 1));
    cr_assert(session_id_valid(id, 128));
    cr_assert_not(session_id_valid(id, 129));
    cr_assert_not(session_id_valid(id, 133));
    cr_assert_not(session_id_valid(id, 0));
    cr_assert_not(session_id_valid("a b", 3));
    cr_assert_not(session_id_valid("a\tb", 3));
    cr_assert_not(session_id_valid("a\0b", 3));
    cr_assert_not(session_id_valid("a\x7f", 2));
    cr_assert_not(session_id_valid("caf\xc3\xa9", 5));
    cr_assert(session_id_valid("engine-42:x/y@z", 15));
}

/* ---------------------------------------------------------------- tokens */

static const char TOKENS[] = "# principals\n"
                             "\n"
                             "  alice-token-0123456789  alice\n"
                             "bob-token-abcdefghijkl/+==\tbob\r\n";

Test(auth, parse_and_check) {
    char err[200];
    AuthTokens *t = auth_tokens_parse(TOKENS, strlen(TOKENS), err, sizeof err);
    cr_assert(t, "%s", err);
    cr_assert_eq(auth_tokens_count(t), 2);
    const char *v = "Bearer alice-token-0123456789";
    cr_assert_str_eq(auth_check_bearer(t, v, strlen(v)), "alice");
    v = "bearer   bob-token-abcdefghijkl/+==  ";
    cr_assert_str_eq(auth_check_bearer(t, v, strlen(v)), "bob");
    v = "Bearer alice-token-012345678"; /* a prefix */
    cr_assert_null(auth_check_bearer(t, v, strlen(v)));
    v = "Bearer alice-token-01234567890"; /* longer */
    cr_assert_null(auth_check_bearer(t, v, strlen(v)));
    v = "Basic alice-token-0123456789";
    cr_assert_null(auth_check_bearer(t, v, strlen(v)));
    v = "alice-token-0123456789";
    cr_assert_null(auth_check_bearer(t, v, strlen(v)));
    v = "Bearer";
    cr_assert_null(auth_check_bearer(t, v, strlen(v)));
    cr_assert_null(auth_check_bearer(t, NULL, 0));
    cr_assert_null(auth_check_bearer(NULL, v, strlen(v)));
    auth_tokens_free(t);
}

Test(auth, bad_files_name_the_line_not_the_token) {
    static const char *const BAD[] = {
        "short alice\n",                                        /* under 16 characters */
        "alice-token-0123456789\n",                             /* no principal */
        "alice-token-0123456789 alice extra\n",                 /* three fields */
        "alice-token-0123456789 alice\nalice-token-0123456789 bob\n", /* the same token twice */
        "alice-token-01234567=89 alice\n",                      /* '=' inside */
        "alice\"token\"0123456789 alice\n",                     /* not b64token */
        "# only comments\n\n",
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char err[200] = "";
        AuthTokens *t = auth_tokens_parse(BAD[i], strlen(BAD[i]), err, sizeof err);
        cr_assert_null(t, "accepted: %s", BAD[i]);
        cr_assert(strstr(err, "line") || strstr(err, "no tokens"), "%s", err);
        cr_assert_null(strstr(err, "0123456789"), "the message must not quote the token: %s", err);
    }
    char err[200];
    cr_assert_null(auth_tokens_load("/nonexistent/tokens", err, sizeof err));
}

/* ---------------------------------------------------------------- Host, Origin */

static bool host_ok(const char *h, const char *list) { return http_host_allowed(h, strlen(h), list); }

Test(http_guard, host) {
    const char *L = "localhost,127.0.0.1,::1";
    cr_assert(host_ok("localhost", L));
    cr_assert(host_ok("LOCALHOST:8080", L));
    cr_assert(host_ok("127.0.0.1:1", L));
    cr_assert(host_ok("[::1]:8080", L));
    cr_assert(host_ok("[::1]", "[::1]"));
    cr_assert_not(host_ok("evil.example", L));
    cr_assert_not(host_ok("evil.example:8080", L));
    cr_assert_not(host_ok("127.0.0.1.evil.example", L));
    cr_assert_not(host_ok("localhost:80x", L));
    cr_assert_not(host_ok("localhost.", L));
    cr_assert_not(host_ok("", L));
    cr_assert_not(host_ok("user@localhost", L));
    cr_assert(host_ok("anything.example:1", "*"));
    cr_assert(host_ok("analyzer.internal:8080", "localhost, analyzer.internal"));
    cr_assert_not(http_host_allowed(NULL, 0, L));
}

static bool origin_ok(const char *o, const char *host, bool tls, const char *list) {
    const char *const lists[] = {list, NULL};
    return http_origin_allowed(o, strlen(o), host, tls, lists);
}

Test(http_guard, origin) {
    cr_assert(origin_ok("http://127.0.0.1:8080", "127.0.0.1:8080", false, ""));
    cr_assert(origin_ok("https://localhost:8443", "localhost:8443", true, ""));
    cr_assert_not(origin_ok("http://localhost:8443", "localhost:8443", true, "")); /* scheme differs */
    cr_assert_not(origin_ok("https://127.0.0.1:8080", "127.0.0.1:8080", false, ""));
    cr_assert_not(origin_ok("http://127.0.0.1:9999", "127.0.0.1:8080", false, "")); /* another port is another origin */
    cr_assert_not(origin_ok("http://evil.example", "127.0.0.1:8080", false, ""));
    cr_assert_not(origin_ok("null", "127.0.0.1:8080", false, ""));
    cr_assert_not(origin_ok("http://127.0.0.1:8080/x", "127.0.0.1:8080", false, ""));
    cr_assert_not(origin_ok("http://a@127.0.0.1:8080", "127.0.0.1:8080", false, ""));
    cr_assert_not(origin_ok("http://127.0.0.1:8080", NULL, false, ""));
    const char *L = "https://ui.example.com, http://localhost:3000/";
    cr_assert(origin_ok("https://ui.example.com", "127.0.0.1:8080", false, L));
    cr_assert(origin_ok("http://localhost:3000", "127.0.0.1:8080", false, L));
    cr_assert_not(origin_ok("https://ui.example.com.evil.example", "127.0.0.1:8080", false, L));
    cr_assert_not(origin_ok("http://ui.example.com", "127.0.0.1:8080", false, L));
    /* several lists (this one and, say, a CORS one) */
    const char *const two[] = {"", "https://b.example", NULL};
    cr_assert(http_origin_allowed("https://b.example", 17, "x", false, two));
}

Test(http_guard, json_type) {
    cr_assert(http_is_json_type("application/json", 16));
    cr_assert(http_is_json_type("Application/JSON; charset=utf-8", 31));
    cr_assert_not(http_is_json_type("application/jsonx", 17));
    cr_assert_not(http_is_json_type("application/x-www-form-urlencoded", 33));
    cr_assert_not(http_is_json_type("text/plain", 10));
    cr_assert_not(http_is_json_type("multipart/form-data; boundary=x", 31));
    cr_assert_not(http_is_json_type("", 0));
}

/* ---------------------------------------------------------------- TLS */

static char pki[64];

static void make_pki(void) {
    snprintf(pki, sizeof pki, "/tmp/cz-tls-unit-XXXXXX");
    cr_assert(mkdtemp(pki));
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd %s && exec >/dev/null 2>&1 && "
             "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem "
             "-days 1 -subj /CN=unit-ca && "
             "openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout srv.key -out srv.csr "
             "-subj /CN=localhost && "
             "printf 'subjectAltName=DNS:localhost\\n' > san.ext && "
             "openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem -days 1 "
             "-extfile san.ext && "
             "openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout cli.key -out cli.csr "
             "-subj /CN=alice && "
             "openssl x509 -req -in cli.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out cli.pem -days 1",
             pki);
    cr_assert_eq(system(cmd), 0, "openssl CLI failed");
}

static void drop_pki(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", pki);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", pki);
}

static char *path(const char *name) {
    static char buf[4][128];
    static int k;
    char *b = buf[k++ & 3];
    snprintf(b, 128, "%s/%s", pki, name);
    return b;
}

typedef struct Client {
    SSL_CTX *ctx;
    SSL *ssl;
    BIO *in, *out;
} Client;

static Client client_new(const char *alpn_wire, size_t alpn_len, bool with_cert) {
    Client c;
    c.ctx = SSL_CTX_new(TLS_client_method());
    cr_assert(SSL_CTX_load_verify_locations(c.ctx, path("ca.pem"), NULL) == 1);
    SSL_CTX_set_verify(c.ctx, SSL_VERIFY_PEER, NULL);
    if (with_cert) {
        cr_assert(SSL_CTX_use_certificate_file(c.ctx, path("cli.pem"), SSL_FILETYPE_PEM) == 1);
        cr_assert(SSL_CTX_use_PrivateKey_file(c.ctx, path("cli.key"), SSL_FILETYPE_PEM) == 1);
    }
    if (alpn_len) SSL_CTX_set_alpn_protos(c.ctx, (const unsigned char *)alpn_wire, (unsigned)alpn_len);
    c.ssl = SSL_new(c.ctx);
    c.in = BIO_new(BIO_s_mem());
    c.out = BIO_new(BIO_s_mem());
    BIO_set_mem_eof_return(c.in, -1);
    SSL_set_bio(c.ssl, c.in, c.out);
    SSL_set_tlsext_host_name(c.ssl, "localhost");
    SSL_set1_host(c.ssl, "localhost");
    SSL_set_connect_state(c.ssl);
    return c;
}

static void client_free(Client *c) {
    SSL_free(c->ssl);
    SSL_CTX_free(c->ctx);
}

/* Moves bytes both ways until neither side has more; returns the server's status. */
static TlsStatus pump(Client *c, TlsSession *s) {
    TlsStatus st = TLS_AGAIN;
    for (int round = 0; round < 20; round++) {
        int rc = SSL_do_handshake(c->ssl);
        (void)rc;
        uint8_t buf[65536];
        int n;
        bool moved = false;
        while ((n = BIO_read(c->out, buf, sizeof buf)) > 0) {
            cr_assert(tls_feed(s, buf, (size_t)n));
            moved = true;
        }
        if (moved) st = tls_handshake(s);
        size_t k;
        while ((k = tls_take_output(s, buf, sizeof buf)) > 0) {
            BIO_write(c->in, buf, (int)k);
            moved = true;
        }
        if (st == TLS_FAIL || (!moved && round > 0)) break;
    }
    SSL_do_handshake(c->ssl);
    return st;
}

Test(tls, handshake_alpn_and_data, .init = make_pki, .fini = drop_pki) {
    char err[256];
    TlsContext *ctx = tls_context_new(path("srv.pem"), path("srv.key"), NULL, "h2", err, sizeof err);
    cr_assert(ctx, "%s", err);
    cr_assert_not(tls_context_mutual(ctx));
    TlsSession *s = tls_session_new(ctx);
    Client c = client_new("\x02h2\x08http/1.1", 12, false);
    cr_assert_eq(pump(&c, s), TLS_DONE, "%s", tls_error(s));
    cr_assert(tls_established(s));
    const unsigned char *alpn;
    unsigned alen;
    SSL_get0_alpn_selected(c.ssl, &alpn, &alen);
    cr_assert(alen == 2 && memcmp(alpn, "h2", 2) == 0, "ALPN h2 negotiated");
    /* client → server */
    cr_assert(SSL_write(c.ssl, "PRI * HTTP/2.0", 14) == 14);
    uint8_t buf[65536];
    int n = BIO_read(c.out, buf, sizeof buf);
    cr_assert(n > 0 && tls_feed(s, buf, (size_t)n));
    uint8_t plain[256];
    ssize_t k = tls_read(s, plain, sizeof plain);
    cr_assert(k == 14 && memcmp(plain, "PRI * HTTP/2.0", 14) == 0);
    cr_assert_eq(tls_read(s, plain, sizeof plain), 0, "nothing more yet");
    /* server → client */
    cr_assert(tls_write(s, (const uint8_t *)"hello", 5));
    size_t out = tls_take_output(s, buf, sizeof buf);
    BIO_write(c.in, buf, (int)out);
    char got[16] = "";
    cr_assert(SSL_read(c.ssl, got, sizeof got) == 5 && memcmp(got, "hello", 5) == 0);
    char name[64];
    cr_assert_not(tls_peer_name(s, name, sizeof name), "no client certificate without mutual TLS");
    /* the peer's close_notify ends the stream */
    SSL_shutdown(c.ssl);
    n = BIO_read(c.out, buf, sizeof buf);
    cr_assert(n > 0 && tls_feed(s, buf, (size_t)n));
    cr_assert_eq(tls_read(s, plain, sizeof plain), -1);
    client_free(&c);
    tls_session_free(s);
    tls_context_free(ctx);
}

Test(tls, wrong_alpn_and_plaintext_are_refused, .init = make_pki, .fini = drop_pki) {
    char err[256];
    TlsContext *ctx = tls_context_new(path("srv.pem"), path("srv.key"), NULL, "h2", err, sizeof err);
    cr_assert(ctx, "%s", err);
    TlsSession *s = tls_session_new(ctx);
    Client c = client_new("\x08http/1.1", 9, false);
    cr_assert_eq(pump(&c, s), TLS_FAIL);
    client_free(&c);
    tls_session_free(s);
    /* no ALPN at all: served */
    s = tls_session_new(ctx);
    c = client_new("", 0, false);
    cr_assert_eq(pump(&c, s), TLS_DONE, "%s", tls_error(s));
    client_free(&c);
    tls_session_free(s);
    /* cleartext HTTP on the TLS port */
    s = tls_session_new(ctx);
    const char *get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    cr_assert(tls_feed(s, (const uint8_t *)get, strlen(get)));
    cr_assert_eq(tls_handshake(s), TLS_FAIL);
    cr_assert(strlen(tls_error(s)) > 0);
    tls_session_free(s);
    tls_context_free(ctx);
}

Test(tls, mutual, .init = make_pki, .fini = drop_pki) {
    char err[256];
    TlsContext *ctx = tls_context_new(path("srv.pem"), path("srv.key"), path("ca.pem"), "http/1.1", err, sizeof err);
    cr_assert(ctx, "%s", err);
    cr_assert(tls_context_mutual(ctx));
    TlsSession *s = tls_session_new(ctx);
    Client c = client_new("\x08http/1.1", 9, true);
    cr_assert_eq(pump(&c, s), TLS_DONE, "%s", tls_error(s));
    char name[64];
    cr_assert(tls_peer_name(s, name, sizeof name));
    cr_assert_str_eq(name, "alice");
    client_free(&c);
    tls_session_free(s);
    /* no certificate: refused */
    s = tls_session_new(ctx);
    c = client_new("\x08http/1.1", 9, false);
    TlsStatus st = pump(&c, s);
    /* TLS 1.3: the server learns of the missing certificate from the client's second flight */
    uint8_t buf[4096];
    int n;
    while (st == TLS_DONE && (n = BIO_read(c.out, buf, sizeof buf)) > 0) tls_feed(s, buf, (size_t)n);
    cr_assert(st == TLS_FAIL || tls_read(s, buf, sizeof buf) < 0, "a client without a certificate is refused");
    client_free(&c);
    tls_session_free(s);
    tls_context_free(ctx);
}

Test(tls, bad_files, .init = make_pki, .fini = drop_pki) {
    char err[256];
    cr_assert_null(tls_context_new("/nonexistent.pem", path("srv.key"), NULL, "h2", err, sizeof err));
    cr_assert(strstr(err, "--tls-cert"), "%s", err);
    cr_assert_null(tls_context_new(path("srv.pem"), path("cli.key"), NULL, "h2", err, sizeof err));
    cr_assert(strstr(err, "--tls-key"), "%s", err);
    cr_assert_null(tls_context_new(path("srv.pem"), path("srv.key"), "/nonexistent-ca.pem", "h2", err, sizeof err));
    cr_assert(strstr(err, "--tls-client-ca"), "%s", err);
}

/* ---------------------------------------------------------------- logs */

Test(log, session_tags) {
    char a[13], b[13], a2[13];
    log_session_tag("engine-42", a);
    log_session_tag("engine-43", b);
    log_session_tag("engine-42", a2);
    cr_assert_eq(strlen(a), 12);
    cr_assert_str_eq(a, a2, "stable within a run");
    cr_assert_str_neq(a, b);
    for (int i = 0; i < 12; i++) cr_assert(strchr("0123456789abcdef", a[i]));
}

/* Runs fn with stderr going to a file; returns what it wrote. */
static char *capture_stderr(void (*fn)(void)) {
    char tmpl[] = "/tmp/cz-log-unit-XXXXXX";
    int fd = mkstemp(tmpl);
    cr_assert(fd >= 0);
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    fn();
    dup2(saved, STDERR_FILENO);
    close(saved);
    off_t n = lseek(fd, 0, SEEK_END);
    char *buf = calloc(1, (size_t)n + 1);
    if (pread(fd, buf, (size_t)n, 0) != n) buf[0] = '\0';
    close(fd);
    unlink(tmpl);
    return buf;
}

static size_t count(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

static void flood(void) {
    for (int i = 0; i < 1000; i++)
        log_json_limited(LOG_INFO, LOG_WARN, "request Analyze CANCELLED", "request", json_pack("{s:i}", "i", i));
    log_json_limited(LOG_INFO, LOG_WARN, "another key", "other", NULL);
    log_json_limited(LOG_INFO, LOG_DEBUG, "request Analyze CANCELLED", "below the level", NULL);
    usleep(1100 * 1000);
    log_flush_suppressed(LOG_INFO);
}

Test(log, warnings_are_rate_limited) {
    char *out = capture_stderr(flood);
    size_t lines = count(out, "\n");
    /* One second's burst (two if the flood straddled a second), the other
     * key, and the report(s) of what was dropped. */
    cr_assert(lines >= LOG_BURST_PER_SECOND + 2 && lines <= 2 * LOG_BURST_PER_SECOND + 3, "%zu lines:\n%s", lines, out);
    cr_assert_eq(count(out, "\"msg\":\"other\""), 1);
    cr_assert_eq(count(out, "below the level"), 0);
    cr_assert(count(out, "log lines suppressed") >= 1, "%s", out);
    /* every line is either written or counted */
    size_t written = count(out, "\"msg\":\"request\"");
    long suppressed = 0;
    for (const char *p = out; (p = strstr(p, "\"suppressed\":")); p++) suppressed += strtol(p + 13, NULL, 10);
    cr_assert_eq((long)written + suppressed, 1000, "written %zu + suppressed %ld", written, suppressed);
    free(out);
}
