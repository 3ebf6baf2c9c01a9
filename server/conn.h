/* Transport connections: the gRPC (HTTP/2) and JSON (HTTP/1.1) transports,
 * both driven by the server's libuv loop. Each connection starts with a
 * ConnHead so the server can list, drain and close them without knowing the
 * protocol.
 *
 * The protocols read, write and close through conn_read_start, conn_write
 * and conn_close (conn.c), never on the TCP handle directly: on a TLS port
 * those decrypt and encrypt in between (tls.h), and the protocol code sees
 * plaintext either way. */
#ifndef CZ_CONN_H
#define CZ_CONN_H

#include <stdbool.h>
#include <uv.h>

#include "auth.h"
#include "tls.h"
#include "server.h"

typedef struct TlsLink TlsLink;

typedef struct ConnHead ConnHead;
typedef struct ConnOps {
    void (*drain)(ConnHead *c);       /* stop taking new calls (GOAWAY / Connection: close) */
    void (*close)(ConnHead *c);       /* close now */
    bool (*idle)(const ConnHead *c);  /* no call in flight */
    void (*cancel_all)(ConnHead *c);  /* drain timeout: cancel running calls */
} ConnOps;

struct ConnHead {
    const ConnOps *ops;
    Server *srv;
    ConnHead *next, *prev;
    uv_tcp_t tcp;
    bool closing;
    bool force_close;   /* drain timeout: close without waiting for writes */
    uint64_t last_active_ns; /* last call started or ended (idle timeout; bytes alone do not count) */
    bool http_port;          /* on the JSON port (else gRPC): each port has its own connection limit */
    TlsLink *tls;            /* NULL: cleartext */
    char cert_principal[AUTH_PRINCIPAL_MAX + 1]; /* mutual TLS: the client certificate's name */
};

/* After uv_accept: a TLS port's connection starts its handshake (nothing is
 * sent before the client's hello). False when out of memory. */
bool conn_start_tls(ConnHead *c, TlsContext *ctx);
/* uv_read_start / uv_read_stop / uv_write / uv_close of the connection, with
 * TLS in between when the port has it. cb of conn_write runs once the bytes
 * are on the socket; on a failure returned here it is not called. */
int conn_read_start(ConnHead *c, uv_alloc_cb alloc_cb, uv_read_cb read_cb);
void conn_read_stop(ConnHead *c);
int conn_write(ConnHead *c, uv_write_t *req, const uv_buf_t bufs[], unsigned nbufs, uv_write_cb cb);
/* What a cleartext socket with nothing queued takes of b at once (0: none,
 * or a TLS connection; negative: the connection failed). No request and no
 * completion to handle later: cheaper than conn_write when it all goes. */
int conn_try_write(ConnHead *c, const uv_buf_t *b);
void conn_close(ConnHead *c, uv_close_cb cb);
/* Releases the transport's state; called by conn_unlink. */
void conn_transport_free(ConnHead *c);
bool conn_is_tls(const ConnHead *c);

/* Who makes a call on c, given its authorization header (NULL if none):
 * with --auth-token-file, the token's principal, or NULL (UNAUTHENTICATED)
 * for a missing or unknown token; without it, the client certificate's name
 * on mutual TLS, else "" (anonymous). */
const char *conn_principal(const ConnHead *c, const char *authorization, size_t len);

void conn_link(Server *srv, ConnHead *c);
/* Over --max-connections, or over its port's own limit. */
bool server_conn_over_limit(Server *srv, const ConnHead *c);
void conn_unlink(Server *srv, ConnHead *c);

/* Accept callbacks for the two listeners. */
void h2_on_connection(uv_stream_t *listener, int status);
void http1_on_connection(uv_stream_t *listener, int status);

/* Loop: called on every notify for a job attached to a call. */
void h2_job_output(Job *j);
void http1_job_output(Job *j);

/* Loop: records a finished call's metrics and log line. */
void server_record(Server *srv, RpcMethod m, const char *transport, const char *request_id, int status,
                   const char *error_class, const char *message, uint64_t start_ns);
/* Same, naming the call's session in the log line. */
void server_record_session(Server *srv, RpcMethod m, const char *transport, const char *request_id,
                           const char *session_id, int status, const char *error_class, const char *message,
                           uint64_t start_ns);

/* Same, with the client's W3C trace context (NULL: none): the line carries
 * trace_id, parent_id (the caller's span) and span_id (the daemon's). */
void server_record_traced(Server *srv, RpcMethod m, const char *transport, const char *request_id,
                          const TraceContext *trace, const char *session_id, int status, const char *error_class,
                          const char *message, uint64_t start_ns);

/* Loop: a call finished or a connection closed; finishes a drain if done. */
void server_drain_check(Server *srv);

#endif
