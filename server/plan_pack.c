/* Back-to-front protobuf packer for the plan messages (see plan_pack.h).
 * Every message is written last field first, repeated fields last element
 * first, so the result reads in field-number order as protobuf-c writes it. */
#include "plan_pack.h"
#include "plan_pack_put.h"

#include <stdlib.h>
#include <string.h>

void pb_rev_writer_init(PbRevWriter *w) {
    memset(w, 0, sizeof *w);
    w->gen = 1;
}

void pb_rev_writer_reset(PbRevWriter *w) {
    w->pos = w->cap;
    w->failed = false;
    if (++w->gen == 0) { /* wrapped: entries of gen 0 would hold again */
        memset(w->type_cache, 0, sizeof w->type_cache);
        memset(w->qualifier_cache, 0, sizeof w->qualifier_cache);
        memset(w->ir_type_cache, 0, sizeof w->ir_type_cache);
        memset(w->ir_scalar_cache, 0, sizeof w->ir_scalar_cache);
        w->gen = 1;
    }
}

/* The buffer freed; the writer as after pb_rev_writer_init again (its
 * caches invalid: a new gen). */
void pb_rev_writer_free(PbRevWriter *w) {
    free(w->buf);
    w->buf = NULL;
    w->cap = w->pos = 0;
    pb_rev_writer_reset(w);
}

bool pb_rev_writer_grow(PbRevWriter *w, size_t n) {
    if (w->failed) return false;
    size_t len = w->cap - w->pos;
    size_t cap = w->cap ? w->cap * 2 : 32768; /* a TPC-DS plan packs to ~23 KB */
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

/* An expression's qualifier (field 6), its packed bytes reused. */
static void put_expression_qualifier(PbRevWriter *w, char *const *v, size_t n) {
    if (!n) return;
    size_t slot = ((uintptr_t)v >> 3) & (PB_TYPE_CACHE_SLOTS - 1);
    if (w->qualifier_cache[slot].key == v && w->qualifier_cache[slot].n == n && w->qualifier_cache[slot].gen == w->gen) {
        put_copy(w, w->qualifier_cache[slot].end, w->qualifier_cache[slot].len);
        return;
    }
    size_t since = written(w);
    put_repeated_strings(w, 6, v, n);
    w->qualifier_cache[slot].key = v;
    w->qualifier_cache[slot].gen = w->gen;
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
    if (w->type_cache[slot].key == t && w->type_cache[slot].gen == w->gen) {
        put_copy(w, w->type_cache[slot].end, w->type_cache[slot].len);
    } else {
        pb_prepend_data_type(w, t);
        w->type_cache[slot].key = t;
        w->type_cache[slot].gen = w->gen;
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
    Catalyzer__V1__ResolvedPlan *o = w.failed ? NULL : plan_carrier(a, pb_rev_writer_data(&w), pb_rev_writer_len(&w));
    pb_rev_writer_free(&w);
    return o;
}

/* A message's packed fields as unknown fields (copied into a), set on m:
 * false if the bytes do not parse. */
static bool carry_fields(Arena *a, ProtobufCMessage *m, const uint8_t *packed, size_t len) {
    uint8_t *bytes = arena_alloc(a, len ? len : 1);
    if (len) memcpy(bytes, packed, len);
    /* The top-level fields: kind, each child, each expression, ... An
     * unknown field's data is what follows its tag, a length prefix included. */
    size_t nfields = 0;
    for (const uint8_t *q = bytes, *end = bytes + len; q < end; nfields++) {
        uint64_t tag, n;
        if (!read_varint(&q, end, &tag) || !read_varint(&q, end, &n)) return false;
        if ((tag & 7) == WT_LEN) {
            if (n > (uint64_t)(end - q)) return false;
            q += n;
        }
    }
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
    m->n_unknown_fields = (unsigned)nfields;
    m->unknown_fields = uf;
    return true;
}

Catalyzer__V1__ResolvedPlan *plan_carrier(Arena *a, const uint8_t *packed, size_t len) {
    Catalyzer__V1__ResolvedPlan *o = arena_alloc(a, sizeof *o);
    *o = (Catalyzer__V1__ResolvedPlan)CATALYZER__V1__RESOLVED_PLAN__INIT;
    return carry_fields(a, &o->base, packed, len) ? o : NULL;
}

Catalyzer__V1__Attribute *attribute_carrier(Arena *a, const uint8_t *packed, size_t len) {
    Catalyzer__V1__Attribute *o = arena_alloc(a, sizeof *o);
    *o = (Catalyzer__V1__Attribute)CATALYZER__V1__ATTRIBUTE__INIT;
    return carry_fields(a, &o->base, packed, len) ? o : NULL;
}
