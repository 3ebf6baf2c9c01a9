/* gRPC framing, percent-encoding and timeout parsing (see grpc_codec.h).
 * Follows doc/PROTOCOL-HTTP2.md of the gRPC repository. */
#include "grpc_codec.h"

#include <string.h>

static const char *const STATUS_NAMES[] = {
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
    "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
};

const char *grpc_status_name(int code) {
    if (code < 0 || code > 16) return "UNKNOWN";
    return STATUS_NAMES[code];
}

void grpc_frame_header(uint8_t out[5], uint32_t len) {
    out[0] = 0;
    out[1] = (uint8_t)(len >> 24);
    out[2] = (uint8_t)(len >> 16);
    out[3] = (uint8_t)(len >> 8);
    out[4] = (uint8_t)len;
}

GrpcFrameResult grpc_frame_parse(const uint8_t *buf, size_t len, uint32_t max, const uint8_t **msg, uint32_t *msg_len,
                                 size_t *consumed) {
    if (len < 1) return GRPC_FRAME_NEED_MORE;
    if (buf[0] > 1) return GRPC_FRAME_BAD_FLAG;
    if (len < 5) return GRPC_FRAME_NEED_MORE;
    uint32_t n = (uint32_t)buf[1] << 24 | (uint32_t)buf[2] << 16 | (uint32_t)buf[3] << 8 | buf[4];
    if (n > max) return GRPC_FRAME_TOO_LARGE;
    if (len - 5 < n) return GRPC_FRAME_NEED_MORE;
    *msg = buf + 5;
    *msg_len = n;
    *consumed = 5 + (size_t)n;
    return buf[0] == 1 ? GRPC_FRAME_COMPRESSED : GRPC_FRAME_MESSAGE;
}

uint32_t grpc_frame_count(GrpcFrameCounter *fc, const uint8_t *p, size_t n) {
    uint32_t messages = 0;
    size_t i = 0;
    while (i < n) {
        if (fc->left) {
            size_t k = n - i < fc->left ? n - i : fc->left;
            fc->left -= (uint32_t)k;
            i += k;
            continue;
        }
        if (fc->prefix > 0) fc->len[fc->prefix - 1] = p[i]; /* byte 0 is the compressed flag */
        fc->prefix++;
        i++;
        if (fc->prefix == 5) {
            fc->left = (uint32_t)fc->len[0] << 24 | (uint32_t)fc->len[1] << 16 | (uint32_t)fc->len[2] << 8 | fc->len[3];
            fc->prefix = 0;
            messages++;
        }
    }
    return messages;
}

size_t grpc_percent_encode(const char *in, size_t len, char *out, size_t cap) {
    static const char HEX[] = "0123456789ABCDEF";
    size_t o = 0;
    if (cap == 0) return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)in[i];
        if (c >= 0x20 && c <= 0x7E && c != '%') {
            if (o + 1 >= cap) break;
            out[o++] = (char)c;
        } else {
            if (o + 3 >= cap) break;
            out[o++] = '%';
            out[o++] = HEX[c >> 4];
            out[o++] = HEX[c & 15];
        }
    }
    out[o] = '\0';
    return o;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

size_t grpc_percent_decode(const char *in, size_t len, char *out, size_t cap) {
    size_t o = 0;
    if (cap == 0) return 0;
    for (size_t i = 0; i < len && o + 1 < cap; i++) {
        int h, l;
        if (in[i] == '%' && i + 2 < len + 0 && i + 2 <= len - 1 && (h = hexval(in[i + 1])) >= 0 &&
            (l = hexval(in[i + 2])) >= 0) {
            out[o++] = (char)(h << 4 | l);
            i += 2;
        } else {
            out[o++] = in[i];
        }
    }
    out[o] = '\0';
    return o;
}

bool grpc_parse_timeout(const char *v, size_t len, int64_t *nanos) {
    if (len < 2 || len > 9) return false;
    int64_t n = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (v[i] < '0' || v[i] > '9') return false;
        n = n * 10 + (v[i] - '0');
    }
    int64_t mul;
    switch (v[len - 1]) {
    case 'H': mul = 3600LL * 1000000000LL; break;
    case 'M': mul = 60LL * 1000000000LL; break;
    case 'S': mul = 1000000000LL; break;
    case 'm': mul = 1000000LL; break;
    case 'u': mul = 1000LL; break;
    case 'n': mul = 1; break;
    default: return false;
    }
    *nanos = (n > INT64_MAX / mul) ? INT64_MAX : n * mul;
    return true;
}
