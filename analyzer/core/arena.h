/* Request arena: every node, string and temporary of one analysis comes from
 * here and is released at once by arena_free. Nothing allocated from an arena
 * is ever freed on its own.
 *
 * Memory budget: an arena may be given a byte limit. When an allocation would
 * exceed it, the arena calls its overflow handler (set by the analyzer entry
 * point, which longjmps back to itself inside the same worker thread) — so
 * callers never check for NULL. Without a handler, exhaustion aborts. */
#ifndef CZ_ARENA_H
#define CZ_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct Arena Arena;
typedef void (*ArenaOverflowFn)(void *ctx);

/* Creates an arena whose first block holds first_block bytes (0: default).
 * Owned by the caller; release with arena_free. */
Arena *arena_new(size_t first_block);
void arena_free(Arena *a);

/* Drops everything allocated, keeps the first block for reuse. */
void arena_reset(Arena *a);

/* 0 means unlimited. The handler must not return (it longjmps). */
void arena_set_limit(Arena *a, size_t limit, ArenaOverflowFn fn, void *ctx);

/* 16-byte aligned, uninitialised / zeroed memory. Never returns NULL. */
void *arena_alloc(Arena *a, size_t n);
void *arena_zalloc(Arena *a, size_t n);

/* Copies of strings, NUL-terminated, in the arena. */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
/* printf into the arena. */
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Bytes handed out so far (the "arena bytes" figure of `catalyzer bench`). */
size_t arena_used(const Arena *a);
/* Bytes reserved from the system (blocks). */
size_t arena_reserved(const Arena *a);

/* memcpy that accepts an empty copy from a NULL array (memcpy itself may not
 * be given NULL even for zero bytes: undefined behaviour UBSan reports). */
static inline void mem_copy(void *dst, const void *src, size_t n) {
    if (n) __builtin_memcpy(dst, src, n);
}

#define ARENA_NEW(a, T) ((T *)arena_zalloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_zalloc((a), sizeof(T) * (size_t)(n)))

#endif
