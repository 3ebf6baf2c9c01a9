/* Byte buffers and the frames between the loop and its analysis worker
 * processes (workers.c, worker_main.c), and the journal records (journal.c).
 * Both ends are the same executable, so integers are in host order. A frame
 * is u32 body length, u8 type, body. */
#ifndef CZ_WIRE_H
#define CZ_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Buf {
    uint8_t *data;
    size_t len, cap;
    bool failed; /* an allocation failed: the contents are incomplete */
} Buf;

void buf_reserve(Buf *b, size_t more);
void buf_put(Buf *b, const void *p, size_t n);
void buf_u8(Buf *b, uint8_t v);
void buf_u32(Buf *b, uint32_t v);
void buf_u64(Buf *b, uint64_t v);
void buf_bytes(Buf *b, const void *p, size_t n); /* u32 length + bytes */
void buf_str(Buf *b, const char *s);             /* NULL as "" */
void buf_free(Buf *b);

/* Reading: every getter fails (returns false / zero) past the end, and
 * the reader stays failed. Strings and byte runs point into the input. */
typedef struct Rd {
    const uint8_t *p, *end;
    bool bad;
} Rd;

uint8_t rd_u8(Rd *r);
uint32_t rd_u32(Rd *r);
uint64_t rd_u64(Rd *r);
const uint8_t *rd_bytes(Rd *r, size_t *n);
/* A string copied into out (cap bytes, truncated, NUL-terminated). */
void rd_str(Rd *r, char *out, size_t cap);

/* Frame types. */
enum {
    WF_CONFIG = 1, /* loop → worker, first: the Config struct */
    WF_JOB,        /* loop → worker: seq, method, fmt, deadline, ids, session version, request bytes */
    WF_REPLAY,     /* loop → worker: seq, reset, version, journal records */
    WF_CANCEL_UNUSED, /* (a cancel is SIGUSR1 with the sequence number, see worker_main.c) */
    WF_FORGET,     /* loop → worker: server session id (dropped or expired) */
    WF_INVALIDATE, /* loop → worker: drop cached external tables (an InvalidateTable body, see below) */
    WF_READY = 16, /* worker → loop: started */
    WF_OUT,        /* worker → loop: seq, response bytes */
    WF_NEED,       /* worker → loop: seq, have (0/1), version held */
    WF_DONE,       /* worker → loop: seq, status, message, details, error class, counters, journal batch, rules */
    WF_INVALIDATED, /* worker → loop: it dropped cached external tables (InvalidateTable, REFRESH TABLE):
                       catalog, u32 namespace parts, the parts, u8 has table, table; the loop sends
                       the same body to every other worker as WF_INVALIDATE */
};

enum { WIRE_FRAME_MAX = 256u << 20 };

/* Starts a frame of type t in b; wire_end fills in its length. */
size_t wire_begin(Buf *b, uint8_t t);
void wire_end(Buf *b, size_t at);

#endif
