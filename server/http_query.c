/* GET query strings → request JSON (see http_query.h). */
#include "http_query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long http_query_unescape(const char *s, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '+') {
            c = ' ';
        } else if (c == '%') {
            if (i + 2 >= n) return -1;
            int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
            if (hi < 0 || lo < 0) return -1;
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        if (c == '\0') return -1;
        out[o++] = c;
    }
    out[o] = '\0';
    return (long)o;
}

/* A parameter value as JSON: a scalar when it parses as one, else a string. */
static json_t *value_json(const char *v, size_t n) {
    if ((n == 4 && !memcmp(v, "true", 4)) || (n == 5 && !memcmp(v, "false", 5)) || (n == 4 && !memcmp(v, "null", 4)))
        return json_loadb(v, n, JSON_DECODE_ANY, NULL);
    if (n && ((v[0] >= '0' && v[0] <= '9') || v[0] == '-')) {
        json_t *j = json_loadb(v, n, JSON_DECODE_ANY, NULL);
        if (j && json_is_number(j)) return j;
        json_decref(j);
    }
    return json_stringn(v, n);
}

json_t *http_query_request(const char *query, char *err, size_t errlen) {
    json_t *req = NULL, *fields = json_object();
    size_t qlen = strlen(query ? query : "");
    char *key = malloc(qlen + 1), *val = malloc(qlen + 1);
    if (!key || !val || !fields) goto oom;
    for (const char *p = query ? query : ""; *p;) {
        size_t n = strcspn(p, "&");
        const char *eq = memchr(p, '=', n);
        size_t kl = eq ? (size_t)(eq - p) : n;
        long k = http_query_unescape(p, kl, key);
        long v = eq ? http_query_unescape(eq + 1, n - kl - 1, val) : 0;
        if (!eq) val[0] = '\0';
        if (k < 0 || v < 0) {
            snprintf(err, errlen, "malformed percent-encoding in the query string");
            goto fail;
        }
        const char *rest = p + n;
        p = *rest ? rest + 1 : rest;
        if (k == 0 || strcmp(key, "stream") == 0) continue;
        if (strcmp(key, "request") == 0) {
            json_error_t je;
            json_decref(req);
            req = json_loadb(val, (size_t)v, JSON_REJECT_DUPLICATES, &je);
            if (!req || !json_is_object(req)) {
                snprintf(err, errlen, "request=: invalid JSON: %s", req ? "expected an object" : je.text);
                goto fail;
            }
            continue;
        }
        json_t *jv;
        if (strcmp(key, "sql") == 0) {
            json_t *s = json_stringn(val, (size_t)v);
            jv = s ? json_pack("{s:o}", "query", s) : NULL;
        } else {
            jv = value_json(val, (size_t)v);
        }
        if (!jv) {
            snprintf(err, errlen, "parameter %.64s: not valid UTF-8", key);
            goto fail;
        }
        if (strncmp(key, "conf.", 5) == 0 && key[5]) {
            json_t *conf = json_object_get(fields, "conf");
            if (!conf) json_object_set_new(fields, "conf", conf = json_object());
            if (!json_is_string(jv)) { /* conf values are strings: keep the text as given */
                json_decref(jv);
                jv = json_stringn(val, (size_t)v);
            }
            json_object_set_new(conf, key + 5, jv);
        } else {
            if (json_object_get(fields, key)) {
                json_decref(jv);
                snprintf(err, errlen, "parameter %.64s given twice", key);
                goto fail;
            }
            json_object_set_new(fields, key, jv);
        }
    }
    if (!req) req = json_object();
    if (!req) goto oom;
    /* Parameters override fields of request=. */
    json_object_update(req, fields);
    json_decref(fields);
    free(key);
    free(val);
    return req;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    json_decref(req);
    json_decref(fields);
    free(key);
    free(val);
    return NULL;
}
