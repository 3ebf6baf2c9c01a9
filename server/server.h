/* The daemon's state: one libuv loop owns every socket, session table and
 * timer; workers only touch their jobs, the metrics (locked) and the pool
 * queue (locked). */
#ifndef CZ_SERVER_H
#define CZ_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "auth.h"
#include "config.h"
#include "job.h"
#include "metrics.h"
#include "session_id.h"
#include "session_store.h"
#include "workers.h"

struct TlsContext;

typedef struct Session {
    char id[SESSION_ID_MAX + 1];
    char owner[AUTH_PRINCIPAL_MAX + 1]; /* the principal that created it; only it may use it */
    char server_id[40];
    CzSession *cz;
    bool busy;
    bool unlinked;              /* dropped or expired while busy / with waiters */
    Job *wait_head, *wait_tail; /* jobs waiting for this session, FIFO */
    uint64_t last_used_ns;
    uint64_t version;           /* its journal's version (session_store.h): worker processes replay up to it */
    size_t state_bytes;         /* its memory in a worker, as last measured (worker processes) */
    bool provisional;           /* created by a call that has not succeeded yet: a failed one removes it */
    struct Session *hnext;
} Session;

enum { SESSION_BUCKETS = 4096 };

typedef struct Pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    Job *head, *tail;
    uint32_t len;       /* queued, not yet running */
    uint32_t running;
    bool stop;
    pthread_t *threads;
    uint32_t nthreads;
} Pool;

typedef struct Server {
    Config cfg;
    uv_loop_t *loop;
    uv_tcp_t grpc_listener, http_listener;
    bool http_enabled;
    int grpc_port, http_port;
    char rbuf[65536];           /* the loop's one read buffer: every read is consumed before the next */
    uv_async_t notify_async;
    uv_signal_t sigterm, sigint;
    uv_timer_t session_timer, drain_timer, idle_timer;

    /* Worker → loop: jobs with new output or finished (under notify_mu). */
    pthread_mutex_t notify_mu;
    Job *notify_head;

    Pool pool;                  /* --worker-isolation thread */
    Workers *workers;           /* --worker-isolation process (default) */
    SessionStore *store;        /* the sessions' journals (worker processes) */
    size_t state_bytes_total;   /* sessions' state_bytes, summed */
    uint32_t session_waiting;   /* jobs parked behind a busy session (loop-only) */
    Session *sessions[SESSION_BUCKETS];
    uint32_t nsessions;
    uint64_t next_session_seq;

    struct TlsContext *tls_grpc, *tls_http; /* NULL: cleartext */
    struct CzCatalogs *catalogs; /* external catalogs (catalogs/catalogs.h), shared by every session */
    AuthTokens *tokens;         /* NULL: no bearer tokens required */

    Metrics metrics;
    uint64_t next_request_id;
    char request_id_prefix[9]; /* server_next_request_id's random part; "" until the first id */
    uint32_t nconnections;
    uint32_t nconn_grpc, nconn_http; /* per port */
    void *conns;                /* transport connection list (h2 and http1), see conn.h */
    bool draining;
    bool drain_pending;         /* SIGTERM seen, --drain-delay-ms running: NOT_SERVING, still serving */
    bool serving;               /* health: SERVING / NOT_SERVING */
    void *watchers;             /* health Watch calls to notify */
    bool drained;               /* drain finished: closing the loop's own handles */
} Server;

int server_run(const Config *cfg);

/* Any thread: queue j on the notify list and wake the loop. */
void server_notify(Server *srv, Job *j);
/* Same, for job_finish: after it the worker never touches j again. */
void server_notify_finish(Server *srv, Job *j);
/* Loop: the notify handle's callback (a->data is the Server): output and
 * completion of the jobs on the notify list. The fuzz harnesses install it
 * on their own loop so they run the daemon's completion path. */
void server_on_notify(uv_async_t *a);

/* Loop: submits a job (possibly parking it behind its session). Returns a
 * gRPC status: OK, RESOURCE_EXHAUSTED (queue full), UNAVAILABLE (draining,
 * shared session store unreachable) or PERMISSION_DENIED (a shared store's
 * session of another principal). */
int server_submit(Server *srv, Job *j);
/* The client-facing message for a status server_submit refused j with
 * (read it before dropping the reference to j). */
const char *server_submit_refusal(const Job *j, int status);

/* Loop: finds or creates the session id[0..len) for principal (what
 * conn_principal says; "" when anonymous, where Spark Connect passes the
 * request's user_id instead). Every transport looks sessions up here, so one rule holds for
 * all: NULL with *status INVALID_ARGUMENT (the id breaks the session-id
 * rule), PERMISSION_DENIED (another principal's session, whatever the call),
 * RESOURCE_EXHAUSTED (table full); NULL with OK when create is false and
 * there is no such session. */
Session *server_session(Server *srv, const char *id, size_t len, const char *principal, bool create, int *status);
/* The client-facing message for a status server_session refused with. */
const char *server_session_refusal(int status);

/* A new analyzer session with the server's external catalogs attached: every
 * session the daemon makes comes from here. */
/* The external-catalog provider with the --catalog-cache-* flags (one per process). */
struct CzCatalogs *server_new_catalogs(const Config *cfg);
CzSession *server_new_cz_session(Server *srv);

void server_next_request_id(Server *srv, char *out, size_t cap);

/* Loop: jobs queued and running, and the workers able to take one. */
void server_counts(Server *srv, uint32_t *queued, uint32_t *running, uint32_t *workers);
/* Loop: a worker process' job is done (its status set): send what is left
 * and complete it (workers.c). */
void server_job_finished(Server *srv, Job *j);

/* Loop: health status changed → notify Watch streams (transport hook). */
void h2_health_changed(Server *srv);

#endif
