/* PostgreSQL's parse analysis timed through libpq. For each query file,
 * BATCH copies of "PREPARE bq AS <query>; DEALLOCATE bq;" go to the server as
 * one simple-query message, so one client round trip is spread over BATCH
 * statements: the time per PREPARE + DEALLOCATE pair is the server's raw
 * parse, parse analysis and rewrite (PostgreSQL plans at EXECUTE) plus its
 * per-statement overhead, without the socket round trip (which, on an idle
 * machine, costs more than the analysis). ITERATIONS pairs are timed in
 * ITERATIONS/BATCH messages; the median message time / BATCH is reported.
 * The first line times SELECT 1 the same way, the per-statement overhead
 * that every query pays, reported so it can be netted out.
 * usage: pg_prepare CONNINFO ITERATIONS SCHEMA.sql QUERY.sql... */
#include <libpq-fe.h>

#include <stdbool.h>

#include "timing.h"

enum { BATCH = 10 };

static char *batch_text(const char *sql, int copies) {
    size_t one = strlen(sql) + 48, n = one * (size_t)copies + 1, off = 0;
    char *s = malloc(n);
    if (!s) abort();
    for (int i = 0; i < copies; i++)
        off += (size_t)snprintf(s + off, n - off, "PREPARE bq AS %s;\nDEALLOCATE bq;\n", sql);
    return s;
}

/* true if every result of the batch succeeded; the first error is kept */
static bool exec_batch(PGconn *c, const char *text, char *err, size_t errlen) {
    bool ok = true;
    if (!PQsendQuery(c, text)) {
        snprintf(err, errlen, "%s", PQerrorMessage(c));
        return false;
    }
    PGresult *r;
    while ((r = PQgetResult(c))) {
        if (ok && PQresultStatus(r) != PGRES_COMMAND_OK) {
            snprintf(err, errlen, "%s", PQresultErrorMessage(r));
            ok = false;
        }
        PQclear(r);
    }
    return ok;
}

static void run(PGconn *c, const char *name, const char *sql, int iters, double *t) {
    char err[1024];
    char *one = batch_text(sql, 1);
    if (!exec_batch(c, one, err, sizeof err)) {
        PQclear(PQexec(c, "DEALLOCATE ALL"));
        report_rejected(name, err);
        free(one);
        return;
    }
    free(one);
    char *text = batch_text(sql, BATCH);
    int rounds = iters / BATCH > 0 ? iters / BATCH : 1;
    for (int i = 0; i < rounds; i++) {
        double t0 = now_us();
        exec_batch(c, text, err, sizeof err);
        t[i] = (now_us() - t0) / BATCH;
    }
    report_ok(name, t, rounds);
    free(text);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: pg_prepare CONNINFO ITERATIONS SCHEMA.sql QUERY.sql...\n");
        return 2;
    }
    int iters = atoi(argv[2]);
    if (iters < 1) iters = 1;
    PGconn *c = PQconnectdb(argv[1]);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "pg_prepare: %s", PQerrorMessage(c));
        return 1;
    }
    char *schema = read_file(argv[3]);
    if (!schema) {
        fprintf(stderr, "pg_prepare: cannot read %s\n", argv[3]);
        return 1;
    }
    PGresult *r = PQexec(c, schema);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "pg_prepare: schema: %s", PQresultErrorMessage(r));
        return 1;
    }
    PQclear(r);
    free(schema);
    double *t = malloc(sizeof(double) * (size_t)iters);
    if (!t) abort();
    run(c, "(baseline: SELECT 1)", "SELECT 1", iters, t);
    for (int f = 4; f < argc; f++) {
        char *sql = read_file(argv[f]);
        if (!sql) {
            report_rejected(base_name(argv[f]), "cannot read file");
            continue;
        }
        run(c, base_name(argv[f]), sql, iters, t);
        free(sql);
    }
    free(t);
    PQfinish(c);
    return 0;
}
