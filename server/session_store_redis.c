/* The Redis session store (see session_store_redis.h). */
#include "session_store_redis.h"

#include <hiredis/hiredis.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>

enum { RETRY_AFTER_MS = 1000, DEFAULT_TIMEOUT_MS = 250 };

/* Script results are arrays {code, version, ...}; the codes: */
enum { RS_OK = 0, RS_CONFLICT = 1, RS_SESSION_FULL = 2, RS_FORBIDDEN = 4 };

/* KEYS: meta, journal. ARGV: expect, batch, max bytes (0: none), ttl,
 * owner, base, token. A new journal's versions start at base (drawn by the
 * caller at random), so a session dropped and made again under the same id
 * never repeats a version that a copy of the old one holds. token names
 * this append: the same append retried after its answer was lost finds its
 * own token and succeeds again rather than conflict with itself. */
static const char APPEND_LUA[] =
    "local m = redis.call('HMGET', KEYS[1], 'v', 'b', 'o', 'base', 'last')\n"
    "local v = tonumber(m[1] or '0')\n"
    "if v ~= tonumber(ARGV[1]) then\n"
    "  if m[5] == ARGV[7] and v == tonumber(ARGV[1]) + 1 then return {0, v} end\n"
    "  return {1, v}\n"
    "end\n"
    "if m[3] and m[3] ~= ARGV[5] then return {4, v} end\n"
    "local b = tonumber(m[2] or '0') + string.len(ARGV[2])\n"
    "local max = tonumber(ARGV[3])\n"
    "if max > 0 and b > max then return {2, v} end\n"
    "local base = tonumber(m[4] or ARGV[6])\n"
    "if v == 0 then redis.call('DEL', KEYS[2]) v = base end\n" /* a journal left without its meta: not ours */
    "redis.call('RPUSH', KEYS[2], ARGV[2])\n"
    "redis.call('HSET', KEYS[1], 'v', v + 1, 'b', b, 'o', ARGV[5], 'base', base, 'last', ARGV[7])\n"
    "local ttl = tonumber(ARGV[4])\n"
    "if ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) redis.call('EXPIRE', KEYS[2], ttl) end\n"
    "return {0, v + 1}\n";

/* KEYS: meta, journal. ARGV: after, ttl. Returns {0, v, batches, first}:
 * the batches between version first and v; after is 0 (everything) or a
 * version of this journal. */
static const char READ_LUA[] =
    "local m = redis.call('HMGET', KEYS[1], 'v', 'base')\n"
    "local v = tonumber(m[1] or '0')\n"
    "local after = tonumber(ARGV[1])\n"
    "if v == 0 then if after == 0 then return {0, 0, {}, 0} end return {1, 0} end\n"
    "local base = tonumber(m[2])\n"
    "if after ~= 0 and (after < base or after > v) then return {1, v} end\n"
    "local ttl = tonumber(ARGV[2])\n"
    "if ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) redis.call('EXPIRE', KEYS[2], ttl) end\n"
    "local first = after == 0 and base or after\n"
    "if first == v then return {0, v, {}, first} end\n"
    "return {0, v, redis.call('LRANGE', KEYS[2], first - base, -1), first}\n";

/* KEYS: meta, journal. ARGV: owner, ttl. */
static const char SYNC_LUA[] =
    "local m = redis.call('HMGET', KEYS[1], 'v', 'o')\n"
    "if not m[1] then return {0, 0} end\n"
    "local v = tonumber(m[1])\n"
    "if m[2] and m[2] ~= ARGV[1] then return {4, v} end\n"
    "local ttl = tonumber(ARGV[2])\n"
    "if ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) redis.call('EXPIRE', KEYS[2], ttl) end\n"
    "return {0, v}\n";

enum { SCRIPT_APPEND, SCRIPT_READ, SCRIPT_SYNC, NSCRIPTS };
static const char *const SCRIPTS[NSCRIPTS] = {APPEND_LUA, READ_LUA, SYNC_LUA};

typedef struct RedisStore {
    SessionStore base;
    char host[256];
    int port;
    int db;
    char password[256];
    char prefix[128];
    unsigned timeout_ms;
    unsigned ttl_seconds;
    redisContext *c;
    char last_error[128]; /* why the last connect failed */
    uint64_t retry_at_ms; /* no connect attempt before this (after a failure) */
    char sha[NSCRIPTS][41];
} RedisStore;

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void disconnect(RedisStore *r) {
    if (r->c) redisFree(r->c);
    r->c = NULL;
}

/* A reply that is an error: the connection stays usable; NULL (I/O error,
 * timeout): it is closed, and the next call reconnects. */
static redisReply *command_argv(RedisStore *r, int argc, const char **argv, const size_t *lens) {
    redisReply *rep = redisCommandArgv(r->c, argc, argv, lens);
    if (!rep) disconnect(r);
    return rep;
}

static bool load_scripts(RedisStore *r) {
    for (int i = 0; i < NSCRIPTS; i++) {
        const char *argv[] = {"SCRIPT", "LOAD", SCRIPTS[i]};
        size_t lens[] = {6, 4, strlen(SCRIPTS[i])};
        redisReply *rep = command_argv(r, 3, argv, lens);
        bool ok = rep && rep->type == REDIS_REPLY_STRING && rep->len == 40;
        if (ok) memcpy(r->sha[i], rep->str, 41);
        if (rep) freeReplyObject(rep);
        if (!ok) return false;
    }
    return true;
}

static bool simple_ok(RedisStore *r, int argc, const char **argv) {
    size_t lens[4];
    for (int i = 0; i < argc; i++) lens[i] = strlen(argv[i]);
    redisReply *rep = command_argv(r, argc, argv, lens);
    bool ok = rep && rep->type == REDIS_REPLY_STATUS;
    if (rep) freeReplyObject(rep);
    return ok;
}

static bool connected(RedisStore *r) {
    if (r->c) return true;
    uint64_t now = now_ms();
    if (now < r->retry_at_ms) return false;
    struct timeval tv = {(time_t)(r->timeout_ms / 1000), (suseconds_t)(r->timeout_ms % 1000) * 1000};
    r->c = redisConnectWithTimeout(r->host, r->port, tv);
    bool ok = r->c && !r->c->err && redisSetTimeout(r->c, tv) == REDIS_OK;
    snprintf(r->last_error, sizeof r->last_error, "%s", !r->c ? "out of memory" : r->c->err ? r->c->errstr : "timeout");
    if (ok) redisEnableKeepAlive(r->c);
    if (ok && r->password[0] && !(ok = simple_ok(r, 2, (const char *[]){"AUTH", r->password})))
        snprintf(r->last_error, sizeof r->last_error, "AUTH refused");
    char db[16];
    snprintf(db, sizeof db, "%d", r->db);
    if (ok && r->db && !(ok = simple_ok(r, 2, (const char *[]){"SELECT", db})))
        snprintf(r->last_error, sizeof r->last_error, "SELECT %d refused", r->db);
    if (ok && !(ok = load_scripts(r))) snprintf(r->last_error, sizeof r->last_error, "SCRIPT LOAD refused");
    if (!ok) {
        disconnect(r);
        r->retry_at_ms = now + RETRY_AFTER_MS;
    }
    return ok;
}

/* The meta and journal keys of a session id. */
static void session_keys(const RedisStore *r, const char *id, char meta[256], char journal[256]) {
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)id, strlen(id), d);
    char hex[2 * SHA256_DIGEST_LENGTH + 1];
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
    snprintf(meta, 256, "%s{%s}:m", r->prefix, hex);
    snprintf(journal, 256, "%s{%s}:j", r->prefix, hex);
}

/* EVALSHA script with the session's two keys and args; reloads the scripts
 * once if the server lost them (a restart, SCRIPT FLUSH). The reply is an
 * array starting {code, version}, or NULL. */
static redisReply *run_script(RedisStore *r, int script, const char *id, int nargs, const char **args,
                              const size_t *arglens) {
    bool reused = r->c != NULL; /* a kept connection may have died meanwhile (a Redis restart) */
    if (!connected(r)) return NULL;
    char meta[256], journal[256];
    session_keys(r, id, meta, journal);
    for (int attempt = 0; attempt < 3; attempt++) {
        const char *argv[12] = {"EVALSHA", r->sha[script], "2", meta, journal};
        size_t lens[12] = {7, 40, 1, strlen(meta), strlen(journal)};
        for (int i = 0; i < nargs; i++) {
            argv[5 + i] = args[i];
            lens[5 + i] = arglens[i];
        }
        redisReply *rep = command_argv(r, 5 + nargs, argv, lens);
        if (!rep && reused) {
            /* Once more on a new connection. Safe for append too: had the
             * lost one been applied, the retry finds its own token and is
             * not applied twice. */
            reused = false;
            r->retry_at_ms = 0;
            if (!connected(r)) return NULL;
            continue;
        }
        if (!rep) return NULL;
        if (rep->type == REDIS_REPLY_ERROR && strncmp(rep->str, "NOSCRIPT", 8) == 0) {
            freeReplyObject(rep);
            if (!load_scripts(r)) return NULL;
            continue;
        }
        if (rep->type == REDIS_REPLY_ARRAY && rep->elements >= 2 && rep->element[0]->type == REDIS_REPLY_INTEGER &&
            rep->element[1]->type == REDIS_REPLY_INTEGER)
            return rep;
        freeReplyObject(rep);
        return NULL;
    }
    return NULL;
}

static StoreStatus code_status(long long code) {
    switch (code) {
    case RS_OK: return STORE_OK;
    case RS_CONFLICT: return STORE_CONFLICT;
    case RS_SESSION_FULL: return STORE_SESSION_FULL;
    case RS_FORBIDDEN: return STORE_FORBIDDEN;
    default: return STORE_ERROR;
    }
}

/* 1 to 2^50: versions stay below 2^53, exact in Lua's numbers. */
static uint64_t random_base(void) {
    uint64_t x = 0;
    if (getrandom(&x, sizeof x, 0) != (ssize_t)sizeof x) x = (uint64_t)now_ms() * 2654435761u;
    return 1 + x % (1ull << 50);
}

static StoreStatus redis_append(SessionStore *st, const char *key, const char *owner, uint64_t expect,
                                const uint8_t *batch, size_t len, uint64_t *version) {
    RedisStore *r = (RedisStore *)st;
    char ex[24], max[24], ttl[16], base[24];
    snprintf(ex, sizeof ex, "%llu", (unsigned long long)expect);
    snprintf(max, sizeof max, "%zu", st->max_session_bytes);
    snprintf(ttl, sizeof ttl, "%u", r->ttl_seconds);
    snprintf(base, sizeof base, "%llu", (unsigned long long)random_base());
    char token[24];
    snprintf(token, sizeof token, "%llx", (unsigned long long)random_base());
    const char *args[] = {ex, (const char *)batch, max, ttl, owner, base, token};
    size_t lens[] = {strlen(ex), len, strlen(max), strlen(ttl), strlen(owner), strlen(base), strlen(token)};
    if (!len) args[1] = "";
    redisReply *rep = run_script(r, SCRIPT_APPEND, key, 7, args, lens);
    if (!rep) return STORE_ERROR;
    StoreStatus s = code_status(rep->element[0]->integer);
    *version = (uint64_t)rep->element[1]->integer;
    freeReplyObject(rep);
    return s;
}

static StoreStatus redis_read(SessionStore *st, const char *key, uint64_t after, uint8_t **out, size_t *len,
                              uint64_t *version) {
    RedisStore *r = (RedisStore *)st;
    *out = NULL;
    *len = 0;
    char af[24], ttl[16];
    snprintf(af, sizeof af, "%llu", (unsigned long long)after);
    snprintf(ttl, sizeof ttl, "%u", r->ttl_seconds);
    const char *args[] = {af, ttl};
    size_t lens[] = {strlen(af), strlen(ttl)};
    redisReply *rep = run_script(r, SCRIPT_READ, key, 2, args, lens);
    if (!rep) return STORE_ERROR;
    StoreStatus s = code_status(rep->element[0]->integer);
    *version = (uint64_t)rep->element[1]->integer;
    if (s != STORE_OK) {
        freeReplyObject(rep);
        return s;
    }
    const redisReply *list = rep->elements >= 4 ? rep->element[2] : NULL;
    const redisReply *first = rep->elements >= 4 ? rep->element[3] : NULL;
    if (!list || list->type != REDIS_REPLY_ARRAY || first->type != REDIS_REPLY_INTEGER ||
        (uint64_t)first->integer > *version || list->elements != *version - (uint64_t)first->integer) {
        freeReplyObject(rep); /* the version and its batches disagree: never replay that */
        return STORE_ERROR;
    }
    size_t total = 0;
    for (size_t i = 0; i < list->elements; i++) {
        if (list->element[i]->type != REDIS_REPLY_STRING) {
            freeReplyObject(rep);
            return STORE_ERROR;
        }
        total += list->element[i]->len;
    }
    if (total) {
        uint8_t *buf = malloc(total);
        if (!buf) {
            freeReplyObject(rep);
            return STORE_ERROR;
        }
        size_t o = 0;
        for (size_t i = 0; i < list->elements; i++) {
            memcpy(buf + o, list->element[i]->str, list->element[i]->len);
            o += list->element[i]->len;
        }
        *out = buf;
        *len = total;
    }
    freeReplyObject(rep);
    return STORE_OK;
}

static StoreStatus redis_sync(SessionStore *st, const char *key, const char *owner, uint64_t *version) {
    RedisStore *r = (RedisStore *)st;
    char ttl[16];
    snprintf(ttl, sizeof ttl, "%u", r->ttl_seconds);
    const char *args[] = {owner, ttl};
    size_t lens[] = {strlen(owner), strlen(ttl)};
    redisReply *rep = run_script(r, SCRIPT_SYNC, key, 2, args, lens);
    if (!rep) return STORE_ERROR;
    StoreStatus s = code_status(rep->element[0]->integer);
    *version = (uint64_t)rep->element[1]->integer;
    freeReplyObject(rep);
    return s;
}

static void redis_drop(SessionStore *st, const char *key) {
    RedisStore *r = (RedisStore *)st;
    if (!connected(r)) return; /* it expires by itself */
    char meta[256], journal[256];
    session_keys(r, key, meta, journal);
    const char *argv[] = {"DEL", meta, journal};
    size_t lens[] = {3, strlen(meta), strlen(journal)};
    redisReply *rep = command_argv(r, 3, argv, lens);
    if (rep) freeReplyObject(rep);
}

/* The sessions and bytes of the whole store, not of this replica: the keys
 * under the prefix are counted with SCAN, so this is for tests and tools,
 * never a request's path. */
static void redis_stats(SessionStore *st, uint64_t *sessions, uint64_t *bytes) {
    RedisStore *r = (RedisStore *)st;
    *sessions = *bytes = 0;
    if (!connected(r)) return;
    char pattern[160], cursor[32] = "0";
    snprintf(pattern, sizeof pattern, "%s{*}:m", r->prefix);
    do {
        redisReply *rep = redisCommand(r->c, "SCAN %s MATCH %s COUNT 1000", cursor, pattern);
        if (!rep) {
            disconnect(r);
            return;
        }
        bool ok = rep->type == REDIS_REPLY_ARRAY && rep->elements == 2 && rep->element[0]->type == REDIS_REPLY_STRING &&
                  rep->element[1]->type == REDIS_REPLY_ARRAY;
        if (ok) {
            snprintf(cursor, sizeof cursor, "%s", rep->element[0]->str);
            const redisReply *keys = rep->element[1];
            for (size_t i = 0; i < keys->elements; i++) {
                redisReply *b = redisCommand(r->c, "HGET %b b", keys->element[i]->str, keys->element[i]->len);
                if (!b) {
                    freeReplyObject(rep);
                    disconnect(r);
                    return;
                }
                if (b->type == REDIS_REPLY_STRING) {
                    (*sessions)++;
                    *bytes += strtoull(b->str, NULL, 10);
                }
                freeReplyObject(b);
            }
        }
        freeReplyObject(rep);
        if (!ok) return;
    } while (strcmp(cursor, "0") != 0);
}

static void redis_free(SessionStore *st) {
    RedisStore *r = (RedisStore *)st;
    disconnect(r);
    free(r);
}

static const SessionStoreOps REDIS_OPS = {redis_append, redis_read, redis_sync, redis_drop, redis_stats, redis_free};

/* ---------------------------------------------------------------- URL */

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Percent-decodes src[0..n) into out (cap bytes); false if malformed or too long. */
static bool decode(const char *src, size_t n, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = src[i];
        if (ch == '%') {
            if (i + 2 >= n) return false;
            int hi = hexval(src[i + 1]), lo = hexval(src[i + 2]);
            if (hi < 0 || lo < 0) return false;
            ch = (char)(hi * 16 + lo);
            i += 2;
        }
        if (o + 1 >= cap) return false;
        out[o++] = ch;
    }
    out[o] = '\0';
    return true;
}

static bool parse_url(RedisStore *r, const char *url, char *err, size_t errlen) {
    const char *scheme = "redis://";
    if (strncasecmp(url, scheme, strlen(scheme)) != 0) {
        snprintf(err, errlen, "a session store URL starts with redis:// (got '%s')", url);
        return false;
    }
    const char *p = url + strlen(scheme);
    const char *end = p + strcspn(p, "/?");
    const char *at = memchr(p, '@', (size_t)(end - p));
    if (at) { /* [user]:password@ : Redis 5 style AUTH takes the password alone */
        const char *colon = memchr(p, ':', (size_t)(at - p));
        if (!colon || !decode(colon + 1, (size_t)(at - colon - 1), r->password, sizeof r->password)) {
            snprintf(err, errlen, "session store URL: credentials are ':PASSWORD@'");
            return false;
        }
        p = at + 1;
    }
    const char *hend = p;
    if (*p == '[') { /* [v6 address] */
        hend = memchr(p, ']', (size_t)(end - p));
        if (!hend) {
            snprintf(err, errlen, "session store URL: unclosed '['");
            return false;
        }
        if (!decode(p + 1, (size_t)(hend - p - 1), r->host, sizeof r->host)) return false;
        hend++;
    } else {
        while (hend < end && *hend != ':') hend++;
        if (!decode(p, (size_t)(hend - p), r->host, sizeof r->host)) return false;
    }
    if (!r->host[0]) {
        snprintf(err, errlen, "session store URL: no host in '%s'", url);
        return false;
    }
    r->port = 6379;
    if (hend < end && *hend == ':') {
        char *e;
        long port = strtol(hend + 1, &e, 10);
        if (e != end || port <= 0 || port > 65535) {
            snprintf(err, errlen, "session store URL: bad port in '%s'", url);
            return false;
        }
        r->port = (int)port;
    } else if (hend != end) {
        snprintf(err, errlen, "session store URL: bad host in '%s'", url);
        return false;
    }
    p = end;
    if (*p == '/') {
        p++;
        if (*p && *p != '?') {
            char *e;
            long db = strtol(p, &e, 10);
            if ((*e && *e != '?') || db < 0 || db > 1000000) {
                snprintf(err, errlen, "session store URL: the path is a database number, not '%s'", p);
                return false;
            }
            r->db = (int)db;
            p = e;
        }
    }
    if (*p == '?') p++;
    while (*p) {
        size_t n = strcspn(p, "&");
        const char *eq = memchr(p, '=', n);
        size_t klen = eq ? (size_t)(eq - p) : n;
        char value[128] = "";
        if (eq && !decode(eq + 1, n - klen - 1, value, sizeof value)) {
            snprintf(err, errlen, "session store URL: bad value in '%.*s'", (int)n, p);
            return false;
        }
        if (eq && klen == 10 && strncmp(p, "timeout_ms", 10) == 0) {
            char *e;
            long ms = strtol(value, &e, 10);
            if (*e || ms <= 0 || ms > 60000) {
                snprintf(err, errlen, "session store URL: timeout_ms is 1 to 60000");
                return false;
            }
            r->timeout_ms = (unsigned)ms;
        } else if (eq && klen == 6 && strncmp(p, "prefix", 6) == 0) {
            snprintf(r->prefix, sizeof r->prefix, "%s", value);
        } else {
            snprintf(err, errlen, "session store URL: unknown parameter '%.*s' (timeout_ms, prefix)", (int)n, p);
            return false;
        }
        p += n;
        if (*p == '&') p++;
    }
    return true;
}

SessionStore *session_store_redis(const char *url, size_t max_session_bytes, unsigned ttl_seconds, char *err,
                                  size_t errlen) {
    RedisStore *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->base.ops = &REDIS_OPS;
    r->base.max_session_bytes = max_session_bytes;
    r->base.shared = true;
    r->timeout_ms = DEFAULT_TIMEOUT_MS;
    r->ttl_seconds = ttl_seconds;
    snprintf(r->prefix, sizeof r->prefix, "catalyzer:");
    snprintf(err, errlen, "session store URL: malformed '%s'", url);
    if (!parse_url(r, url, err, errlen)) {
        free(r);
        return NULL;
    }
    err[0] = '\0';
    return &r->base;
}

bool session_store_redis_connect(SessionStore *st, char *err, size_t errlen) {
    RedisStore *r = (RedisStore *)st;
    r->retry_at_ms = 0;
    if (connected(r)) return true;
    snprintf(err, errlen, "cannot use the Redis server at %s:%d (%s)", r->host, r->port, r->last_error);
    return false;
}
