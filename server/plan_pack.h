/* A field-specific protobuf packer for the analysed-plan messages
 * (ResolvedPlan, ResolvedExpression, DataType, Attribute, Origin) built by
 * plan_encode.c. Its bytes are exactly protobuf-c's generic
 * protobuf_c_message_pack of the same structs (fields in number order,
 * proto3 zero values left out), which tests/integration/test_plan_pack.c
 * checks.
 *
 * Why: protobuf-c's generic packer walks the descriptors and, for every
 * nested message, computes its packed size before packing it, so a plan
 * nested d deep is sized d times over. This packer writes back to front:
 * a submessage's length is known once its bytes are written, so each byte
 * is produced once and nothing is sized ahead. */
#ifndef CZ_PLAN_PACK_H
#define CZ_PLAN_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalyzer.pb-c.h"
#include "core/arena.h"

/* Bytes grow downwards from the end of buf: the packed data is
 * buf[pos, cap). Each pb_prepend_* puts a message's bytes before the data
 * already there, so messages concatenated in wire order are prepended last
 * first. On allocation failure `failed` is set and the data is dropped. */
enum { PB_TYPE_CACHE_SLOTS = 64, PB_IR_TYPE_CACHE_SLOTS = 128, PB_IR_SCALAR_CACHE_SLOTS = 32 }; /* powers of two */
typedef struct PbRevWriter {
    uint8_t *buf;
    size_t cap, pos;
    bool failed;
    /* DataType messages are shared (plan_encode.c's memo), so a type already
     * packed is copied: its payload's distance from the end, and length. */
    struct {
        const Catalyzer__V1__DataType *key;
        size_t end, len;
        uint32_t gen;
    } type_cache[PB_TYPE_CACHE_SLOTS];
    /* Likewise an expression's qualifier (its strings' array, shared by
     * copies of an attribute): where its packed fields lie. */
    struct {
        char *const *key;
        size_t n, end, len;
        uint32_t gen;
    } qualifier_cache[PB_TYPE_CACHE_SLOTS];
    /* The IR encoder's (plan_wire.c) types: an IR DataType's packed payload,
     * its nesting depth, and the last field (number, bytes) it was packed as. */
    struct {
        const void *key;
        size_t end, len;
        unsigned depth, field_id;
        size_t field_end, field_len;
        uint32_t gen;
    } ir_type_cache[PB_IR_TYPE_CACHE_SLOTS];
    /* Scalar types by value (the analyser allocates e.g. a decimal(7,2) per
     * node that has one): what they pack to depends on these fields only. */
    struct PbScalarTypeSlot {
        int32_t id, length, collation;
        uint8_t precision, scale, start_field, end_field, contains_null;
        size_t end, len;
        uint32_t gen;
    } ir_scalar_cache[PB_IR_SCALAR_CACHE_SLOTS];
    /* A cache entry holds only when its gen is this: a reset bumps it
     * instead of clearing ~11 KB of entries. */
    uint32_t gen;
} PbRevWriter;

void pb_rev_writer_init(PbRevWriter *w);
/* Empty again, the buffer kept: what was packed before is forgotten. */
void pb_rev_writer_reset(PbRevWriter *w);
void pb_rev_writer_free(PbRevWriter *w);
static inline const uint8_t *pb_rev_writer_data(const PbRevWriter *w) { return w->buf + w->pos; }
static inline size_t pb_rev_writer_len(const PbRevWriter *w) { return w->cap - w->pos; }

void pb_prepend_resolved_plan(PbRevWriter *w, const Catalyzer__V1__ResolvedPlan *p);
void pb_prepend_resolved_expression(PbRevWriter *w, const Catalyzer__V1__ResolvedExpression *e);
void pb_prepend_attribute(PbRevWriter *w, const Catalyzer__V1__Attribute *at);
void pb_prepend_data_type(PbRevWriter *w, const Catalyzer__V1__DataType *t);

/* p packed by this packer and carried as a ResolvedPlan with no known fields
 * set and its top-level fields as unknown fields (in arena a), so that
 * protobuf-c's generic packer, packing an enclosing message, copies the
 * bytes instead of walking the plan: the bytes on the wire are the same.
 * Only for packing: readers of the structs (JSON, depth checks) need the
 * original. NULL if p is NULL or on allocation failure. */
Catalyzer__V1__ResolvedPlan *plan_prepacked(Arena *a, const Catalyzer__V1__ResolvedPlan *p);
/* The same carrier for a ResolvedPlan's packed bytes (its fields, no tag or
 * length), copied into a. NULL if the bytes do not parse. */
Catalyzer__V1__ResolvedPlan *plan_carrier(Arena *a, const uint8_t *packed, size_t len);
/* Likewise for an Attribute. */
Catalyzer__V1__Attribute *attribute_carrier(Arena *a, const uint8_t *packed, size_t len);

#endif
