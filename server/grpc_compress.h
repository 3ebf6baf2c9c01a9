/* gRPC message compression (doc/compression.md of gRPC): the grpc-encoding
 * names the daemon reads and writes, and zlib's gzip and deflate (zlib
 * format, as gRPC's "deflate" is) over one message at a time. No I/O. */
#ifndef CZ_GRPC_COMPRESS_H
#define CZ_GRPC_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum GrpcEncoding {
    GRPC_ENC_IDENTITY = 0,
    GRPC_ENC_GZIP = 1,
    GRPC_ENC_DEFLATE = 2,
    GRPC_ENC_UNKNOWN = 3, /* a name we do not speak */
} GrpcEncoding;

/* What the daemon announces in grpc-accept-encoding. */
#define GRPC_ACCEPT_ENCODING "identity,gzip,deflate"

/* grpc-encoding value → encoding (exact, case-sensitive names, as gRPC's). */
GrpcEncoding grpc_encoding_parse(const char *v, size_t len);
const char *grpc_encoding_name(GrpcEncoding e);

/* Whether a grpc-accept-encoding list ("identity, gzip,deflate") names e. */
bool grpc_accept_has(const char *list, size_t len, GrpcEncoding e);

typedef enum GrpcInflateResult {
    GRPC_INFLATE_OK,
    GRPC_INFLATE_TOO_LARGE, /* more than max bytes once decompressed */
    GRPC_INFLATE_CORRUPT,   /* not a valid stream of that encoding */
    GRPC_INFLATE_NOMEM,
} GrpcInflateResult;

/* Decompresses one message; *out is malloc'ed (free it), at most max bytes:
 * the decompressed size is bounded while decompressing (a small "zip bomb"
 * never grows past max). */
GrpcInflateResult grpc_inflate(GrpcEncoding e, const uint8_t *in, size_t len, size_t max, uint8_t **out,
                               size_t *out_len);

/* Compresses one message into a malloc'ed *out. False on failure. */
bool grpc_deflate(GrpcEncoding e, const uint8_t *in, size_t len, uint8_t **out, size_t *out_len);

#endif
