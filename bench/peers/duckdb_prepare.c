/* DuckDB's binder timed in process through DuckDB's C API, linked against the
 * libduckdb.so that npm's @duckdb/node-api ships (package
 * @duckdb/node-bindings-linux-x64), so no DuckDB build or header is needed:
 * the few C API entry points used are declared below as duckdb.h declares
 * them. The schema runs once in an in-memory database after
 * PRAGMA disable_optimizer; then each query is prepared and destroyed N
 * times, timing only duckdb_prepare (parse, bind, logical plan and, as
 * DuckDB's prepare always does, physical plan; the optimizer is off).
 * usage: duckdb_prepare ITERATIONS SCHEMA.sql QUERY.sql...  |  duckdb_prepare --version */
#include <stdint.h>

#include "timing.h"

typedef struct { void *internal_ptr; } * duckdb_database;
typedef struct { void *internal_ptr; } * duckdb_connection;
typedef struct { void *internal_ptr; } * duckdb_prepared_statement;
typedef enum { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;
/* duckdb_result is a 48-byte struct; only its address is passed here. */
typedef struct { _Alignas(16) unsigned char opaque[256]; } duckdb_result;

duckdb_state duckdb_open(const char *path, duckdb_database *out);
duckdb_state duckdb_connect(duckdb_database db, duckdb_connection *out);
duckdb_state duckdb_query(duckdb_connection c, const char *sql, duckdb_result *out);
const char *duckdb_result_error(duckdb_result *r);
void duckdb_destroy_result(duckdb_result *r);
duckdb_state duckdb_prepare(duckdb_connection c, const char *sql, duckdb_prepared_statement *out);
const char *duckdb_prepare_error(duckdb_prepared_statement p);
void duckdb_destroy_prepare(duckdb_prepared_statement *p);
void duckdb_disconnect(duckdb_connection *c);
void duckdb_close(duckdb_database *db);
const char *duckdb_library_version(void);

static int exec(duckdb_connection c, const char *sql) {
    duckdb_result r;
    memset(&r, 0, sizeof r);
    duckdb_state st = duckdb_query(c, sql, &r);
    if (st != DuckDBSuccess) fprintf(stderr, "duckdb_prepare: %s\n", duckdb_result_error(&r));
    duckdb_destroy_result(&r);
    return st == DuckDBSuccess ? 0 : -1;
}

static void run(duckdb_connection c, const char *name, const char *sql, int iters, double *t) {
    duckdb_prepared_statement p = NULL;
    if (duckdb_prepare(c, sql, &p) != DuckDBSuccess) {
        report_rejected(name, duckdb_prepare_error(p));
        duckdb_destroy_prepare(&p);
        return;
    }
    duckdb_destroy_prepare(&p);
    for (int i = 0; i < iters; i++) {
        double t0 = now_us();
        duckdb_prepare(c, sql, &p);
        t[i] = now_us() - t0;
        duckdb_destroy_prepare(&p);
    }
    report_ok(name, t, iters);
}

int main(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "--version")) return puts(duckdb_library_version()), 0;
    if (argc < 3) {
        fprintf(stderr, "usage: duckdb_prepare ITERATIONS SCHEMA.sql QUERY.sql... | --version\n");
        return 2;
    }
    int iters = atoi(argv[1]);
    if (iters < 1) iters = 1;
    duckdb_database db;
    duckdb_connection c;
    if (duckdb_open(NULL, &db) != DuckDBSuccess || duckdb_connect(db, &c) != DuckDBSuccess) return 1;
    char *schema = read_file(argv[2]);
    if (!schema || exec(c, "SET threads = 1") || exec(c, "PRAGMA disable_optimizer") || exec(c, schema)) return 1;
    free(schema);
    double *t = malloc(sizeof(double) * (size_t)iters);
    if (!t) abort();
    run(c, "(baseline: SELECT 1)", "SELECT 1", iters, t);
    for (int f = 3; f < argc; f++) {
        char *sql = read_file(argv[f]);
        if (!sql) {
            report_rejected(base_name(argv[f]), "cannot read file");
            continue;
        }
        run(c, base_name(argv[f]), sql, iters, t);
        free(sql);
    }
    free(t);
    duckdb_disconnect(&c);
    duckdb_close(&db);
    return 0;
}
