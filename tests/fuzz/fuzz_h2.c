/* libFuzzer target: bytes from a client into the daemon's HTTP/2 session
 * layer (server/h2.c, included here for its static callbacks): a
 * connection as h2_on_connection makes one, on one end of a socket pair
 * (the other end is read and dropped), its nghttp2 server session fed the
 * input through on_read as the loop would. Calls that reach server_submit
 * run synchronously on the thread pool's queue (rpc_run), their output and
 * completions go through the real notify path (server_job_finished), then
 * the connection closes. The first byte splits the input into two reads. */
#include "../../server/h2.c"

#include <sys/socket.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "session_store.h"

static uv_loop_t g_loop;
static Server *g_h2srv;

/* The loop's notify handler (server.c's on_notify is static): output and
 * completions of the jobs the pool ran. */
static void fuzz_on_notify(uv_async_t *a) {
    Server *srv = a->data;
    Job *batch = NULL;
    pthread_mutex_lock(&srv->notify_mu);
    for (Job *j = srv->notify_head; j; j = j->notify_next) {
        j->notify_pending = false;
        if (j->finish_queued) j->finish_taken = true;
        j->run_next = batch;
        batch = j;
    }
    srv->notify_head = NULL;
    pthread_mutex_unlock(&srv->notify_mu);
    for (Job *j = batch, *n; j; j = n) {
        n = j->run_next;
        if (j->finish_taken && !j->completed)
            server_job_finished(srv, j);
        else if (j->call && j->on_output)
            j->on_output(j);
    }
}

static Server *h2_server(void) {
    if (g_h2srv) return g_h2srv;
    Server *srv = fuzz_server();
    uv_loop_init(&g_loop);
    srv->loop = &g_loop;
    srv->serving = true;
    srv->cfg.stream_buffer_bytes = 1u << 30; /* one thread: a worker must never wait for the loop */
    srv->store = session_store_memory(srv->cfg.max_session_state_bytes, srv->cfg.max_total_session_state_bytes);
    pthread_mutex_init(&srv->pool.mu, NULL);
    pthread_cond_init(&srv->pool.cv, NULL);
    uv_async_init(&g_loop, &srv->notify_async, fuzz_on_notify);
    srv->notify_async.data = srv;
    g_h2srv = srv;
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
static void drop_sessions(Server *srv) {
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

/* c is still open (on_closed, run by the loop, frees it and unlinks it). */
static bool conn_alive(Server *srv, const H2Conn *c) {
    for (ConnHead *h = srv->conns; h; h = h->next)
        if (h == &c->head) return !h->closing;
    return false;
}

static void pump(Server *srv, int peer) {
    for (int round = 0; round < 64; round++) {
        bool ran = false;
        while (run_queued(srv)) ran = true;
        uv_run(&g_loop, UV_RUN_NOWAIT);
        drain_peer(peer);
        if (!ran && !srv->pool.head && !srv->notify_head) break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > FUZZ_MAX_INPUT) return 0;
    Server *srv = h2_server();
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) != 0) abort();
    H2Conn *c = calloc(1, sizeof *c);
    c->head.ops = &H2_OPS;
    uv_tcp_init(srv->loop, &c->head.tcp);
    c->head.tcp.data = c;
    conn_link(srv, &c->head);
    if (uv_tcp_open(&c->head.tcp, sv[0]) != 0) abort();
    if (!h2_session_start(c)) abort();
    h2_flush(c);
    size_t rest = size - 1, first = rest ? (size_t)data[0] * rest / 255 : 0;
    const uint8_t *p = data + 1;
    size_t parts[2] = {first, rest - first};
    for (int i = 0; i < 2 && conn_alive(srv, c); i++) {
        if (!parts[i]) continue;
        /* on_read consumes the loop's buffer synchronously, as with a socket */
        memcpy(srv->rbuf, p, parts[i] < sizeof srv->rbuf ? parts[i] : sizeof srv->rbuf);
        uv_buf_t b = uv_buf_init(srv->rbuf, sizeof srv->rbuf);
        on_read((uv_stream_t *)&c->head.tcp, (ssize_t)(parts[i] < sizeof srv->rbuf ? parts[i] : sizeof srv->rbuf), &b);
        p += parts[i];
        pump(srv, sv[1]);
    }
    /* The client goes away: what is still open is cancelled and freed. */
    if (conn_alive(srv, c)) really_close(c);
    for (int i = 0; i < 8 && (srv->conns || srv->notify_head || srv->pool.head); i++) pump(srv, sv[1]);
    uv_run(&g_loop, UV_RUN_NOWAIT);
    close(sv[1]);
    drop_sessions(srv);
    return 0;
}
