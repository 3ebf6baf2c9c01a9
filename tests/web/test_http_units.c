/* Units of the debugger page's HTTP side, without sockets: the CORS
 * allow-list and headers (server/cors.c), GET query strings → request JSON
 * (server/http_query.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "cors.h"
#include "http_query.h"

static const char *LIST = "http://localhost:3000, https://Debug.Example:8443";

Test(cors, list_validation) {
    char err[256];
    cr_assert(cors_list_valid("", err, sizeof err));
    cr_assert(cors_list_valid(LIST, err, sizeof err));
    cr_assert(cors_list_valid("http://[::1]:8080", err, sizeof err));
    const char *bad[] = {"localhost", "http://x/", "http://x/path", "*", "http://*.x", "://x", "http://", "a b://c",
                         "http://u@x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_not(cors_list_valid(bad[i], err, sizeof err), "%s", bad[i]);
        cr_assert(strstr(err, "not an origin"), "%s", err);
    }
}

Test(cors, origins_match_exactly_case_insensitively) {
    cr_assert(cors_origin_allowed(LIST, "http://localhost:3000"));
    cr_assert(cors_origin_allowed(LIST, "https://debug.example:8443"));
    cr_assert_not(cors_origin_allowed(LIST, "http://localhost:3001"));
    cr_assert_not(cors_origin_allowed(LIST, "http://localhost"));
    cr_assert_not(cors_origin_allowed(LIST, "http://localhost:3000/"));
    cr_assert_not(cors_origin_allowed(LIST, "null"));
    cr_assert_not(cors_origin_allowed(LIST, ""));
    cr_assert_not(cors_origin_allowed(LIST, NULL));
    cr_assert_not(cors_origin_allowed("", "http://localhost:3000"));
}

Test(cors, response_headers) {
    char out[512];
    cr_assert_eq(cors_response_headers("", "http://localhost:3000", out, sizeof out), 0);
    cr_assert_str_empty(out);
    size_t n = cors_response_headers(LIST, "http://localhost:3000", out, sizeof out);
    cr_assert_eq(n, strlen(out));
    cr_assert(strstr(out, "Access-Control-Allow-Origin: http://localhost:3000\r\n"));
    cr_assert(strstr(out, "Vary: Origin\r\n"));
    cors_response_headers(LIST, "http://evil.example", out, sizeof out);
    cr_assert_str_eq(out, "Vary: Origin\r\n");
    cr_assert_eq(cors_response_headers(LIST, "http://localhost:3000", out, 20), 0); /* never a cut header */
    cr_assert_str_empty(out);
}

Test(cors, preflight) {
    char out[512];
    cr_assert_eq(cors_preflight(LIST, "http://localhost:3000", "POST", "Content-Type, accept", out, sizeof out), 204);
    cr_assert(strstr(out, "Access-Control-Allow-Methods: GET, POST\r\n"));
    cr_assert(strstr(out, "Access-Control-Max-Age: 600\r\n"));
    cr_assert_eq(cors_preflight(LIST, "http://localhost:3000", "GET", "", out, sizeof out), 204);
    cr_assert_eq(cors_preflight(LIST, "http://localhost:3000", "GET", NULL, out, sizeof out), 204);
    cr_assert_eq(cors_preflight(LIST, "http://localhost:3000", "DELETE", "", out, sizeof out), 403);
    cr_assert_str_empty(out);
    cr_assert_eq(cors_preflight(LIST, "http://localhost:3000", "POST", "content-type, x-api-key", out, sizeof out), 403);
    cr_assert_eq(cors_preflight(LIST, "http://other:3000", "POST", "", out, sizeof out), 403);
    cr_assert_eq(cors_preflight("", "http://localhost:3000", "POST", "", out, sizeof out), 403);
}

Test(http_query, unescape) {
    char out[64];
    cr_assert_eq(http_query_unescape("a+b%20c%2B%e2%82%ac", 19, out), 9);
    cr_assert_str_eq(out, "a b c+\xe2\x82\xac");
    cr_assert_eq(http_query_unescape("%4", 2, out), -1);
    cr_assert_eq(http_query_unescape("%zz", 3, out), -1);
    cr_assert_eq(http_query_unescape("a%00", 4, out), -1);
    cr_assert_eq(http_query_unescape("", 0, out), 0);
}

static char *dump(json_t *j) {
    char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(j);
    return s;
}

Test(http_query, fields) {
    char err[256];
    char *s = dump(http_query_request("sql=SELECT+1&traceLevel=TRACE_LEVEL_ALL&tracePlans=true&stream=1", err, sizeof err));
    cr_assert_str_eq(s, "{\"sql\":{\"query\":\"SELECT 1\"},\"traceLevel\":\"TRACE_LEVEL_ALL\",\"tracePlans\":true}");
    free(s);
    s = dump(http_query_request("conf.spark.sql.caseSensitive=true&conf.k=12&sessionId=007&n=-3", err, sizeof err));
    /* conf values stay text; other values are scalars when they read as one ("007" does not) */
    cr_assert_str_eq(s, "{\"conf\":{\"k\":\"12\",\"spark.sql.caseSensitive\":\"true\"},\"n\":-3,\"sessionId\":\"007\"}");
    free(s);
    s = dump(http_query_request("request=%7B%22sql%22%3A%7B%22query%22%3A%22x%22%7D%2C%22parseOnly%22%3Atrue%7D&parseOnly=false",
                                err, sizeof err));
    cr_assert_str_eq(s, "{\"parseOnly\":false,\"sql\":{\"query\":\"x\"}}"); /* parameters override request= */
    free(s);
    s = dump(http_query_request("", err, sizeof err));
    cr_assert_str_eq(s, "{}");
    free(s);
}

Test(http_query, refusals) {
    char err[256];
    cr_assert_null(http_query_request("sql=%ZZ", err, sizeof err));
    cr_assert(strstr(err, "percent-encoding"), "%s", err);
    cr_assert_null(http_query_request("sql=a&sql=b", err, sizeof err));
    cr_assert(strstr(err, "twice"), "%s", err);
    cr_assert_null(http_query_request("request=%5B1%5D", err, sizeof err));
    cr_assert(strstr(err, "expected an object"), "%s", err);
    cr_assert_null(http_query_request("request=%7B", err, sizeof err));
    cr_assert_null(http_query_request("sql=%ff", err, sizeof err));
    cr_assert(strstr(err, "UTF-8"), "%s", err);
}
