/* JDBCTableCatalog over PostgreSQL (jdbc_postgres.h). */
#include "jdbc_postgres.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "catalog_request.h"
#include "jdbc_url.h"
#include "pg_types.h"

#define POOL_IDLE_MAX 4 /* idle connections kept per connection string */

typedef struct Pool {
    char *conninfo_key;
    PGconn *idle[POOL_IDLE_MAX];
    int nidle;
    struct Pool *next;
} Pool;

struct JdbcPostgres {
    pthread_mutex_t mu;
    Pool *pools;
    uint32_t connect_timeout_ms;
};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

JdbcPostgres *jdbc_pg_new(uint32_t connect_timeout_ms) {
    JdbcPostgres *j = calloc(1, sizeof *j);
    if (!j) abort();
    pthread_mutex_init(&j->mu, NULL);
    j->connect_timeout_ms = connect_timeout_ms ? connect_timeout_ms : 5000;
    return j;
}

void jdbc_pg_free(JdbcPostgres *j) {
    if (!j) return;
    for (Pool *p = j->pools, *next; p; p = next) {
        next = p->next;
        for (int i = 0; i < p->nidle; i++) PQfinish(p->idle[i]);
        free(p->conninfo_key);
        free(p);
    }
    pthread_mutex_destroy(&j->mu);
    free(j);
}

static void fail(CzCatalogFailure *f, const char *cls, const char *url, const char *name2, const char *value2) {
    snprintf(f->error_class, sizeof f->error_class, "%s", cls);
    snprintf(f->names[0], sizeof f->names[0], "url");
    jdbc_url_redact(url ? url : "", f->values[0], sizeof f->values[0]);
    f->nparams = 1;
    if (name2) {
        snprintf(f->names[1], sizeof f->names[1], "%.*s", (int)sizeof f->names[1] - 1, name2);
        /* a long value is cut to the failure's room (-O3 checks the bound) */
        snprintf(f->values[1], sizeof f->values[1], "%.*s", (int)sizeof f->values[1] - 1, value2);
        f->nparams = 2;
    }
}

/* FAILED_JDBC.UNCLASSIFIED naming the catalog and the reason. */
static CzCatalogStatus fail_unclassified(CzCatalogFailure *f, const CzCatalogRequest *req, const char *url,
                                         const char *what, const char *why) {
    char msg[480];
    snprintf(msg, sizeof msg, "catalog %s: %s: %s", req->catalog, what, why);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = 0; /* libpq ends messages with a newline */
    fail(f, "FAILED_JDBC.UNCLASSIFIED", url, "message", msg);
    return CZ_CATALOG_FAILED;
}

/* Waits until the connection's socket is ready, the deadline passes or the
 * request is cancelled (polled every 50 ms). */
static int wait_socket(PGconn *c, bool for_write, uint64_t deadline_ns, const volatile int *cancel) {
    for (;;) {
        if (cancel && *cancel) return -1;
        int slice = 50;
        if (deadline_ns) {
            uint64_t t = now_ns();
            if (t >= deadline_ns) return -1;
            uint64_t left_ms = (deadline_ns - t) / 1000000 + 1;
            if (left_ms < (uint64_t)slice) slice = (int)left_ms;
        }
        struct pollfd pfd = {.fd = PQsocket(c), .events = for_write ? POLLOUT : POLLIN};
        int r = poll(&pfd, 1, slice);
        if (r > 0) return 0;
        if (r < 0 && errno != EINTR) return -2;
    }
}

/* A new connection, established within the deadline. NULL with *why set. */
static PGconn *connect_pg(const JdbcPgUrl *u, uint64_t deadline_ns, const volatile int *cancel, char *why,
                          size_t whylen) {
    const char *keys[JDBC_URL_MAX_PARAMS + 2], *values[JDBC_URL_MAX_PARAMS + 2];
    int n = 0;
    for (int i = 0; i < u->n; i++) keys[n] = u->keys[i], values[n++] = u->values[i];
    keys[n] = NULL, values[n] = NULL;
    PGconn *c = PQconnectStartParams(keys, values, 0);
    if (!c) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    PostgresPollingStatusType st = PGRES_POLLING_WRITING;
    while (st != PGRES_POLLING_OK) {
        if (st == PGRES_POLLING_FAILED || PQstatus(c) == CONNECTION_BAD) {
            snprintf(why, whylen, "%s", PQerrorMessage(c));
            PQfinish(c);
            return NULL;
        }
        int w = wait_socket(c, st == PGRES_POLLING_WRITING, deadline_ns, cancel);
        if (w) {
            snprintf(why, whylen, w == -1 ? "no connection within the request's deadline" : "poll failed");
            PQfinish(c);
            return NULL;
        }
        st = PQconnectPoll(c);
    }
    PQsetnonblocking(c, 1);
    return c;
}

static void conninfo_key(const JdbcPgUrl *u, char *out, size_t size) {
    size_t o = 0;
    for (int i = 0; i < u->n && o < size; i++)
        o += (size_t)snprintf(out + o, size - o, "%s=%s\x1f", u->keys[i], u->values[i]);
}

static PGconn *take_conn(JdbcPostgres *j, const char *key) {
    PGconn *c = NULL;
    pthread_mutex_lock(&j->mu);
    for (Pool *p = j->pools; p; p = p->next)
        if (!strcmp(p->conninfo_key, key)) {
            if (p->nidle) c = p->idle[--p->nidle];
            break;
        }
    pthread_mutex_unlock(&j->mu);
    return c;
}

static void give_back(JdbcPostgres *j, const char *key, PGconn *c) {
    pthread_mutex_lock(&j->mu);
    Pool *p = j->pools;
    while (p && strcmp(p->conninfo_key, key)) p = p->next;
    if (!p && (p = calloc(1, sizeof *p)) && (p->conninfo_key = strdup(key))) {
        p->next = j->pools;
        j->pools = p;
    } else if (p && !p->conninfo_key) {
        free(p);
        p = NULL;
    }
    if (p && p->nidle < POOL_IDLE_MAX && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) == PQTRANS_IDLE) {
        p->idle[p->nidle++] = c;
        c = NULL;
    }
    pthread_mutex_unlock(&j->mu);
    if (c) PQfinish(c);
}

/* Sends with PQsend* already done: the last result, within the deadline.
 * NULL with *timed_out when the deadline passed or the request was
 * cancelled (the server is asked to cancel; the connection is not reused). */
static PGresult *collect(PGconn *c, uint64_t deadline_ns, const volatile int *cancel, bool *timed_out) {
    *timed_out = false;
    while (PQflush(c) == 1)
        if (wait_socket(c, true, deadline_ns, cancel)) goto late;
    PGresult *last = NULL;
    for (;;) {
        while (PQisBusy(c)) {
            if (wait_socket(c, false, deadline_ns, cancel)) goto late_free;
            if (!PQconsumeInput(c)) break;
        }
        PGresult *r = PQgetResult(c);
        if (!r) break;
        PQclear(last);
        last = r;
    }
    return last;
late_free:
    PQclear(last);
late : {
    PGcancel *cn = PQgetCancel(c);
    char buf[128];
    if (cn) PQcancel(cn, buf, sizeof buf), PQfreeCancel(cn);
    *timed_out = true;
    return NULL;
}
}

typedef struct Conn {
    JdbcPostgres *j;
    char key[2048];
    PGconn *c;
    const char *url;
} Conn;

/* A pooled or new connection for the request's catalog. */
static CzCatalogStatus open_conn(JdbcPostgres *j, const CzCatalogRequest *req, Conn *out, CzCatalogFailure *f) {
    out->j = j;
    out->url = catalog_option(req, "url");
    JdbcPgUrl u;
    char why[512];
    if (!jdbc_pg_url_parse(out->url, &u, why, sizeof why)) return fail_unclassified(f, req, out->url, "bad url", why);
    const char *user = catalog_option(req, "user"), *password = catalog_option(req, "password");
    if (user) jdbc_pg_url_set(&u, "user", user);
    if (password) jdbc_pg_url_set(&u, "password", password);
    jdbc_pg_url_set(&u, "application_name", "catalyzer");
    conninfo_key(&u, out->key, sizeof out->key);
    out->c = take_conn(j, out->key);
    if (out->c) return CZ_CATALOG_FOUND;
    uint64_t deadline = now_ns() + (uint64_t)j->connect_timeout_ms * 1000000ull;
    if (req->deadline_ns && req->deadline_ns < deadline) deadline = req->deadline_ns;
    out->c = connect_pg(&u, deadline, req->cancel, why, sizeof why);
    if (!out->c) return fail_unclassified(f, req, out->url, "cannot connect", why);
    return CZ_CATALOG_FOUND;
}

static void close_conn(Conn *c, bool reuse) {
    if (!c->c) return;
    if (reuse) give_back(c->j, c->key, c->c);
    else PQfinish(c->c);
    c->c = NULL;
}

/* One statement with text parameters, its result within the deadline. */
static PGresult *run(Conn *c, const CzCatalogRequest *req, const char *sql, int nparams, const char *const *params,
                     bool *timed_out) {
    if (!PQsendQueryParams(c->c, sql, nparams, NULL, params, NULL, NULL, 0)) return NULL;
    return collect(c->c, req->deadline_ns, req->cancel, timed_out);
}

CzCatalogStatus jdbc_pg_namespace_exists(JdbcPostgres *j, const CzCatalogRequest *req, CzCatalogFailure *f) {
    if (req->nnamespace != 1) return CZ_CATALOG_NOT_FOUND; /* JDBC has no nested namespaces */
    Conn c;
    CzCatalogStatus st = open_conn(j, req, &c, f);
    if (st != CZ_CATALOG_FOUND) return st;
    bool late;
    const char *params[1] = {req->ns[0]};
    PGresult *r = run(&c, req, "SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1", 1, params, &late);
    if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
        PQclear(r);
        close_conn(&c, false);
        if (late) return fail_unclassified(f, req, c.url, "namespace lookup", "no answer within the request's deadline");
        fail(f, "FAILED_JDBC.NAMESPACE_EXISTS", c.url, "namespace", req->ns[0]);
        return CZ_CATALOG_FAILED;
    }
    bool found = PQntuples(r) > 0;
    PQclear(r);
    close_conn(&c, true);
    return found ? CZ_CATALOG_FOUND : CZ_CATALOG_NOT_FOUND;
}

/* The table's name as PostgreSQL reads it: "ns"."t" (quoted, so case-sensitive, as Spark quotes it). */
static char *quoted_table(PGconn *c, const CzCatalogRequest *req) {
    size_t cap = 64;
    for (int i = 0; i < req->nnamespace; i++) cap += strlen(req->ns[i]) * 2 + 4;
    cap += strlen(req->table) * 2 + 4;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t o = 0;
    for (int i = 0; i <= req->nnamespace; i++) {
        const char *part = i < req->nnamespace ? req->ns[i] : req->table;
        char *q = PQescapeIdentifier(c, part, strlen(part));
        if (!q) {
            free(out);
            return NULL;
        }
        o += (size_t)snprintf(out + o, cap - o, "%s%s", i ? "." : "", q);
        PQfreemem(q);
    }
    return out;
}

void jdbc_pg_table_free(CzExternalTable *t) {
    if (!t) return;
    for (int i = 0; i < t->ncols; i++) {
        free((char *)t->cols[i].name);
        free((char *)t->cols[i].type);
    }
    free((void *)t->cols);
    free((char *)t->name);
    memset(t, 0, sizeof *t);
}

/* Type facts for each distinct column type: typname (a domain's base type),
 * typtype, and an array's element. */
typedef struct TypeInfo {
    Oid oid;
    char typname[72];
    char typtype;
    char elem[72];
} TypeInfo;

/* PostgreSQL's built-in types (their oids are fixed, pg_type.dat): a table of
 * these needs no pg_type lookup. Array types carry their element's name. */
static const struct { Oid oid; const char *typname, *elem; } BUILTIN_TYPES[] = {
    {16, "bool", NULL},       {17, "bytea", NULL},     {18, "char", NULL},        {19, "name", NULL},
    {20, "int8", NULL},       {21, "int2", NULL},      {23, "int4", NULL},        {25, "text", NULL},
    {26, "oid", NULL},        {114, "json", NULL},     {142, "xml", NULL},        {600, "point", NULL},
    {603, "box", NULL},       {650, "cidr", NULL},     {700, "float4", NULL},     {701, "float8", NULL},
    {790, "money", NULL},     {829, "macaddr", NULL},  {869, "inet", NULL},       {1042, "bpchar", NULL},
    {1043, "varchar", NULL},  {1082, "date", NULL},    {1083, "time", NULL},      {1114, "timestamp", NULL},
    {1184, "timestamptz", NULL}, {1186, "interval", NULL}, {1266, "timetz", NULL}, {1560, "bit", NULL},
    {1562, "varbit", NULL},   {1700, "numeric", NULL}, {2950, "uuid", NULL},      {3614, "tsvector", NULL},
    {3802, "jsonb", NULL},
    {1000, "_bool", "bool"},  {1001, "_bytea", "bytea"}, {1005, "_int2", "int2"}, {1007, "_int4", "int4"},
    {1016, "_int8", "int8"},  {1009, "_text", "text"}, {1015, "_varchar", "varchar"}, {1014, "_bpchar", "bpchar"},
    {1021, "_float4", "float4"}, {1022, "_float8", "float8"}, {1231, "_numeric", "numeric"},
    {1182, "_date", "date"},  {1115, "_timestamp", "timestamp"}, {1185, "_timestamptz", "timestamptz"},
    {2951, "_uuid", "uuid"},  {791, "_money", "money"}, {199, "_json", "json"}, {3807, "_jsonb", "jsonb"},
    {1561, "_bit", "bit"},
};

static bool builtin_type(Oid oid, struct TypeInfo *out);

static const char TYPE_QUERY[] =
    "SELECT t.oid::int8, b.typname, b.typtype, COALESCE(e.typname, '') "
    "FROM pg_catalog.pg_type t "
    "JOIN pg_catalog.pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END "
    "LEFT JOIN pg_catalog.pg_type e ON e.oid = b.typelem AND b.typcategory = 'A' "
    "WHERE t.oid = ANY($1::pg_catalog.oid[])";

CzCatalogStatus jdbc_pg_load_table(JdbcPostgres *j, const CzCatalogRequest *req, CzExternalTable *out,
                                   CzCatalogFailure *f) {
    memset(out, 0, sizeof *out);
    if (req->nnamespace > 1) return CZ_CATALOG_NOT_FOUND; /* checkNamespace: no nested namespaces */
    Conn c;
    CzCatalogStatus st = open_conn(j, req, &c, f);
    if (st != CZ_CATALOG_FOUND) return st;
    char *table = quoted_table(c.c, req);
    char ident[1024];
    catalog_identifier_string(req, ident, sizeof ident);
    char sql[4096];
    snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE 1=0", table ? table : "\"\"");
    free(table);
    bool late = false;
    /* tableExists and the schema in one: Spark's JDBC source counts any failure
       of the existence probe as "no such table". */
    if (!PQsendPrepare(c.c, "", sql, 0, NULL)) {
        close_conn(&c, false);
        return fail_unclassified(f, req, c.url, "lost the connection", "send failed");
    }
    PGresult *r = collect(c.c, req->deadline_ns, req->cancel, &late);
    if (late) {
        close_conn(&c, false);
        return fail_unclassified(f, req, c.url, "loading table", "no answer within the request's deadline");
    }
    if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) {
        bool broken = PQstatus(c.c) != CONNECTION_OK;
        char why[512];
        snprintf(why, sizeof why, "%s", PQerrorMessage(c.c));
        PQclear(r);
        close_conn(&c, !broken);
        if (broken) return fail_unclassified(f, req, c.url, "lost the connection", why);
        return CZ_CATALOG_NOT_FOUND;
    }
    PQclear(r);
    if (!PQsendDescribePrepared(c.c, "") || !(r = collect(c.c, req->deadline_ns, req->cancel, &late)) ||
        PQresultStatus(r) != PGRES_COMMAND_OK) {
        PQclear(r);
        close_conn(&c, false);
        fail(f, "FAILED_JDBC.LOAD_TABLE", c.url, "tableName", ident);
        return CZ_CATALOG_FAILED;
    }
    int n = PQnfields(r);
    bool all_builtin = true;
    for (int i = 0; i < n && all_builtin; i++) {
        TypeInfo ti;
        all_builtin = builtin_type(PQftype(r, i), &ti);
    }
    /* the type oids PostgreSQL does not fix, as an array literal */
    char oids[8192];
    size_t oo = (size_t)snprintf(oids, sizeof oids, "{");
    for (int i = 0; i < n && oo < sizeof oids - 16; i++)
        oo += (size_t)snprintf(oids + oo, sizeof oids - oo, "%s%u", i ? "," : "", PQftype(r, i));
    snprintf(oids + oo, sizeof oids - oo, "}");
    const char *params[1] = {oids};
    PGresult *tr = all_builtin ? NULL : run(&c, req, TYPE_QUERY, 1, params, &late);
    if (!all_builtin && (!tr || PQresultStatus(tr) != PGRES_TUPLES_OK)) {
        PQclear(tr);
        PQclear(r);
        close_conn(&c, false);
        if (late) return fail_unclassified(f, req, c.url, "loading table", "no answer within the request's deadline");
        fail(f, "FAILED_JDBC.LOAD_TABLE", c.url, "tableName", ident);
        return CZ_CATALOG_FAILED;
    }
    int nt = tr ? PQntuples(tr) : 0;
    TypeInfo *types = calloc((size_t)nt + 1, sizeof *types);
    for (int i = 0; types && i < nt; i++) {
        types[i].oid = (Oid)strtoull(PQgetvalue(tr, i, 0), NULL, 10);
        snprintf(types[i].typname, sizeof types[i].typname, "%s", PQgetvalue(tr, i, 1));
        types[i].typtype = PQgetvalue(tr, i, 2)[0];
        snprintf(types[i].elem, sizeof types[i].elem, "%s", PQgetvalue(tr, i, 3));
    }
    PQclear(tr);
    bool prefer_ntz = false;
    const char *ntz = catalog_option(req, "preferTimestampNTZ");
    if (ntz && !strcasecmp(ntz, "true")) prefer_ntz = true;
    CzExternalColumn *cols = calloc((size_t)n + 1, sizeof *cols);
    CzCatalogStatus result = CZ_CATALOG_FOUND;
    out->cols = cols;
    for (int i = 0; cols && types && i < n; i++) {
        const TypeInfo *ti = NULL;
        TypeInfo fixed;
        if (builtin_type(PQftype(r, i), &fixed)) ti = &fixed;
        for (int k = 0; !ti && k < nt; k++)
            if (types[k].oid == PQftype(r, i)) ti = &types[k];
        char spark[256];
        PgColumnType pt = {ti ? ti->typname : "", ti ? ti->typtype : 'b', NULL, PQfmod(r, i)};
        if (ti && ti->elem[0]) pt.elem_typname = ti->typname[0] == '_' ? ti->typname + 1 : ti->elem;
        if (!ti || !pg_spark_type(&pt, prefer_ntz, spark, sizeof spark)) {
            fail(f, "FAILED_JDBC.LOAD_TABLE", c.url, "tableName", ident);
            result = CZ_CATALOG_FAILED;
            break;
        }
        cols[i].name = strdup(PQfname(r, i));
        cols[i].type = strdup(spark);
        cols[i].nullable = true; /* JDBCRDD.getQueryOutputSchema: alwaysNullable = true */
        out->ncols = i + 1;
    }
    if (!cols || !types) {
        fail_unclassified(f, req, c.url, "loading table", "out of memory");
        result = CZ_CATALOG_FAILED;
    }
    free(types);
    PQclear(r);
    close_conn(&c, true);
    if (result != CZ_CATALOG_FOUND) {
        jdbc_pg_table_free(out);
        return result;
    }
    out->name = strdup(ident);
    return CZ_CATALOG_FOUND;
}

static bool builtin_type(Oid oid, TypeInfo *out) {
    for (size_t i = 0; i < sizeof BUILTIN_TYPES / sizeof BUILTIN_TYPES[0]; i++)
        if (BUILTIN_TYPES[i].oid == oid) {
            out->oid = oid;
            snprintf(out->typname, sizeof out->typname, "%s", BUILTIN_TYPES[i].typname);
            out->typtype = 'b';
            snprintf(out->elem, sizeof out->elem, "%s", BUILTIN_TYPES[i].elem ? BUILTIN_TYPES[i].elem : "");
            return true;
        }
    return false;
}
