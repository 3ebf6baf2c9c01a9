/* Criterion units for the Redis session store (server/session_store_redis.c)
 * against a real redis-server started per test on a free loopback port: the
 * in-process store's cases (versions, replay after a version, a stale
 * writer's conflict, the per-session byte limit, drop), then what only a
 * shared store has: owners, a dropped and re-made session whose versions
 * never repeat the old ones, expiry, keys that do not reveal the session
 * id, a Redis that goes away and comes back, bad URLs. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "session_store_redis.h"

static pid_t redis_pid;
static int redis_port;

static int free_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t n = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || getsockname(fd, (struct sockaddr *)&a, &n) != 0)
        return -1;
    close(fd);
    return ntohs(a.sin_port);
}

static void sleep_ms(int ms) { nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000L}, NULL); }

static bool redis_answers(int port) {
    redisContext *c = redisConnectWithTimeout("127.0.0.1", port, (struct timeval){0, 200000});
    bool ok = c && !c->err;
    if (ok) {
        redisReply *r = redisCommand(c, "PING");
        ok = r && r->type == REDIS_REPLY_STATUS;
        if (r) freeReplyObject(r);
    }
    if (c) redisFree(c);
    return ok;
}

static void redis_start(void) {
    char port[16];
    snprintf(port, sizeof port, "%d", redis_port);
    redis_pid = fork();
    if (redis_pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execlp("redis-server", "redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly",
               "no", "--loglevel", "warning", (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 100 && !redis_answers(redis_port); i++) sleep_ms(20);
    cr_assert(redis_answers(redis_port), "redis-server did not start on port %d", redis_port);
}

static void redis_stop(void) {
    if (redis_pid <= 0) return;
    kill(redis_pid, SIGKILL);
    waitpid(redis_pid, NULL, 0);
    redis_pid = 0;
}

static void setup(void) {
    if (system("command -v redis-server >/dev/null 2>&1") != 0) cr_skip_test("redis-server is not installed");
    redis_port = free_port();
    cr_assert(redis_port > 0);
    redis_start();
}

static void teardown(void) { redis_stop(); }

static SessionStore *open_store(size_t max_session_bytes, unsigned ttl) {
    char url[128], err[256];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d/3?timeout_ms=500&prefix=test:", redis_port);
    SessionStore *st = session_store_redis(url, max_session_bytes, ttl, err, sizeof err);
    cr_assert(st, "%s", err);
    cr_assert(session_store_redis_connect(st, err, sizeof err), "%s", err);
    cr_assert(st->shared);
    return st;
}

static StoreStatus put(SessionStore *st, const char *key, const char *owner, uint64_t expect, const char *text,
                       uint64_t *v) {
    return store_append(st, key, owner, expect, (const uint8_t *)text, strlen(text), v);
}

static char *get(SessionStore *st, const char *key, uint64_t after, uint64_t *v) {
    uint8_t *out;
    size_t len;
    StoreStatus s = store_read(st, key, after, &out, &len, v);
    cr_assert_eq(s, STORE_OK, "%s", store_status_name(s));
    char *text = calloc(1, len + 1);
    if (len) memcpy(text, out, len);
    free(out);
    return text;
}

TestSuite(redis_store, .init = setup, .fini = teardown, .timeout = 30);

Test(redis_store, versions_and_replay) {
    SessionStore *st = open_store(0, 0);
    uint64_t v = 99, v1, v3;
    char *s = get(st, "a", 0, &v);
    cr_assert_eq(v, 0); /* a missing journal */
    cr_assert_str_eq(s, "");
    free(s);
    cr_assert_eq(put(st, "a", "", 0, "one;", &v1), STORE_OK);
    cr_assert_gt(v1, 0);
    cr_assert_eq(put(st, "a", "", v1, "two;", &v), STORE_OK);
    cr_assert_eq(v, v1 + 1);
    cr_assert_eq(put(st, "b", "", 0, "other;", &v), STORE_OK);
    cr_assert_eq(put(st, "a", "", v1 + 1, "three;", &v3), STORE_OK);
    cr_assert_eq(v3, v1 + 2);
    s = get(st, "a", 0, &v);
    cr_assert_str_eq(s, "one;two;three;");
    cr_assert_eq(v, v3);
    free(s);
    s = get(st, "a", v1, &v);
    cr_assert_str_eq(s, "two;three;");
    free(s);
    s = get(st, "a", v3, &v);
    cr_assert_str_eq(s, "");
    free(s);
    uint8_t *out;
    size_t len;
    cr_assert_eq(store_read(st, "a", v3 + 1, &out, &len, &v), STORE_CONFLICT);
    cr_assert_eq(store_read(st, "a", v1 - 2, &out, &len, &v), STORE_CONFLICT); /* not one of its versions */
    uint64_t n, bytes;
    store_stats(st, &n, &bytes);
    cr_assert_eq(n, 2);
    cr_assert_eq(bytes, strlen("one;two;three;other;"));
    cr_assert_eq(store_sync(st, "a", "", &v), STORE_OK);
    cr_assert_eq(v, v3);
    cr_assert_eq(store_sync(st, "nosuch", "", &v), STORE_OK);
    cr_assert_eq(v, 0);
    store_free(st);
}

Test(redis_store, stale_writer_conflicts) {
    SessionStore *a = open_store(0, 0), *b = open_store(0, 0); /* two replicas */
    uint64_t v1, v;
    cr_assert_eq(put(a, "s", "", 0, "x", &v1), STORE_OK);
    cr_assert_eq(put(b, "s", "", 0, "y", &v), STORE_CONFLICT); /* b never saw x */
    cr_assert_eq(v, v1);                                      /* the version the writer missed */
    cr_assert_eq(put(b, "s", "", v1, "y", &v), STORE_OK);
    cr_assert_eq(put(a, "s", "", v1, "z", &v), STORE_CONFLICT); /* a's copy is stale now */
    char *s = get(a, "s", 0, &v);
    cr_assert_str_eq(s, "xy");
    free(s);
    store_free(a);
    store_free(b);
}

Test(redis_store, session_limit) {
    SessionStore *st = open_store(10, 0);
    uint64_t v, w;
    cr_assert_eq(put(st, "a", "", 0, "12345678", &v), STORE_OK);
    cr_assert_eq(put(st, "a", "", v, "123", &w), STORE_SESSION_FULL);
    cr_assert_eq(put(st, "a", "", v, "12", &w), STORE_OK);
    cr_assert_eq(put(st, "b", "", 0, "12345678901", &w), STORE_SESSION_FULL);
    cr_assert_eq(store_sync(st, "b", "", &w), STORE_OK);
    cr_assert_eq(w, 0); /* refused: nothing made */
    store_free(st);
}

Test(redis_store, owners) {
    SessionStore *st = open_store(0, 0);
    uint64_t v, w;
    cr_assert_eq(put(st, "s", "alice", 0, "x", &v), STORE_OK);
    cr_assert_eq(store_sync(st, "s", "alice", &w), STORE_OK);
    cr_assert_eq(w, v);
    cr_assert_eq(store_sync(st, "s", "bob", &w), STORE_FORBIDDEN);
    cr_assert_eq(put(st, "s", "bob", v, "y", &w), STORE_FORBIDDEN);
    char *s = get(st, "s", 0, &w);
    cr_assert_str_eq(s, "x");
    free(s);
    store_free(st);
}

Test(redis_store, drop_and_remake_never_repeats_a_version) {
    SessionStore *st = open_store(0, 0);
    uint64_t v1, v2, n1, n2;
    cr_assert_eq(put(st, "s", "", 0, "old1;", &v1), STORE_OK);
    cr_assert_eq(put(st, "s", "", v1, "old2;", &v2), STORE_OK);
    store_drop(st, "s");
    cr_assert_eq(store_sync(st, "s", "", &n1), STORE_OK);
    cr_assert_eq(n1, 0);
    cr_assert_eq(put(st, "s", "", 0, "new1;", &n1), STORE_OK);
    cr_assert_eq(put(st, "s", "", n1, "new2;", &n2), STORE_OK);
    /* A copy of the old session (at v1 or v2) asks for what follows it: refused, never new2 on top of old1. */
    cr_assert_neq(n1, v1);
    cr_assert_neq(n2, v2);
    uint8_t *out;
    size_t len;
    uint64_t v;
    cr_assert_eq(store_read(st, "s", v2, &out, &len, &v), STORE_CONFLICT);
    char *s = get(st, "s", 0, &v);
    cr_assert_str_eq(s, "new1;new2;");
    free(s);
    store_free(st);
}

Test(redis_store, keys_hide_the_session_id_and_expire) {
    SessionStore *st = open_store(0, 1);
    uint64_t v;
    cr_assert_eq(put(st, "secret-session-id", "", 0, "x", &v), STORE_OK);
    redisContext *c = redisConnect("127.0.0.1", redis_port);
    cr_assert(c && !c->err);
    redisReply *r = redisCommand(c, "SELECT 3");
    freeReplyObject(r);
    r = redisCommand(c, "KEYS *");
    cr_assert_eq(r->type, REDIS_REPLY_ARRAY);
    cr_assert_eq(r->elements, 2);
    for (size_t i = 0; i < r->elements; i++) {
        cr_assert_null(strstr(r->element[i]->str, "secret"), "%s", r->element[i]->str);
        cr_assert_eq(strncmp(r->element[i]->str, "test:{", 6), 0, "%s", r->element[i]->str);
    }
    freeReplyObject(r);
    redisFree(c);
    sleep_ms(2200); /* the time to live is 1 s */
    cr_assert_eq(store_sync(st, "secret-session-id", "", &v), STORE_OK);
    cr_assert_eq(v, 0);
    store_free(st);
}

Test(redis_store, redis_gone_and_back) {
    SessionStore *st = open_store(0, 0);
    uint64_t v, w;
    cr_assert_eq(put(st, "s", "", 0, "x", &v), STORE_OK);
    redis_stop();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_assert_eq(store_sync(st, "s", "", &w), STORE_ERROR);
    cr_assert_eq(put(st, "s", "", v, "y", &w), STORE_ERROR);
    cr_assert_eq(store_sync(st, "s", "", &w), STORE_ERROR);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    cr_assert_lt(ms, 1500.0, "a Redis that is down costs a fast error, took %.0f ms", ms);
    redis_start(); /* empty: a restarted Redis without persistence */
    sleep_ms(1100); /* the store retries a connect once a second */
    cr_assert_eq(store_sync(st, "s", "", &w), STORE_OK);
    cr_assert_eq(w, 0);
    cr_assert_eq(put(st, "s", "", v, "y", &w), STORE_CONFLICT); /* its old version is not the store's */
    store_free(st);
}

Test(redis_store, urls) {
    char err[256];
    const char *bad[] = {"http://x", "redis://", "redis://h:0", "redis://h:99999", "redis://h:12x", "redis://h/x",
                         "redis://h?nosuch=1", "redis://h?timeout_ms=0", "redis://user@h", "redis://[::1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        SessionStore *st = session_store_redis(bad[i], 0, 0, err, sizeof err);
        cr_assert_null(st, "%s accepted", bad[i]);
        cr_assert(err[0], "%s: no reason given", bad[i]);
    }
    const char *good[] = {"redis://h", "redis://h:7000/2", "redis://:p%40ss@h:1?timeout_ms=20&prefix=x:",
                          "redis://[::1]:6379/0", "REDIS://h/"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        SessionStore *st = session_store_redis(good[i], 0, 0, err, sizeof err);
        cr_assert(st, "%s refused: %s", good[i], err);
        store_free(st);
    }
    /* Nothing listens: connect fails with the reason, fast. */
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", free_port());
    SessionStore *st = session_store_redis(url, 0, 0, err, sizeof err);
    cr_assert(st);
    cr_assert_not(session_store_redis_connect(st, err, sizeof err));
    cr_assert(strstr(err, "127.0.0.1"), "%s", err);
    store_free(st);
}
