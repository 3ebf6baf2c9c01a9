/* Protobuf input checks that protobuf-c does not do.
 *
 * pb_wire_check runs BEFORE protobuf_c_message_unpack: the unpacker recurses
 * once per nested message with no limit, so a few thousand nested Relations
 * overflow a worker's stack. The check walks the wire bytes iteratively
 * (explicit stack) with the descriptors, counting plan nodes (Relation,
 * Expression, DataType messages) and their nesting, and rejects truncated
 * or malformed encodings on the way.
 *
 * pb_validate runs after unpacking: string fields must be UTF-8 (proto3
 * requires it; protobuf-c does not check) and enum fields must hold a value
 * the schema knows (proto3 unpacking keeps unknown numbers).
 * Both write a one-line reason into err. No allocation. */
#ifndef CZ_PB_CHECK_H
#define CZ_PB_CHECK_H

#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct PbLimits {
    uint32_t max_depth; /* nesting of plan-node messages */
    uint32_t max_nodes; /* plan-node messages in total */
} PbLimits;

typedef enum PbCheck { PB_CHECK_OK, PB_CHECK_MALFORMED, PB_CHECK_TOO_DEEP, PB_CHECK_TOO_MANY_NODES } PbCheck;

PbCheck pb_wire_check(const uint8_t *buf, size_t len, const ProtobufCMessageDescriptor *desc, const PbLimits *lim,
                      char *err, size_t errlen);

/* True for the descriptors counted as plan nodes. */
bool pb_is_node_message(const ProtobufCMessageDescriptor *desc);

bool pb_validate(const ProtobufCMessage *msg, char *err, size_t errlen);

/* UTF-8 validity (rejects overlongs, surrogates, > U+10FFFF). */
bool utf8_valid(const char *s, size_t len);

#endif
