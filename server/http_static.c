/* Lookup and headers for the embedded debugger page (see http_static.h). */
#include "http_static.h"

#include <string.h>

/* connect-src 'self': the page talks only to the daemon that served it.
 * No 'unsafe-inline' anywhere: the page has no inline script or style. */
const char HTTP_STATIC_HEADERS[] =
    "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n"
    "X-Content-Type-Options: nosniff\r\n"
    "X-Frame-Options: DENY\r\n"
    "Referrer-Policy: no-referrer\r\n"
    "Cache-Control: no-cache\r\n";

const WebAsset *http_static_find(const char *path) {
    if (strcmp(path, "/index.html") == 0) path = "/";
    for (size_t i = 0; i < WEB_ASSET_COUNT; i++)
        if (strcmp(WEB_ASSETS[i].path, path) == 0) return &WEB_ASSETS[i];
    return NULL;
}

/* If-None-Match is a comma-separated list of entity tags (possibly weak, W/"..."). */
bool http_static_not_modified(const WebAsset *asset, const char *inm) {
    if (!inm || !*inm) return false;
    size_t el = strlen(asset->etag);
    for (const char *p = inm; *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',') p++;
        if (*p == '*') return true;
        if (p[0] == 'W' && p[1] == '/') p += 2;
        size_t n = strcspn(p, ",");
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
        if (n == el && memcmp(p, asset->etag, el) == 0) return true;
        p += strcspn(p, ",");
    }
    return false;
}
