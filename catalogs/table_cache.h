/* A bounded cache of loaded tables: entries and bytes capped (least recently
 * used first out), each entry with a time to live. Entries are shared with
 * the analyses that use them (a reference each) and freed when the last one
 * lets go. Thread-safe (one mutex). */
#ifndef CZ_TABLE_CACHE_H
#define CZ_TABLE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalyzer.h"

typedef struct TableCache TableCache;
typedef struct CachedTable CachedTable;

TableCache *table_cache_new(size_t max_entries, size_t max_bytes);
void table_cache_free(TableCache *c);

/* The live entry for key (a reference taken), or NULL. now_ms: CLOCK_MONOTONIC.
 * An expired entry is dropped. */
CachedTable *table_cache_get(TableCache *c, const char *key, uint64_t now_ms);
/* The entry for key, live (*fresh) or past its time to live (kept so that
 * its source can be asked whether it is still current), with a reference
 * taken; NULL: none. */
CachedTable *table_cache_lookup(TableCache *c, const char *key, uint64_t now_ms, bool *fresh);
/* The source says e is still current: it lives until now_ms + ttl_ms. */
void table_cache_renew(TableCache *c, CachedTable *e, uint64_t now_ms, uint32_t ttl_ms);
/* Copies t into a new entry for key (replacing one there), living until
 * now_ms + ttl_ms; returns it with a reference taken. group: what
 * invalidation by catalog matches ("pg"). */
CachedTable *table_cache_put(TableCache *c, const char *key, const char *group, const CzExternalTable *t,
                             uint64_t now_ms, uint32_t ttl_ms);
/* The same for a table loaded while table_cache_generation was
 * `generation`, with its source's version (NULL: none): if an invalidation
 * happened during the load, the entry goes to the caller only (not kept). */
CachedTable *table_cache_put_loaded(TableCache *c, const char *key, const char *group, const CzExternalTable *t,
                                    const char *source_version, uint64_t generation, uint64_t now_ms,
                                    uint32_t ttl_ms);
/* Changes with every invalidation. */
uint64_t table_cache_generation(TableCache *c);
void table_cache_release(TableCache *c, CachedTable *e);
/* The entry's table (valid while a reference is held). */
const CzExternalTable *cached_table(const CachedTable *e);
/* The version its source gave it ("" if none). */
const char *cached_table_source_version(const CachedTable *e);

/* Drops the entries of group (NULL: every group) whose key ends with suffix
 * (NULL: any); returns how many. */
size_t table_cache_invalidate(TableCache *c, const char *group, const char *suffix);

typedef struct TableCacheStats {
    size_t entries, bytes;
    uint64_t evictions;
} TableCacheStats;
void table_cache_stats(TableCache *c, TableCacheStats *out);

#endif
