/* Read-only calls as GET on the JSON endpoint: the query string becomes the
 * request message's JSON (then decoded like a POST body).
 *
 *   request=JSON      the whole message (proto3 JSON), as a POST body would be
 *   sql=TEXT          AnalyzeRequest.sql.query (the POST shorthand)
 *   conf.KEY=VALUE    one conf entry
 *   NAME=VALUE        any other top-level field; VALUE is read as a JSON
 *                     scalar when it is one (true, 3), else as a string
 *   stream=1          not a field: the transport's NDJSON switch
 *
 * Percent-encoding and '+' for space as in HTML forms. No I/O. */
#ifndef CZ_HTTP_QUERY_H
#define CZ_HTTP_QUERY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The request object (new reference), or NULL with a message in err. */
json_t *http_query_request(const char *query, char *err, size_t errlen);

/* Decodes %XX and '+' in s[0, n) into out (NUL-terminated; out needs n + 1
 * bytes). Returns the decoded length, or -1 on a malformed escape or a NUL. */
long http_query_unescape(const char *s, size_t n, char *out);

#endif
