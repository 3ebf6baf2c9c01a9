/* A bounded cache of loaded tables: entries and bytes capped (least recently
 * used first out), each entry with a time to live. Entries are shared with
 * the analyses that use them (a reference each) and freed when the last one
 * lets go. Thread-safe (one mutex). */
#ifndef CZ_TABLE_CACHE_H
#define CZ_TABLE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "catalyzer.h"

typedef struct TableCache TableCache;
typedef struct CachedTable CachedTable;

TableCache *table_cache_new(size_t max_entries, size_t max_bytes);
void table_cache_free(TableCache *c);

/* The live entry for key (a reference taken), or NULL. now_ms: CLOCK_MONOTONIC. */
CachedTable *table_cache_get(TableCache *c, const char *key, uint64_t now_ms);
/* Copies t into a new entry for key (replacing one there), living until
 * now_ms + ttl_ms; returns it with a reference taken. group: what
 * invalidation by catalog matches ("pg"). */
CachedTable *table_cache_put(TableCache *c, const char *key, const char *group, const CzExternalTable *t,
                             uint64_t now_ms, uint32_t ttl_ms);
void table_cache_release(TableCache *c, CachedTable *e);
/* The entry's table (valid while a reference is held). */
const CzExternalTable *cached_table(const CachedTable *e);

/* Drops the entries of group (NULL: every group) whose key ends with suffix
 * (NULL: any); returns how many. */
size_t table_cache_invalidate(TableCache *c, const char *group, const char *suffix);

typedef struct TableCacheStats {
    size_t entries, bytes;
    uint64_t evictions;
} TableCacheStats;
void table_cache_stats(TableCache *c, TableCacheStats *out);

#endif
