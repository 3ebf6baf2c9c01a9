/* libFuzzer target: SQL text → statements (cz_split_statements) → parse and
 * analyse each on one session, as `catalyzer run` and the Execute RPC do,
 * under catalyzerd's default limits (depth, memory budget) and a deadline;
 * the result is rendered (schema, tree string, JSON) as the daemon would.
 * From valid UTF-8 SQL every text of the answer must be valid UTF-8 too
 * (gRPC clients refuse strings that are not; JSON cannot carry them): a
 * violation aborts, so the fuzzer reports it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "fuzz_common.h"
#include "pb_check.h"

enum { MAX_STATEMENTS = 16 };

typedef struct Stmts {
    size_t n;
    size_t off[MAX_STATEMENTS], len[MAX_STATEMENTS];
} Stmts;

static void on_stmt(void *ctx, const char *stmt, size_t len, size_t offset) {
    (void)stmt;
    Stmts *st = ctx;
    if (st->n == MAX_STATEMENTS) return;
    st->off[st->n] = offset;
    st->len[st->n] = len;
    st->n++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_MAX_INPUT) return 0;
    const Config *cfg = &fuzz_server()->cfg;
    char *sql = malloc(size + 1); /* exactly the input's bytes: ASan sees any read past them */
    memcpy(sql, data, size);
    sql[size] = '\0';
    bool utf8 = utf8_valid(sql, size);
    Stmts st = {0};
    cz_split_statements(sql, size, on_stmt, &st);
    CzSession *s = cz_session_new(true);
    for (size_t i = 0; i < st.n; i++) {
        CzRunOptions o = {0};
        o.want_tree = true;
        o.memory_limit = cfg->max_memory_bytes;
        o.max_depth = cfg->max_plan_depth;
        o.deadline_ns = mono_ns() + 5000000000ull;
        CzResult *r = cz_run_sql(s, sql + st.off[i], st.len[i], &o);
        const CzError *e = cz_result_error(r);
        const char *texts[] = {cz_result_schema(r), cz_result_tree(r), cz_result_json(r, (int)i),
                               e ? e->message : NULL, e ? e->fragment : NULL};
        for (size_t k = 0; utf8 && k < sizeof texts / sizeof texts[0]; k++)
            if (texts[k] && !utf8_valid(texts[k], strlen(texts[k]))) {
                fprintf(stderr, "fuzz_sql: statement %zu's answer (text %zu) is not UTF-8: %.300s\n", i, k, texts[k]);
                abort();
            }
        cz_result_free(r);
    }
    cz_session_free(s);
    free(sql);
    return 0;
}
