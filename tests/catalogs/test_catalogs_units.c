/* Units of the external catalogs (catalogs/): Spark's PostgreSQL type
 * mapping, pgjdbc URLs, and the bounded table cache (bounds, LRU order, time
 * to live, invalidation, memory under a 100,000-table catalog). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "jdbc_url.h"
#include "pg_types.h"
#include "table_cache.h"

static const char *map(const char *typname, char typtype, const char *elem, int typmod, bool ntz) {
    static char out[256];
    PgColumnType t = {typname, typtype, elem, typmod};
    if (!pg_spark_type(&t, ntz, out, sizeof out)) return NULL;
    return out;
}

#define NUMERIC_MOD(p, s) ((((p) << 16) | (s)) + 4)

Test(pg_types, scalars_as_spark_reads_them) {
    cr_expect_str_eq(map("int2", 'b', NULL, -1, false), "smallint");
    cr_expect_str_eq(map("int4", 'b', NULL, -1, false), "int");
    cr_expect_str_eq(map("int8", 'b', NULL, -1, false), "bigint");
    cr_expect_str_eq(map("oid", 'b', NULL, -1, false), "bigint");
    cr_expect_str_eq(map("float4", 'b', NULL, -1, false), "float");
    cr_expect_str_eq(map("float8", 'b', NULL, -1, false), "double");
    cr_expect_str_eq(map("money", 'b', NULL, -1, false), "string");
    cr_expect_str_eq(map("bool", 'b', NULL, -1, false), "boolean");
    cr_expect_str_eq(map("bit", 'b', NULL, 1, false), "boolean");
    cr_expect_str_eq(map("bit", 'b', NULL, 3, false), "binary");
    cr_expect_str_eq(map("bytea", 'b', NULL, -1, false), "binary");
    cr_expect_str_eq(map("date", 'b', NULL, -1, false), "date");
    cr_expect_str_eq(map("timestamp", 'b', NULL, -1, false), "timestamp");
    cr_expect_str_eq(map("timestamptz", 'b', NULL, -1, false), "timestamp");
    cr_expect_str_eq(map("time", 'b', NULL, -1, false), "timestamp");
    cr_expect_str_eq(map("timestamp", 'b', NULL, -1, true), "timestamp_ntz", "preferTimestampNTZ");
    cr_expect_str_eq(map("varchar", 'b', NULL, 9, false), "string", "VARCHAR read as STRING");
    cr_expect_str_eq(map("bpchar", 'b', NULL, 9, false), "string", "CHAR read as STRING");
    cr_expect_str_eq(map("text", 'b', NULL, -1, false), "string");
    cr_expect_str_eq(map("uuid", 'b', NULL, -1, false), "string", "Types.OTHER");
    cr_expect_str_eq(map("jsonb", 'b', NULL, -1, false), "string");
    cr_expect_str_eq(map("mood", 'e', NULL, -1, false), "string", "an enum is Types.OTHER");
    cr_expect_str_eq(map("xml", 'b', NULL, -1, false), "string");
    cr_expect_str_eq(map("pair", 'c', NULL, -1, false), "string", "a composite is Types.STRUCT");
    cr_expect_null(map("refcursor", 'b', NULL, -1, false), "REF_CURSOR cannot be read");
}

Test(pg_types, numeric_precision_and_scale) {
    cr_expect_str_eq(map("numeric", 'b', NULL, NUMERIC_MOD(7, 2), false), "decimal(7,2)");
    cr_expect_str_eq(map("numeric", 'b', NULL, NUMERIC_MOD(10, 0), false), "decimal(10,0)");
    cr_expect_str_eq(map("numeric", 'b', NULL, -1, false), "decimal(38,18)", "no precision: SYSTEM_DEFAULT");
    cr_expect_str_eq(map("numeric", 'b', NULL, NUMERIC_MOD(60, 10), false), "decimal(38,10)", "bounded");
    /* PostgreSQL 15 allows a negative scale: numeric(5,-2) is stored as 11 signed bits */
    cr_expect_str_eq(map("numeric", 'b', NULL, ((5 << 16) | (0x7ff & -2)) + 4, false), "decimal(7,0)");
}

Test(pg_types, arrays_by_element_name) {
    cr_expect_str_eq(map("_int4", 'b', "int4", -1, false), "array<int>");
    cr_expect_str_eq(map("_text", 'b', "text", -1, false), "array<string>");
    cr_expect_str_eq(map("_numeric", 'b', "numeric", -1, false), "array<decimal(38,18)>");
    cr_expect_str_eq(map("_timestamptz", 'b', "timestamptz", -1, false), "array<timestamp>");
    cr_expect_str_eq(map("_bit", 'b', "bit", -1, false), "array<binary>");
    cr_expect_null(map("_money", 'b', "money", -1, false), "money[] is not readable (SPARK-34333)");
}

Test(jdbc_url, host_port_database_and_properties) {
    JdbcPgUrl u;
    char err[256];
    cr_assert(jdbc_pg_url_parse("jdbc:postgresql://db.example:6543/sales?user=ann&password=s%40cret&sslmode=disable",
                                &u, err, sizeof err));
    char all[1024] = "";
    for (int i = 0; i < u.n; i++) snprintf(all + strlen(all), sizeof all - strlen(all), "%s=%s;", u.keys[i], u.values[i]);
    cr_expect_str_eq(all, "host=db.example;port=6543;dbname=sales;user=ann;password=s@cret;sslmode=disable;");
    cr_assert(jdbc_pg_url_parse("jdbc:postgresql://[::1]/x", &u, err, sizeof err));
    cr_expect_str_eq(u.values[0], "::1");
    cr_expect_str_eq(u.values[1], "5432");
    cr_expect_not(jdbc_pg_url_parse("jdbc:mysql://h/db", &u, err, sizeof err));
    cr_expect_not(jdbc_pg_url_parse("jdbc:postgresql://h:12ab/db", &u, err, sizeof err));
}

Test(jdbc_url, redacted_as_spark_shows_it) {
    char out[256];
    jdbc_url_redact("jdbc:postgresql://h/db?user=a&password=b&ssl=true", out, sizeof out);
    cr_expect_str_eq(out, "jdbc:postgresql://h/db?user=a&ssl=true");
    jdbc_url_redact("jdbc:postgresql://h/db?user=a&password=b", out, sizeof out);
    cr_expect_str_eq(out, "jdbc:postgresql://h/db?user=a");
}

static CzExternalTable table_of(int ncols, CzExternalColumn *cols, const char *name) {
    for (int i = 0; i < ncols; i++) cols[i] = (CzExternalColumn){"column_name", "decimal(7,2)", true};
    return (CzExternalTable){.ncols = ncols, .cols = cols, .name = name};
}

Test(table_cache, hit_after_put_until_ttl) {
    TableCache *c = table_cache_new(10, 1 << 20);
    CzExternalColumn cols[3];
    CzExternalTable t = table_of(3, cols, "ns.t");
    CachedTable *e = table_cache_put(c, "k1", "pg", &t, 1000, 500);
    cr_assert(e);
    cr_expect_eq(cached_table(e)->ncols, 3);
    cr_expect_str_eq(cached_table(e)->name, "ns.t");
    uint64_t v1 = cached_table(e)->version;
    table_cache_release(c, e);
    CachedTable *h = table_cache_get(c, "k1", 1499);
    cr_expect(h != NULL, "live before its time to live ends");
    cr_expect_eq(cached_table(h)->version, v1, "the same copy, the same version");
    table_cache_release(c, h);
    cr_expect_null(table_cache_get(c, "k1", 1500), "gone when it ends");
    CachedTable *again = table_cache_put(c, "k1", "pg", &t, 1500, 500);
    cr_expect_neq(cached_table(again)->version, v1, "a reloaded copy has a new version");
    table_cache_release(c, again);
    cr_expect_null(table_cache_get(c, "k2", 1000));
    table_cache_free(c);
}

Test(table_cache, entries_bound_drops_least_recently_used) {
    TableCache *c = table_cache_new(2, 1 << 20);
    CzExternalColumn cols[1];
    CzExternalTable t = table_of(1, cols, "t");
    table_cache_release(c, table_cache_put(c, "a", "pg", &t, 0, 10000));
    table_cache_release(c, table_cache_put(c, "b", "pg", &t, 0, 10000));
    table_cache_release(c, table_cache_get(c, "a", 1)); /* a is now the most recent */
    table_cache_release(c, table_cache_put(c, "c", "pg", &t, 0, 10000));
    CachedTable *a = table_cache_get(c, "a", 2), *b = table_cache_get(c, "b", 2);
    cr_expect(a != NULL);
    cr_expect_null(b, "b was the least recently used");
    table_cache_release(c, a);
    TableCacheStats s;
    table_cache_stats(c, &s);
    cr_expect_eq(s.entries, 2);
    cr_expect_eq(s.evictions, 1);
    table_cache_free(c);
}

Test(table_cache, entry_outlives_eviction_while_referenced) {
    TableCache *c = table_cache_new(1, 1 << 20);
    CzExternalColumn cols[2];
    CzExternalTable t = table_of(2, cols, "t");
    CachedTable *held = table_cache_put(c, "a", "pg", &t, 0, 10000);
    table_cache_release(c, table_cache_put(c, "b", "pg", &t, 0, 10000)); /* evicts a */
    cr_expect_str_eq(cached_table(held)->cols[1].type, "decimal(7,2)", "still readable (ASan checks)");
    table_cache_release(c, held);
    table_cache_free(c);
}

Test(table_cache, invalidation_by_group_and_suffix) {
    TableCache *c = table_cache_new(10, 1 << 20);
    CzExternalColumn cols[1];
    CzExternalTable t = table_of(1, cols, "t");
    table_cache_release(c, table_cache_put(c, "pg\x1furl\x1f\x1f\x1ftpcds\x1e\x1fstore", "pg", &t, 0, 10000));
    table_cache_release(c, table_cache_put(c, "pg\x1furl\x1f\x1f\x1ftpcds\x1e\x1fitem", "pg", &t, 0, 10000));
    table_cache_release(c, table_cache_put(c, "pg2\x1furl\x1f\x1f\x1ftpcds\x1e\x1fstore", "pg2", &t, 0, 10000));
    cr_expect_eq(table_cache_invalidate(c, "pg", "\x1ftpcds\x1e\x1fstore"), 1);
    cr_expect_eq(table_cache_invalidate(c, "pg", NULL), 1);
    cr_expect_eq(table_cache_invalidate(c, NULL, NULL), 1);
    table_cache_free(c);
}

Test(table_cache, bytes_bound_holds_under_100000_tables) {
    size_t bound = 4u << 20;
    TableCache *c = table_cache_new(1000000, bound);
    CzExternalColumn cols[20];
    CzExternalTable t = table_of(20, cols, "tpcds.some_table");
    char key[64];
    size_t peak = 0;
    for (int i = 0; i < 100000; i++) {
        snprintf(key, sizeof key, "pg\x1f\x1f\x1f\x1fns\x1e\x1ft%d", i);
        table_cache_release(c, table_cache_put(c, key, "pg", &t, 0, 100000));
        TableCacheStats s;
        table_cache_stats(c, &s);
        if (s.bytes > peak) peak = s.bytes;
    }
    TableCacheStats s;
    table_cache_stats(c, &s);
    cr_expect_leq(peak, bound, "peak %zu bytes over the %zu bound", peak, bound);
    cr_expect_gt(s.evictions, 0);
    cr_expect_gt(s.entries, 1000, "the bound is used, not wasted (%zu entries)", s.entries);
    snprintf(key, sizeof key, "pg\x1f\x1f\x1f\x1fns\x1e\x1ft%d", 99999);
    CachedTable *last = table_cache_get(c, key, 1);
    cr_expect(last != NULL, "the newest entry is kept");
    table_cache_release(c, last);
    table_cache_free(c);
}

Test(table_cache, expired_entry_kept_for_revalidation_and_renewed) {
    TableCache *c = table_cache_new(10, 1 << 20);
    CzExternalColumn cols[2];
    CzExternalTable t = table_of(2, cols, "ns.t");
    CachedTable *e = table_cache_put_loaded(c, "k", "rc", &t, "v7", table_cache_generation(c), 1000, 500);
    uint64_t copy = cached_table(e)->version;
    table_cache_release(c, e);
    bool fresh = true;
    CachedTable *old = table_cache_lookup(c, "k", 1600, &fresh);
    cr_assert(old != NULL, "past its time to live it stays, to be revalidated");
    cr_expect(!fresh);
    cr_expect_str_eq(cached_table_source_version(old), "v7");
    table_cache_renew(c, old, 1600, 500);
    table_cache_release(c, old);
    CachedTable *renewed = table_cache_lookup(c, "k", 2000, &fresh);
    cr_expect(fresh, "renewed: live again");
    cr_expect_eq(cached_table(renewed)->version, copy, "the same copy: sessions keep their converted tables");
    table_cache_release(c, renewed);
    cr_expect_null(table_cache_get(c, "k", 2100), "table_cache_get drops an expired entry");
    table_cache_free(c);
}

Test(table_cache, a_load_that_raced_an_invalidation_is_not_kept) {
    TableCache *c = table_cache_new(10, 1 << 20);
    CzExternalColumn cols[1];
    CzExternalTable t = table_of(1, cols, "t");
    uint64_t before = table_cache_generation(c);
    cr_expect_eq(table_cache_invalidate(c, "rc", NULL), 0);
    CachedTable *e = table_cache_put_loaded(c, "k", "rc", &t, "v1", before, 0, 10000);
    cr_assert(e != NULL, "the caller still gets the table it loaded");
    table_cache_release(c, e);
    cr_expect_null(table_cache_get(c, "k", 1), "but it may be the old table: not cached");
    e = table_cache_put_loaded(c, "k", "rc", &t, "v1", table_cache_generation(c), 0, 10000);
    table_cache_release(c, e);
    CachedTable *h = table_cache_get(c, "k", 1);
    cr_expect(h != NULL, "a load after the invalidation is kept");
    table_cache_release(c, h);
    table_cache_free(c);
}
