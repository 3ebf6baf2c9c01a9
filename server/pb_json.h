/* The proto3 JSON mapping, generically from protobuf-c's descriptors, so the
 * JSON endpoint and the gRPC wire can never drift apart: field names in
 * lowerCamelCase (the original snake_case is accepted on input), enums by
 * name, 64-bit integers as strings, bytes as base64, maps as objects,
 * default values omitted on output. */
#ifndef CZ_PB_JSON_H
#define CZ_PB_JSON_H

#include <jansson.h>
#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>
#include <stddef.h>

/* A new JSON object (caller owns the reference). */
json_t *pb_to_json(const ProtobufCMessage *msg);

/* Builds a message of type desc from a JSON object. Unknown keys, wrong
 * types, unknown enum names, nesting beyond max_depth and invalid base64 are
 * errors (NULL, reason in err). The result is malloc-allocated so
 * protobuf_c_message_free_unpacked(msg, NULL) frees it. */
ProtobufCMessage *pb_from_json(const json_t *obj, const ProtobufCMessageDescriptor *desc, unsigned max_depth, char *err,
                               size_t errlen);

/* snake_case → lowerCamelCase into out (cap bytes). */
void pb_json_name(const char *field, char *out, size_t cap);

/* Base64 (RFC 4648, padded). enc returns a malloc'ed NUL-terminated string;
 * dec returns false on bad input, *out malloc'ed. */
char *base64_encode(const unsigned char *p, size_t n);
bool base64_decode(const char *s, size_t n, unsigned char **out, size_t *outlen);

#endif
