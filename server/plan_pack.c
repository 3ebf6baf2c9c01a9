/* Back-to-front protobuf packer for the plan messages (see plan_pack.h).
 * Every message is written last field first, repeated fields last element
 * first, so the result reads in field-number order as protobuf-c writes it. */
#include "plan_pack.h"

#include <stdlib.h>
#include <string.h>

enum { WT_VARINT = 0, WT_LEN = 2 };

void pb_rev_writer_init(PbRevWriter *w) { memset(w, 0, sizeof *w); }

void pb_rev_writer_reset(PbRevWriter *w) {
    w->pos = w->cap;
    w->failed = false;
    memset(w->type_cache, 0, sizeof w->type_cache);
    memset(w->qualifier_cache, 0, sizeof w->qualifier_cache);
}

void pb_rev_writer_free(PbRevWriter *w) {
    free(w->buf);
    pb_rev_writer_init(w);
}

/* Room for n more bytes before pos: a bigger buffer takes the data at its end. */
static bool grow(PbRevWriter *w, size_t n) {
    if (w->failed) return false;
    size_t len = w->cap - w->pos;
    size_t cap = w->cap ? w->cap * 2 : 4096;
    while (cap - len < n) cap *= 2;
    uint8_t *b = malloc(cap);
    if (!b) {
        w->failed = true;
        return false;
    }
    if (len) memcpy(b + cap - len, w->buf + w->pos, len);
    free(w->buf);
    w->buf = b;
    w->pos = cap - len;
    w->cap = cap;
    return true;
}

static inline bool reserve(PbRevWriter *w, size_t n) { return w->pos >= n || grow(w, n); }

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

static void put_string_always(PbRevWriter *w, unsigned id, const char *s) {
    size_t n = s ? strlen(s) : 0;
    if (n < 0x80) { /* the common case: one reserve, one-byte length */
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

/* proto3: an empty string is not written */
static inline void put_string(PbRevWriter *w, unsigned id, const char *s) {
    if (s && *s) put_string_always(w, id, s);
}

static void put_repeated_strings(PbRevWriter *w, unsigned id, char *const *v, size_t n) {
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
static void put_copy(PbRevWriter *w, size_t end, size_t len) {
    if (!reserve(w, len)) return; /* may move the buffer: offsets from the end hold */
    const uint8_t *src = w->buf + w->cap - end;
    w->pos -= len;
    memcpy(w->buf + w->pos, src, len);
}

/* An expression's qualifier (field 6), its packed bytes reused. */
static void put_expression_qualifier(PbRevWriter *w, char *const *v, size_t n) {
    if (!n) return;
    size_t slot = ((uintptr_t)v >> 3) & (PB_TYPE_CACHE_SLOTS - 1);
    if (w->qualifier_cache[slot].key == v && w->qualifier_cache[slot].n == n) {
        put_copy(w, w->qualifier_cache[slot].end, w->qualifier_cache[slot].len);
        return;
    }
    size_t since = written(w);
    put_repeated_strings(w, 6, v, n);
    w->qualifier_cache[slot].key = v;
    w->qualifier_cache[slot].n = n;
    w->qualifier_cache[slot].end = written(w);
    w->qualifier_cache[slot].len = written(w) - since;
}

static void put_origin(PbRevWriter *w, unsigned id, const Catalyzer__V1__Origin *o) {
    if (!o) return;
    size_t since = written(w);
    put_int32(w, 2, o->stop);
    put_int32(w, 1, o->start);
    /* a payload below 128 bytes (two varints): a one-byte length */
    if (!reserve(w, 2)) return;
    w->buf[--w->pos] = (uint8_t)(written(w) - since);
    w->buf[--w->pos] = (uint8_t)(id << 3 | WT_LEN);
}

static void put_data_type(PbRevWriter *w, unsigned id, const Catalyzer__V1__DataType *t) {
    if (!t) return;
    size_t slot = ((uintptr_t)t >> 4) & (PB_TYPE_CACHE_SLOTS - 1);
    size_t since = written(w);
    if (w->type_cache[slot].key == t) {
        put_copy(w, w->type_cache[slot].end, w->type_cache[slot].len);
    } else {
        pb_prepend_data_type(w, t);
        w->type_cache[slot].key = t;
        w->type_cache[slot].end = written(w);
        w->type_cache[slot].len = written(w) - since;
    }
    close_len_field(w, id, since);
}

void pb_prepend_data_type(PbRevWriter *w, const Catalyzer__V1__DataType *t) {
    put_string(w, 11, t->catalog_string);
    for (size_t i = t->n_fields; i-- > 0;) {
        const Catalyzer__V1__DataType__StructField *f = t->fields[i];
        size_t since = written(w);
        put_bool(w, 3, f->nullable);
        put_data_type(w, 2, f->type);
        put_string(w, 1, f->name);
        close_len_field(w, 10, since);
    }
    put_bool(w, 9, t->contains_null);
    put_data_type(w, 8, t->value_type);
    put_data_type(w, 7, t->element_type);
    put_int32(w, 6, t->end_field);
    put_int32(w, 5, t->start_field);
    put_int32(w, 4, t->length);
    put_int32(w, 3, t->scale);
    put_int32(w, 2, t->precision);
    put_int32(w, 1, (int32_t)t->kind);
}

void pb_prepend_attribute(PbRevWriter *w, const Catalyzer__V1__Attribute *at) {
    put_repeated_strings(w, 5, at->qualifier, at->n_qualifier);
    put_bool(w, 4, at->nullable);
    put_data_type(w, 3, at->type);
    put_int64(w, 2, at->expr_id);
    put_string(w, 1, at->name);
}

static void put_plan(PbRevWriter *w, unsigned id, const Catalyzer__V1__ResolvedPlan *p) {
    if (!p) return;
    size_t since = written(w);
    pb_prepend_resolved_plan(w, p);
    close_len_field(w, id, since);
}

void pb_prepend_resolved_expression(PbRevWriter *w, const Catalyzer__V1__ResolvedExpression *e) {
    put_origin(w, 10, e->origin);
    put_plan(w, 9, e->subquery);
    put_string(w, 8, e->value);
    for (size_t i = e->n_children; i-- > 0;) {
        size_t since = written(w);
        pb_prepend_resolved_expression(w, e->children[i]);
        close_len_field(w, 7, since);
    }
    put_expression_qualifier(w, e->qualifier, e->n_qualifier);
    put_bool(w, 5, e->nullable);
    put_data_type(w, 4, e->type);
    put_int64(w, 3, e->expr_id);
    put_string(w, 2, e->name);
    put_string(w, 1, e->kind);
}

void pb_prepend_resolved_plan(PbRevWriter *w, const Catalyzer__V1__ResolvedPlan *p) {
    put_string(w, 8, p->description);
    for (size_t i = p->n_output; i-- > 0;) {
        size_t since = written(w);
        pb_prepend_attribute(w, p->output[i]);
        close_len_field(w, 7, since);
    }
    put_origin(w, 6, p->origin);
    /* a oneof member is written when selected, zero or not */
    if (p->plan_id_present_case == CATALYZER__V1__RESOLVED_PLAN__PLAN_ID_PRESENT_PLAN_ID) {
        put_varint(w, (uint64_t)p->plan_id);
        put_tag(w, 5, WT_VARINT);
    }
    put_repeated_strings(w, 4, p->name, p->n_name);
    for (size_t i = p->n_expressions; i-- > 0;) {
        size_t since = written(w);
        pb_prepend_resolved_expression(w, p->expressions[i]);
        close_len_field(w, 3, since);
    }
    for (size_t i = p->n_children; i-- > 0;) put_plan(w, 2, p->children[i]);
    put_string(w, 1, p->kind);
}

/* ---------------------------------------------------------- prepacked */

static bool read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
    uint64_t x = 0;
    for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

Catalyzer__V1__ResolvedPlan *plan_prepacked(Arena *a, const Catalyzer__V1__ResolvedPlan *p) {
    if (!p) return NULL;
    PbRevWriter w;
    pb_rev_writer_init(&w);
    pb_prepend_resolved_plan(&w, p);
    if (w.failed) {
        pb_rev_writer_free(&w);
        return NULL;
    }
    size_t len = pb_rev_writer_len(&w);
    uint8_t *bytes = arena_alloc(a, len ? len : 1);
    if (len) memcpy(bytes, pb_rev_writer_data(&w), len);
    pb_rev_writer_free(&w);
    /* The top-level fields: kind, each child, each expression, ... An
     * unknown field's data is what follows its tag, a length prefix included. */
    size_t nfields = 0;
    for (const uint8_t *q = bytes, *end = bytes + len; q < end; nfields++) {
        uint64_t tag, n;
        if (!read_varint(&q, end, &tag) || !read_varint(&q, end, &n)) return NULL;
        if ((tag & 7) == WT_LEN) {
            if (n > (uint64_t)(end - q)) return NULL;
            q += n;
        }
    }
    Catalyzer__V1__ResolvedPlan *o = arena_alloc(a, sizeof *o);
    *o = (Catalyzer__V1__ResolvedPlan)CATALYZER__V1__RESOLVED_PLAN__INIT;
    ProtobufCMessageUnknownField *uf = ARENA_ARRAY(a, ProtobufCMessageUnknownField, nfields ? nfields : 1);
    size_t k = 0;
    for (const uint8_t *q = bytes, *end = bytes + len; q < end; k++) {
        uint64_t tag = 0, n = 0; /* read once above already */
        read_varint(&q, end, &tag);
        const uint8_t *data = q;
        read_varint(&q, end, &n); /* a varint's value, or a length */
        if ((tag & 7) == WT_LEN) q += n;
        uf[k].tag = (uint32_t)(tag >> 3);
        uf[k].wire_type = (ProtobufCWireType)(tag & 7);
        uf[k].len = (size_t)(q - data);
        uf[k].data = (uint8_t *)data;
    }
    o->base.n_unknown_fields = (unsigned)nfields;
    o->base.unknown_fields = uf;
    return o;
}
