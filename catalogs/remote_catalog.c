/* The remote catalog (remote_catalog.h): catalyzer.v1.CatalogProvider calls
 * through libczclient's asynchronous layer, on a pooled connection whose
 * private loop the calling thread runs until the call ends. */
#include "remote_catalog.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <uv.h>

#include "catalog_provider.pb-c.h"
#include "catalog_request.h"
#include "czclient.h"

enum {
    DEFAULT_DEADLINE_MS = 5000,
    CANCEL_POLL_MS = 5,   /* how soon a cancelled request stops waiting */
    MAX_IDLE = 16,        /* pooled connections kept, over every provider */
};

typedef struct PooledConn {
    char hostport[256];
    CzcConn *conn;
    uv_timer_t poll;      /* watches the request's cancel flag during a call */
    struct PooledConn *next;
} PooledConn;

struct RemoteCatalog {
    pthread_mutex_t mu;
    PooledConn *idle;
    int nidle;
};

static const char *const OWN_OPTIONS[] = {"uri", "deadlineMs", "cacheTtlSeconds"};

bool remote_option_is_own(const char *key) {
    for (size_t i = 0; i < sizeof OWN_OPTIONS / sizeof OWN_OPTIONS[0]; i++)
        if (!strcasecmp(key, OWN_OPTIONS[i])) return true;
    return false;
}

/* libuv starts its thread pool (name resolution) on first use, and threads
 * inherit the signal mask of the thread that starts them: started here with
 * every signal blocked, so that a worker's cancel signal (SIGUSR1) only
 * ever reaches the thread that runs analyses. */
static void noop_work(uv_work_t *w) { (void)w; }
static void noop_after(uv_work_t *w, int status) { (void)w, (void)status; }
static void start_thread_pool(void) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    uv_loop_t loop;
    if (uv_loop_init(&loop) == 0) {
        uv_work_t w;
        uv_queue_work(&loop, &w, noop_work, noop_after);
        uv_run(&loop, UV_RUN_DEFAULT);
        uv_loop_close(&loop);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}
static pthread_once_t thread_pool_once = PTHREAD_ONCE_INIT;

RemoteCatalog *remote_catalog_new(void) {
    RemoteCatalog *r = calloc(1, sizeof *r);
    if (!r) abort();
    pthread_mutex_init(&r->mu, NULL);
    return r;
}

static void conn_free(PooledConn *pc) {
    uv_close((uv_handle_t *)&pc->poll, NULL);
    czc_conn_free(pc->conn); /* runs its loop until the handles (the timer too) are closed */
    free(pc);
}

void remote_catalog_free(RemoteCatalog *r) {
    if (!r) return;
    while (r->idle) {
        PooledConn *pc = r->idle;
        r->idle = pc->next;
        conn_free(pc);
    }
    pthread_mutex_destroy(&r->mu);
    free(r);
}

static PooledConn *conn_take(RemoteCatalog *r, const char *hostport, char *err, size_t errlen) {
    pthread_mutex_lock(&r->mu);
    for (PooledConn **pp = &r->idle; *pp; pp = &(*pp)->next)
        if (!strcmp((*pp)->hostport, hostport)) {
            PooledConn *pc = *pp;
            *pp = pc->next;
            r->nidle--;
            pthread_mutex_unlock(&r->mu);
            return pc;
        }
    pthread_mutex_unlock(&r->mu);
    char host[256];
    int port;
    if (strlen(hostport) >= sizeof ((PooledConn *)0)->hostport || !czc_parse_hostport(hostport, host, sizeof host, &port)) {
        snprintf(err, errlen, "expected HOST:PORT");
        return NULL;
    }
    pthread_once(&thread_pool_once, start_thread_pool);
    PooledConn *pc = calloc(1, sizeof *pc);
    if (!pc) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(pc->hostport, sizeof pc->hostport, "%s", hostport);
    pc->conn = czc_conn_new(NULL, host, port);
    uv_timer_init(czc_conn_loop(pc->conn), &pc->poll);
    return pc;
}

static void conn_give_back(RemoteCatalog *r, PooledConn *pc) {
    pthread_mutex_lock(&r->mu);
    if (r->nidle < MAX_IDLE) {
        pc->next = r->idle;
        r->idle = pc;
        r->nidle++;
        pc = NULL;
    }
    pthread_mutex_unlock(&r->mu);
    if (pc) conn_free(pc);
}

/* ---------------------------------------------------------------- one call */

typedef struct Wait {
    bool done;
    int status;
    char message[400];
    ProtobufCMessage *resp;
    CzcCall *call;
    const volatile int *cancel;
} Wait;

static bool on_message(void *ud, ProtobufCMessage *m) {
    Wait *w = ud;
    if (w->resp) protobuf_c_message_free_unpacked(w->resp, NULL);
    w->resp = m;
    return true;
}

static void on_done(void *ud, int status, const char *message) {
    Wait *w = ud;
    w->done = true;
    w->status = status;
    snprintf(w->message, sizeof w->message, "%s", message ? message : "");
}

static void on_poll(uv_timer_t *t) {
    Wait *w = t->data;
    if (!w->done && w->call && __atomic_load_n(w->cancel, __ATOMIC_ACQUIRE)) czc_call_cancel(w->call);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* What a call to the provider needs besides its message. */
typedef struct Call {
    const CzCatalogRequest *req;
    const char *uri;
    char operation[300];  /* "LoadTable tpcds.store_sales": what errors name */
    uint32_t timeout_ms;  /* what bounded it */
} Call;

static void fail(CzCatalogFailure *f, const char *cls, const Call *c, const char *name4, const char *value4) {
    memset(f, 0, sizeof *f);
    snprintf(f->error_class, sizeof f->error_class, "%s", cls);
    const char *names[4] = {"catalog", "uri", "operation", name4};
    const char *values[4] = {c->req->catalog, c->uri ? c->uri : "", c->operation, value4};
    for (int i = 0; i < 4; i++) {
        snprintf(f->names[i], sizeof f->names[i], "%s", names[i]);
        /* a long value is cut to the failure's room (-O3 checks the bound) */
        snprintf(f->values[i], sizeof f->values[i], "%.*s", (int)sizeof f->values[i] - 1, values[i]);
    }
    f->nparams = 4;
}

static CzCatalogStatus fail_option(CzCatalogFailure *f, const CzCatalogRequest *req, const char *option,
                                   const char *value, const char *why) {
    memset(f, 0, sizeof *f);
    snprintf(f->error_class, sizeof f->error_class, "REMOTE_CATALOG.INVALID_OPTION");
    const char *names[4] = {"catalog", "option", "value", "reason"};
    const char *values[4] = {req->catalog, option, value ? value : "(not set)", why};
    for (int i = 0; i < 4; i++) {
        snprintf(f->names[i], sizeof f->names[i], "%s", names[i]);
        snprintf(f->values[i], sizeof f->values[i], "%.*s", (int)sizeof f->values[i] - 1, values[i]);
    }
    f->nparams = 4;
    return CZ_CATALOG_FAILED;
}

/* The catalog's uri and the call's bound (deadlineMs, within the request's
 * deadline); false with *f filled when an option is unusable. */
static bool call_setup(Call *c, const CzCatalogRequest *req, const char *method, CzCatalogFailure *f) {
    memset(c, 0, sizeof *c);
    c->req = req;
    c->uri = catalog_option(req, "uri");
    size_t o = (size_t)snprintf(c->operation, sizeof c->operation, "%s ", method);
    if (req->table) {
        catalog_identifier_string(req, c->operation + o, sizeof c->operation - o);
    } else {
        for (int i = 0; i < req->nnamespace && o < sizeof c->operation; i++)
            o += (size_t)snprintf(c->operation + o, sizeof c->operation - o, "%s%s", i ? "." : "", req->ns[i]);
    }
    if (!c->uri || !*c->uri) {
        fail_option(f, req, "uri", c->uri, "a catalyzer.remote catalog needs spark.sql.catalog.NAME.uri=HOST:PORT");
        return false;
    }
    c->timeout_ms = DEFAULT_DEADLINE_MS;
    const char *d = catalog_option(req, "deadlineMs");
    if (d) {
        char *end;
        long v = strtol(d, &end, 10);
        if (end == d || *end || v <= 0 || v > 3600000) {
            fail_option(f, req, "deadlineMs", d, "expected milliseconds, 1 to 3600000");
            return false;
        }
        c->timeout_ms = (uint32_t)v;
    }
    return true;
}

/* Runs one unary call; CZ_CATALOG_FOUND with *out (free with
 * protobuf_c_message_free_unpacked), NOT_FOUND for the provider's NOT_FOUND,
 * else FAILED with *f naming the catalog and why. */
static CzCatalogStatus call_provider(RemoteCatalog *r, Call *c, const char *path, const ProtobufCMessage *msg,
                                     const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **out,
                                     CzCatalogFailure *f) {
    *out = NULL;
    const CzCatalogRequest *req = c->req;
    if (req->cancel && __atomic_load_n(req->cancel, __ATOMIC_ACQUIRE)) {
        fail(f, "REMOTE_CATALOG.FAILED", c, "reason", "the request was cancelled");
        return CZ_CATALOG_FAILED;
    }
    uint32_t timeout = c->timeout_ms;
    if (req->deadline_ns) {
        uint64_t now = now_ns();
        uint64_t left_ms = req->deadline_ns > now ? (req->deadline_ns - now + 999999) / 1000000 : 0;
        if (left_ms == 0) {
            char ms[16];
            snprintf(ms, sizeof ms, "0");
            fail(f, "REMOTE_CATALOG.DEADLINE_EXCEEDED", c, "millis", ms);
            return CZ_CATALOG_FAILED;
        }
        if (left_ms < timeout) timeout = (uint32_t)left_ms;
    }
    char err[128];
    PooledConn *pc = conn_take(r, c->uri, err, sizeof err);
    if (!pc) {
        fail_option(f, req, "uri", c->uri, err);
        return CZ_CATALOG_FAILED;
    }
    uv_loop_t *loop = czc_conn_loop(pc->conn);
    uv_run(loop, UV_RUN_NOWAIT); /* notice a connection the provider closed while it sat in the pool */
    Wait w = {.cancel = req->cancel};
    CzcCallOptions opts = {timeout};
    CzcCall *call = czc_call_start(pc->conn, path, msg, resp_desc, &opts, on_message, on_done, &w);
    if (!w.done) w.call = call; /* a call that ended at once is already freed */
    if (req->cancel) {
        pc->poll.data = &w;
        uv_timer_start(&pc->poll, on_poll, CANCEL_POLL_MS, CANCEL_POLL_MS);
    }
    while (!w.done) uv_run(loop, UV_RUN_ONCE);
    uv_timer_stop(&pc->poll);
    conn_give_back(r, pc);

    if (w.status == CZC_OK && w.resp) {
        *out = w.resp;
        return CZ_CATALOG_FOUND;
    }
    if (w.resp) protobuf_c_message_free_unpacked(w.resp, NULL);
    char reason[512];
    switch (w.status) {
    case CZC_OK:
        fail(f, "REMOTE_CATALOG.INVALID_RESPONSE", c, "reason", "no response message");
        return CZ_CATALOG_FAILED;
    case CZC_NOT_FOUND: return CZ_CATALOG_NOT_FOUND;
    case CZC_DEADLINE_EXCEEDED: {
        char ms[16];
        snprintf(ms, sizeof ms, "%u", timeout);
        fail(f, "REMOTE_CATALOG.DEADLINE_EXCEEDED", c, "millis", ms);
        return CZ_CATALOG_FAILED;
    }
    case CZC_UNAVAILABLE:
        fail(f, "REMOTE_CATALOG.UNREACHABLE", c, "reason", w.message[0] ? w.message : "UNAVAILABLE");
        return CZ_CATALOG_FAILED;
    default:
        if (w.status == CZC_CANCELLED && req->cancel && __atomic_load_n(req->cancel, __ATOMIC_ACQUIRE)) {
            fail(f, "REMOTE_CATALOG.FAILED", c, "reason", "the request was cancelled");
            return CZ_CATALOG_FAILED;
        }
        snprintf(reason, sizeof reason, "%s%s%.400s", czc_status_name(w.status), w.message[0] ? ": " : "", w.message);
        fail(f, "REMOTE_CATALOG.FAILED", c, "reason", reason);
        return CZ_CATALOG_FAILED;
    }
}

/* ---------------------------------------------------------------- messages */

/* The request's context: the catalog and its options except catalyzerd's own. */
typedef struct Context {
    Catalyzer__V1__CatalogContext msg;
    Catalyzer__V1__CatalogContext__OptionsEntry *entries, **ptrs;
} Context;

static bool context_init(Context *cx, const CzCatalogRequest *req) {
    catalyzer__v1__catalog_context__init(&cx->msg);
    cx->entries = calloc((size_t)req->noptions + 1, sizeof *cx->entries);
    cx->ptrs = calloc((size_t)req->noptions + 1, sizeof *cx->ptrs);
    if (!cx->entries || !cx->ptrs) return false;
    cx->msg.catalog = (char *)req->catalog;
    cx->msg.options = cx->ptrs;
    for (int i = 0; i < req->noptions; i++) {
        if (remote_option_is_own(req->option_keys[i])) continue;
        Catalyzer__V1__CatalogContext__OptionsEntry *e = &cx->entries[cx->msg.n_options];
        catalyzer__v1__catalog_context__options_entry__init(e);
        e->key = (char *)req->option_keys[i];
        e->value = (char *)req->option_values[i];
        cx->ptrs[cx->msg.n_options++] = e;
    }
    return true;
}

static void context_free(Context *cx) {
    free(cx->entries);
    free(cx->ptrs);
}

void remote_table_free(RemoteTable *t) {
    for (int i = 0; i < t->table.ncols; i++) {
        free((char *)t->table.cols[i].name);
        free((char *)t->table.cols[i].type);
    }
    free((void *)t->table.cols);
    free((char *)t->table.name);
    free(t->version);
    memset(t, 0, sizeof *t);
}

/* The provider's table as the analyzer takes it; false with *f when the
 * provider sent something the analyzer cannot read. */
static bool convert_table(const Catalyzer__V1__TableMetadata *m, const Call *c, RemoteTable *out,
                          CzCatalogFailure *f) {
    char reason[512];
    CzExternalColumn *cols = calloc(m->n_columns + 1, sizeof *cols);
    if (!cols) {
        fail(f, "REMOTE_CATALOG.FAILED", c, "reason", "out of memory");
        return false;
    }
    out->table.cols = cols;
    for (size_t i = 0; i < m->n_columns; i++) {
        const Catalyzer__V1__ColumnMetadata *col = m->columns[i];
        char why[256];
        if (!col->name[0]) {
            snprintf(reason, sizeof reason, "column %zu has no name", i + 1);
            fail(f, "REMOTE_CATALOG.INVALID_RESPONSE", c, "reason", reason);
            return false;
        }
        if (!cz_type_check(col->data_type, why, sizeof why)) {
            snprintf(reason, sizeof reason, "column %.100s has the type \"%.100s\", not a Spark type string (%.200s)",
                     col->name, col->data_type, why);
            fail(f, "REMOTE_CATALOG.INVALID_RESPONSE", c, "reason", reason);
            return false;
        }
        cols[i].name = strdup(col->name);
        cols[i].type = strdup(col->data_type);
        cols[i].nullable = col->nullable;
        out->table.ncols = (int)i + 1;
        if (!cols[i].name || !cols[i].type) {
            fail(f, "REMOTE_CATALOG.FAILED", c, "reason", "out of memory");
            return false;
        }
    }
    char ident[1024];
    catalog_identifier_string(c->req, ident, sizeof ident);
    out->table.name = strdup(m->name[0] ? m->name : ident);
    out->version = strdup(m->version);
    if (!out->table.name || !out->version) {
        fail(f, "REMOTE_CATALOG.FAILED", c, "reason", "out of memory");
        return false;
    }
    return true;
}

CzCatalogStatus remote_load_table(RemoteCatalog *r, const CzCatalogRequest *req, const char *known_version,
                                  bool *not_modified, RemoteTable *out, CzCatalogFailure *f) {
    memset(out, 0, sizeof *out);
    *not_modified = false;
    Call c;
    if (!call_setup(&c, req, "LoadTable", f)) return CZ_CATALOG_FAILED;
    Context cx;
    if (!context_init(&cx, req)) {
        context_free(&cx);
        fail(f, "REMOTE_CATALOG.FAILED", &c, "reason", "out of memory");
        return CZ_CATALOG_FAILED;
    }
    Catalyzer__V1__Identifier id = CATALYZER__V1__IDENTIFIER__INIT;
    id.n_namespace_ = (size_t)req->nnamespace;
    id.namespace_ = (char **)req->ns;
    id.name = (char *)req->table;
    Catalyzer__V1__LoadTableRequest rq = CATALYZER__V1__LOAD_TABLE_REQUEST__INIT;
    rq.context = &cx.msg;
    rq.table = &id;
    rq.known_version = (char *)(known_version ? known_version : "");
    ProtobufCMessage *resp;
    CzCatalogStatus st = call_provider(r, &c, "/catalyzer.v1.CatalogProvider/LoadTable", &rq.base,
                                       &catalyzer__v1__load_table_response__descriptor, &resp, f);
    context_free(&cx);
    if (st != CZ_CATALOG_FOUND) return st;
    const Catalyzer__V1__LoadTableResponse *lr = (const Catalyzer__V1__LoadTableResponse *)resp;
    if (lr->not_modified && known_version && *known_version) {
        *not_modified = true;
    } else if (!lr->table) {
        fail(f, "REMOTE_CATALOG.INVALID_RESPONSE", &c, "reason",
             lr->not_modified ? "not_modified without a version to compare" : "no table in the response");
        st = CZ_CATALOG_FAILED;
    } else if (!convert_table(lr->table, &c, out, f)) {
        remote_table_free(out);
        st = CZ_CATALOG_FAILED;
    }
    protobuf_c_message_free_unpacked(resp, NULL);
    return st;
}

CzCatalogStatus remote_namespace_exists(RemoteCatalog *r, const CzCatalogRequest *req, CzCatalogFailure *f) {
    Call c;
    if (!call_setup(&c, req, "ListNamespaces", f)) return CZ_CATALOG_FAILED;
    Context cx;
    if (!context_init(&cx, req)) {
        context_free(&cx);
        fail(f, "REMOTE_CATALOG.FAILED", &c, "reason", "out of memory");
        return CZ_CATALOG_FAILED;
    }
    Catalyzer__V1__ListNamespacesRequest rq = CATALYZER__V1__LIST_NAMESPACES_REQUEST__INIT;
    rq.context = &cx.msg;
    rq.n_namespace_ = (size_t)req->nnamespace;
    rq.namespace_ = (char **)req->ns;
    ProtobufCMessage *resp;
    CzCatalogStatus st = call_provider(r, &c, "/catalyzer.v1.CatalogProvider/ListNamespaces", &rq.base,
                                       &catalyzer__v1__list_namespaces_response__descriptor, &resp, f);
    context_free(&cx);
    if (resp) protobuf_c_message_free_unpacked(resp, NULL);
    return st;
}

void remote_function_free(RemoteFunction *fn) {
    for (int i = 0; i < fn->nargs; i++) free(fn->arg_types[i]);
    free(fn->arg_types);
    free(fn->name);
    free(fn->result_type);
    memset(fn, 0, sizeof *fn);
}

CzCatalogStatus remote_load_function(RemoteCatalog *r, const CzCatalogRequest *req, RemoteFunction *out,
                                     CzCatalogFailure *f) {
    memset(out, 0, sizeof *out);
    Call c;
    if (!call_setup(&c, req, "LoadFunction", f)) return CZ_CATALOG_FAILED;
    Context cx;
    if (!context_init(&cx, req)) {
        context_free(&cx);
        fail(f, "REMOTE_CATALOG.FAILED", &c, "reason", "out of memory");
        return CZ_CATALOG_FAILED;
    }
    Catalyzer__V1__Identifier id = CATALYZER__V1__IDENTIFIER__INIT;
    id.n_namespace_ = (size_t)req->nnamespace;
    id.namespace_ = (char **)req->ns;
    id.name = (char *)req->table;
    Catalyzer__V1__LoadFunctionRequest rq = CATALYZER__V1__LOAD_FUNCTION_REQUEST__INIT;
    rq.context = &cx.msg;
    rq.function = &id;
    ProtobufCMessage *resp;
    CzCatalogStatus st = call_provider(r, &c, "/catalyzer.v1.CatalogProvider/LoadFunction", &rq.base,
                                       &catalyzer__v1__load_function_response__descriptor, &resp, f);
    context_free(&cx);
    if (st != CZ_CATALOG_FOUND) return st;
    const Catalyzer__V1__LoadFunctionResponse *lr = (const Catalyzer__V1__LoadFunctionResponse *)resp;
    char why[256], reason[512];
    for (size_t i = 0; i <= lr->n_argument_types && st == CZ_CATALOG_FOUND; i++) {
        const char *t = i < lr->n_argument_types ? lr->argument_types[i] : lr->result_type;
        if (!cz_type_check(t, why, sizeof why)) {
            snprintf(reason, sizeof reason, "the %s type \"%.100s\" is not a Spark type string (%.200s)",
                     i < lr->n_argument_types ? "argument" : "result", t, why);
            fail(f, "REMOTE_CATALOG.INVALID_RESPONSE", &c, "reason", reason);
            st = CZ_CATALOG_FAILED;
        }
    }
    if (st == CZ_CATALOG_FOUND) {
        out->name = strdup(lr->name[0] ? lr->name : req->table);
        out->result_type = strdup(lr->result_type);
        out->arg_types = calloc(lr->n_argument_types + 1, sizeof *out->arg_types);
        bool ok = out->name && out->result_type && out->arg_types;
        for (size_t i = 0; ok && i < lr->n_argument_types; i++) {
            out->arg_types[i] = strdup(lr->argument_types[i]);
            ok = out->arg_types[i] != NULL;
            out->nargs = (int)i + 1;
        }
        out->deterministic = lr->deterministic;
        out->aggregate = lr->aggregate;
        if (!ok) {
            remote_function_free(out);
            fail(f, "REMOTE_CATALOG.FAILED", &c, "reason", "out of memory");
            st = CZ_CATALOG_FAILED;
        }
    }
    protobuf_c_message_free_unpacked(resp, NULL);
    return st;
}
