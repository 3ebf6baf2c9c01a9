/* gRPC message compression over zlib (see grpc_compress.h). */
#include "grpc_compress.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

GrpcEncoding grpc_encoding_parse(const char *v, size_t len) {
    if (len == 8 && memcmp(v, "identity", 8) == 0) return GRPC_ENC_IDENTITY;
    if (len == 4 && memcmp(v, "gzip", 4) == 0) return GRPC_ENC_GZIP;
    if (len == 7 && memcmp(v, "deflate", 7) == 0) return GRPC_ENC_DEFLATE;
    return GRPC_ENC_UNKNOWN;
}

const char *grpc_encoding_name(GrpcEncoding e) {
    switch (e) {
    case GRPC_ENC_GZIP: return "gzip";
    case GRPC_ENC_DEFLATE: return "deflate";
    case GRPC_ENC_IDENTITY: return "identity";
    default: return "unknown";
    }
}

bool grpc_accept_has(const char *list, size_t len, GrpcEncoding e) {
    size_t i = 0;
    while (i < len) {
        while (i < len && (list[i] == ' ' || list[i] == '\t' || list[i] == ',')) i++;
        size_t b = i;
        while (i < len && list[i] != ',') i++;
        size_t k = i;
        while (k > b && (list[k - 1] == ' ' || list[k - 1] == '\t')) k--;
        if (k > b && grpc_encoding_parse(list + b, k - b) == e) return true;
    }
    return false;
}

/* zlib's windowBits: 15 + 16 for the gzip wrapper, 15 for the zlib one. */
static int window_bits(GrpcEncoding e) { return e == GRPC_ENC_GZIP ? 15 + 16 : 15; }

GrpcInflateResult grpc_inflate(GrpcEncoding e, const uint8_t *in, size_t len, size_t max, uint8_t **out,
                               size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (e != GRPC_ENC_GZIP && e != GRPC_ENC_DEFLATE) return GRPC_INFLATE_CORRUPT;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, window_bits(e)) != Z_OK) return GRPC_INFLATE_NOMEM;
    size_t cap = len * 4 + 64;
    if (cap > max + 1) cap = max + 1; /* one byte past max tells "too large" */
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf) {
        inflateEnd(&z);
        return GRPC_INFLATE_NOMEM;
    }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    size_t have = 0;
    GrpcInflateResult res = GRPC_INFLATE_OK;
    for (;;) {
        if (have == cap) {
            if (cap > max) {
                res = GRPC_INFLATE_TOO_LARGE;
                break;
            }
            size_t nc = cap * 2;
            if (nc > max + 1) nc = max + 1;
            uint8_t *nb = realloc(buf, nc);
            if (!nb) {
                res = GRPC_INFLATE_NOMEM;
                break;
            }
            buf = nb;
            cap = nc;
        }
        z.next_out = buf + have;
        z.avail_out = (uInt)(cap - have);
        int rc = inflate(&z, Z_NO_FLUSH);
        have = cap - z.avail_out;
        if (rc == Z_STREAM_END) {
            /* Bytes after the end of the stream: not one message. */
            if (z.avail_in) res = GRPC_INFLATE_CORRUPT;
            else if (have > max) res = GRPC_INFLATE_TOO_LARGE;
            break;
        }
        if (rc == Z_BUF_ERROR && z.avail_out) { /* input ended before the stream did */
            res = GRPC_INFLATE_CORRUPT;
            break;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            res = rc == Z_MEM_ERROR ? GRPC_INFLATE_NOMEM : GRPC_INFLATE_CORRUPT;
            break;
        }
    }
    inflateEnd(&z);
    if (res != GRPC_INFLATE_OK) {
        free(buf);
        return res;
    }
    *out = buf;
    *out_len = have;
    return GRPC_INFLATE_OK;
}

bool grpc_deflate(GrpcEncoding e, const uint8_t *in, size_t len, uint8_t **out, size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (e != GRPC_ENC_GZIP && e != GRPC_ENC_DEFLATE) return false;
    z_stream z;
    memset(&z, 0, sizeof z);
    /* Level 1: the loop's peers want latency; responses are text-like and still shrink several-fold. */
    if (deflateInit2(&z, 1, Z_DEFLATED, window_bits(e), 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
    size_t cap = deflateBound(&z, (uLong)len) + 32; /* + the gzip header and trailer */
    uint8_t *buf = malloc(cap);
    if (!buf) {
        deflateEnd(&z);
        return false;
    }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    size_t n = cap - z.avail_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(buf);
        return false;
    }
    *out = buf;
    *out_len = n;
    return true;
}
