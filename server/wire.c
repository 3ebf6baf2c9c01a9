/* Byte buffers and frame helpers (see wire.h). */
#include "wire.h"

#include <stdlib.h>
#include <string.h>

void buf_reserve(Buf *b, size_t more) {
    if (b->failed || b->len + more <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more) cap *= 2;
    uint8_t *d = realloc(b->data, cap);
    if (!d) {
        b->failed = true;
        return;
    }
    b->data = d;
    b->cap = cap;
}

void buf_put(Buf *b, const void *p, size_t n) {
    if (!n) return;
    buf_reserve(b, n);
    if (b->failed) return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void buf_u8(Buf *b, uint8_t v) { buf_put(b, &v, 1); }
void buf_u32(Buf *b, uint32_t v) { buf_put(b, &v, 4); }
void buf_u64(Buf *b, uint64_t v) { buf_put(b, &v, 8); }

void buf_bytes(Buf *b, const void *p, size_t n) {
    buf_u32(b, (uint32_t)n);
    buf_put(b, p, n);
}

void buf_str(Buf *b, const char *s) { buf_bytes(b, s ? s : "", s ? strlen(s) : 0); }

void buf_free(Buf *b) {
    free(b->data);
    *b = (Buf){0};
}

static const uint8_t *take(Rd *r, size_t n) {
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += n;
    return p;
}

uint8_t rd_u8(Rd *r) {
    const uint8_t *p = take(r, 1);
    return p ? *p : 0;
}

uint32_t rd_u32(Rd *r) {
    uint32_t v = 0;
    const uint8_t *p = take(r, 4);
    if (p) memcpy(&v, p, 4);
    return v;
}

uint64_t rd_u64(Rd *r) {
    uint64_t v = 0;
    const uint8_t *p = take(r, 8);
    if (p) memcpy(&v, p, 8);
    return v;
}

const uint8_t *rd_bytes(Rd *r, size_t *n) {
    *n = rd_u32(r);
    const uint8_t *p = take(r, *n);
    if (!p) *n = 0;
    return p;
}

void rd_str(Rd *r, char *out, size_t cap) {
    size_t n;
    const uint8_t *p = rd_bytes(r, &n);
    if (n >= cap) n = cap - 1;
    if (n) memcpy(out, p, n);
    out[n] = '\0';
}

size_t wire_begin(Buf *b, uint8_t t) {
    size_t at = b->len;
    buf_u32(b, 0);
    buf_u8(b, t);
    return at;
}

void wire_end(Buf *b, size_t at) {
    if (b->failed) return;
    uint32_t n = (uint32_t)(b->len - at - 5);
    memcpy(b->data + at, &n, 4);
}
