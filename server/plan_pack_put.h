/* The back-to-front writer's primitives (see plan_pack.h), shared by the
 * struct packer (plan_pack.c) and the IR encoder (plan_wire.c): tags,
 * varints, strings, copies of bytes written before. */
#ifndef CZ_PLAN_PACK_PUT_H
#define CZ_PLAN_PACK_PUT_H

#include <string.h>

#include "plan_pack.h"

/* Room for n more bytes before pos: a bigger buffer takes the data at its end. */
bool pb_rev_writer_grow(PbRevWriter *w, size_t n);

enum { WT_VARINT = 0, WT_LEN = 2 };

static inline bool reserve(PbRevWriter *w, size_t n) { return w->pos >= n || pb_rev_writer_grow(w, n); }

/* Distance from the end: stable while the buffer grows. */
static inline size_t written(const PbRevWriter *w) { return w->cap - w->pos; }

static inline size_t varint_len(uint64_t v) {
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

static inline void put_varint(PbRevWriter *w, uint64_t v) {
    if (!reserve(w, 10)) return;
    uint8_t *end = w->buf + w->pos;
    if (v < 0x80) { /* lengths, flags, small ids: one byte */
        end[-1] = (uint8_t)v;
        w->pos -= 1;
        return;
    }
    if (v < 0x4000) { /* source offsets, most expression ids */
        end[-2] = (uint8_t)(v | 0x80);
        end[-1] = (uint8_t)(v >> 7);
        w->pos -= 2;
        return;
    }
    size_t n = varint_len(v);
    uint8_t *p = end - n;
    w->pos -= n;
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p = (uint8_t)v;
}

/* Field numbers here are below 16: a tag is one byte. */
static inline void put_tag(PbRevWriter *w, unsigned id, unsigned wire_type) {
    if (!reserve(w, 1)) return;
    w->buf[--w->pos] = (uint8_t)(id << 3 | wire_type);
}

static inline void put_len(PbRevWriter *w, size_t n) {
    if (n < 0x80 && reserve(w, 1)) w->buf[--w->pos] = (uint8_t)n;
    else put_varint(w, n);
}

/* A length-delimited field whose payload is the last `since`..now bytes. */
static inline void close_len_field(PbRevWriter *w, unsigned id, size_t since) {
    put_len(w, written(w) - since);
    put_tag(w, id, WT_LEN);
}

/* A length-delimited field of n bytes. */
static inline void put_bytes(PbRevWriter *w, unsigned id, const char *s, size_t n) {
    if (n < 0x80 && id < 16) { /* the common case: one reserve, one-byte length and tag */
        if (!reserve(w, n + 2)) return;
        w->pos -= n;
        memcpy(w->buf + w->pos, s, n);
        w->buf[--w->pos] = (uint8_t)n;
        w->buf[--w->pos] = (uint8_t)(id << 3 | WT_LEN);
        return;
    }
    if (!reserve(w, n)) return;
    w->pos -= n;
    memcpy(w->buf + w->pos, s, n);
    put_varint(w, n);
    put_tag(w, id, WT_LEN);
}

static inline void put_string_always(PbRevWriter *w, unsigned id, const char *s) {
    put_bytes(w, id, s ? s : "", s ? strlen(s) : 0);
}

/* proto3: an empty string is not written */
static inline void put_string(PbRevWriter *w, unsigned id, const char *s) {
    if (s && *s) put_string_always(w, id, s);
}

static inline void put_repeated_strings(PbRevWriter *w, unsigned id, char *const *v, size_t n) {
    for (size_t i = n; i-- > 0;) put_string_always(w, id, v[i]);
}

/* int32 and enums go as their 64-bit sign extension (ten bytes when negative) */
static inline void put_int32(PbRevWriter *w, unsigned id, int32_t v) {
    if (!v) return;
    put_varint(w, (uint64_t)(int64_t)v);
    put_tag(w, id, WT_VARINT);
}

static inline void put_int64(PbRevWriter *w, unsigned id, int64_t v) {
    if (!v) return;
    put_varint(w, (uint64_t)v);
    put_tag(w, id, WT_VARINT);
}

static inline void put_bool(PbRevWriter *w, unsigned id, protobuf_c_boolean v) {
    if (!v) return;
    put_varint(w, 1);
    put_tag(w, id, WT_VARINT);
}

/* Bytes written earlier, [end - len, end) counted from the end, again. */
static inline void put_copy(PbRevWriter *w, size_t end, size_t len) {
    if (!reserve(w, len)) return; /* may move the buffer: offsets from the end hold */
    const uint8_t *src = w->buf + w->cap - end;
    w->pos -= len;
    memcpy(w->buf + w->pos, src, len);
}


#endif
