/* The CLI's input: FILE, `-` or `-e SQL` (see source.h). */
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *inline_sql;
static char *stdin_text; /* standard input, once read */
static size_t stdin_len;

void source_set_inline(const char *sql) { inline_sql = sql; }

static char *read_stream(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) return NULL;
    for (;;) {
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (n < cap) break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            return NULL;
        }
        buf = nb;
        cap *= 2;
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

static char *dup_bytes(const char *s, size_t n, size_t *len) {
    char *c = malloc(n + 1);
    if (!c) return NULL;
    memcpy(c, s, n);
    c[n] = 0;
    *len = n;
    return c;
}

char *source_slurp(const char *path, size_t *len) {
    if (!strcmp(path, SOURCE_INLINE) && inline_sql) return dup_bytes(inline_sql, strlen(inline_sql), len);
    if (!strcmp(path, SOURCE_STDIN)) {
        if (!stdin_text && !(stdin_text = read_stream(stdin, &stdin_len))) return NULL;
        return dup_bytes(stdin_text, stdin_len, len);
    }
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = read_stream(f, len);
    fclose(f);
    return text;
}

bool source_is_jsonl(const char *path) {
    size_t n = strlen(path);
    return n >= 6 && !strcmp(path + n - 6, ".jsonl");
}
