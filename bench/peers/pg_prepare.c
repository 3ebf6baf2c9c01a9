/* PostgreSQL's parse analysis timed through libpq: for each query file,
 * PREPARE bq AS <query> then DEALLOCATE bq, N times, timing only the PREPARE
 * round trip (raw parse + parse analysis + rewrite; PostgreSQL plans at
 * EXECUTE). The first line times PREPARE of SELECT 1: the round trip and
 * statement overhead that every query pays, reported so it can be netted out.
 * usage: pg_prepare CONNINFO ITERATIONS SCHEMA.sql QUERY.sql... */
#include <libpq-fe.h>

#include "timing.h"

static char *prepare_text(const char *sql) {
    size_t n = strlen(sql) + 32;
    char *s = malloc(n);
    if (!s) abort();
    snprintf(s, n, "PREPARE bq AS %s", sql);
    return s;
}

static void run(PGconn *c, const char *name, const char *sql, int iters, double *t) {
    char *p = prepare_text(sql);
    PGresult *r = PQexec(c, p);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        report_rejected(name, PQresultErrorMessage(r));
        PQclear(r);
        free(p);
        return;
    }
    PQclear(r);
    PQclear(PQexec(c, "DEALLOCATE bq"));
    for (int i = 0; i < iters; i++) {
        double t0 = now_us();
        r = PQexec(c, p);
        t[i] = now_us() - t0;
        PQclear(r);
        PQclear(PQexec(c, "DEALLOCATE bq"));
    }
    report_ok(name, t, iters);
    free(p);
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
