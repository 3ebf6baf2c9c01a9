/* TLS as a byte-stream filter (OpenSSL with memory BIOs, no sockets): the
 * transport (transport.c) feeds it what the socket read and writes out what
 * it produces, so a handshake never blocks the loop and the HTTP/2 and
 * HTTP/1.1 code above sees plaintext only.
 *
 * One TlsContext per listener: certificate chain and key (PEM), optionally
 * a CA bundle that client certificates must chain to (mutual TLS), and the
 * the ALPN protocols the port speaks, comma-separated in order of preference
 * ("h2" for gRPC; "h2,http/1.1" for the JSON port, which serves both).
 * A client that offers ALPN without that protocol is refused; one that
 * offers no ALPN at all is served. TLS 1.2 or later. */
#ifndef CZ_TLS_H
#define CZ_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct TlsContext TlsContext;
typedef struct TlsSession TlsSession;

typedef enum TlsStatus {
    TLS_DONE,  /* handshake complete */
    TLS_AGAIN, /* needs more bytes from the peer */
    TLS_FAIL,  /* failed: tls_error says why; close after sending the output (an alert) */
} TlsStatus;

/* NULL and err on a bad certificate, key or CA file. */
TlsContext *tls_context_new(const char *cert_file, const char *key_file, const char *client_ca_file,
                            const char *alpn, char *err, size_t errlen);
void tls_context_free(TlsContext *ctx);
bool tls_context_mutual(const TlsContext *ctx);

TlsSession *tls_session_new(TlsContext *ctx);
void tls_session_free(TlsSession *s);

/* Ciphertext from the peer (copied). False when out of memory. */
bool tls_feed(TlsSession *s, const uint8_t *data, size_t len);
/* Advances the handshake with what was fed. */
TlsStatus tls_handshake(TlsSession *s);
bool tls_established(const TlsSession *s);
/* Plaintext decrypted from what was fed: > 0 bytes, 0 when more input is
 * needed, -1 when the peer closed (close_notify) or the stream is broken. */
ssize_t tls_read(TlsSession *s, uint8_t *buf, size_t cap);
/* Encrypts all of data (only once established). False on failure. */
bool tls_write(TlsSession *s, const uint8_t *data, size_t len);
/* Queues a close_notify alert. */
void tls_close_notify(TlsSession *s);
/* Ciphertext ready to go to the peer. */
size_t tls_output_pending(const TlsSession *s);
size_t tls_take_output(TlsSession *s, uint8_t *buf, size_t cap);

/* Why the last call failed (OpenSSL's reason), "" if it did not. */
const char *tls_error(const TlsSession *s);
/* The verified client certificate's subject common name (mutual TLS); false
 * when there is none. */
bool tls_peer_name(const TlsSession *s, char *out, size_t cap);
/* "TLSv1.3" */
const char *tls_version(const TlsSession *s);

#endif
