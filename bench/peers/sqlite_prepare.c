/* SQLite's sqlite3_prepare_v2 timed in process: the schema runs once in an
 * in-memory database, then each query is prepared and finalized N times,
 * timing only the prepare (tokenize, parse, name resolution and code
 * generation: SQLite has no separate bind step). A query SQLite does not
 * accept is reported as rejected with its message.
 * usage: sqlite_prepare ITERATIONS SCHEMA.sql QUERY.sql... */
#include <sqlite3.h>

#include "timing.h"

static void run(sqlite3 *db, const char *name, const char *sql, int iters, double *t) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK || !st) {
        report_rejected(name, sqlite3_errmsg(db));
        sqlite3_finalize(st);
        return;
    }
    sqlite3_finalize(st);
    for (int i = 0; i < iters; i++) {
        double t0 = now_us();
        sqlite3_prepare_v2(db, sql, -1, &st, NULL);
        t[i] = now_us() - t0;
        sqlite3_finalize(st);
    }
    report_ok(name, t, iters);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: sqlite_prepare ITERATIONS SCHEMA.sql QUERY.sql...\n");
        return 2;
    }
    int iters = atoi(argv[1]);
    if (iters < 1) iters = 1;
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 1;
    char *schema = read_file(argv[2]), *err = NULL;
    if (!schema || sqlite3_exec(db, schema, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "sqlite_prepare: schema: %s\n", err ? err : "cannot read");
        return 1;
    }
    free(schema);
    double *t = malloc(sizeof(double) * (size_t)iters);
    if (!t) abort();
    run(db, "(baseline: SELECT 1)", "SELECT 1", iters, t);
    for (int f = 3; f < argc; f++) {
        char *sql = read_file(argv[f]);
        if (!sql) {
            report_rejected(base_name(argv[f]), "cannot read file");
            continue;
        }
        run(db, base_name(argv[f]), sql, iters, t);
        free(sql);
    }
    free(t);
    sqlite3_close(db);
    return 0;
}
