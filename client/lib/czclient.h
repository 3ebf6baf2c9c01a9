/* Catalyzer's C client library: gRPC (HTTP/2 on nghttp2, cleartext or TLS
 * through OpenSSL memory BIOs, driven by a libuv loop) to catalyzerd, with the
 * protobuf-c messages generated from proto/catalyzer.proto.
 *
 * Two layers:
 *  - asynchronous: a CzcConn is one HTTP/2 connection on a libuv loop you run
 *    (or one it owns); each call is a stream with a callback per response
 *    message and one when it ends with its gRPC status. Many calls run at
 *    once on one connection. Deadlines (grpc-timeout plus a local timer),
 *    cancellation (RST_STREAM), reconnect (a call on a dropped connection
 *    dials again; streams the server refused are retried once).
 *  - synchronous: CzcClient owns a loop and a connection; each function
 *    runs the loop until its call ends. What the CLI uses.
 *
 * Threading: a connection and its calls belong to the thread running its loop.
 * Ownership: request messages are serialised at call start (the caller keeps
 * them); response messages passed to callbacks are freed after the callback
 * unless it returns true (then the callee frees them with
 * protobuf_c_message_free_unpacked(msg, NULL)). */
#ifndef CZ_CLIENT_H
#define CZ_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "catalyzer.pb-c.h"

/* gRPC status codes (same numbers as grpc/status.h). */
enum {
    CZC_OK = 0,
    CZC_CANCELLED = 1,
    CZC_UNKNOWN = 2,
    CZC_INVALID_ARGUMENT = 3,
    CZC_DEADLINE_EXCEEDED = 4,
    CZC_NOT_FOUND = 5,
    CZC_PERMISSION_DENIED = 7,
    CZC_RESOURCE_EXHAUSTED = 8,
    CZC_UNIMPLEMENTED = 12,
    CZC_INTERNAL = 13,
    CZC_UNAVAILABLE = 14,
    CZC_UNAUTHENTICATED = 16,
};
#define CZC_STATUS_COUNT 17
const char *czc_status_name(int status); /* "DEADLINE_EXCEEDED"; "UNKNOWN" out of range */

/* "host:port" or "[v6]:port" into host (NUL-terminated) and port. */
bool czc_parse_hostport(const char *s, char *host, size_t hostcap, int *port);

/* ---------------------------------------------------------------- asynchronous */

typedef struct CzcConn CzcConn;
typedef struct CzcCall CzcCall;

/* A connection to host:port on loop (NULL: the connection owns a loop of its
 * own, see czc_conn_loop). Nothing is dialled until the first call. Never NULL. */
CzcConn *czc_conn_new(uv_loop_t *loop, const char *host, int port);
/* Ends every call (on_done with CANCELLED), closes the socket, frees. Not from
 * inside one of this connection's callbacks. On a loop of yours, run it once
 * more afterwards so the handles finish closing (uv_run(loop, UV_RUN_DEFAULT)). */
void czc_conn_free(CzcConn *c);
uv_loop_t *czc_conn_loop(CzcConn *c);
/* Calls started and not yet ended. */
size_t czc_conn_active(const CzcConn *c);
/* Times the connection was (re)established. */
uint64_t czc_conn_connects(const CzcConn *c);

/* How to reach a daemon started with --tls-cert / --auth-token-file. */
typedef struct CzcSecurity {
    const char *ca_file;     /* set: TLS (ALPN h2), the server verified against this PEM CA bundle */
    const char *cert_file;   /* with key_file: a client certificate (mutual TLS) */
    const char *key_file;
    const char *server_name; /* name to verify and send as SNI; NULL: the host dialled */
    const char *token;       /* set: "authorization: Bearer TOKEN" on every call */
} CzcSecurity;

/* Before the first call; strings are copied. False (and err) when a file
 * cannot be loaded. */
bool czc_conn_set_security(CzcConn *c, const CzcSecurity *sec, char *err, size_t errlen);
/* A token from a file: the first word of its first line that is neither
 * blank nor a # comment (a catalyzerd token file's first token works too). */
bool czc_read_token_file(const char *path, char *out, size_t cap, char *err, size_t errlen);

typedef struct CzcCallOptions {
    uint32_t timeout_ms; /* 0: no deadline */
} CzcCallOptions;

/* Per response message; return true to keep msg (then free it yourself). */
typedef bool (*CzcMessageFn)(void *ud, ProtobufCMessage *msg);
/* Exactly once per call: gRPC status and message ("" if none). The call is
 * freed right after; its pointer must not be used again. */
typedef void (*CzcDoneFn)(void *ud, int status, const char *message);

/* Starts a call of method_path ("/catalyzer.v1.Analyzer/Analyze") whose
 * responses are resp_desc messages. Never NULL; a call that cannot start
 * still ends through on_done (possibly before this returns). */
CzcCall *czc_call_start(CzcConn *c, const char *method_path, const ProtobufCMessage *req,
                        const ProtobufCMessageDescriptor *resp_desc, const CzcCallOptions *opts, CzcMessageFn on_message,
                        CzcDoneFn on_done, void *ud);
/* The same with the request already serialised and each response message
 * handed over as its bytes (valid during the callback), unparsed: for tools
 * that look at a field or two (catalyzer-load) or forward the bytes. */
typedef void (*CzcRawFn)(void *ud, const uint8_t *msg, size_t len);
CzcCall *czc_call_start_raw(CzcConn *c, const char *method_path, const uint8_t *req, size_t len,
                            const CzcCallOptions *opts, CzcRawFn on_message, CzcDoneFn on_done, void *ud);
/* Cancels: RST_STREAM(CANCEL) to the server, on_done(CANCELLED) now. */
void czc_call_cancel(CzcCall *call);

/* Analyze: on_event per trace event (in order), on_result once, on_done last.
 * The handler is copied; any function may be NULL. */
typedef struct CzcAnalyzeHandler {
    void (*on_event)(void *ud, const Catalyzer__V1__TraceEvent *ev);
    void (*on_result)(void *ud, const Catalyzer__V1__AnalyzeResponse *resp);
    CzcDoneFn on_done;
    void *ud;
} CzcAnalyzeHandler;
CzcCall *czc_analyze(CzcConn *c, const Catalyzer__V1__AnalyzeRequest *req, const CzcCallOptions *opts,
                     const CzcAnalyzeHandler *h);

/* Execute: on_response once (on success), then on_done. */
CzcCall *czc_execute(CzcConn *c, const Catalyzer__V1__ExecuteRequest *req, const CzcCallOptions *opts,
                     void (*on_response)(void *ud, const Catalyzer__V1__ExecuteResponse *resp), CzcDoneFn on_done,
                     void *ud);

/* ---------------------------------------------------------------- synchronous */

typedef struct CzcClient CzcClient;

/* A client of "host:port" with its own loop. NULL (and err) for a bad address.
 * Dials on the first call and again after the connection drops. */
CzcClient *czc_client_new(const char *hostport, char *err, size_t errlen);
void czc_client_free(CzcClient *cl);
CzcConn *czc_client_conn(CzcClient *cl);
/* czc_conn_set_security for the client's connection. */
bool czc_client_set_security(CzcClient *cl, const CzcSecurity *sec, char *err, size_t errlen);
/* Default deadline of the client's calls (0: none). */
void czc_client_set_timeout(CzcClient *cl, uint32_t timeout_ms);

/* Each returns the gRPC status; message (if given) gets the status message.
 * On CZC_OK *out holds the response; free it with the generated *_free_unpacked
 * (or protobuf_c_message_free_unpacked(&out->base, NULL)). */
int czc_client_analyze(CzcClient *cl, const Catalyzer__V1__AnalyzeRequest *req,
                       void (*on_event)(void *ud, const Catalyzer__V1__TraceEvent *ev), void *ud,
                       Catalyzer__V1__AnalyzeResponse **out, char *message, size_t msgcap);
int czc_client_execute(CzcClient *cl, const Catalyzer__V1__ExecuteRequest *req, Catalyzer__V1__ExecuteResponse **out,
                       char *message, size_t msgcap);
int czc_client_register_catalog(CzcClient *cl, const Catalyzer__V1__RegisterCatalogRequest *req,
                                Catalyzer__V1__RegisterCatalogResponse **out, char *message, size_t msgcap);
int czc_client_drop_session(CzcClient *cl, const char *session_id, char *message, size_t msgcap);
/* Any unary call by path. */
int czc_client_unary(CzcClient *cl, const char *method_path, const ProtobufCMessage *req,
                     const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **out, char *message, size_t msgcap);

#endif
