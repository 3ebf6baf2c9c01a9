/* Host, Origin and Content-Type checks of the JSON endpoint (see http_guard.h). */
#include "http_guard.h"

#include <string.h>
#include <strings.h>

static bool is_ws(char c) { return c == ' ' || c == '\t'; }

static void trim(const char **s, size_t *len) {
    while (*len && is_ws(**s)) (*s)++, (*len)--;
    while (*len && is_ws((*s)[*len - 1])) (*len)--;
}

/* Calls each comma-separated, trimmed item of list until fn says stop. */
static bool any_item(const char *list, bool (*fn)(const char *item, size_t n, const void *ctx), const void *ctx) {
    if (!list) return false;
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *it = p;
        size_t il = n;
        trim(&it, &il);
        if (il && fn(it, il, ctx)) return true;
        p += n + (end ? 1 : 0);
    }
    return false;
}

typedef struct Span {
    const char *s;
    size_t n;
} Span;

/* "name", "name:port", "[v6]", "[v6]:port", "v6" → the name. */
static bool host_name(const char *h, size_t len, Span *out) {
    trim(&h, &len);
    if (!len) return false;
    if (h[0] == '[') {
        const char *close = memchr(h, ']', len);
        if (!close) return false;
        size_t rest = len - (size_t)(close - h) - 1;
        if (rest && close[1] != ':') return false;
        *out = (Span){h + 1, (size_t)(close - h) - 1};
        return out->n > 0;
    }
    const char *colon = memchr(h, ':', len);
    if (colon && memchr(colon + 1, ':', len - (size_t)(colon - h) - 1)) { /* bare IPv6 literal */
        *out = (Span){h, len};
        return true;
    }
    *out = (Span){h, colon ? (size_t)(colon - h) : len};
    if (colon)
        for (const char *p = colon + 1; p < h + len; p++)
            if (*p < '0' || *p > '9') return false;
    return out->n > 0;
}

static bool host_item_matches(const char *item, size_t n, const void *ctx) {
    const Span *name = ctx;
    if (n == 1 && item[0] == '*') return true;
    Span in;
    if (!host_name(item, n, &in)) return false;
    return in.n == name->n && strncasecmp(in.s, name->s, in.n) == 0;
}

bool http_host_allowed(const char *host_header, size_t len, const char *list) {
    Span name;
    if (!host_header || !host_name(host_header, len, &name)) return false;
    for (size_t i = 0; i < name.n; i++) /* no room for header tricks in a name */
        if ((unsigned char)name.s[i] <= 0x20 || name.s[i] == '/' || name.s[i] == '@' || (unsigned char)name.s[i] > 0x7e)
            return false;
    return any_item(list, host_item_matches, &name);
}

static bool origin_item_matches(const char *item, size_t n, const void *ctx) {
    const Span *o = ctx;
    while (n && item[n - 1] == '/') n--;
    return n == o->n && strncasecmp(item, o->s, n) == 0;
}

bool http_origin_allowed(const char *origin, size_t len, const char *host_header, bool tls, const char *const *lists) {
    if (!origin) return false;
    trim(&origin, &len);
    const char *sep = len > 3 ? strstr(origin, "://") : NULL;
    if (!sep || (size_t)(sep - origin) + 3 >= len) return false; /* "null", opaque or malformed */
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)origin[i] <= 0x20 || (unsigned char)origin[i] > 0x7e) return false;
    const char *auth = sep + 3;
    size_t alen = len - (size_t)(auth - origin);
    if (memchr(auth, '/', alen) || memchr(auth, '@', alen)) return false; /* an origin has no path or user */
    Span o = {origin, len};
    for (const char *const *l = lists; l && *l; l++)
        if (any_item(*l, origin_item_matches, &o)) return true;
    /* Same origin: the page was served by this endpoint under this Host. */
    const char *scheme = tls ? "https" : "http";
    size_t sl = strlen(scheme);
    if ((size_t)(sep - origin) != sl || strncasecmp(origin, scheme, sl) != 0 || !host_header) return false;
    const char *h = host_header;
    size_t hl = strlen(h);
    trim(&h, &hl);
    /* Browsers leave the scheme's default port out of both headers. */
    return hl == alen && strncasecmp(h, auth, alen) == 0;
}

bool http_is_json_type(const char *ctype, size_t len) {
    if (!ctype) return false;
    trim(&ctype, &len);
    if (len < 16 || strncasecmp(ctype, "application/json", 16) != 0) return false;
    if (len == 16) return true;
    size_t i = 16;
    while (i < len && is_ws(ctype[i])) i++;
    return i < len && ctype[i] == ';';
}
