/* gRPC wire codecs without I/O: the 5-byte length-prefixed message framing,
 * grpc-message percent-encoding, grpc-timeout parsing, status names.
 * Everything works on caller buffers; nothing here touches a socket. */
#ifndef CZ_GRPC_CODEC_H
#define CZ_GRPC_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* gRPC status codes (grpc/status.h). */
typedef enum GrpcStatus {
    GRPC_OK = 0,
    GRPC_CANCELLED = 1,
    GRPC_UNKNOWN = 2,
    GRPC_INVALID_ARGUMENT = 3,
    GRPC_DEADLINE_EXCEEDED = 4,
    GRPC_NOT_FOUND = 5,
    GRPC_ALREADY_EXISTS = 6,
    GRPC_PERMISSION_DENIED = 7,
    GRPC_RESOURCE_EXHAUSTED = 8,
    GRPC_FAILED_PRECONDITION = 9,
    GRPC_ABORTED = 10,
    GRPC_OUT_OF_RANGE = 11,
    GRPC_UNIMPLEMENTED = 12,
    GRPC_INTERNAL = 13,
    GRPC_UNAVAILABLE = 14,
    GRPC_DATA_LOSS = 15,
    GRPC_UNAUTHENTICATED = 16,
} GrpcStatus;

const char *grpc_status_name(int code); /* "INVALID_ARGUMENT"; "UNKNOWN" for out of range */

/* Writes the 5-byte prefix of an uncompressed message of len bytes. */
void grpc_frame_header(uint8_t out[5], uint32_t len);

/* Incremental reader of length-prefixed messages from a byte stream. */
typedef enum GrpcFrameResult {
    GRPC_FRAME_NEED_MORE,  /* not a whole message yet */
    GRPC_FRAME_MESSAGE,    /* msg and msg_len point into the input buffer */
    GRPC_FRAME_COMPRESSED, /* a whole message with the Compressed-Flag set (grpc_compress.h decodes it) */
    GRPC_FRAME_TOO_LARGE,  /* declared length exceeds max */
    GRPC_FRAME_BAD_FLAG,   /* flag byte other than 0 or 1 */
} GrpcFrameResult;

/* Looks at buf[0..len) for one whole message. On GRPC_FRAME_MESSAGE and
 * GRPC_FRAME_COMPRESSED sets
 * *msg, *msg_len and *consumed (prefix + payload). */
GrpcFrameResult grpc_frame_parse(const uint8_t *buf, size_t len, uint32_t max, const uint8_t **msg, uint32_t *msg_len,
                                 size_t *consumed);

/* Counts the messages that begin in a stream of length-prefixed messages
 * read in pieces of any size (the grpc_server_msg_sent_total figure). */
typedef struct GrpcFrameCounter {
    uint32_t left;  /* payload bytes of the current message still to come */
    uint8_t prefix; /* bytes of the current 5-byte prefix seen */
    uint8_t len[4];
} GrpcFrameCounter;
/* Returns how many prefixes were completed in p[0..n). */
uint32_t grpc_frame_count(GrpcFrameCounter *fc, const uint8_t *p, size_t n);

/* grpc-message value: bytes outside 0x20..0x7E and '%' become %XX. Writes at
 * most cap-1 bytes plus NUL into out (truncating at a whole escape); returns
 * the length written. */
size_t grpc_percent_encode(const char *in, size_t len, char *out, size_t cap);
/* The reverse (lenient: a malformed escape is kept as is). Returns length. */
size_t grpc_percent_decode(const char *in, size_t len, char *out, size_t cap);

/* grpc-timeout: 1..8 ASCII digits then one of H M S m u n. Returns false
 * for anything else. *nanos saturates at INT64_MAX. */
bool grpc_parse_timeout(const char *v, size_t len, int64_t *nanos);

#endif
