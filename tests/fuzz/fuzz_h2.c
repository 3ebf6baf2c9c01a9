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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > FUZZ_MAX_INPUT) return 0;
    Server *srv = fuzz_loop_server();
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
    for (int i = 0; i < 2 && fuzz_conn_alive(srv, &c->head); i++) {
        if (!parts[i]) continue;
        /* on_read consumes the loop's buffer synchronously, as with a socket */
        memcpy(srv->rbuf, p, parts[i] < sizeof srv->rbuf ? parts[i] : sizeof srv->rbuf);
        uv_buf_t b = uv_buf_init(srv->rbuf, sizeof srv->rbuf);
        on_read((uv_stream_t *)&c->head.tcp, (ssize_t)(parts[i] < sizeof srv->rbuf ? parts[i] : sizeof srv->rbuf), &b);
        p += parts[i];
        fuzz_pump(srv, sv[1]);
    }
    /* The client goes away: what is still open is cancelled and freed. */
    if (fuzz_conn_alive(srv, &c->head)) really_close(c);
    for (int i = 0; i < 8 && (srv->conns || srv->notify_head || srv->pool.head); i++) fuzz_pump(srv, sv[1]);
    uv_run(srv->loop, UV_RUN_NOWAIT);
    close(sv[1]);
    fuzz_drop_sessions(srv);
    return 0;
}
