/* JSON-lines logging (see log.h). */
#include "log.h"

#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const NAMES[] = {"debug", "info", "warn", "error"};

static void write_line(int level, const char *msg, json_t *fields) {
    json_t *o = json_object();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char tbuf[96];
    snprintf(tbuf, sizeof tbuf, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
    json_object_set_new(o, "ts", json_string(tbuf));
    json_object_set_new(o, "level", json_string(NAMES[level & 3]));
    json_object_set_new(o, "msg", json_string(msg));
    if (fields) json_object_update(o, fields);
    json_decref(fields);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
    json_decref(o);
    if (!s) return;
    size_t n = strlen(s);
    s[n] = '\n'; /* json_dumps allocates n + 1; reuse the NUL slot for the newline */
    ssize_t w = write(STDERR_FILENO, s, n + 1);
    (void)w;
    free(s);
}

void log_json(int min_level, int level, const char *msg, json_t *fields) {
    if (level < min_level) {
        json_decref(fields);
        return;
    }
    write_line(level, msg, fields);
}

/* ---------------------------------------------------------------- rate limit */

enum { LIMIT_SLOTS = 64, LIMIT_KEY = 96 };

typedef struct LimitSlot {
    char key[LIMIT_KEY];
    int level;
    int64_t second; /* CLOCK_MONOTONIC second of the current window */
    uint32_t written, suppressed;
} LimitSlot;

static pthread_mutex_t limit_mu = PTHREAD_MUTEX_INITIALIZER;
static LimitSlot limit_slots[LIMIT_SLOTS];

static int64_t mono_second(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec;
}

/* Under limit_mu: the slot's count of a finished second, if any, as a line
 * to write after unlocking. */
static json_t *take_suppressed(LimitSlot *s, int *level) {
    if (!s->suppressed) return NULL;
    json_t *f = json_pack("{s:s,s:i}", "key", s->key, "suppressed", (int)s->suppressed);
    *level = s->level;
    s->suppressed = 0;
    return f;
}

void log_json_limited(int min_level, int level, const char *key, const char *msg, json_t *fields) {
    if (level < min_level) {
        json_decref(fields);
        return;
    }
    int64_t now = mono_second();
    json_t *report = NULL;
    int report_level = level;
    bool write = true;
    pthread_mutex_lock(&limit_mu);
    LimitSlot *slot = NULL, *oldest = &limit_slots[0];
    for (int i = 0; i < LIMIT_SLOTS; i++) {
        LimitSlot *s = &limit_slots[i];
        if (s->key[0] && strncmp(s->key, key, LIMIT_KEY - 1) == 0) {
            slot = s;
            break;
        }
        if (!s->key[0] || s->second < oldest->second) oldest = s;
    }
    if (!slot) { /* a new key takes a free slot or the stalest one */
        slot = oldest;
        report = take_suppressed(slot, &report_level);
        snprintf(slot->key, sizeof slot->key, "%s", key);
        slot->second = now;
        slot->written = 0;
    }
    if (slot->second != now) {
        if (!report) report = take_suppressed(slot, &report_level);
        slot->second = now;
        slot->written = 0;
    }
    slot->level = level;
    if (slot->written < LOG_BURST_PER_SECOND)
        slot->written++;
    else {
        slot->suppressed++;
        write = false;
    }
    pthread_mutex_unlock(&limit_mu);
    if (report) write_line(report_level, "log lines suppressed", report);
    if (write)
        write_line(level, msg, fields);
    else
        json_decref(fields);
}

void log_flush_suppressed(int min_level) {
    int64_t now = mono_second();
    json_t *pending[LIMIT_SLOTS];
    int levels[LIMIT_SLOTS], n = 0;
    pthread_mutex_lock(&limit_mu);
    for (int i = 0; i < LIMIT_SLOTS; i++)
        if (limit_slots[i].key[0] && limit_slots[i].second != now) {
            json_t *f = take_suppressed(&limit_slots[i], &levels[n]);
            if (f) pending[n++] = f;
        }
    pthread_mutex_unlock(&limit_mu);
    for (int i = 0; i < n; i++) log_json(min_level, levels[i], "log lines suppressed", pending[i]);
}

/* ---------------------------------------------------------------- session tags */

static pthread_once_t tag_once = PTHREAD_ONCE_INIT;
static unsigned char tag_key[32];

static void tag_key_init(void) {
    if (RAND_bytes(tag_key, sizeof tag_key) != 1) {
        /* No entropy source: fall back to something unpredictable enough
         * for log correlation keys, never to a constant. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
        for (size_t i = 0; i < sizeof tag_key; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            tag_key[i] = (unsigned char)x;
        }
    }
}

void log_session_tag(const char *id, char out[13]) {
    pthread_once(&tag_once, tag_key_init);
    unsigned char md[32];
    unsigned int mdlen = 0;
    HMAC(EVP_sha256(), tag_key, sizeof tag_key, (const unsigned char *)id, strlen(id), md, &mdlen);
    static const char HEX[] = "0123456789abcdef";
    for (int i = 0; i < 6; i++) {
        out[2 * i] = HEX[md[i] >> 4];
        out[2 * i + 1] = HEX[md[i] & 15];
    }
    out[12] = '\0';
}
