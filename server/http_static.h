/* The plan debugger's page and assets, embedded at build time
 * (server/web/embed.py) and served by the JSON endpoint at GET / and
 * GET /assets/<file>. No I/O here: lookup and the response headers only. */
#ifndef CZ_HTTP_STATIC_H
#define CZ_HTTP_STATIC_H

#include <stdbool.h>
#include <stddef.h>

typedef struct WebAsset {
    const char *path;          /* "/" or "/assets/app.js" */
    const char *content_type;
    const char *etag;          /* strong validator, quoted */
    const unsigned char *data;
    size_t len;
} WebAsset;

extern const WebAsset WEB_ASSETS[];
extern const size_t WEB_ASSET_COUNT;

/* The asset served at path (without the query string), or NULL. */
const WebAsset *http_static_find(const char *path);

/* The headers every asset response carries (CRLF-terminated lines): a
 * Content-Security-Policy that allows nothing but this origin's own scripts,
 * styles, images and fetches, and no framing, sniffing or referrers. */
extern const char HTTP_STATIC_HEADERS[];

/* True when an If-None-Match header value names the asset's ETag (or is "*"):
 * the answer is then 304 with no body. */
bool http_static_not_modified(const WebAsset *asset, const char *if_none_match);

#endif
