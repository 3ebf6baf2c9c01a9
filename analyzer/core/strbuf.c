#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sb_init(StrBuf *sb, Arena *a, size_t cap) {
    if (cap < 16) cap = 16;
    sb->arena = a;
    sb->data = arena_alloc(a, cap);
    sb->data[0] = 0;
    sb->len = 0;
    sb->cap = cap;
}

static void sb_reserve(StrBuf *sb, size_t extra) {
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t cap = sb->cap * 2;
    while (cap < sb->len + extra + 1) cap *= 2;
    char *d = arena_alloc(sb->arena, cap);
    memcpy(d, sb->data, sb->len + 1);
    sb->data = d;
    sb->cap = cap;
}

void sb_putn(StrBuf *sb, const char *s, size_t n) {
    sb_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void sb_puts(StrBuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

void sb_putc(StrBuf *sb, char c) {
    sb_reserve(sb, 1);
    sb->data[sb->len++] = c;
    sb->data[sb->len] = 0;
}

void sb_printf(StrBuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char small[128];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        sb_putn(sb, small, (size_t)n);
        return;
    }
    sb_reserve(sb, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void sb_put_quoted_ident(StrBuf *sb, const char *s) {
    sb_putc(sb, '`');
    for (; *s; s++) {
        if (*s == '`') sb_putc(sb, '`');
        sb_putc(sb, *s);
    }
    sb_putc(sb, '`');
}

void sb_put_json_string(StrBuf *sb, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    sb_putc(sb, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': sb_putn(sb, "\\\"", 2); break;
        case '\\': sb_putn(sb, "\\\\", 2); break;
        case '\n': sb_putn(sb, "\\n", 2); break;
        case '\r': sb_putn(sb, "\\r", 2); break;
        case '\t': sb_putn(sb, "\\t", 2); break;
        case '\b': sb_putn(sb, "\\b", 2); break;
        case '\f': sb_putn(sb, "\\f", 2); break;
        default:
            if (c < 0x20) {
                char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                sb_putn(sb, u, 6);
            } else {
                sb_putc(sb, (char)c);
            }
        }
    }
    sb_putc(sb, '"');
}

void sb_truncate(StrBuf *sb, size_t len) {
    if (len < sb->len) {
        sb->len = len;
        sb->data[len] = 0;
    }
}
