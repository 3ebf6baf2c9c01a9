/* The daemon core: listeners, worker pool, sessions, the worker → loop
 * notify path, SIGTERM drain (see server.h). */
#include "server.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "catalogs.h"
#include "conn.h"
#include "grpc_codec.h"
#include "log.h"
#include "security.h"
#include "session_store_redis.h"
#include "rpc.h"

/* ---------------------------------------------------------------- pool */

static void *worker_main(void *arg) {
    Server *srv = arg;
    Pool *p = &srv->pool;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->head && !p->stop) pthread_cond_wait(&p->cv, &p->mu);
        if (!p->head) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        Job *j = p->head;
        p->head = j->next;
        if (!p->head) p->tail = NULL;
        j->next = NULL;
        p->len--;
        p->running++;
        pthread_mutex_unlock(&p->mu);
        rpc_run(j); /* ends with job_finish; the loop drops the worker's reference */
        pthread_mutex_lock(&p->mu);
        p->running--;
        pthread_mutex_unlock(&p->mu);
    }
}

static int pool_start(Server *srv) {
    Pool *p = &srv->pool;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->threads = calloc(srv->cfg.workers, sizeof(pthread_t));
    if (!p->threads) return -1;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, srv->cfg.worker_stack_bytes); /* analysis recurses over plan depth */
    /* Workers must not take the signals the loop handles. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    for (uint32_t i = 0; i < srv->cfg.workers; i++) {
        if (pthread_create(&p->threads[i], &attr, worker_main, srv) != 0) break;
        p->nthreads++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    return p->nthreads ? 0 : -1;
}

static void pool_stop(Server *srv) {
    Pool *p = &srv->pool;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    free(p->threads);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
}

/* Hands a job to a worker (thread or process); the caller has taken the
 * worker's reference. */
static void dispatch(Server *srv, Job *j) {
    if (srv->workers) {
        workers_push(srv->workers, j);
        return;
    }
    Pool *p = &srv->pool;
    pthread_mutex_lock(&p->mu);
    j->next = NULL;
    if (p->tail)
        p->tail->next = j;
    else
        p->head = j;
    p->tail = j;
    p->len++;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

static void pool_push(Server *srv, Job *j) {
    job_ref(j); /* the worker's reference, dropped by the loop at completion */
    dispatch(srv, j);
}

void server_counts(Server *srv, uint32_t *queued, uint32_t *running, uint32_t *workers) {
    if (srv->workers) {
        workers_counts(srv->workers, queued, running, workers);
        return;
    }
    pthread_mutex_lock(&srv->pool.mu);
    *queued = srv->pool.len;
    *running = srv->pool.running;
    *workers = srv->pool.nthreads;
    pthread_mutex_unlock(&srv->pool.mu);
}

static void pool_counts(Server *srv, uint32_t *queued, uint32_t *running) {
    uint32_t w;
    server_counts(srv, queued, running, &w);
}

/* ---------------------------------------------------------------- sessions */

static uint32_t hash_str(const char *s) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

struct CzCatalogs *server_new_catalogs(const Config *cfg) {
    CzCatalogsOptions o = {.cache_max_entries = cfg->catalog_cache_max_entries,
                           .cache_max_bytes = cfg->catalog_cache_max_bytes,
                           .cache_ttl_ms = cfg->catalog_cache_ttl_seconds * 1000u};
    return cz_catalogs_new(&o);
}

CzSession *server_new_cz_session(Server *srv) {
    CzSession *s = cz_session_new(false);
    if (s && srv && srv->catalogs) cz_session_set_catalog_provider(s, cz_catalogs_provider(srv->catalogs));
    if (s && srv && srv->cfg.default_time_zone[0]) cz_session_set_default_time_zone(s, srv->cfg.default_time_zone);
    return s;
}

Session *server_session(Server *srv, const char *id, size_t len, const char *principal, bool create, int *status) {
    *status = GRPC_OK;
    if (!session_id_valid(id, len)) {
        *status = GRPC_INVALID_ARGUMENT;
        return NULL;
    }
    char key[SESSION_ID_MAX + 1];
    memcpy(key, id, len);
    key[len] = '\0';
    uint32_t b = hash_str(key) % SESSION_BUCKETS;
    for (Session *s = srv->sessions[b]; s; s = s->hnext)
        if (strcmp(s->id, key) == 0) {
            if (strcmp(s->owner, principal) == 0) return s;
            *status = GRPC_PERMISSION_DENIED; /* knowing the id is not enough */
            return NULL;
        }
    if (!create) return NULL;
    *status = GRPC_RESOURCE_EXHAUSTED;
    if (srv->nsessions >= srv->cfg.max_sessions || strlen(principal) > AUTH_PRINCIPAL_MAX) return NULL;
    Session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    /* With worker processes the state lives in the workers, rebuilt from the journal. */
    s->cz = srv->workers ? NULL : server_new_cz_session(srv);
    if (!s->cz && !srv->workers) {
        free(s);
        return NULL;
    }
    *status = GRPC_OK;
    memcpy(s->id, key, len + 1);
    snprintf(s->owner, sizeof s->owner, "%s", principal);
    snprintf(s->server_id, sizeof s->server_id, "s-%d-%" PRIu64, (int)getpid(), ++srv->next_session_seq);
    s->last_used_ns = mono_ns();
    s->provisional = true; /* until a call on it succeeds */
    s->hnext = srv->sessions[b];
    srv->sessions[b] = s;
    srv->nsessions++;
    log_json(srv->cfg.log_level, LOG_DEBUG, "session created",
             json_pack("{s:s,s:s,s:s}", "session_id", s->id, "server_session_id", s->server_id, "principal", s->owner));
    return s;
}

const char *server_session_refusal(int status) {
    switch (status) {
    case GRPC_INVALID_ARGUMENT: return SESSION_ID_RULE;
    case GRPC_PERMISSION_DENIED: return "the session belongs to another principal";
    default: return "too many sessions";
    }
}

/* Removes s from the table. dropped: the client ended it (DropSession,
 * ReleaseSession), so its journal goes from a shared store too; otherwise
 * (idle, a failed first call) only this replica forgets it, and a shared
 * store keeps it for the other replicas (it expires there by itself). */
static void session_unlink(Server *srv, Session *s, bool dropped) {
    if (s->unlinked) return;
    uint32_t b = hash_str(s->id) % SESSION_BUCKETS;
    for (Session **pp = &srv->sessions[b]; *pp; pp = &(*pp)->hnext)
        if (*pp == s) {
            *pp = s->hnext;
            break;
        }
    s->unlinked = true;
    srv->nsessions--;
    if (srv->store && (dropped || !srv->store->shared)) store_drop(srv->store, s->id);
    srv->state_bytes_total -= s->state_bytes;
    s->state_bytes = 0;
    if (srv->workers) workers_forget(srv->workers, s);
}

static void session_free(Session *s) {
    if (s->cz) cz_session_free(s->cz);
    free(s);
}

static void session_sweep(uv_timer_t *t) {
    Server *srv = t->data;
    log_flush_suppressed(srv->cfg.log_level);
    uint64_t now = mono_ns(), idle = (uint64_t)srv->cfg.session_idle_seconds * 1000000000ull;
    for (int b = 0; b < SESSION_BUCKETS; b++) {
        for (Session *s = srv->sessions[b], *n; s; s = n) {
            n = s->hnext;
            if (!s->busy && !s->wait_head && now - s->last_used_ns > idle) {
                char tag[13];
                log_session_tag(s->id, tag);
                log_json(srv->cfg.log_level, LOG_INFO, "session expired",
                         json_pack("{s:s,s:s}", "session", tag, "server_session_id", s->server_id));
                session_unlink(srv, s, false);
                session_free(s);
            }
        }
    }
}

/* ---------------------------------------------------------------- submit / complete */

/* With a shared store, the version a job on s starts from is the store's:
 * another replica may have moved the session on since this one last served
 * it, and the worker then replays what it lacks rather than use its stale
 * copy. Called only while no job runs on s here (the version a running job
 * started from is the one its changes are appended to). GRPC_OK, or the
 * status to refuse the job with. */
static int session_sync(Server *srv, Session *s) {
    if (!srv->store->shared) return GRPC_OK;
    uint64_t v = 0;
    StoreStatus st = store_sync(srv->store, s->id, s->owner, &v);
    if (st == STORE_FORBIDDEN) return GRPC_PERMISSION_DENIED; /* another replica's session of another principal */
    if (st != STORE_OK) {
        log_json_limited(srv->cfg.log_level, LOG_WARN, "session-store", "session store unavailable",
                         json_pack("{s:s}", "status", store_status_name(st)));
        return GRPC_UNAVAILABLE;
    }
    s->version = v;
    return GRPC_OK;
}

/* The message for a job session_sync refused. */
static const char *session_sync_refusal(int status) {
    return status == GRPC_PERMISSION_DENIED ? "the session belongs to another principal"
                                            : "the session store is unavailable; the session is kept there";
}

const char *server_submit_refusal(const Job *j, int status) {
    if (j->done && j->status_msg[0]) return j->status_msg;
    return status == GRPC_UNAVAILABLE ? "server shutting down" : "server overloaded: queue full";
}

/* A call refused before it ran: the session it would have created goes. */
static int refuse(Server *srv, Job *j, int status) {
    Session *s = j->session;
    if (s && s->provisional && !s->busy && !s->wait_head) {
        session_unlink(srv, s, false);
        session_free(s);
        j->session = NULL;
    }
    return status;
}

int server_submit(Server *srv, Job *j) {
    if (srv->draining) return refuse(srv, j, GRPC_UNAVAILABLE);
    uint32_t queued, running;
    pool_counts(srv, &queued, &running);
    if (queued + srv->session_waiting >= srv->cfg.queue) {
        metrics_queue_full(&srv->metrics);
        return refuse(srv, j, GRPC_RESOURCE_EXHAUSTED);
    }
    j->dispatched = true;
    Session *s = j->session;
    if (s) {
        s->last_used_ns = mono_ns();
        if (s->busy) { /* a CzSession is never used by two workers at once */
            j->next = NULL;
            if (s->wait_tail)
                s->wait_tail->next = j;
            else
                s->wait_head = j;
            s->wait_tail = j;
            srv->session_waiting++;
            job_ref(j); /* the worker's reference, taken now */
            return GRPC_OK;
        }
        int st = session_sync(srv, s);
        if (st != GRPC_OK) {
            job_set_done(j, st, session_sync_refusal(st));
            return refuse(srv, j, st);
        }
        s->busy = true;
    }
    pool_push(srv, j);
    return GRPC_OK;
}

static void job_complete(Server *srv, Job *j) {
    Session *s = j->session;
    if (s) {
        s->busy = false;
        s->last_used_ns = mono_ns();
        if ((j->method == RPC_DROP_SESSION || j->method == RPC_CONNECT_RELEASE_SESSION) && j->status == GRPC_OK)
            session_unlink(srv, s, true);
        /* Sessions come into being with a call that succeeds: rejected
         * requests (undecodable, invalid) leave none behind. */
        if (s->provisional && j->status == GRPC_OK) s->provisional = false;
        else if (s->provisional && !s->wait_head) session_unlink(srv, s, false);
        if (s->wait_head) {
            Job *n = s->wait_head;
            s->wait_head = n->next;
            if (!s->wait_head) s->wait_tail = NULL;
            srv->session_waiting--;
            s->busy = true;
            int st = s->unlinked ? GRPC_OK : session_sync(srv, s);
            if (st == GRPC_OK) {
                dispatch(srv, n); /* its worker reference was taken when it was parked */
            } else { /* answered here; completing it hands the session to the next waiter */
                job_set_done(n, st, session_sync_refusal(st));
                server_job_finished(srv, n);
            }
        } else if (s->unlinked) {
            session_free(s);
        }
    }
    job_unref(j); /* the worker's reference */
}

/* DropSession / ReleaseSession that succeeded: the session (and its journal
 * in a shared store) goes before the client hears it ended, so a call the
 * client then sends to another replica cannot find the old journal there.
 * job_complete's own unlink is then a no-op. */
static void end_dropped_session(Server *srv, Job *j) {
    Session *s = j->session;
    if (s && !s->unlinked && j->status == GRPC_OK &&
        (j->method == RPC_DROP_SESSION || j->method == RPC_CONNECT_RELEASE_SESSION))
        session_unlink(srv, s, true);
}

void server_job_finished(Server *srv, Job *j) {
    job_ref(j); /* the transport may drop its reference below */
    if (!j->completed) end_dropped_session(srv, j);
    if (j->call && j->on_output) j->on_output(j);
    if (!j->completed) {
        j->completed = true;
        job_complete(srv, j);
    }
    job_unref(j);
    server_drain_check(srv);
}

static void notify(Server *srv, Job *j, bool finish) {
    pthread_mutex_lock(&srv->notify_mu);
    if (finish) j->finish_queued = true;
    if (!j->notify_pending) {
        j->notify_pending = true;
        j->notify_next = srv->notify_head;
        srv->notify_head = j;
    }
    pthread_mutex_unlock(&srv->notify_mu);
    uv_async_send(&srv->notify_async);
}

void server_notify(Server *srv, Job *j) { notify(srv, j, false); }
void server_notify_finish(Server *srv, Job *j) { notify(srv, j, true); }

void server_on_notify(uv_async_t *a) {
    Server *srv = a->data;
    /* Take the batch, linking it through run_next in arrival order: once
     * notify_pending is cleared a worker may queue a job again, rewriting
     * its notify_next while we still walk this batch. */
    Job *batch = NULL;
    pthread_mutex_lock(&srv->notify_mu);
    for (Job *j = srv->notify_head; j; j = j->notify_next) {
        j->notify_pending = false;
        if (j->finish_queued) j->finish_taken = true;
        j->run_next = batch; /* the list is newest first: this reverses it */
        batch = j;
    }
    srv->notify_head = NULL;
    pthread_mutex_unlock(&srv->notify_mu);
    for (Job *j = batch, *n; j; j = n) {
        n = j->run_next;
        if (!j->completed && j->finish_taken) end_dropped_session(srv, j);
        if (j->call && j->on_output) j->on_output(j);
        /* Complete (and possibly free) only once the worker's final
         * notification is in hand: seeing `done` earlier is not enough,
         * the worker may still be about to queue that notification. */
        if (!j->completed && j->finish_taken) {
            j->completed = true;
            job_complete(srv, j);
        }
    }
    server_drain_check(srv);
}

/* ---------------------------------------------------------------- records */

/* "r<8 hex>-<n>": a per-process random prefix (drawn at the first call)
 * and a counter, so that ids stay distinct across the replicas behind one
 * load balancer and across restarts, as a log pipeline joining them needs. */
void server_next_request_id(Server *srv, char *out, size_t cap) {
    if (!srv->request_id_prefix[0]) {
        unsigned char r[4];
        if (RAND_bytes(r, sizeof r) != 1) {
            uint64_t t = mono_ns() ^ (uint64_t)getpid() << 32;
            memcpy(r, &t, sizeof r);
        }
        snprintf(srv->request_id_prefix, sizeof srv->request_id_prefix, "%02x%02x%02x%02x", r[0], r[1], r[2], r[3]);
    }
    snprintf(out, cap, "r%s-%" PRIx64, srv->request_id_prefix, ++srv->next_request_id);
}

void server_record(Server *srv, RpcMethod m, const char *transport, const char *request_id, int status,
                   const char *error_class, const char *message, uint64_t start_ns) {
    server_record_session(srv, m, transport, request_id, NULL, status, error_class, message, start_ns);
}

void server_record_session(Server *srv, RpcMethod m, const char *transport, const char *request_id,
                           const char *session_id, int status, const char *error_class, const char *message,
                           uint64_t start_ns) {
    server_record_traced(srv, m, transport, request_id, NULL, session_id, status, error_class, message, start_ns);
}

void server_record_traced(Server *srv, RpcMethod m, const char *transport, const char *request_id,
                          const TraceContext *trace, const char *session_id, int status, const char *error_class,
                          const char *message, uint64_t start_ns) {
    double secs = (double)(mono_ns() - start_ns) / 1e9;
    metrics_request(&srv->metrics, (int)m, strcmp(transport, "grpc") == 0, status, error_class, secs);
    int level = status == GRPC_OK ? LOG_INFO : (status == GRPC_INTERNAL || status == GRPC_UNKNOWN ? LOG_ERROR : LOG_WARN);
    if (level < srv->cfg.log_level) return;
    json_t *f = json_pack("{s:s,s:s,s:s,s:s,s:f}", "request_id", request_id ? request_id : "", "method", rpc_method_name(m),
                          "transport", transport, "status", grpc_status_name(status), "seconds", secs);
    /* The session id is a credential and status messages may quote the
     * request (SQL text, literals, configuration values): a tag stands for
     * the one, the other is for debug level only. */
    if (session_id && *session_id) {
        char tag[13];
        log_session_tag(session_id, tag);
        json_object_set_new(f, "session", json_string(tag));
        if (srv->cfg.log_level == LOG_DEBUG) json_object_set_new(f, "session_id", json_string(session_id));
    }
    if (trace && trace->valid) {
        json_object_set_new(f, "trace_id", json_string(trace->trace_id));
        json_object_set_new(f, "parent_id", json_string(trace->parent_id));
        json_object_set_new(f, "span_id", json_string(trace->span_id));
        json_object_set_new(f, "sampled", json_boolean(trace->flags & 1));
    }
    if (error_class && *error_class) json_object_set_new(f, "error_class", json_string(error_class));
    if (message && *message && srv->cfg.log_level == LOG_DEBUG) json_object_set_new(f, "message", json_string(message));
    if (level == LOG_INFO) {
        log_json(srv->cfg.log_level, level, "request", f);
        return;
    }
    /* A client can make every call fail (a reset flood): one key per method and status. */
    char key[64];
    snprintf(key, sizeof key, "request %s %s", rpc_method_name(m), grpc_status_name(status));
    log_json_limited(srv->cfg.log_level, level, key, "request", f);
}

/* ---------------------------------------------------------------- conns */

void conn_link(Server *srv, ConnHead *c) {
    ConnHead *head = srv->conns;
    c->last_active_ns = mono_ns();
    c->srv = srv;
    c->prev = NULL;
    c->next = head;
    if (head) head->prev = c;
    srv->conns = c;
    srv->nconnections++;
    if (c->http_port)
        srv->nconn_http++;
    else
        srv->nconn_grpc++;
}

bool server_conn_over_limit(Server *srv, const ConnHead *c) {
    if (srv->nconnections > srv->cfg.max_connections) return true;
    return c->http_port ? srv->nconn_http > srv->cfg.max_http_connections
                        : srv->nconn_grpc > srv->cfg.max_grpc_connections;
}

void conn_unlink(Server *srv, ConnHead *c) {
    conn_transport_free(c);
    if (c->prev)
        c->prev->next = c->next;
    else
        srv->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    srv->nconnections--;
    if (c->http_port)
        srv->nconn_http--;
    else
        srv->nconn_grpc--;
}

/* Slow or silent clients (half-sent requests, idle keep-alives) cost a
 * connection slot each: close those without a call in flight. */
static void idle_sweep(uv_timer_t *t) {
    Server *srv = t->data;
    uint64_t now = mono_ns(), limit = (uint64_t)srv->cfg.idle_timeout_seconds * 1000000000ull;
    for (ConnHead *c = srv->conns, *n; c; c = n) {
        n = c->next;
        if (!c->closing && c->ops->idle(c) && now - c->last_active_ns > limit) {
            log_json(srv->cfg.log_level, LOG_DEBUG, "closing idle connection", NULL);
            c->ops->drain(c);
            c->ops->close(c);
        }
    }
}

/* ---------------------------------------------------------------- drain */

static void on_handle_closed(uv_handle_t *h) { (void)h; }

static void finish_drain(Server *srv) {
    uv_timer_stop(&srv->drain_timer);
    uv_close((uv_handle_t *)&srv->drain_timer, on_handle_closed);
    uv_close((uv_handle_t *)&srv->session_timer, on_handle_closed);
    uv_close((uv_handle_t *)&srv->idle_timer, on_handle_closed);
    uv_close((uv_handle_t *)&srv->sigterm, on_handle_closed);
    uv_close((uv_handle_t *)&srv->sigint, on_handle_closed);
    uv_close((uv_handle_t *)&srv->notify_async, on_handle_closed);
}


void server_drain_check(Server *srv) {
    if (!srv->draining || srv->drained) return;
    uint32_t queued, running;
    pool_counts(srv, &queued, &running);
    if (queued || running || srv->session_waiting) return;
    for (ConnHead *c = srv->conns; c; c = c->next)
        if (!c->ops->idle(c)) return;
    /* Everything answered: close the connections and let the loop run dry. */
    for (ConnHead *c = srv->conns, *n; c; c = n) {
        n = c->next;
        c->ops->close(c);
    }
    if (srv->conns) return; /* their close callbacks call back here */
    srv->drained = true; /* the loop's own handles are closing now */
    workers_close(srv->workers);
    finish_drain(srv);
}

static void on_drain_timeout(uv_timer_t *t) {
    Server *srv = t->data;
    log_json(srv->cfg.log_level, LOG_WARN, "drain timeout: cancelling in-flight calls", NULL);
    for (ConnHead *c = srv->conns; c; c = c->next) c->ops->cancel_all(c);
    for (ConnHead *c = srv->conns, *n; c; c = n) {
        n = c->next;
        c->force_close = true;
        c->ops->close(c);
    }
    uv_timer_start(&srv->drain_timer, on_drain_timeout, 1000, 0);
    server_drain_check(srv);
}

static void start_drain(Server *srv, int signum) {
    log_json(srv->cfg.log_level, LOG_INFO, "draining", json_pack("{s:i}", "signal", signum));
    srv->drain_pending = false;
    srv->draining = true;
    srv->serving = false;
    h2_health_changed(srv);
    uv_close((uv_handle_t *)&srv->grpc_listener, on_handle_closed);
    if (srv->http_enabled) uv_close((uv_handle_t *)&srv->http_listener, on_handle_closed);
    for (ConnHead *c = srv->conns, *n; c; c = n) {
        n = c->next;
        c->ops->drain(c);
    }
    uv_timer_start(&srv->drain_timer, on_drain_timeout, srv->cfg.drain_timeout_ms, 0);
    server_drain_check(srv);
}

static void on_drain_delay(uv_timer_t *t) { start_drain(t->data, SIGTERM); }

/* SIGTERM/SIGINT. With --drain-delay-ms the health service (and /healthz)
 * turns NOT_SERVING at once while calls are still accepted and served, so a
 * load balancer's health check takes the replica out before it refuses
 * anything; the drain starts when the delay ends, or at a second signal. */
static void on_signal(uv_signal_t *h, int signum) {
    Server *srv = h->data;
    if (srv->draining) return;
    if (srv->cfg.drain_delay_ms && !srv->drain_pending) {
        log_json(srv->cfg.log_level, LOG_INFO, "not serving: draining after the delay",
                 json_pack("{s:i,s:i}", "signal", signum, "drain_delay_ms", (int)srv->cfg.drain_delay_ms));
        srv->drain_pending = true;
        srv->serving = false;
        h2_health_changed(srv);
        uv_timer_start(&srv->drain_timer, on_drain_delay, srv->cfg.drain_delay_ms, 0);
        return;
    }
    uv_timer_stop(&srv->drain_timer);
    start_drain(srv, signum);
}

/* ---------------------------------------------------------------- run */

static int listen_on(Server *srv, uv_tcp_t *tcp, const char *host, int port, uv_connection_cb cb, int *bound) {
    struct sockaddr_storage ss;
    int rc;
    if (strchr(host, ':'))
        rc = uv_ip6_addr(host, port, (struct sockaddr_in6 *)&ss);
    else
        rc = uv_ip4_addr(strcmp(host, "localhost") == 0 ? "127.0.0.1" : host, port, (struct sockaddr_in *)&ss);
    if (rc) return rc;
    uv_tcp_init(srv->loop, tcp);
    tcp->data = srv;
    if ((rc = uv_tcp_bind(tcp, (struct sockaddr *)&ss, 0)) || (rc = uv_listen((uv_stream_t *)tcp, 511, cb))) return rc;
    struct sockaddr_storage got;
    int len = sizeof got;
    uv_tcp_getsockname(tcp, (struct sockaddr *)&got, &len);
    *bound = ntohs(got.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&got)->sin6_port
                                             : ((struct sockaddr_in *)&got)->sin_port);
    return 0;
}

/* --session-store: the sessions' journals in this process (the default) or
 * in Redis, shared with the other replicas (session_store_redis.h). */
static int open_session_store(Server *srv) {
    const Config *cfg = &srv->cfg;
    const char *url = cfg->session_store;
    if (!url[0] || strcmp(url, "memory") == 0) {
        srv->store = session_store_memory(cfg->max_session_state_bytes, cfg->max_total_session_state_bytes);
        return srv->store ? 0 : 1;
    }
    char err[300];
    srv->store = session_store_redis(url, cfg->max_session_state_bytes, cfg->session_idle_seconds, err, sizeof err);
    if (!srv->store) {
        log_json(cfg->log_level, LOG_ERROR, "bad --session-store", json_pack("{s:s}", "error", err));
        return 1;
    }
    return 0;
}

/* After the "listening" line (the first line names the ports): unreachable
 * for now is no reason not to start (replicas may start before their
 * Redis), each call on a session tries again. */
static void check_session_store(Server *srv) {
    char err[300];
    if (srv->store->shared && !session_store_redis_connect(srv->store, err, sizeof err))
        log_json(srv->cfg.log_level, LOG_WARN, "session store unreachable at start", json_pack("{s:s}", "error", err));
}

static void close_walk(uv_handle_t *h, void *arg) {
    (void)arg;
    if (!uv_is_closing(h)) uv_close(h, NULL);
}

int server_run(const Config *cfg) {
    Server *srv = calloc(1, sizeof *srv);
    if (!srv) return 1;
    srv->cfg = *cfg;
    srv->serving = true;
    srv->http_enabled = cfg->http_host[0] != '\0';
    uv_loop_t loop;
    uv_loop_init(&loop);
    srv->loop = &loop;
    metrics_init(&srv->metrics);
    pthread_mutex_init(&srv->notify_mu, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (security_setup(srv) != 0) return 1;
    srv->catalogs = server_new_catalogs(cfg);
    cz_default_time_zone(srv->cfg.default_time_zone, sizeof srv->cfg.default_time_zone);

    int rc = listen_on(srv, &srv->grpc_listener, cfg->grpc_host, cfg->grpc_port, h2_on_connection, &srv->grpc_port);
    if (rc) {
        log_json(cfg->log_level, LOG_ERROR, "cannot listen",
                 json_pack("{s:s,s:s,s:i,s:s}", "what", "grpc", "host", cfg->grpc_host, "port", cfg->grpc_port, "error",
                           uv_strerror(rc)));
        return 1;
    }
    if (srv->http_enabled) {
        rc = listen_on(srv, &srv->http_listener, cfg->http_host, cfg->http_port, http1_on_connection, &srv->http_port);
        if (rc) {
            log_json(cfg->log_level, LOG_ERROR, "cannot listen",
                     json_pack("{s:s,s:s,s:i,s:s}", "what", "http", "host", cfg->http_host, "port", cfg->http_port,
                               "error", uv_strerror(rc)));
            return 1;
        }
    }
    if (open_session_store(srv) != 0) return 1;
    if (cfg->worker_processes ? !(srv->workers = workers_start(srv)) : pool_start(srv) != 0) {
        log_json(cfg->log_level, LOG_ERROR, "cannot start workers", NULL);
        return 1;
    }
    uv_async_init(&loop, &srv->notify_async, server_on_notify);
    srv->notify_async.data = srv;
    uv_signal_init(&loop, &srv->sigterm);
    uv_signal_init(&loop, &srv->sigint);
    srv->sigterm.data = srv->sigint.data = srv;
    uv_signal_start(&srv->sigterm, on_signal, SIGTERM);
    uv_signal_start(&srv->sigint, on_signal, SIGINT);
    uv_timer_init(&loop, &srv->session_timer);
    srv->session_timer.data = srv;
    uint64_t sweep = (uint64_t)cfg->session_idle_seconds * 1000 / 4;
    if (sweep < 100) sweep = 100;
    if (sweep > 10000) sweep = 10000;
    uv_timer_start(&srv->session_timer, session_sweep, sweep, sweep);
    uv_timer_init(&loop, &srv->drain_timer);
    srv->drain_timer.data = srv;
    uv_timer_init(&loop, &srv->idle_timer);
    srv->idle_timer.data = srv;
    if (cfg->idle_timeout_seconds) {
        uint64_t every = cfg->idle_timeout_seconds * 1000ull / 4;
        if (every < 250) every = 250;
        if (every > 5000) every = 5000;
        uv_timer_start(&srv->idle_timer, idle_sweep, every, every);
    }

    /* The first log line names the ports: tools and tests parse it. */
    json_t *lf = json_pack("{s:i,s:i,s:s,s:s,s:i,s:i,s:i,s:i,s:b,s:b}", "grpc_port", srv->grpc_port, "http_port",
                           srv->http_enabled ? srv->http_port : -1, "grpc_host", cfg->grpc_host, "http_host",
                           cfg->http_host, "workers", (int)cfg->workers, "queue", (int)cfg->queue,
                           "max_message_bytes", (int)cfg->max_message_bytes, "pid", (int)getpid(), "tls",
                           srv->tls_grpc != NULL, "auth", srv->tokens != NULL);
    json_object_set_new(lf, "isolation", json_string(cfg->worker_isolation));
    json_object_set_new(lf, "session_store", json_string(srv->store->shared ? "redis" : "memory"));
    if (cfg->enable_fault_injection) json_object_set_new(lf, "fault_injection", json_true());
    log_json(LOG_DEBUG, LOG_INFO, "listening", lf);
    security_announce(srv);
    check_session_store(srv);

    uv_run(&loop, UV_RUN_DEFAULT);

    if (srv->workers)
        workers_free(srv->workers);
    else
        pool_stop(srv);
    /* Jobs finished after the loop stopped taking notifications. */
    for (Job *j = srv->notify_head, *n; j; j = n) {
        n = j->notify_next;
        if (!j->completed && j->finish_queued) {
            j->completed = true;
            job_unref(j);
        }
    }
    for (int b = 0; b < SESSION_BUCKETS; b++)
        for (Session *s = srv->sessions[b], *n; s; s = n) {
            n = s->hnext;
            session_free(s);
        }
    uv_walk(&loop, close_walk, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
    metrics_free(&srv->metrics);
    store_free(srv->store);
    security_free(srv);
    cz_catalogs_free(srv->catalogs);
    pthread_mutex_destroy(&srv->notify_mu);
    log_json(LOG_DEBUG, LOG_INFO, "stopped", NULL);
    free(srv);
    return 0;
}
