/* What a browser must not be able to do to the JSON endpoint: DNS rebinding
 * (a foreign name resolving to the daemon: the Host header names it) and
 * cross-site requests (a page elsewhere posting to it: the Origin header
 * names that page). Pure string checks; http1.c applies them to every
 * request, answering 403 PERMISSION_DENIED.
 *
 * Lists are comma-separated. Hosts are names or addresses without a port
 * ("localhost,127.0.0.1,::1"; "*" accepts any). Origins are exact
 * scheme://host[:port] strings ("https://ui.example.com"). */
#ifndef CZ_HTTP_GUARD_H
#define CZ_HTTP_GUARD_H

#include <stdbool.h>
#include <stddef.h>

/* The Host header's name (port dropped, IPv6 brackets removed) is in list. */
bool http_host_allowed(const char *host_header, size_t len, const char *list);

/* A request carrying Origin may proceed when the origin is the endpoint's
 * own (scheme of the connection + the Host header) or appears in one of the
 * NULL-terminated lists (--http-allowed-origins, and any other allow-list
 * such as a CORS one). "null" and malformed origins never pass. */
bool http_origin_allowed(const char *origin, size_t len, const char *host_header, bool tls, const char *const *lists);

/* Content-Type is application/json (parameters such as charset allowed). */
bool http_is_json_type(const char *ctype, size_t len);

#endif
