#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "rpc.h"
#include "session_store.h"

static Server *g_srv;

Server *fuzz_server(void) {
    if (g_srv) return g_srv;
    g_srv = calloc(1, sizeof *g_srv);
    char arg0[] = "catalyzerd", thread[] = "--worker-isolation=thread", level[64];
    /* quiet unless FUZZ_LOG_LEVEL says otherwise (debug shows every call and reset) */
    snprintf(level, sizeof level, "--log-level=%s", getenv("FUZZ_LOG_LEVEL") ? getenv("FUZZ_LOG_LEVEL") : "error");
    char *argv[] = {arg0, thread, level, NULL};
    if (config_load(&g_srv->cfg, 3, argv) != 0) abort();
    metrics_init(&g_srv->metrics);
    pthread_mutex_init(&g_srv->notify_mu, NULL);
    return g_srv;
}

Session *fuzz_session_new(const char *id) {
    Session *s = calloc(1, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", id);
    snprintf(s->server_id, sizeof s->server_id, "s-fuzz");
    s->cz = server_new_cz_session(fuzz_server());
    if (!s->cz) abort();
    return s;
}

void fuzz_session_free(Session *s) {
    if (!s) return;
    cz_session_free(s->cz);
    free(s);
}

static bool sink_emit(Job *j, const void *data, size_t len) {
    (void)data;
    j->out_bytes += len; /* counted, not kept */
    return true;
}

static void sink_finish(Job *j) { (void)j; }

static const JobSink SINK = {sink_emit, sink_finish};

void fuzz_report(const Job *j) {
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_VERBOSE") != NULL;
    if (verbose)
        fprintf(stderr, "fuzz: %s: status %d %.200s (%zu bytes out)\n", rpc_method_name(j->method), j->status,
                j->status_msg, j->out_bytes);
}

int fuzz_run_job(Job *j) {
    j->sink = &SINK;
    rpc_run(j);
    fuzz_report(j);
    if (!j->done) {
        fprintf(stderr, "fuzz: rpc_run returned without finishing its job\n");
        abort();
    }
    return j->status;
}

/* ---------------------------------------------------------------- the loop targets (h2, http1) */

static uv_loop_t g_loop;
static Server *g_loop_srv;

Server *fuzz_loop_server(void) {
    if (g_loop_srv) return g_loop_srv;
    Server *srv = fuzz_server();
    uv_loop_init(&g_loop);
    srv->loop = &g_loop;
    srv->serving = true;
    srv->cfg.stream_buffer_bytes = 1u << 30; /* one thread: a worker must never wait for the loop */
    srv->store = session_store_memory(srv->cfg.max_session_state_bytes, srv->cfg.max_total_session_state_bytes);
    pthread_mutex_init(&srv->pool.mu, NULL);
    pthread_cond_init(&srv->pool.cv, NULL);
    uv_async_init(&g_loop, &srv->notify_async, server_on_notify); /* the daemon's own completion path */
    srv->notify_async.data = srv;
    g_loop_srv = srv;
    return srv;
}

/* The pool's worker (server.c's worker_main), one job at a time on this thread. */
static bool run_queued(Server *srv) {
    Pool *p = &srv->pool;
    Job *j = p->head;
    if (!j) return false;
    p->head = j->next;
    if (!p->head) p->tail = NULL;
    p->len--;
    rpc_run(j);
    fuzz_report(j);
    return true;
}

static void drain_peer(int fd) {
    char buf[65536];
    while (read(fd, buf, sizeof buf) > 0) {
    }
}

/* Sessions the calls created go with the connection (one input, one client). */
void fuzz_drop_sessions(Server *srv) {
    for (int b = 0; b < SESSION_BUCKETS; b++) {
        for (Session *s = srv->sessions[b], *n; s; s = n) {
            n = s->hnext;
            store_drop(srv->store, s->id);
            if (s->cz) cz_session_free(s->cz);
            free(s);
        }
        srv->sessions[b] = NULL;
    }
    srv->nsessions = 0;
    srv->state_bytes_total = 0;
}

bool fuzz_conn_alive(Server *srv, const ConnHead *c) {
    for (ConnHead *h = srv->conns; h; h = h->next)
        if (h == c) return !h->closing;
    return false;
}

void fuzz_pump(Server *srv, int peer) {
    for (int round = 0; round < 64; round++) {
        bool ran = false;
        while (run_queued(srv)) ran = true;
        uv_run(&g_loop, UV_RUN_NOWAIT);
        drain_peer(peer);
        if (!ran && !srv->pool.head && !srv->notify_head) break;
    }
}
