/* Arrow IPC stream: count the rows (see connect_arrow.h). The stream is a
 * sequence of encapsulated messages: [0xFFFFFFFF] int32 metadata length,
 * a flatbuffer Message (header_type, header, bodyLength), then the body.
 * A zero length ends the stream. Arrow's Message table (Message.fbs):
 * 0 version:short, 1 header_type:ubyte, 2 header:union, 3 bodyLength:long;
 * RecordBatch: 0 length:long. */
#include "connect_arrow.h"

#include <stdio.h>
#include <string.h>

enum { ARROW_RECORD_BATCH = 3 };

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* The position of field `id` of the table at `t` in buf[0..n), 0 if absent or out of bounds. */
static size_t fb_field(const uint8_t *buf, size_t n, size_t t, unsigned id, size_t width) {
    if (t + 4 > n) return 0;
    int32_t so = (int32_t)rd32(buf + t);
    int64_t vt = (int64_t)t - so;
    if (vt < 0 || (uint64_t)vt + 4 > n) return 0;
    uint16_t vsize = rd16(buf + vt);
    if (4 + 2 * (size_t)id + 2 > vsize || (uint64_t)vt + vsize > n) return 0;
    uint16_t off = rd16(buf + vt + 4 + 2 * id);
    if (!off || t + off + width > n) return 0;
    return t + off;
}

bool arrow_stream_rows(const uint8_t *p, size_t n, uint64_t *rows, char *err, size_t errlen) {
    size_t pos = 0;
    *rows = 0;
    while (pos < n) {
        if (n - pos < 4) goto bad;
        uint32_t len = rd32(p + pos);
        pos += 4;
        if (len == 0xFFFFFFFFu) { /* continuation marker, then the length */
            if (n - pos < 4) goto bad;
            len = rd32(p + pos);
            pos += 4;
        }
        if (len == 0) return true; /* end of stream */
        if (len > n - pos) goto bad;
        const uint8_t *m = p + pos;
        if (len < 4) goto bad;
        size_t root = rd32(m);
        size_t f_type = fb_field(m, len, root, 1, 1), f_hdr = fb_field(m, len, root, 2, 4),
               f_body = fb_field(m, len, root, 3, 8);
        uint64_t body = f_body ? rd64(m + f_body) : 0;
        if (f_type && m[f_type] == ARROW_RECORD_BATCH && f_hdr) {
            size_t rb = f_hdr + rd32(m + f_hdr);
            size_t f_len = fb_field(m, len, rb, 0, 8);
            if (f_len) *rows += rd64(m + f_len);
        }
        pos += len;
        if (body > n - pos) goto bad;
        pos += (size_t)body;
    }
    return true;
bad:
    snprintf(err, errlen, "LocalRelation.data is not an Arrow IPC stream (truncated at byte %zu)", pos);
    return false;
}
