/* Bump allocator over a chain of blocks that double in size, so the number of
 * system allocations per request is logarithmic in its size. */
#include "arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Block {
    struct Block *next;
    size_t size;
    size_t used;
    _Alignas(16) unsigned char data[];
} Block;

struct Arena {
    Block *head;      /* current block */
    Block *first;     /* kept by arena_reset */
    size_t used;      /* bytes handed out */
    size_t reserved;  /* bytes in blocks */
    size_t limit;
    ArenaOverflowFn overflow;
    void *overflow_ctx;
};

#define ARENA_DEFAULT_BLOCK (16 * 1024)

static Block *block_new(size_t size) {
    Block *b = malloc(sizeof(Block) + size);
    if (!b) {
        fputs("catalyzer: out of memory\n", stderr);
        abort();
    }
    b->next = NULL;
    b->size = size;
    b->used = 0;
    return b;
}

Arena *arena_new(size_t first_block) {
    Arena *a = calloc(1, sizeof(Arena));
    if (!a) abort();
    if (first_block == 0) first_block = ARENA_DEFAULT_BLOCK;
    a->first = a->head = block_new(first_block);
    a->reserved = first_block;
    return a;
}

void arena_free(Arena *a) {
    if (!a) return;
    Block *b = a->head;
    while (b) {
        Block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

void arena_reset(Arena *a) {
    Block *b = a->head;
    while (b && b != a->first) {
        Block *n = b->next;
        free(b);
        b = n;
    }
    a->head = a->first;
    a->first->used = 0;
    a->first->next = NULL;
    a->used = 0;
    a->reserved = a->first->size;
}

void arena_set_limit(Arena *a, size_t limit, ArenaOverflowFn fn, void *ctx) {
    a->limit = limit;
    a->overflow = fn;
    a->overflow_ctx = ctx;
}

/* A new head block for an allocation of n bytes. Out of line, so the common
 * path of arena_alloc saves and restores no registers. */
static __attribute__((noinline)) Block *arena_grow(Arena *a, size_t n) {
    Block *b = a->head;
    size_t size = b->size * 2;
    while (size < n) size *= 2;
    if (a->limit && a->reserved + size > a->limit) {
        if (a->overflow) a->overflow(a->overflow_ctx);
        fputs("catalyzer: arena budget exhausted\n", stderr);
        abort();
    }
    Block *nb = block_new(size);
    nb->next = b;
    a->head = nb;
    a->reserved += size;
    return nb;
}

void *arena_alloc(Arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    Block *b = a->head;
    if (__builtin_expect(b->used + n > b->size, 0)) b = arena_grow(a, n);
    void *p = b->data + b->used;
    b->used += n;
    a->used += n;
    return p;
}

void *arena_zalloc(Arena *a, size_t n) {
    void *p = arena_alloc(a, n);
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *p = arena_alloc(a, n + 1);
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return arena_strdup(a, "");
    if ((size_t)n < sizeof small) return arena_strndup(a, small, (size_t)n);
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

size_t arena_used(const Arena *a) { return a->used; }
size_t arena_reserved(const Arena *a) { return a->reserved; }
