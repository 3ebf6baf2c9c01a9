/* CORS for the JSON endpoint (catalyzerd --http-cors ORIGIN[,ORIGIN...]):
 * which browser origins may call it and read its answers. Off by default:
 * no Access-Control-* header is ever sent, so browsers keep pages of other
 * origins from reading responses or sending preflighted requests.
 *
 * This decides response headers only; it admits or refuses nothing by
 * itself, so it composes with an Origin/Host admission check run before it.
 * No I/O: strings in, header lines out. */
#ifndef CZ_CORS_H
#define CZ_CORS_H

#include <stdbool.h>
#include <stddef.h>

/* Checks an allow-list as given on the command line: comma-separated
 * origins "scheme://host[:port]" (no path, no wildcard). Writes a message on
 * failure. An empty list is valid (CORS off). */
bool cors_list_valid(const char *list, char *err, size_t errlen);

/* origin (the request's Origin header, may be NULL) is in the list. */
bool cors_origin_allowed(const char *list, const char *origin);

/* Header lines (CRLF-terminated) for an ordinary response to origin: empty
 * unless the origin is allowed. Returns the length written. */
size_t cors_response_headers(const char *list, const char *origin, char *out, size_t cap);

/* A preflight (OPTIONS with Access-Control-Request-Method): writes the header
 * lines of the answer and returns its HTTP status, 204 when the origin is
 * allowed and the method is GET or POST (any request headers among
 * Content-Type, Accept and grpc-timeout), else 403 with no CORS headers. */
int cors_preflight(const char *list, const char *origin, const char *request_method, const char *request_headers,
                   char *out, size_t cap);

#endif
