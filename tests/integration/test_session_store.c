/* Criterion units for the in-process session store (server/session_store.c):
 * versions count batches, reads replay the batches after a version in order,
 * compare-and-append refuses a stale writer, both byte limits hold, drop
 * forgets a journal. A shared store must pass the same cases. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "session_store.h"

static StoreStatus put(SessionStore *st, const char *key, uint64_t expect, const char *text, uint64_t *v) {
    return store_append(st, key, expect, (const uint8_t *)text, strlen(text), v);
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
