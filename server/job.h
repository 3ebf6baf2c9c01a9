/* A job: one RPC's work, shared between the loop thread (which owns the
 * transport call) and a worker thread (which runs the analysis).
 *
 * The worker appends response bytes with job_emit; the loop drains them with
 * job_take as HTTP/2 flow control allows. Unsent bytes are bounded: past
 * `out_cap` the worker waits until the loop catches up or the call is
 * cancelled, so a slow reader costs bounded memory. */
#ifndef CZ_JOB_H
#define CZ_JOB_H

#include <protobuf-c/protobuf-c.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalyzer.h"
#include "fault.h"
#include "trace.h"

typedef enum RpcMethod {
    RPC_ANALYZE,
    RPC_EXECUTE,
    RPC_REGISTER_CATALOG,
    RPC_DROP_SESSION,
    RPC_HEALTH_CHECK,
    RPC_HEALTH_WATCH,
    RPC_LIST_FUNCTIONS,
    RPC_INVALIDATE_TABLE,
    /* spark.connect.SparkConnectService (connect_service.c) */
    RPC_CONNECT_EXECUTE_PLAN,
    RPC_CONNECT_ANALYZE_PLAN,
    RPC_CONNECT_CONFIG,
    RPC_CONNECT_RELEASE_EXECUTE,
    RPC_CONNECT_RELEASE_SESSION,
    /* grpc.reflection.{v1,v1alpha}.ServerReflection (reflection.c): served on the loop */
    RPC_REFLECTION_V1,
    RPC_REFLECTION_V1ALPHA,
    RPC_COUNT_,
} RpcMethod;

const char *rpc_method_name(RpcMethod m); /* "Analyze" */
static inline bool rpc_is_connect(RpcMethod m) { return m >= RPC_CONNECT_EXECUTE_PLAN && m <= RPC_CONNECT_RELEASE_SESSION; }

typedef enum JobFormat {
    JOB_GRPC,   /* length-prefixed protobuf messages */
    JOB_JSON,   /* one JSON body, sent whole when done */
    JOB_NDJSON, /* one JSON line per message, streamed as produced */
} JobFormat;

typedef struct OutChunk {
    struct OutChunk *next;
    size_t len, off;
    uint8_t data[];
} OutChunk;

struct Server;
struct Session;
struct Buf;
struct Job;

/* Where a job's output goes when it runs in a worker process (worker_main.c):
 * emit sends response bytes to the loop, finish the outcome. */
typedef struct JobSink {
    bool (*emit)(struct Job *j, const void *data, size_t len);
    void (*finish)(struct Job *j);
} JobSink;

typedef struct Job {
    /* Set by the loop before submission; read-only afterwards. */
    struct Server *srv;
    RpcMethod method;
    JobFormat fmt;
    uint8_t *req;               /* gRPC: the request message (no prefix), malloc'ed */
    size_t req_len;
    ProtobufCMessage *req_msg;  /* JSON: the already-decoded request */
    struct Session *session;    /* NULL: stateless */
    char session_id[129];       /* SESSION_ID_MAX + 1 */
    uint64_t deadline_ns;       /* CLOCK_MONOTONIC; 0 none */
    uint64_t start_ns;
    char request_id[REQUEST_ID_MAX + 1]; /* the client's x-request-id, or one the daemon made */
    TraceContext trace;         /* the client's traceparent (trace.valid false: none) */
    uint8_t compress;           /* GrpcEncoding of the response messages (job_emit_grpc) */

    /* Shared, under mu. */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    OutChunk *out_head, *out_tail;
    size_t out_bytes, out_cap;
    size_t emitted_bytes;       /* the response so far (producer side): --max-response-bytes bounds it */
    size_t over_cap_bytes;      /* non-zero: a message of the response would have passed the cap at this size */
    bool done;
    int status;                 /* gRPC status once done */
    char status_msg[512];
    uint8_t *status_details;    /* grpc-status-details-bin (a google.rpc.Status), malloc'ed; NULL: none */
    size_t status_details_len;
    char error_class[128];      /* analysis error class of the result, for metrics */
    bool notify_pending;        /* queued on the server's notify list (under the server's notify_mu) */
    bool finish_queued;         /* job_finish's notification is queued (under notify_mu): the worker is gone */
    bool finish_taken;          /* loop-only: the loop has taken that notification */
    volatile int cancel;        /* set by the loop (client went away, deadline); read by the analyzer */
    int refs;                   /* atomic builtins */

    /* Loop-only. */
    void *call;                 /* the transport's call; NULL once detached */
    void (*on_output)(struct Job *); /* transport hook: new output or done */
    struct Job *next;           /* pool queue / session wait list / notify list */
    struct Job *notify_next;    /* under the server's notify_mu */
    struct Job *run_next;       /* loop-only: the batch being processed (workers may relink notify_next meanwhile) */
    bool dispatched;
    bool completed;             /* completion bookkeeping done */
    bool loop_owned;            /* produced on the loop (health): job_emit never waits */

    /* Worker processes (workers.c, worker_main.c). */
    const JobSink *sink;        /* worker side: output goes to the loop; NULL: in-process */
    struct Buf *journal;        /* worker side: the session's changes are recorded here; NULL: none */
    Fault fault;                /* worker side: the request's injected fault (fault.h) */
    void *worker;               /* loop side: the worker process running it */
    void (*on_cancel)(struct Job *);  /* loop side: job_cancel tells the worker */
    void (*on_drained)(struct Job *); /* loop side: job_take made room (backpressure) */
} Job;

Job *job_new(struct Server *srv, RpcMethod m, JobFormat fmt);
void job_ref(Job *j);
void job_unref(Job *j);

/* Worker (or loop) side: appends bytes; waits while too much is unsent
 * unless the job is cancelled. Returns false if cancelled. Wakes the loop. */
bool job_emit(Job *j, const void *data, size_t len);
/* Appends a gRPC length-prefixed message. */
bool job_emit_grpc(Job *j, const ProtobufCMessage *msg);
/* Marks the job finished with a gRPC status and wakes the loop. */
void job_finish(Job *j, int status, const char *msg);
/* The same without waking anyone (the loop, for a job of a worker process). */
void job_set_done(Job *j, int status, const char *msg);
/* Loop side: appends output a worker process sent (never waits). */
void job_append(Job *j, const void *data, size_t len);
/* Worker side, before job_finish: the status's google.rpc.Status details
 * (taken over; freed with the job). */
void job_set_status_details(Job *j, uint8_t *details, size_t len);

/* Loop side: copies up to cap unsent bytes into buf; returns the count.
 * *eof is set when everything is sent and the job is done. */
size_t job_take(Job *j, uint8_t *buf, size_t cap, bool *eof);
/* Loop side: cancels (the worker stops waiting and drops output). */
void job_cancel(Job *j);

bool job_is_done(Job *j);
bool job_has_output(Job *j);

uint64_t mono_ns(void);

#endif
