/* catalyzer-load: drives catalyzerd with Analyze calls and reports throughput
 * and latency percentiles. Stable command line:
 *   catalyzer-load --daemon HOST:PORT --workload DIR [--schema FILE]
 *                  [--connections N] [--concurrency M] [--rate R]
 *                  [--duration S | --requests N] [--json]
 * plus --timeout-ms T (per call deadline, default 30000), --lean (ask for
 * neither the tree string nor the structured plan), --sessions
 * stream|connection (default stream: each stream has its own session, since
 * the daemon runs one session's calls one at a time; `connection` shares one
 * session between a connection's streams). For a daemon with --tls-cert /
 * --auth-token-file: --tls-ca FILE (TLS, verifying the server), --tls-cert
 * FILE and --tls-key FILE (mutual TLS), --tls-server-name NAME, --token-file
 * FILE (its first token is sent as a bearer token). Every connection does
 * its own TLS handshake, so --connections N measures N handshakes.
 * --service catalyzer|connect:
 * which service the measured calls go to — catalyzer.v1.Analyzer/Analyze
 * (the default) or spark.connect.SparkConnectService/AnalyzePlan (schema), as
 * a Spark Connect client sends it. Sessions are UUIDs (Spark Connect's form)
 * and are set up through catalyzer.v1 Execute either way: the two services
 * share sessions by id.
 * --keep-sessions: a stream whose call ended UNAVAILABLE retries without
 * setting its session up again (behind a load balancer with a shared session
 * store the session must survive a replica: a lost one shows up as analysis
 * errors). --windows T1,T2,...: the report also splits the run at these
 * seconds (by completion time): requests, failures and p99 of each slice,
 * e.g. before, during and after a replica is killed.
 *
 * N connections x M concurrent streams on one libuv loop. Without --rate each
 * stream sends its next request when the previous one ends (closed loop).
 * With --rate R requests are due at fixed intervals of 1/R s whatever the
 * daemon does (open loop): a request that finds every stream busy waits in a
 * backlog, and latency counts from the time it was due, not from the time it
 * could be sent, so a slow daemon cannot hide its latency by slowing the
 * generator down (coordinated omission).
 *
 * The workload is a directory of .sql files: the schema (--schema, or
 * DIR/schema.sql) runs once per session
 * (Execute), then the other files, in natural order, are cycled as queries;
 * statements before a file's last run once as set-up. A .json file is a
 * query given as a Spark Connect plan (a spark.connect.Relation in protobuf
 * JSON): it is sent as the plan itself (AnalyzeRequest.plan, or the
 * AnalyzePlan root), where a .sql query is sent as SQL text (SqlQuery, or a
 * SQL relation). */
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sys/random.h>

#include "czclient.h"
#include "hist.h"
#include "pb_json.h"
#include "spark/connect/base.pb-c.h"

typedef struct Query {
    char *name;
    char *setup; /* statements before the last; NULL if none */
    char *sql;   /* the last statement; NULL for a plan */
    Spark__Connect__Relation *plan; /* a .json query: the Connect plan */
} Query;

enum { WINDOWS_MAX = 16 };

typedef struct Load Load;

typedef struct Conn {
    Load *load;
    CzcConn *cz;
    int index;
} Conn;

/* One of a connection's M concurrent streams, with the session it uses. */
typedef struct Stream {
    Load *load;
    Conn *conn;
    char session[64];
    bool busy;
    bool ready; /* its session is set up */
    size_t next_query;
    uv_timer_t retry; /* a pause after UNAVAILABLE, not a busy spin */
    bool resetup;     /* the connection dropped: set the session up again (a restarted daemon lost it) */
} Stream;

typedef struct Pending {
    Stream *st;
    uint64_t intended_ns; /* when it was due (open loop) or sent (closed loop) */
} Pending;

struct Load {
    uv_loop_t *loop;
    const char *daemon, *workload, *schema_path;
    char *schema_default; /* DIR/schema.sql when --schema is not given */
    char host[256];
    int port;
    int nconn, concurrency;
    double rate, duration_s;
    long requests_max;
    bool json, lean;
    bool connect;          /* --service connect: SparkConnectService/AnalyzePlan */
    bool session_per_conn; /* --sessions connection: the M streams share one */
    bool keep_sessions;    /* --keep-sessions: after UNAVAILABLE retry without setting the session up again */
    /* --windows T1,T2,...: the report splits the run at these seconds (by completion time) */
    double windows[WINDOWS_MAX];
    int nwindows;
    struct {
        uint64_t completed, ok, errors, analysis_errors;
        Hist hist;
    } wstat[WINDOWS_MAX + 1];
    uint32_t timeout_ms;
    Query *queries;
    size_t nqueries;
    char *schema_sql;
    Conn *conns;
    Stream *streams; /* nconn * concurrency */
    int nstreams, nready, setup_failed;
    /* progress */
    uint64_t start_ns, stop_ns, end_ns;
    uint64_t issued, completed, ok, analysis_errors;
    uint64_t errors[CZC_STATUS_COUNT + 1];
    char first_error[512];
    bool stopping, finished, interrupted;
    Hist hist, window;
    uint64_t last_progress_ns, last_completed;
    /* open loop */
    uint64_t due_count;   /* requests due so far */
    uint64_t *backlog;    /* due times waiting for a free stream (ring) */
    size_t bl_head, bl_len, bl_cap;
    size_t rr;            /* round-robin connection cursor */
    uv_timer_t tick, progress;
    int tfd;          /* open loop's timerfd */
    uv_poll_t tpoll;
    uv_signal_t sigint;
};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------------- workload */

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 14, n = 0;
    char *b = malloc(cap + 1);
    size_t k;
    while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) b = realloc(b, (cap *= 2) + 1);
    }
    fclose(f);
    if (b) b[n] = 0;
    return b;
}

/* Offsets just past each top-level `;` (outside quotes and comments), the
 * split Spark's SQL scripts need; the last statement need not end in `;`. */
static size_t last_statement(const char *s, size_t *end_of_setup) {
    size_t last_semi = 0, prev_semi = 0;
    bool any = false;
    for (size_t i = 0; s[i]; i++) {
        char c = s[i];
        if (c == '\'' || c == '"' || c == '`') {
            for (i++; s[i] && s[i] != c; i++)
                if (s[i] == '\\' && c != '`' && s[i + 1]) i++;
            if (!s[i]) break;
        } else if (c == '-' && s[i + 1] == '-') {
            while (s[i] && s[i] != '\n') i++;
            if (!s[i]) break;
        } else if (c == '/' && s[i + 1] == '*') {
            for (i += 2; s[i] && !(s[i] == '*' && s[i + 1] == '/'); i++) {}
            if (!s[i]) break;
            i++;
        } else if (c == ';') {
            /* a `;` followed only by blanks/comments ends the last statement */
            prev_semi = last_semi;
            last_semi = i + 1;
            any = true;
        }
    }
    if (!any) {
        *end_of_setup = 0;
        return 0;
    }
    /* is there a statement after the last `;`? */
    bool text_after = false;
    for (size_t i = last_semi; s[i] && !text_after; i++) {
        if (s[i] == '-' && s[i + 1] == '-') {
            while (s[i] && s[i] != '\n') i++;
            if (!s[i]) break;
        } else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') {
            text_after = true;
        }
    }
    if (text_after) {
        *end_of_setup = last_semi;
        return last_semi;
    }
    *end_of_setup = prev_semi;
    return prev_semi;
}

static int natural_cmp(const void *a, const void *b) {
    return strverscmp(((const Query *)a)->name, ((const Query *)b)->name);
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static int load_workload(Load *L) {
    char path[4096];
    if (!L->schema_path) {
        snprintf(path, sizeof path, "%s/schema.sql", L->workload);
        if (access(path, R_OK) == 0) L->schema_path = L->schema_default = strdup(path);
    }
    if (L->schema_path) {
        L->schema_sql = slurp(L->schema_path);
        if (!L->schema_sql) {
            fprintf(stderr, "catalyzer-load: cannot read %s\n", L->schema_path);
            return -1;
        }
    }
    DIR *d = opendir(L->workload);
    if (!d) {
        fprintf(stderr, "catalyzer-load: cannot open workload directory %s\n", L->workload);
        return -1;
    }
    struct dirent *e;
    size_t cap = 0;
    const char *schema_base = L->schema_path ? strrchr(L->schema_path, '/') : NULL;
    schema_base = schema_base ? schema_base + 1 : L->schema_path;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (ends_with(e->d_name, ".json")) {
            snprintf(path, sizeof path, "%s/%s", L->workload, e->d_name);
            json_error_t je;
            json_t *j = json_load_file(path, 0, &je);
            char err[512] = "";
            ProtobufCMessage *m =
                j ? pb_from_json(j, &spark__connect__relation__descriptor, 10000, err, sizeof err) : NULL;
            json_decref(j);
            if (!m) {
                fprintf(stderr, "catalyzer-load: %s: not a spark.connect.Relation: %s\n", path, j ? err : je.text);
                closedir(d);
                return -1;
            }
            if (L->nqueries == cap) L->queries = realloc(L->queries, (cap = cap ? cap * 2 : 64) * sizeof *L->queries);
            L->queries[L->nqueries++] = (Query){strdup(e->d_name), NULL, NULL, (Spark__Connect__Relation *)m};
            continue;
        }
        if (!ends_with(e->d_name, ".sql")) continue;
        if (!strcmp(e->d_name, "schema.sql") || (schema_base && !strcmp(e->d_name, schema_base))) continue;
        snprintf(path, sizeof path, "%s/%s", L->workload, e->d_name);
        char *text = slurp(path);
        if (!text) continue;
        size_t setup_end;
        size_t start = last_statement(text, &setup_end);
        char *sql = strdup(text + start);
        /* drop a trailing `;` (and blanks) of the last statement */
        size_t n = strlen(sql);
        while (n && (sql[n - 1] == ';' || sql[n - 1] == ' ' || sql[n - 1] == '\n' || sql[n - 1] == '\r' ||
                     sql[n - 1] == '\t'))
            sql[--n] = 0;
        if (L->nqueries == cap) L->queries = realloc(L->queries, (cap = cap ? cap * 2 : 64) * sizeof *L->queries);
        L->queries[L->nqueries++] =
            (Query){strdup(e->d_name), setup_end ? strndup(text, setup_end) : NULL, sql, NULL};
        free(text);
    }
    closedir(d);
    if (!L->nqueries) {
        fprintf(stderr, "catalyzer-load: no .sql or .json query files in %s\n", L->workload);
        return -1;
    }
    qsort(L->queries, L->nqueries, sizeof *L->queries, natural_cmp);
    return 0;
}

/* ---------------------------------------------------------------- requests */

static void send_one(Stream *st, uint64_t intended_ns);
static void maybe_finish(Load *L);

/* The --windows slot a completion at t falls in. */
static int window_of(const Load *L, uint64_t t) {
    double el = t > L->start_ns ? (double)(t - L->start_ns) / 1e9 : 0;
    int w = 0;
    while (w < L->nwindows && el >= L->windows[w]) w++;
    return w;
}

static bool parse_windows(Load *L, const char *s) {
    L->nwindows = 0;
    while (*s) {
        char *end;
        double v = strtod(s, &end);
        if (end == s || !(v > 0) || L->nwindows == WINDOWS_MAX || (L->nwindows && v <= L->windows[L->nwindows - 1]))
            return false;
        L->windows[L->nwindows++] = v;
        if (*end == ',') end++;
        else if (*end) return false;
        s = end;
    }
    return L->nwindows > 0;
}

static void count_error(Load *L, int status, const char *msg) {
    L->errors[status >= 0 && status < CZC_STATUS_COUNT ? status : CZC_STATUS_COUNT]++;
    if (!L->first_error[0]) snprintf(L->first_error, sizeof L->first_error, "%s: %s", czc_status_name(status), msg);
}

static bool want_more(Load *L) {
    if (L->stopping) return false;
    if (L->requests_max > 0) return L->issued < (uint64_t)L->requests_max;
    return true;
}

/* The responses are not unpacked (a resolved plan is large: unpacking it
 * would cost the generator as much CPU as the daemon spends): a scan of the
 * wire finds AnalyzeResponse.result (field 2) and its `ok` (field 1). */
static bool wire_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
    *v = 0;
    for (int shift = 0; *p < end && shift < 64; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

/* Finds field `num` of the message: its varint value or its bytes. */
static bool wire_field(const uint8_t *m, size_t n, uint32_t num, uint64_t *value, const uint8_t **bytes) {
    const uint8_t *p = m, *end = m + n;
    while (p < end) {
        uint64_t key, v;
        if (!wire_varint(&p, end, &key)) return false;
        switch (key & 7) {
        case 0:
            if (!wire_varint(&p, end, &v)) return false;
            if ((key >> 3) == num) {
                *value = v;
                return true;
            }
            break;
        case 1: p += 8; break;
        case 5: p += 4; break;
        case 2:
            if (!wire_varint(&p, end, &v) || v > (uint64_t)(end - p)) return false;
            if ((key >> 3) == num) {
                *value = v;
                *bytes = p;
                return true;
            }
            p += v;
            break;
        default: return false;
        }
    }
    return false;
}

static void on_response(void *ud, const uint8_t *msg, size_t len) {
    Pending *p = ud;
    if (p->st->load->connect) return; /* AnalyzePlan: an analysis error is a status (INTERNAL), counted in on_done */
    uint64_t rlen = 0, ok = 0;
    const uint8_t *res = NULL;
    if (!wire_field(msg, len, 2, &rlen, &res) || !res) return; /* a trace event */
    if (!wire_field(res, (size_t)rlen, 1, &ok, &res) || !ok) {
        Load *L = p->st->load;
        L->analysis_errors++;
        L->wstat[window_of(L, now_ns())].analysis_errors++;
    }
}

/* Picks a free stream, round robin over the connections (streams are laid
 * out stream-major: index k*nconn + conn); NULL if all are busy. */
static Stream *free_stream(Load *L) {
    for (int k = 0; k < L->nstreams; k++) {
        Stream *st = &L->streams[(L->rr + (size_t)k) % (size_t)L->nstreams];
        if (st->ready && !st->busy) {
            L->rr = (L->rr + (size_t)k + 1) % (size_t)L->nstreams;
            return st;
        }
    }
    return NULL;
}

static void setup_start(Stream *st, bool resume);
static void stream_next(Stream *st, uint64_t t);

/* After UNAVAILABLE: the stream sets its session up again, then resumes. */
static void on_retry(uv_timer_t *t) {
    Stream *st = t->data;
    Load *L = st->load;
    if (L->stopping) {
        st->busy = st->resetup = false;
        maybe_finish(L);
        return;
    }
    if (L->keep_sessions) { /* the session is expected to be there still (a shared session store) */
        st->busy = st->resetup = false;
        stream_next(st, now_ns());
        maybe_finish(L);
        return;
    }
    setup_start(st, true);
}

/* A stream is free again: it takes the next request. */
static void stream_next(Stream *st, uint64_t t) {
    Load *L = st->load;
    if (L->rate > 0) {
        /* open loop: a freed stream takes the oldest overdue request */
        if (L->bl_len) {
            uint64_t due = L->backlog[L->bl_head];
            L->bl_head = (L->bl_head + 1) % L->bl_cap;
            L->bl_len--;
            send_one(st, due);
        }
    } else if (want_more(L)) {
        send_one(st, t);
    }
}

static void on_done(void *ud, int status, const char *msg) {
    Pending *p = ud;
    Stream *st = p->st;
    Load *L = st->load;
    uint64_t t = now_ns();
    st->busy = false;
    L->completed++;
    uint64_t lat = t > p->intended_ns ? t - p->intended_ns : 0;
    int w = window_of(L, t);
    L->wstat[w].completed++;
    if (status == CZC_OK || (L->connect && status == CZC_INTERNAL && strstr(msg, "SQLSTATE"))) {
        L->wstat[w].ok++;
        hist_record(&L->wstat[w].hist, lat);
        if (status != CZC_OK) L->wstat[w].analysis_errors++;
        /* Spark Connect answers an analysis error with INTERNAL and Spark's
         * message: an answered call, as catalyzer.v1's in-band error is. */
        if (status != CZC_OK) L->analysis_errors++;
        L->ok++;
        hist_record(&L->hist, lat);
        hist_record(&L->window, lat);
    } else if (!L->interrupted) {
        count_error(L, status, msg);
        L->wstat[w].errors++;
    }
    free(p);
    if (status == CZC_UNAVAILABLE && !L->stopping) {
        st->busy = st->resetup = true; /* held until its session is back */
        uv_timer_start(&st->retry, on_retry, 100, 0);
    } else {
        stream_next(st, t);
    }
    maybe_finish(L);
}

/* AnalyzePlan(schema) of the query, as a Spark Connect client asks for a DataFrame's schema. */
static size_t connect_request(Stream *st, const Query *q, uint8_t **req, uint8_t *buf, size_t cap) {
    /* the generated initialiser, not SPARK__CONNECT__SQL__INIT: the macro
       spells out SQL's deprecated fields (args, pos_args), which clang
       reports as uses of them; the function is compiled with the generated
       code, where protobuf-c turns that off */
    Spark__Connect__SQL sql;
    spark__connect__sql__init(&sql);
    Spark__Connect__Relation rel = SPARK__CONNECT__RELATION__INIT;
    if (!q->plan) {
        sql.query = q->sql;
        rel.rel_type_case = SPARK__CONNECT__RELATION__REL_TYPE_SQL;
        rel.sql = &sql;
    }
    Spark__Connect__Plan plan = SPARK__CONNECT__PLAN__INIT;
    plan.op_type_case = SPARK__CONNECT__PLAN__OP_TYPE_ROOT;
    plan.root = q->plan ? q->plan : &rel;
    Spark__Connect__AnalyzePlanRequest__Schema sch = SPARK__CONNECT__ANALYZE_PLAN_REQUEST__SCHEMA__INIT;
    sch.plan = &plan;
    Spark__Connect__UserContext user = SPARK__CONNECT__USER_CONTEXT__INIT;
    user.user_id = "catalyzer-load";
    Spark__Connect__AnalyzePlanRequest rq = SPARK__CONNECT__ANALYZE_PLAN_REQUEST__INIT;
    rq.session_id = st->session;
    rq.user_context = &user;
    rq.analyze_case = SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_SCHEMA;
    rq.schema = &sch;
    size_t n = spark__connect__analyze_plan_request__get_packed_size(&rq);
    *req = n > cap ? malloc(n) : buf;
    if (!*req) abort();
    spark__connect__analyze_plan_request__pack(&rq, *req);
    return n;
}

static void send_one(Stream *st, uint64_t intended_ns) {
    Load *L = st->load;
    const Query *q = &L->queries[st->next_query++ % L->nqueries];
    uint8_t buf[8192], *req = buf;
    size_t n;
    if (L->connect) {
        n = connect_request(st, q, &req, buf, sizeof buf);
    } else {
        Catalyzer__V1__SqlQuery sq = CATALYZER__V1__SQL_QUERY__INIT;
        sq.query = q->sql;
        Catalyzer__V1__AnalyzeRequest rq = CATALYZER__V1__ANALYZE_REQUEST__INIT;
        rq.session_id = st->session;
        if (q->plan) {
            rq.input_case = CATALYZER__V1__ANALYZE_REQUEST__INPUT_PLAN;
            rq.plan = q->plan;
        } else {
            rq.input_case = CATALYZER__V1__ANALYZE_REQUEST__INPUT_SQL;
            rq.sql = &sq;
        }
        rq.omit_tree_string = L->lean;
        rq.omit_resolved_plan = L->lean;
        n = catalyzer__v1__analyze_request__get_packed_size(&rq);
        if (n > sizeof buf && !(req = malloc(n))) abort();
        catalyzer__v1__analyze_request__pack(&rq, req);
    }
    Pending *p = malloc(sizeof *p);
    if (!p) abort();
    *p = (Pending){st, intended_ns};
    st->busy = true;
    L->issued++;
    CzcCallOptions o = {L->timeout_ms};
    czc_call_start_raw(st->conn->cz,
                       L->connect ? "/spark.connect.SparkConnectService/AnalyzePlan" : "/catalyzer.v1.Analyzer/Analyze",
                       req, n, &o, on_response, on_done, p);
    if (req != buf) free(req);
}

static void backlog_push(Load *L, uint64_t due) {
    if (L->bl_len == L->bl_cap) {
        size_t ncap = L->bl_cap ? L->bl_cap * 2 : 1024;
        uint64_t *nb = malloc(ncap * sizeof *nb);
        if (!nb) abort();
        for (size_t i = 0; i < L->bl_len; i++) nb[i] = L->backlog[(L->bl_head + i) % L->bl_cap];
        free(L->backlog);
        L->backlog = nb;
        L->bl_head = 0;
        L->bl_cap = ncap;
    }
    L->backlog[(L->bl_head + L->bl_len++) % L->bl_cap] = due;
}

/* Open loop: a timerfd armed at the next due time (nanosecond resolution:
 * libuv timers have whole milliseconds, which would add up to 1 ms of the
 * generator's own lateness to every latency). Every request due by now is
 * sent, or queued if all streams are busy. */
static void arm(Load *L, uint64_t at_ns) {
    struct itimerspec its = {{0, 0}, {(time_t)(at_ns / 1000000000u), (long)(at_ns % 1000000000u)}};
    if (!its.it_value.tv_sec && !its.it_value.tv_nsec) its.it_value.tv_nsec = 1;
    timerfd_settime(L->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void on_due(uv_poll_t *h, int status, int events) {
    (void)status;
    (void)events;
    Load *L = h->data;
    uint64_t expirations;
    if (read(L->tfd, &expirations, sizeof expirations) < 0) { /* spurious wake-up: nothing to read */
    }
    uint64_t now = now_ns();
    double interval = 1e9 / L->rate;
    uint64_t next = 0;
    while (!L->stopping && (L->requests_max <= 0 || L->due_count < (uint64_t)L->requests_max)) {
        uint64_t due = L->start_ns + (uint64_t)((double)L->due_count * interval);
        if (L->duration_s > 0 && due >= L->stop_ns) break;
        if (due > now) {
            next = due;
            break;
        }
        L->due_count++;
        Stream *st = L->bl_len ? NULL : free_stream(L);
        if (st) send_one(st, due);
        else backlog_push(L, due);
    }
    if (L->duration_s > 0 && now >= L->stop_ns && !L->stopping) {
        L->stopping = true;
        maybe_finish(L);
    }
    if (L->stopping) return;
    if (next) arm(L, L->duration_s > 0 && next > L->stop_ns ? L->stop_ns : next);
    else if (L->duration_s > 0) arm(L, L->stop_ns); /* all sent: wake at the end */
}

/* ---------------------------------------------------------------- run control */

static void print_progress(Load *L, bool final) {
    uint64_t t = now_ns();
    double el = (double)(t - L->start_ns) / 1e9, dt = (double)(t - L->last_progress_ns) / 1e9;
    double rps = dt > 0 ? (double)(L->completed - L->last_completed) / dt : 0;
    uint64_t nerr = 0;
    for (int i = 0; i <= CZC_STATUS_COUNT; i++) nerr += L->errors[i];
    char backlog[48] = "";
    if (L->rate > 0) snprintf(backlog, sizeof backlog, ", %zu overdue", L->bl_len);
    fprintf(stderr, "%s[%5.1fs] %llu done, %8.0f req/s, p50 %.3f ms, p99 %.3f ms, %llu errors%s%s",
            isatty(2) ? "\r" : "", el, (unsigned long long)L->completed, rps, hist_quantile(&L->window, 0.5) / 1e6,
            hist_quantile(&L->window, 0.99) / 1e6, (unsigned long long)nerr, backlog, isatty(2) && !final ? "   " : "\n");
    hist_reset(&L->window);
    L->last_progress_ns = t;
    L->last_completed = L->completed;
}

static void on_progress(uv_timer_t *t) { print_progress(t->data, false); }

/* Closed loop: the duration is over; calls in flight finish and count. */
static void on_stop(uv_timer_t *t) {
    Load *L = t->data;
    L->stopping = true;
    maybe_finish(L);
}

static void finish(Load *L) {
    if (L->finished) return;
    L->finished = true;
    L->end_ns = now_ns();
    uv_timer_stop(&L->tick);
    for (int k = 0; k < L->nstreams; k++) uv_timer_stop(&L->streams[k].retry);
    if (L->rate > 0) uv_poll_stop(&L->tpoll);
    uv_timer_stop(&L->progress);
    uv_signal_stop(&L->sigint);
}

static void maybe_finish(Load *L) {
    if (L->finished || L->nready < L->nstreams) return;
    if (L->requests_max > 0 && L->completed >= (uint64_t)L->requests_max) L->stopping = true;
    if (L->duration_s > 0 && now_ns() >= L->stop_ns) L->stopping = true;
    if (!L->stopping) return;
    for (int i = 0; i < L->nstreams; i++)
        if (L->streams[i].busy) return;
    if (L->bl_len && !L->interrupted) {
        /* overdue requests still count: send them (they end the run once answered) */
        Stream *st;
        while (L->bl_len && (st = free_stream(L))) {
            uint64_t due = L->backlog[L->bl_head];
            L->bl_head = (L->bl_head + 1) % L->bl_cap;
            L->bl_len--;
            send_one(st, due);
        }
        return;
    }
    finish(L);
}

static void on_sigint(uv_signal_t *s, int sig) {
    (void)sig;
    Load *L = s->data;
    L->stopping = true;
    L->interrupted = true;
    L->bl_len = 0; /* calls in flight end on their own */
    maybe_finish(L);
}

static void start_measuring(Load *L) {
    L->start_ns = L->last_progress_ns = now_ns();
    L->stop_ns = L->duration_s > 0 ? L->start_ns + (uint64_t)(L->duration_s * 1e9) : UINT64_MAX;
    uv_timer_start(&L->progress, on_progress, 1000, 1000);
    if (L->rate > 0) {
        uv_poll_start(&L->tpoll, UV_READABLE, on_due);
        arm(L, L->start_ns);
    } else {
        if (L->duration_s > 0) uv_timer_start(&L->tick, on_stop, (uint64_t)(L->duration_s * 1000), 0);
        for (int i = 0; i < L->nstreams && want_more(L); i++) send_one(&L->streams[i], L->start_ns);
    }
}

/* Session set-up: the schema, then each query file's set-up statements, once
 * per session (a stream's own, or the connection's with --sessions connection). */
typedef struct Setup {
    Stream *st;
    size_t step; /* 0: schema; 1..nqueries: query set-up */
    bool resume; /* again after a reconnect, while the run goes on */
} Setup;

static void setup_next(Setup *s);

static void on_setup_response(void *ud, const Catalyzer__V1__ExecuteResponse *resp) {
    Setup *s = ud;
    for (size_t i = 0; i < resp->n_results; i++)
        if (!resp->results[i]->ok && !s->resume && s->st == &s->st->load->streams[0])
            fprintf(stderr, "catalyzer-load: set-up statement failed: %s\n",
                    resp->results[i]->error ? resp->results[i]->error->message : "");
}

/* The session is ready: so are the streams that use it. */
static void session_ready(Stream *lead, bool ok) {
    Load *L = lead->load;
    for (int i = 0; i < L->nstreams; i++) {
        Stream *st = &L->streams[i];
        if (st != lead && (!L->session_per_conn || st->conn != lead->conn)) continue;
        st->ready = ok;
        L->nready++;
    }
    if (L->nready == L->nstreams) {
        if (L->setup_failed) finish(L);
        else start_measuring(L);
    }
}

static void on_setup_done(void *ud, int status, const char *msg) {
    Setup *s = ud;
    Load *L = s->st->load;
    if (status != CZC_OK && s->resume) {
        uv_timer_start(&s->st->retry, on_retry, 100, 0); /* still down: later */
        free(s);
        return;
    }
    if (status != CZC_OK) {
        if (!L->setup_failed++)
            fprintf(stderr, "catalyzer-load: session set-up on %s failed: %s: %s\n", L->daemon, czc_status_name(status),
                    msg);
        L->stopping = true;
        Stream *st = s->st;
        free(s);
        session_ready(st, false);
        return;
    }
    s->step++;
    setup_next(s);
}

static void setup_next(Setup *s) {
    Stream *st = s->st;
    Load *L = st->load;
    const char *sql = NULL;
    while (!sql && s->step <= L->nqueries) {
        sql = s->step == 0 ? L->schema_sql : L->queries[s->step - 1].setup;
        if (!sql) s->step++;
    }
    if (!sql) {
        bool resume = s->resume;
        free(s);
        if (!resume) {
            session_ready(st, true);
            return;
        }
        st->busy = st->resetup = false;
        stream_next(st, now_ns());
        maybe_finish(L);
        return;
    }
    Catalyzer__V1__ExecuteRequest rq = CATALYZER__V1__EXECUTE_REQUEST__INIT;
    rq.session_id = st->session;
    rq.sql = (char *)sql;
    CzcCallOptions o = {60000};
    czc_execute(st->conn->cz, &rq, &o, on_setup_response, on_setup_done, s);
}

static void setup_start(Stream *st, bool resume) {
    Setup *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->st = st;
    s->resume = resume;
    setup_next(s);
}

/* ---------------------------------------------------------------- report */

static void report(Load *L) {
    double el = (double)(L->end_ns - L->start_ns) / 1e9;
    uint64_t nerr = 0;
    for (int i = 0; i <= CZC_STATUS_COUNT; i++) nerr += L->errors[i];
    double rps = el > 0 ? (double)L->ok / el : 0;
    static const double QS[] = {0.5, 0.9, 0.99, 0.999};
    static const char *const QN[] = {"p50", "p90", "p99", "p99.9"};
    const char *mode = L->rate > 0 ? "open" : "closed";
    if (L->json) {
        printf("{\"daemon\":\"%s\",\"service\":\"%s\",\"workload\":\"%s\",\"queries\":%zu,\"connections\":%d,"
               "\"concurrency\":%d,"
               "\"mode\":\"%s\",\"sessions\":\"%s\",\"rate\":%.1f,\"lean\":%s,\"elapsed_s\":%.3f,\"requests\":%llu,\"ok\":%llu,"
               "\"analysis_errors\":%llu,\"errors\":{",
               L->daemon, L->connect ? "connect" : "catalyzer", L->workload, L->nqueries, L->nconn, L->concurrency, mode,
               L->session_per_conn ? "connection" : "stream", L->rate, L->lean ? "true" : "false",
               el, (unsigned long long)L->completed, (unsigned long long)L->ok,
               (unsigned long long)L->analysis_errors);
        int k = 0;
        for (int i = 0; i <= CZC_STATUS_COUNT; i++)
            if (L->errors[i])
                printf("%s\"%s\":%llu", k++ ? "," : "", i < CZC_STATUS_COUNT ? czc_status_name(i) : "OTHER",
                       (unsigned long long)L->errors[i]);
        printf("}");
        if (nerr) { /* the first failure's status and message, JSON-escaped */
            printf(",\"first_error\":\"");
            for (const unsigned char *c = (const unsigned char *)L->first_error; *c; c++)
                if (*c == '"' || *c == '\\') printf("\\%c", *c);
                else if (*c < 0x20) printf("\\u%04x", *c);
                else putchar(*c);
            printf("\"");
        }
        printf(",\"throughput_rps\":%.1f,\"latency_us\":{", rps);
        for (int i = 0; i < 4; i++) printf("\"%s\":%.1f,", QN[i], hist_quantile(&L->hist, QS[i]) / 1e3);
        printf("\"max\":%.1f,\"mean\":%.1f,\"min\":%.1f}", (double)L->hist.max / 1e3, hist_mean(&L->hist) / 1e3,
               L->hist.total ? (double)L->hist.min / 1e3 : 0.0);
        if (L->nwindows) {
            printf(",\"windows\":[");
            for (int w = 0; w <= L->nwindows; w++)
                printf("%s{\"from_s\":%.3f,\"to_s\":%.3f,\"requests\":%llu,\"ok\":%llu,\"errors\":%llu,"
                       "\"analysis_errors\":%llu,\"p50_us\":%.1f,\"p99_us\":%.1f}",
                       w ? "," : "", w ? L->windows[w - 1] : 0.0, w < L->nwindows ? L->windows[w] : el,
                       (unsigned long long)L->wstat[w].completed, (unsigned long long)L->wstat[w].ok,
                       (unsigned long long)L->wstat[w].errors, (unsigned long long)L->wstat[w].analysis_errors,
                       hist_quantile(&L->wstat[w].hist, 0.5) / 1e3, hist_quantile(&L->wstat[w].hist, 0.99) / 1e3);
            printf("]");
        }
        printf("}\n");
        return;
    }
    printf("catalyzer-load: %s, workload %s (%zu queries%s%s), %d connection%s x %d stream%s, %s loop",
           L->daemon, L->workload, L->nqueries, L->schema_path ? ", schema " : "", L->schema_path ? L->schema_path : "",
           L->nconn, L->nconn == 1 ? "" : "s", L->concurrency, L->concurrency == 1 ? "" : "s", mode);
    if (L->rate > 0) printf(" at %.0f req/s", L->rate);
    printf(", a session per %s%s%s\n", L->session_per_conn ? "connection" : "stream", L->lean ? ", lean responses" : "",
           L->connect ? ", Spark Connect AnalyzePlan" : "");
    printf("requests:   %llu ok, %llu failed in %.2f s: %.1f req/s", (unsigned long long)L->ok,
           (unsigned long long)nerr, el, rps);
    if (L->analysis_errors) printf(" (%llu answered with an analysis error)", (unsigned long long)L->analysis_errors);
    printf("\n");
    if (nerr) {
        printf("errors:    ");
        for (int i = 0; i <= CZC_STATUS_COUNT; i++)
            if (L->errors[i])
                printf(" %s %llu", i < CZC_STATUS_COUNT ? czc_status_name(i) : "OTHER", (unsigned long long)L->errors[i]);
        printf("   (first: %s)\n", L->first_error);
    }
    printf("latency ms: ");
    for (int i = 0; i < 4; i++) printf("%s %.3f  ", QN[i], hist_quantile(&L->hist, QS[i]) / 1e6);
    printf("max %.3f  mean %.3f\n", (double)L->hist.max / 1e6, hist_mean(&L->hist) / 1e6);
    for (int w = 0; L->nwindows && w <= L->nwindows; w++)
        printf("window %6.2f-%6.2f s: %llu requests, %llu ok, %llu failed, %llu analysis errors, p50 %.3f ms, p99 %.3f ms\n",
               w ? L->windows[w - 1] : 0.0, w < L->nwindows ? L->windows[w] : el,
               (unsigned long long)L->wstat[w].completed, (unsigned long long)L->wstat[w].ok,
               (unsigned long long)L->wstat[w].errors, (unsigned long long)L->wstat[w].analysis_errors,
               hist_quantile(&L->wstat[w].hist, 0.5) / 1e6, hist_quantile(&L->wstat[w].hist, 0.99) / 1e6);
}

/* ---------------------------------------------------------------- main */

static void help(FILE *f) {
    fprintf(f,
            "usage: catalyzer-load --daemon HOST:PORT --workload DIR [--schema FILE] [--connections N] [--concurrency M]\n"
            "                      [--rate R] [--duration S | --requests N] [--json]\n"
            "                      [--timeout-ms T] [--lean] [--sessions stream|connection]\n"
            "                      [--tls-ca FILE [--tls-cert FILE --tls-key FILE] [--tls-server-name NAME]]\n"
            "                      [--token-file FILE] [--service catalyzer|connect]\n"
            "                      [--keep-sessions] [--windows T1,T2,...]\n"
            "                      [--help] [--version]\n");
}

static int usage(void) {
    help(stderr);
    return 2;
}

static bool num(const char *s, double lo, double *out) {
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !(v >= lo) || isinf(v)) return false;
    *out = v;
    return true;
}

int main(int argc, char **argv) {
    Load L = {.nconn = 1, .concurrency = 1, .timeout_ms = 30000};
    CzcSecurity sec = {0};
    const char *token_file = NULL;
    char token[1024];
    double v;
    enum { O_JSON = 256, O_LEAN, O_DAEMON, O_WORKLOAD, O_SCHEMA, O_CONNECTIONS, O_CONCURRENCY, O_RATE, O_DURATION,
           O_REQUESTS, O_TIMEOUT, O_SESSIONS, O_TLS_CA, O_TLS_CERT, O_TLS_KEY, O_TLS_NAME, O_TOKEN, O_SERVICE,
           O_KEEP_SESSIONS, O_WINDOWS };
    static const struct option LONGOPTS[] = {
        {"json", no_argument, NULL, O_JSON}, {"lean", no_argument, NULL, O_LEAN},
        {"daemon", required_argument, NULL, O_DAEMON}, {"workload", required_argument, NULL, O_WORKLOAD},
        {"schema", required_argument, NULL, O_SCHEMA}, {"connections", required_argument, NULL, O_CONNECTIONS},
        {"concurrency", required_argument, NULL, O_CONCURRENCY}, {"rate", required_argument, NULL, O_RATE},
        {"duration", required_argument, NULL, O_DURATION}, {"requests", required_argument, NULL, O_REQUESTS},
        {"timeout-ms", required_argument, NULL, O_TIMEOUT}, {"sessions", required_argument, NULL, O_SESSIONS},
        {"tls-ca", required_argument, NULL, O_TLS_CA}, {"tls-cert", required_argument, NULL, O_TLS_CERT},
        {"tls-key", required_argument, NULL, O_TLS_KEY}, {"tls-server-name", required_argument, NULL, O_TLS_NAME},
        {"token-file", required_argument, NULL, O_TOKEN}, {"service", required_argument, NULL, O_SERVICE},
        {"keep-sessions", no_argument, NULL, O_KEEP_SESSIONS}, {"windows", required_argument, NULL, O_WINDOWS},
        {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {NULL, 0, NULL, 0}};
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hV", LONGOPTS, NULL)) != -1) {
        const char *val = optarg;
        switch (c) {
        case 'h': help(stdout); return 0;
        case 'V': printf("catalyzer-load %s\n", CATALYZER_VERSION); return 0;
        case O_JSON: L.json = true; break;
        case O_LEAN: L.lean = true; break;
        case O_KEEP_SESSIONS: L.keep_sessions = true; break;
        case O_DAEMON: L.daemon = val; break;
        case O_WORKLOAD: L.workload = val; break;
        case O_SCHEMA: L.schema_path = val; break;
        case O_CONNECTIONS: if (!num(val, 1, &v)) return usage(); L.nconn = (int)v; break;
        case O_CONCURRENCY: if (!num(val, 1, &v)) return usage(); L.concurrency = (int)v; break;
        case O_RATE: if (!num(val, 0.001, &v)) return usage(); L.rate = v; break;
        case O_DURATION: if (!num(val, 0.001, &v)) return usage(); L.duration_s = v; break;
        case O_REQUESTS: if (!num(val, 1, &v)) return usage(); L.requests_max = (long)v; break;
        case O_TIMEOUT: if (!num(val, 0, &v)) return usage(); L.timeout_ms = (uint32_t)v; break;
        case O_WINDOWS: if (!parse_windows(&L, val)) return usage(); break;
        case O_SESSIONS:
            if (strcmp(val, "stream") && strcmp(val, "connection")) return usage();
            L.session_per_conn = !strcmp(val, "connection");
            break;
        case O_TLS_CA: sec.ca_file = val; break;
        case O_TLS_CERT: sec.cert_file = val; break;
        case O_TLS_KEY: sec.key_file = val; break;
        case O_TLS_NAME: sec.server_name = val; break;
        case O_TOKEN: token_file = val; break;
        case O_SERVICE:
            if (strcmp(val, "catalyzer") && strcmp(val, "connect")) return usage();
            L.connect = !strcmp(val, "connect");
            break;
        default: return usage(); /* unknown option or a missing value */
        }
    }
    if (optind < argc) return usage();
    if ((sec.cert_file || sec.key_file || sec.server_name) && !sec.ca_file) return usage();
    char err[512];
    if (token_file) {
        if (!czc_read_token_file(token_file, token, sizeof token, err, sizeof err)) {
            fprintf(stderr, "catalyzer-load: --token-file: %s\n", err);
            return 2;
        }
        sec.token = token;
    }
    if (!L.daemon || !L.workload || (L.duration_s > 0 && L.requests_max > 0)) return usage();
    if (!L.duration_s && !L.requests_max) L.duration_s = 10;
    if (!czc_parse_hostport(L.daemon, L.host, sizeof L.host, &L.port)) {
        fprintf(stderr, "catalyzer-load: --daemon expects HOST:PORT, got %s\n", L.daemon);
        return 2;
    }
    if (load_workload(&L) != 0) return 2;
    signal(SIGPIPE, SIG_IGN);
    L.loop = uv_default_loop();
    hist_init(&L.hist);
    hist_init(&L.window);
    for (int w = 0; w <= L.nwindows; w++) hist_init(&L.wstat[w].hist);
    uv_timer_init(L.loop, &L.tick);
    if (L.rate > 0) {
        L.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (L.tfd < 0 || uv_poll_init(L.loop, &L.tpoll, L.tfd) != 0) {
            fprintf(stderr, "catalyzer-load: timerfd: cannot create\n");
            return 2;
        }
        L.tpoll.data = &L;
    }
    uv_timer_init(L.loop, &L.progress);
    L.tick.data = L.progress.data = &L;
    uv_signal_init(L.loop, &L.sigint);
    L.sigint.data = &L;
    uv_signal_start(&L.sigint, on_sigint, SIGINT);
    L.conns = calloc((size_t)L.nconn, sizeof *L.conns);
    L.nstreams = L.nconn * L.concurrency;
    L.streams = calloc((size_t)L.nstreams, sizeof *L.streams);
    if (!L.conns || !L.streams) abort();
    for (int i = 0; i < L.nconn; i++) {
        L.conns[i] = (Conn){&L, czc_conn_new(L.loop, L.host, L.port), i};
        if ((sec.ca_file || sec.token) && !czc_conn_set_security(L.conns[i].cz, &sec, err, sizeof err)) {
            fprintf(stderr, "catalyzer-load: %s\n", err);
            return 2;
        }
    }
    /* stream-major: consecutive streams are on different connections */
    for (int k = 0; k < L.nstreams; k++) {
        Stream *st = &L.streams[k];
        int ci = k % L.nconn, si = k / L.nconn;
        st->load = &L;
        st->conn = &L.conns[ci];
        uv_timer_init(L.loop, &st->retry);
        st->retry.data = st;
        st->next_query = (size_t)k; /* streams start at different queries */
        (void)si;
        if (L.session_per_conn && k >= L.nconn) {
            snprintf(st->session, sizeof st->session, "%s", L.streams[ci].session); /* the connection's session */
        } else {
            uint8_t b[16]; /* a version 4 UUID: Spark Connect's session id form */
            if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
                for (int x = 0; x < 16; x++) b[x] = (uint8_t)(rand() ^ (k << 3) ^ getpid());
            b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
            b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
            snprintf(st->session, sizeof st->session,
                     "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
                     b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
        }
    }
    for (int k = 0; k < L.nstreams; k++) {
        if (L.session_per_conn && k >= L.nconn) break; /* one set-up per connection's session */
        setup_start(&L.streams[k], false);
    }
    while (!L.finished && uv_run(L.loop, UV_RUN_ONCE)) {}
    if (!L.end_ns) L.end_ns = now_ns();
    int rc = L.setup_failed ? 2 : 0;
    if (!L.setup_failed) {
        if ((!L.json || isatty(2)) && now_ns() - L.last_progress_ns > 250000000u) print_progress(&L, true);
        report(&L);
        if (!L.ok) rc = 1;
    }
    for (int k = 0; k < L.nstreams; k++) {
        /* drop the sessions (best effort), then close */
        if (L.session_per_conn && k >= L.nconn) break;
        Catalyzer__V1__DropSessionRequest rq = CATALYZER__V1__DROP_SESSION_REQUEST__INIT;
        rq.session_id = L.streams[k].session;
        CzcCallOptions o = {2000};
        czc_call_start(L.streams[k].conn->cz, "/catalyzer.v1.Analyzer/DropSession", &rq.base,
                       &catalyzer__v1__drop_session_response__descriptor, &o, NULL, NULL, NULL);
    }
    for (;;) {
        size_t active = 0;
        for (int i = 0; i < L.nconn; i++) active += czc_conn_active(L.conns[i].cz);
        if (!active) break;
        uv_run(L.loop, UV_RUN_ONCE);
    }
    for (int i = 0; i < L.nconn; i++) czc_conn_free(L.conns[i].cz);
    uv_close((uv_handle_t *)&L.tick, NULL);
    for (int k = 0; k < L.nstreams; k++) uv_close((uv_handle_t *)&L.streams[k].retry, NULL);
    if (L.rate > 0) uv_close((uv_handle_t *)&L.tpoll, NULL);
    uv_close((uv_handle_t *)&L.progress, NULL);
    uv_close((uv_handle_t *)&L.sigint, NULL);
    uv_run(L.loop, UV_RUN_DEFAULT);
    uv_loop_close(L.loop);
    if (L.rate > 0) close(L.tfd);
    hist_free(&L.hist);
    hist_free(&L.window);
    for (int w = 0; w <= L.nwindows; w++) hist_free(&L.wstat[w].hist);
    for (size_t i = 0; i < L.nqueries; i++) {
        free(L.queries[i].name);
        free(L.queries[i].setup);
        free(L.queries[i].sql);
        if (L.queries[i].plan) protobuf_c_message_free_unpacked(&L.queries[i].plan->base, NULL);
    }
    free(L.queries);
    free(L.schema_sql);
    free(L.schema_default);
    free(L.backlog);
    free(L.conns);
    free(L.streams);
    return rc;
}
