/* CORS allow-list and headers (see cors.h). */
#include "cors.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Request headers a browser may send cross-origin besides the CORS-safelisted
 * ones: the JSON body type, the NDJSON Accept, the deadline, and the
 * correlation headers (a page's own request id, OpenTelemetry's traceparent). */
static const char *const ALLOWED_HEADERS[] = {"content-type", "accept", "grpc-timeout", "x-request-id", "traceparent"};
#define ALLOWED_HEADERS_LINE "Content-Type, Accept, grpc-timeout, X-Request-Id, traceparent"

static bool is_space(char c) { return c == ' ' || c == '\t'; }

/* Calls fn on each trimmed, non-empty comma-separated item; stops when it returns true. */
static bool any_item(const char *list, bool (*fn)(const char *item, size_t n, void *ctx), void *ctx) {
    for (const char *p = list ? list : ""; *p;) {
        while (is_space(*p) || *p == ',') p++;
        size_t n = strcspn(p, ",");
        size_t k = n;
        while (k && is_space(p[k - 1])) k--;
        if (k && fn(p, k, ctx)) return true;
        p += n;
    }
    return false;
}

/* scheme "://" host [":" port], host non-empty, nothing after. */
static bool origin_form(const char *s, size_t n) {
    const char *sep = NULL;
    for (size_t i = 0; i + 2 < n; i++)
        if (s[i] == ':' && s[i + 1] == '/' && s[i + 2] == '/') {
            sep = s + i;
            break;
        }
    if (!sep || sep == s) return false;
    for (const char *q = s; q < sep; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '+' ||
              *q == '-' || *q == '.'))
            return false;
    const char *host = sep + 3, *end = s + n;
    if (host == end) return false;
    for (const char *q = host; q < end; q++)
        if (*q == '/' || *q == '?' || *q == '#' || *q == '*' || *q == '@' || is_space(*q)) return false;
    return true;
}

typedef struct Bad {
    const char *item;
    size_t n;
} Bad;

static bool bad_item(const char *item, size_t n, void *ctx) {
    if (origin_form(item, n)) return false;
    Bad *b = ctx;
    b->item = item;
    b->n = n;
    return true;
}

bool cors_list_valid(const char *list, char *err, size_t errlen) {
    Bad b = {0};
    if (!any_item(list, bad_item, &b)) return true;
    snprintf(err, errlen, "'%.*s' is not an origin (scheme://host[:port], no path or wildcard)", (int)b.n, b.item);
    return false;
}

static bool same_origin(const char *item, size_t n, void *ctx) {
    const char *origin = ctx;
    return strlen(origin) == n && strncasecmp(item, origin, n) == 0;
}

bool cors_origin_allowed(const char *list, const char *origin) {
    if (!origin || !*origin || strcmp(origin, "null") == 0) return false;
    return any_item(list, same_origin, (void *)origin);
}

size_t cors_response_headers(const char *list, const char *origin, char *out, size_t cap) {
    if (cap) out[0] = '\0';
    if (!list || !*list) return 0;
    if (!cors_origin_allowed(list, origin)) /* the answer depends on Origin: caches must know */
        return (size_t)snprintf(out, cap, "%s", cap > 15 ? "Vary: Origin\r\n" : "");
    int n = snprintf(out, cap, "Access-Control-Allow-Origin: %s\r\nVary: Origin\r\nAccess-Control-Expose-Headers: X-Request-Id, traceresponse\r\n",
                     origin);
    if (n < 0 || (size_t)n >= cap) {
        if (cap) out[0] = '\0';
        return 0;
    }
    return (size_t)n;
}

static bool header_not_allowed(const char *item, size_t n, void *ctx) {
    (void)ctx;
    for (size_t i = 0; i < sizeof ALLOWED_HEADERS / sizeof ALLOWED_HEADERS[0]; i++)
        if (strlen(ALLOWED_HEADERS[i]) == n && strncasecmp(item, ALLOWED_HEADERS[i], n) == 0) return false;
    return true;
}

int cors_preflight(const char *list, const char *origin, const char *method, const char *headers, char *out,
                   size_t cap) {
    if (cap) out[0] = '\0';
    if (!cors_origin_allowed(list, origin)) return 403;
    if (!method || (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0)) return 403;
    if (any_item(headers, header_not_allowed, NULL)) return 403;
    int n = snprintf(out, cap,
                     "Access-Control-Allow-Origin: %s\r\nVary: Origin\r\nAccess-Control-Allow-Methods: GET, POST\r\n"
                     "Access-Control-Allow-Headers: " ALLOWED_HEADERS_LINE "\r\nAccess-Control-Max-Age: 600\r\n",
                     origin);
    if (n < 0 || (size_t)n >= cap) {
        if (cap) out[0] = '\0';
        return 403;
    }
    return 204;
}
