/* Writes the fuzz targets' seed corpora at run time (never checked in):
 *   fuzz_seeds OUT SOURCE [SHARED]
 * OUT/{sql,rpc,connect,json,h2,http1}/ get inputs built from the project's own
 * golden files (every .sql under SOURCE/tests/golden) and, when SHARED is there,
 * Spark's corpus (conformance/spark-visible.jsonl, spark-functions.jsonl, a
 * sample of spark-broad.jsonl, connect-visible.jsonl). Messages are built
 * from their proto3 JSON form with the daemon's own pb_from_json, so the
 * seeds are exactly what a client sends; the HTTP/2 seeds are byte streams
 * of nghttp2's client (preface, SETTINGS, HEADERS, DATA), the HTTP/1.1 seeds
 * the JSON seeds as requests on the wire (Content-Length or chunked, some
 * pipelined behind a GET). Each file's first byte(s) are the target's
 * selector (see each fuzz_*.c). */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <nghttp2/nghttp2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalyzer.h"
#include "catalyzer.pb-c.h"
#include "grpc_codec.h"
#include "pb_json.h"
#include "base.pb-c.h"

static const char *out_dir;
static unsigned counter[8];
enum { T_SQL, T_RPC, T_CONNECT, T_JSON, T_H2, T_HTTP1, T_LAST = T_HTTP1 };
static const char *const TNAME[] = {"sql", "rpc", "connect", "json", "h2", "http1"};
static unsigned limit_per_target = 8000;

static void put(int t, uint8_t sel, bool with_sel, const void *p, size_t n) {
    if (counter[t] >= limit_per_target || n + 1 > (1 << 16)) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%05u", out_dir, TNAME[t], counter[t]++);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "fuzz_seeds: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    if (with_sel) fputc(sel, f);
    fwrite(p, 1, n, f);
    fclose(f);
}

/* The message of desc from its JSON form, packed; NULL if it does not map. */
static uint8_t *pack_json(json_t *j, const ProtobufCMessageDescriptor *desc, size_t *n) {
    char err[256];
    ProtobufCMessage *m = pb_from_json(j, desc, 4000, err, sizeof err);
    if (!m) return NULL;
    *n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(*n ? *n : 1);
    protobuf_c_message_pack(m, buf);
    protobuf_c_message_free_unpacked(m, NULL);
    return buf;
}

static void put_msg(int t, uint8_t sel, json_t *j, const ProtobufCMessageDescriptor *desc) {
    size_t n;
    uint8_t *b = pack_json(j, desc, &n);
    if (b) put(t, sel, true, b, n);
    free(b);
}

/* A JSON endpoint call as a client writes it: fuzz_http1's two split bytes,
 * then the request (chunked every third time), every fifth pipelined behind
 * a GET /healthz. sel is fuzz_json's method selector. */
static void put_http1(uint8_t sel, const char *body) {
    static const char *const PATH[] = {"/v1/analyze", "/v1/execute", "/v1/register-catalog", "/v1/analyze"};
    unsigned k = counter[T_HTTP1];
    size_t n = strlen(body), cap = n + 512;
    char *req = malloc(cap);
    int at = snprintf(req, cap, "%s%c%c%sPOST %s HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n%s",
                      "", (char)(k % 3 ? 255 : 96), (char)(k % 2 ? 255 : 128),
                      k % 5 == 0 ? "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n" : "", PATH[sel & 3],
                      (sel & 4) ? "Accept: application/x-ndjson\r\n" : "");
    if (k % 3 == 2)
        at += snprintf(req + at, cap - (size_t)at, "Transfer-Encoding: chunked\r\n\r\n%zx\r\n%s\r\n0\r\n\r\n", n, body);
    else
        at += snprintf(req + at, cap - (size_t)at, "Content-Length: %zu\r\n\r\n%s", n, body);
    put(T_HTTP1, 0, false, req, (size_t)at);
    free(req);
}

static void put_json(int t, uint8_t sel, json_t *j) {
    char *s = json_dumps(j, JSON_COMPACT);
    if (s) put(t, sel, true, s, strlen(s));
    if (s && t == T_JSON && !(sel & 8)) put_http1(sel, s);
    free(s);
}

/* ---------------------------------------------------------------- HTTP/2 */

typedef struct H2Out {
    uint8_t *p;
    size_t n, cap;
} H2Out;

static ssize_t body_read(nghttp2_session *s, int32_t sid, uint8_t *buf, size_t len, uint32_t *flags,
                         nghttp2_data_source *src, void *ud) {
    (void)s;
    (void)sid;
    (void)ud;
    H2Out *b = src->ptr;
    size_t k = b->n < len ? b->n : len;
    memcpy(buf, b->p, k);
    b->p += k;
    b->n -= k;
    if (!b->n) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return (ssize_t)k;
}

#define NV(N, V) {(uint8_t *)(N), (uint8_t *)(V), strlen(N), strlen(V), NGHTTP2_NV_FLAG_NONE}

/* A client's bytes for one unary call: path, a gRPC-framed message. */
static void put_h2(const char *path, const uint8_t *msg, size_t n, const char *timeout) {
    nghttp2_session_callbacks *cb;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session *s;
    nghttp2_session_client_new(&s, cb, NULL);
    nghttp2_session_callbacks_del(cb);
    nghttp2_submit_settings(s, NGHTTP2_FLAG_NONE, NULL, 0);
    uint8_t *framed = malloc(n + 5);
    grpc_frame_header(framed, (uint32_t)n);
    memcpy(framed + 5, msg, n);
    H2Out body = {framed, n + 5, 0};
    nghttp2_data_provider dp = {.source.ptr = &body, .read_callback = body_read};
    nghttp2_nv nva[] = {NV(":method", "POST"), NV(":scheme", "http"), NV(":path", path),
                        NV(":authority", "localhost"), NV("content-type", "application/grpc"), NV("te", "trailers"),
                        NV("grpc-timeout", timeout ? timeout : "5S")};
    nghttp2_submit_request(s, NULL, nva, 7, &dp, NULL);
    H2Out out = {0};
    out.cap = 4096;
    out.p = malloc(out.cap);
    out.n = 0; /* the client session sends the preface itself */
    for (;;) {
        const uint8_t *d;
        ssize_t k = nghttp2_session_mem_send(s, &d);
        if (k <= 0) break;
        if (out.n + (size_t)k > out.cap) out.p = realloc(out.p, out.cap = (out.n + (size_t)k) * 2);
        memcpy(out.p + out.n, d, (size_t)k);
        out.n += (size_t)k;
    }
    /* the selector byte: the whole stream in the first read, or split in the middle */
    put(T_H2, counter[T_H2] % 2 ? 128 : 255, true, out.p, out.n);
    /* the JSON port speaks HTTP/2 with prior knowledge too: the same stream there */
    if (counter[T_H2] % 4 == 0) {
        uint8_t *h = malloc(out.n + 2);
        h[0] = 128;
        h[1] = 255;
        memcpy(h + 2, out.p, out.n);
        put(T_HTTP1, 0, false, h, out.n + 2);
        free(h);
    }
    nghttp2_session_del(s);
    free(out.p);
    free(framed);
}

/* ---------------------------------------------------------------- from SQL and plans */

static const char *UUID = "00112233-4455-6677-8899-aabbccddeeff";

static void from_statement(const char *sql, unsigned k) {
    put(T_SQL, 0, false, sql, strlen(sql));
    json_t *rq = json_pack("{s:{s:s}}", "sql", "query", sql);
    put_msg(T_RPC, 0, rq, &catalyzer__v1__analyze_request__descriptor);
    if (k % 8 == 0) {
        json_object_set_new(rq, "traceLevel", json_string("TRACE_LEVEL_EFFECTIVE"));
        json_object_set_new(rq, "planDetails", json_true());
        put_msg(T_RPC, 4, rq, &catalyzer__v1__analyze_request__descriptor);
        size_t n;
        uint8_t *b = pack_json(rq, &catalyzer__v1__analyze_request__descriptor, &n);
        if (b && k % 32 == 0) put_h2("/catalyzer.v1.Analyzer/Analyze", b, n, NULL);
        free(b);
    }
    json_decref(rq);
    json_t *js = json_pack("{s:s}", "sql", sql);
    put_json(T_JSON, k % 16 == 0 ? 4 : 0, js);
    json_decref(js);
}

/* Statements of one Spark test file (or golden file), in order, as a script. */
static void from_script(const char *text) {
    put(T_SQL, 0, false, text, strlen(text));
    json_t *rq = json_pack("{s:s}", "sql", text);
    put_msg(T_RPC, 1, rq, &catalyzer__v1__execute_request__descriptor);
    put_json(T_JSON, 1, rq);
    if (counter[T_H2] < 200) {
        size_t n;
        uint8_t *b = pack_json(rq, &catalyzer__v1__execute_request__descriptor, &n);
        if (b) put_h2("/catalyzer.v1.Analyzer/Execute", b, n, NULL);
        free(b);
    }
    json_decref(rq);
}

static void from_plan(json_t *rel, unsigned k) {
    json_t *rq = json_pack("{s:s,s:{s:{s:O},s:s}}", "sessionId", UUID, "explain", "plan", "root", rel, "explainMode",
                           "EXPLAIN_MODE_EXTENDED");
    put_msg(T_CONNECT, 0, rq, &spark__connect__analyze_plan_request__descriptor);
    if (k % 16 == 0) {
        size_t n;
        uint8_t *b = pack_json(rq, &spark__connect__analyze_plan_request__descriptor, &n);
        if (b) put_h2("/spark.connect.SparkConnectService/AnalyzePlan", b, n, NULL);
        free(b);
    }
    json_decref(rq);
    rq = json_pack("{s:s,s:{s:{s:O}}}", "sessionId", UUID, "schema", "plan", "root", rel);
    put_msg(T_CONNECT, 0, rq, &spark__connect__analyze_plan_request__descriptor);
    json_decref(rq);
    rq = json_pack("{s:s,s:{s:O}}", "sessionId", UUID, "plan", "root", rel);
    put_msg(T_CONNECT, 1, rq, &spark__connect__execute_plan_request__descriptor);
    json_decref(rq);
    rq = json_pack("{s:O}", "plan", rel);
    put_msg(T_RPC, 0, rq, &catalyzer__v1__analyze_request__descriptor);
    put_json(T_JSON, 0, rq);
    json_decref(rq);
}

static void fixed_seeds(void) {
    /* an inline catalog: tables, a view over one, a function */
    const char *cat = "{\"tables\":[{\"name\":\"t\",\"columns\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\","
                      "\"type\":\"array<struct<x:string,y:decimal(10,2)>>\",\"notNull\":true}]},{\"name\":\"db.u\","
                      "\"columns\":[{\"name\":\"k\",\"type\":\"map<string,bigint>\"}]}],\"views\":[{\"name\":\"v\","
                      "\"query\":\"SELECT a, b[0].x FROM t WHERE a > 1\"}],\"functions\":[{\"name\":\"f\","
                      "\"argumentTypes\":[\"int\"],\"resultType\":\"string\"}]}";
    json_error_t e;
    json_t *c = json_loads(cat, 0, &e);
    json_t *rq = json_pack("{s:s,s:O}", "sessionId", "s1", "catalog", c);
    put_msg(T_RPC, 2, rq, &catalyzer__v1__register_catalog_request__descriptor);
    put_json(T_JSON, 2, rq);
    json_decref(rq);
    rq = json_pack("{s:s,s:O,s:{s:s},s:{s:s}}", "sessionId", "s1", "catalog", c, "sql", "query",
                   "SELECT f(a), v.* FROM t, v", "conf", "spark.sql.ansi.enabled", "false");
    put_msg(T_RPC, 4, rq, &catalyzer__v1__analyze_request__descriptor);
    json_decref(rq);
    rq = json_pack("{s:s,s:O,s:s,s:{s:s},s:[s]}", "sessionId", "s1", "catalog", c, "sql",
                   "DECLARE x = 1; SELECT :p + ? + x FROM t", "namedParams", "p", "2", "positionalParams", "3");
    put_msg(T_RPC, 5, rq, &catalyzer__v1__execute_request__descriptor);
    put_json(T_JSON, 1, rq);
    json_decref(rq);
    json_decref(c);
    rq = json_pack("{s:s}", "sessionId", "s1");
    put_msg(T_RPC, 3, rq, &catalyzer__v1__drop_session_request__descriptor);
    json_decref(rq);
    const char *q = "sql=SELECT+1+AS+a&traceLevel=TRACE_LEVEL_ALL&omitTreeString=true";
    put(T_JSON, 8, true, q, strlen(q));
    const char *g = "\x80\xffGET /v1/analyze?sql=SELECT+1+AS+a HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\n\r\n"
                    "OPTIONS /v1/analyze HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost:8080\r\n"
                    "Access-Control-Request-Method: POST\r\n\r\nGET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "Accept-Encoding: gzip\r\n\r\nGET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    put(T_HTTP1, 0, false, g, strlen(g));
    /* Connect's Config calls */
    rq = json_pack("{s:s,s:{s:{s:[{s:s,s:s}]}}}", "sessionId", UUID, "operation", "set", "pairs", "key",
                   "spark.sql.ansi.enabled", "value", "false");
    put_msg(T_CONNECT, 2, rq, &spark__connect__config_request__descriptor);
    json_decref(rq);
    rq = json_pack("{s:s,s:{s:{s:[s,s]}}}", "sessionId", UUID, "operation", "getWithDefault", "pairs",
                   "spark.sql.session.timeZone", "x");
    put_msg(T_CONNECT, 2, rq, &spark__connect__config_request__descriptor);
    json_decref(rq);
    rq = json_pack("{s:s,s:{s:{}}}", "sessionId", UUID, "operation", "getAll");
    put_msg(T_CONNECT, 2, rq, &spark__connect__config_request__descriptor);
    json_decref(rq);
    rq = json_pack("{s:s,s:{s:s}}", "sessionId", UUID, "ddlParse", "ddlString", "a int, b struct<c: string>");
    put_msg(T_CONNECT, 0, rq, &spark__connect__analyze_plan_request__descriptor);
    json_decref(rq);
    rq = json_pack("{s:s,s:{s:{s:{s:s}}}}", "sessionId", UUID, "plan", "root", "sql", "query", "SELECT 1 AS a");
    put_msg(T_CONNECT, 1, rq, &spark__connect__execute_plan_request__descriptor);
    json_decref(rq);
    rq = json_pack("{s:s,s:{s:{s:{s:{s:s}}}}}", "sessionId", UUID, "plan", "command", "sqlCommand", "input", "sql",
                   "query", "CREATE TEMPORARY VIEW w AS SELECT 1 AS a");
    put_msg(T_CONNECT, 1, rq, &spark__connect__execute_plan_request__descriptor);
    size_t en;
    uint8_t *eb = pack_json(rq, &spark__connect__execute_plan_request__descriptor, &en);
    if (eb) put_h2("/spark.connect.SparkConnectService/ExecutePlan", eb, en, NULL);
    free(eb);
    json_decref(rq);
    rq = json_pack("{s:s}", "sessionId", UUID);
    put_msg(T_CONNECT, 7, rq, &spark__connect__release_session_request__descriptor);
    put_msg(T_CONNECT, 6, rq, &spark__connect__release_execute_request__descriptor);
    json_decref(rq);
    /* HTTP/2: health, an unknown method, a call with no message */
    uint8_t hc[] = {0};
    put_h2("/grpc.health.v1.Health/Check", hc, 0, NULL);
    put_h2("/grpc.health.v1.Health/Watch", hc, 0, "1m");
    put_h2("/catalyzer.v1.Analyzer/Nope", hc, 0, NULL);
    size_t n;
    rq = json_object();
    uint8_t *b = pack_json(rq, &catalyzer__v1__list_functions_request__descriptor, &n);
    json_decref(rq);
    put_h2("/catalyzer.v1.Analyzer/ListFunctions", b ? b : hc, b ? n : 0, NULL);
    free(b);
    put(T_SQL, 0, false, "SELECT 1", 8);
}

/* ---------------------------------------------------------------- sources */

static void golden_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    size_t n = 0, c = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == c) names = realloc(names, (c = c ? c * 2 : 64) * sizeof *names);
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        snprintf(names[n++], l, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        size_t l = strlen(names[i]);
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) golden_dir(names[i]);
        else if (l > 4 && strcmp(names[i] + l - 4, ".sql") == 0) {
            FILE *f = fopen(names[i], "rb");
            if (f && st.st_size < 60000) {
                char *text = calloc(1, (size_t)st.st_size + 1);
                if (fread(text, 1, (size_t)st.st_size, f) == (size_t)st.st_size) from_script(text);
                free(text);
            }
            if (f) fclose(f);
        }
        free(names[i]);
    }
    free(names);
}

/* Spark's records: each statement alone, and each file's statements (up to
 * 16) as one script. every: keep one record in `every`. */
static void jsonl_sql(const char *path, unsigned every) {
    FILE *f = fopen(path, "r");
    if (!f) return;
    char *line = NULL;
    size_t cap = 0;
    unsigned k = 0;
    char file[512] = "";
    char *script = NULL;
    size_t slen = 0, nstmt = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t e;
        json_t *r = json_loads(line, 0, &e);
        const char *sql = r ? json_string_value(json_object_get(r, "sql")) : NULL;
        const char *fn = r ? json_string_value(json_object_get(r, "file")) : NULL;
        if (sql) {
            if ((fn && strcmp(fn, file) != 0) || nstmt == 16) {
                if (script) from_script(script);
                free(script);
                script = NULL;
                slen = nstmt = 0;
                snprintf(file, sizeof file, "%s", fn ? fn : "");
            }
            size_t l = strlen(sql);
            script = realloc(script, slen + l + 3);
            memcpy(script + slen, sql, l);
            memcpy(script + slen + l, ";\n", 3);
            slen += l + 2;
            nstmt++;
            if (k++ % every == 0) from_statement(sql, k);
        }
        json_decref(r);
    }
    if (script) from_script(script);
    free(script);
    free(line);
    fclose(f);
}

static void jsonl_plans(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return;
    char *line = NULL;
    size_t cap = 0;
    unsigned k = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t e;
        json_t *r = json_loads(line, 0, &e);
        json_t *plan = r ? json_object_get(r, "plan") : NULL;
        if (json_is_object(plan)) from_plan(plan, k++);
        json_decref(r);
    }
    free(line);
    fclose(f);
}

/* fuzz_seeds --encode MESSAGE SELECTOR < JSON > INPUT: one fuzz input (a
 * regression) from a message's JSON form, e.g.
 *   echo '{...}' | fuzz_seeds --encode connect.AnalyzePlanRequest 0 > regressions/connect/NAME */
static int encode(const char *name, int sel) {
    static const ProtobufCMessageDescriptor *const D[] = {
        &catalyzer__v1__analyze_request__descriptor, &catalyzer__v1__execute_request__descriptor,
        &catalyzer__v1__register_catalog_request__descriptor, &spark__connect__analyze_plan_request__descriptor,
        &spark__connect__execute_plan_request__descriptor, &spark__connect__config_request__descriptor};
    for (size_t i = 0; i < sizeof D / sizeof D[0]; i++) {
        if (strcmp(D[i]->name, name) != 0 && strcmp(D[i]->short_name, name) != 0) continue;
        json_error_t e;
        json_t *j = json_loadf(stdin, 0, &e);
        size_t n;
        uint8_t *b = j ? pack_json(j, D[i], &n) : NULL;
        json_decref(j);
        if (!b) {
            fprintf(stderr, "fuzz_seeds: not a %s\n", D[i]->name);
            return 1;
        }
        if (sel >= 0) putchar(sel);
        fwrite(b, 1, n, stdout);
        free(b);
        return 0;
    }
    fprintf(stderr, "fuzz_seeds: unknown message %s\n", name);
    return 2;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--encode") == 0) return encode(argv[2], atoi(argv[3]));
    if (argc < 3) {
        fprintf(stderr, "usage: fuzz_seeds OUT SOURCE [SHARED] | fuzz_seeds --encode MESSAGE SELECTOR < JSON\n");
        return 2;
    }
    if (getenv("FUZZ_SEEDS_LIMIT")) limit_per_target = (unsigned)atoi(getenv("FUZZ_SEEDS_LIMIT"));
    out_dir = argv[1];
    char mk[4096];
    snprintf(mk, sizeof mk, "%s", out_dir);
    for (char *q = mk + 1; *q; q++) /* mkdir -p */
        if (*q == '/') {
            *q = '\0';
            mkdir(mk, 0777);
            *q = '/';
        }
    mkdir(out_dir, 0777);
    for (int t = 0; t <= T_LAST; t++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", out_dir, TNAME[t]);
        mkdir(p, 0777);
    }
    char p[4096];
    fixed_seeds();
    snprintf(p, sizeof p, "%s/tests/golden", argv[2]);
    golden_dir(p);
    if (argc > 3) {
        snprintf(p, sizeof p, "%s/conformance/connect-visible.jsonl", argv[3]);
        jsonl_plans(p);
        snprintf(p, sizeof p, "%s/conformance/spark-visible.jsonl", argv[3]);
        jsonl_sql(p, 1);
        snprintf(p, sizeof p, "%s/conformance/spark-functions.jsonl", argv[3]);
        jsonl_sql(p, 1);
        snprintf(p, sizeof p, "%s/conformance/spark-broad.jsonl", argv[3]);
        jsonl_sql(p, 8);
    }
    for (int t = 0; t <= T_LAST; t++) printf("%s: %u seeds\n", TNAME[t], counter[t]);
    return 0;
}
