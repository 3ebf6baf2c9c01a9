/* Growable string in an arena: doubling growth, so building a string of n
 * bytes costs O(n) whatever the number of appends. */
#ifndef CZ_STRBUF_H
#define CZ_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

typedef struct StrBuf {
    Arena *arena;
    char *data; /* always NUL-terminated */
    size_t len;
    size_t cap;
} StrBuf;

void sb_init(StrBuf *sb, Arena *a, size_t cap);
void sb_putn(StrBuf *sb, const char *s, size_t n);
void sb_puts(StrBuf *sb, const char *s);
void sb_putc(StrBuf *sb, char c);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s with ` doubled, between backquotes (Spark's quoteIdentifier). */
void sb_put_quoted_ident(StrBuf *sb, const char *s);
/* Appends s as a JSON string literal with quotes. */
void sb_put_json_string(StrBuf *sb, const char *s, size_t n);
void sb_truncate(StrBuf *sb, size_t len);
/* Case-insensitive equality of identifiers: ASCII letters fold, other bytes
 * compare exactly (no locale lookups on the hot path). */
static inline bool ident_equal_ci(const char *a, const char *b) {
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x == y) {
            if (!x) return true;
            continue;
        }
        if ((x | 32) != (y | 32) || (unsigned char)((x | 32) - 'a') > 25) return false;
    }
}

/* The built string; lives in the arena. */
static inline const char *sb_str(const StrBuf *sb) { return sb->data; }

#endif
