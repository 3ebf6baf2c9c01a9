/* Transport connections: the gRPC (HTTP/2) and JSON (HTTP/1.1) transports,
 * both driven by the server's libuv loop. Each connection starts with a
 * ConnHead so the server can list, drain and close them without knowing the
 * protocol. */
#ifndef CZ_CONN_H
#define CZ_CONN_H

#include <stdbool.h>
#include <uv.h>

#include "server.h"

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
    uint64_t last_active_ns; /* last byte received (idle timeout) */
};

void conn_link(Server *srv, ConnHead *c);
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

/* Loop: a call finished or a connection closed; finishes a drain if done. */
void server_drain_check(Server *srv);

#endif
