/* Criterion units for the in-process session store (server/session_store.c):
 * versions count batches, reads replay the batches after a version in order,
 * compare-and-append refuses a stale writer, both byte limits hold, drop
 * forgets a journal. The shared store passes the same cases
 * (test_session_store_redis.c). Then the
 * journal's records: what a request changed, replayed into a new session,
 * rebuilds it (statements with their parameters, conf set and unset,
 * catalog tables and functions; failures and queries leave no record). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "session_store.h"

static StoreStatus put(SessionStore *st, const char *key, uint64_t expect, const char *text, uint64_t *v) {
    return store_append(st, key, "", expect, (const uint8_t *)text, strlen(text), v);
}

static char *get(SessionStore *st, const char *key, uint64_t after, uint64_t *v) {
    uint8_t *out;
    size_t len;
    cr_assert_eq(store_read(st, key, after, &out, &len, v), STORE_OK);
    char *s = calloc(1, len + 1);
    if (len) memcpy(s, out, len);
    free(out);
    return s;
}

Test(session_store, versions_and_replay) {
    SessionStore *st = session_store_memory(0, 0);
    uint64_t v = 99;
    char *s = get(st, "a", 0, &v);
    cr_assert_eq(v, 0);
    cr_assert_str_eq(s, "");
    free(s);
    cr_assert_eq(put(st, "a", 0, "one;", &v), STORE_OK);
    cr_assert_eq(v, 1);
    cr_assert_eq(put(st, "a", 1, "two;", &v), STORE_OK);
    cr_assert_eq(put(st, "b", 0, "other;", &v), STORE_OK);
    cr_assert_eq(put(st, "a", 2, "three;", &v), STORE_OK);
    cr_assert_eq(v, 3);
    s = get(st, "a", 0, &v);
    cr_assert_str_eq(s, "one;two;three;");
    cr_assert_eq(v, 3);
    free(s);
    s = get(st, "a", 1, &v);
    cr_assert_str_eq(s, "two;three;");
    free(s);
    s = get(st, "a", 3, &v);
    cr_assert_str_eq(s, "");
    free(s);
    uint8_t *out;
    size_t len;
    cr_assert_eq(store_read(st, "a", 4, &out, &len, &v), STORE_CONFLICT);
    uint64_t n, bytes;
    store_stats(st, &n, &bytes);
    cr_assert_eq(n, 2);
    cr_assert_eq(bytes, strlen("one;two;three;other;"));
    store_free(st);
}

Test(session_store, stale_writer_conflicts) {
    SessionStore *st = session_store_memory(0, 0);
    uint64_t v;
    cr_assert_eq(put(st, "a", 0, "x", &v), STORE_OK);
    cr_assert_eq(put(st, "a", 0, "y", &v), STORE_CONFLICT);
    cr_assert_eq(v, 1); /* the version the writer missed */
    char *s = get(st, "a", 0, &v);
    cr_assert_str_eq(s, "x");
    free(s);
    store_free(st);
}

Test(session_store, limits) {
    SessionStore *st = session_store_memory(10, 15);
    uint64_t v;
    cr_assert_eq(put(st, "a", 0, "12345678", &v), STORE_OK);
    cr_assert_eq(put(st, "a", 1, "123", &v), STORE_SESSION_FULL);
    cr_assert_eq(put(st, "a", 1, "12", &v), STORE_OK);
    cr_assert_eq(put(st, "b", 0, "123456", &v), STORE_TOTAL_FULL);
    cr_assert_eq(put(st, "b", 0, "12345", &v), STORE_OK);
    store_drop(st, "a");
    uint64_t n, bytes;
    store_stats(st, &n, &bytes);
    cr_assert_eq(n, 1);
    cr_assert_eq(bytes, 5);
    cr_assert_eq(put(st, "b", 1, "123456", &v), STORE_SESSION_FULL);
    cr_assert_eq(put(st, "c", 0, "1234567890", &v), STORE_OK);
    char *s = get(st, "a", 0, &v);
    cr_assert_eq(v, 0);
    free(s);
    cr_assert_str_eq(store_status_name(STORE_TOTAL_FULL), "total full");
    store_free(st);
}

/* ---------------------------------------------------------------- journal records (journal.c) */

static CzResult *run(CzSession *s, Buf *jr, const char *sql, const CzRunOptions *o) {
    CzRunOptions none = {0};
    CzResult *r = cz_run_sql(s, sql, strlen(sql), o ? o : &none);
    if (cz_result_status(r) == CZ_OK && cz_result_is_command(r)) journal_sql(jr, sql, strlen(sql), o);
    return r;
}

static const char *schema_of(CzSession *s, const char *sql) {
    static char out[256];
    CzRunOptions o = {0};
    CzResult *r = cz_run_sql(s, sql, strlen(sql), &o);
    snprintf(out, sizeof out, "%s", cz_result_status(r) == CZ_OK ? cz_result_schema(r) : cz_result_error(r)->error_class);
    cz_result_free(r);
    return out;
}

Test(journal, replay_rebuilds_the_session) {
    CzSession *s = cz_session_new(false);
    Buf jr = {0};
    const char *names[] = {"n"}, *values[] = {"7"}, *pos[] = {"'p'"};
    CzRunOptions o = {.nnamed_params = 1, .param_names = names, .param_values_sql = values,
                      .npos_params = 1, .pos_params_sql = pos};
    cz_result_free(run(s, &jr, "DECLARE x = :n", &o));
    cz_result_free(run(s, &jr, "DECLARE y = ?", &o));
    cz_result_free(run(s, &jr, "CREATE TEMPORARY VIEW v AS SELECT x AS a, y AS b", NULL));
    cz_result_free(run(s, &jr, "DECLARE bad = no_such_function()", NULL)); /* fails: no record */
    cz_result_free(run(s, &jr, "SELECT 1", NULL));                         /* not a command: no record */
    cz_session_set_conf(s, "spark.sql.caseSensitive", "true");
    journal_conf_set(&jr, "spark.sql.caseSensitive", "true");
    ConfSnap *snap = journal_conf_snapshot(s);
    cz_session_set_conf(s, "spark.sql.shuffle.partitions", "7");
    cz_session_unset_conf(s, "spark.sql.caseSensitive");
    cz_session_set_conf(s, "spark.sql.caseSensitive", "true");
    journal_conf_diff(&jr, snap, s);
    Catalyzer__V1__Column col = CATALYZER__V1__COLUMN__INIT, *cols[] = {&col};
    col.name = "c";
    col.type = "bigint";
    Catalyzer__V1__Table t = CATALYZER__V1__TABLE__INIT;
    t.name = "db1.t";
    t.n_columns = 1;
    t.columns = cols;
    char err[256];
    cr_assert(journal_create_table(&jr, s, &t, err, sizeof err), "%s", err);
    Catalyzer__V1__Function f = CATALYZER__V1__FUNCTION__INIT;
    char *args[] = {"int"};
    f.name = "plus_one";
    f.n_argument_types = 1;
    f.argument_types = args;
    f.result_type = "int";
    cr_assert(journal_register_function(&jr, s, &f, err, sizeof err), "%s", err);
    t.columns[0]->type = "no such type";
    cr_assert_not(journal_create_table(&jr, s, &t, err, sizeof err)); /* refused: no record */
    cr_assert(!jr.failed);
    cr_assert_eq(journal_count(jr.data, jr.len), 7, "%d", journal_count(jr.data, jr.len));

    CzSession *r = cz_session_new(false);
    CzRunOptions base = {0};
    cr_assert(journal_replay(r, jr.data, jr.len, &base, err, sizeof err), "%s", err);
    cr_assert_str_eq(schema_of(r, "SELECT a, b FROM v"), "struct<a:int,b:string>");
    cr_assert_str_eq(schema_of(r, "SELECT A FROM v"), schema_of(s, "SELECT A FROM v")); /* case-sensitive in both */
    cr_assert_str_eq(cz_session_get_conf(r, "spark.sql.shuffle.partitions"), "7");
    cr_assert_str_eq(schema_of(r, "SELECT c, plus_one(1) AS p FROM db1.t"), "struct<c:bigint,p:int>");
    cr_assert_str_eq(schema_of(r, "SELECT bad"), schema_of(s, "SELECT bad"));
    cr_assert_not(journal_replay(r, (const uint8_t *)"\x63", 1, &base, err, sizeof err)); /* unknown record */
    cz_session_free(r);
    cz_session_free(s);
    buf_free(&jr);
}
