/* libFuzzer target: a client's bytes into the JSON port's connection layer
 * (server/http1.c, included here for its static callbacks), before any
 * HTTP parsing: the request line, headers, Content-Length and chunked
 * bodies, pipelining, the guards (Host, Origin, CORS, sizes), the routes and
 * the HTTP/2-with-prior-knowledge switch on the same port. A connection as
 * http1_on_connection makes one, on one end of a socket pair (the other end
 * is read and dropped), fed the input through on_read as the loop would, in
 * up to three reads; calls run on the pool's queue (rpc_run) and complete
 * through the loop (server_job_finished), then the connection closes. The
 * first two bytes say where the input is split. */
#include "../../server/http1.c"

#include <sys/socket.h>
#include <unistd.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || size > FUZZ_MAX_INPUT) return 0;
    Server *srv = fuzz_loop_server();
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) != 0) abort();
    Http1Conn *c = h1_conn_new(srv);
    if (!c) abort();
    if (uv_tcp_open(&c->head.tcp, sv[0]) != 0) abort();
    conn_read_start(&c->head, on_alloc, on_read);
    size_t rest = size - 2;
    size_t a = (size_t)data[0] * rest / 255, b = a + (size_t)data[1] * (rest - a) / 255;
    const uint8_t *p = data + 2;
    size_t parts[3] = {a, b - a, rest - b};
    for (int i = 0; i < 3 && fuzz_conn_alive(srv, &c->head); i++) {
        size_t n = parts[i] < sizeof srv->rbuf ? parts[i] : sizeof srv->rbuf;
        if (!n) continue;
        /* on_read consumes the loop's buffer synchronously, as with a socket */
        memcpy(srv->rbuf, p, n);
        uv_buf_t ub = uv_buf_init(srv->rbuf, sizeof srv->rbuf);
        on_read((uv_stream_t *)&c->head.tcp, (ssize_t)n, &ub);
        p += parts[i];
        fuzz_pump(srv, sv[1]);
    }
    /* The client goes away: what is still open is cancelled and freed. */
    if (fuzz_conn_alive(srv, &c->head)) h1_close(&c->head);
    for (int i = 0; i < 8 && (srv->conns || srv->notify_head || srv->pool.head); i++) fuzz_pump(srv, sv[1]);
    uv_run(srv->loop, UV_RUN_NOWAIT);
    close(sv[1]);
    fuzz_drop_sessions(srv);
    return 0;
}
