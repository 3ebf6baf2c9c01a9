/* JSON-lines logging (see log.h). */
#include "log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void log_json(int min_level, int level, const char *msg, json_t *fields) {
    static const char *const NAMES[] = {"debug", "info", "warn", "error"};
    if (level < min_level) {
        json_decref(fields);
        return;
    }
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
