/* Request correlation without I/O: the client's x-request-id and its W3C
 * Trace Context (traceparent, https://www.w3.org/TR/trace-context/).
 *
 * A request id the client sends is kept when it is 1..REQUEST_ID_MAX
 * characters of [A-Za-z0-9._:/+=@-] (UUIDs, hex, base64, "svc:123"); anything
 * else (empty, too long, spaces, quotes, control bytes) is replaced by one the
 * daemon makes, so a log line or a response header never carries what a client
 * could use to forge another line.
 *
 * traceparent is "VV-TTTT...(32)-PPPP...(16)-FF", lowercase hex: a version
 * other than ff; a trace id and a parent id that are not all zeros; for
 * version 00 exactly 55 characters, for a later version at least 55 with a '-'
 * after the flags if longer (the spec's forward-compatibility rule). An invalid
 * one is ignored, as the spec says (the request is served, untraced). The
 * daemon's span for the request gets a fresh 16-hex-digit id; the response
 * carries traceresponse (Trace Context Level 2) naming it. */
#ifndef CZ_TRACE_H
#define CZ_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { REQUEST_ID_MAX = 64 };

bool request_id_valid(const char *s, size_t n);

typedef struct TraceContext {
    bool valid;
    char trace_id[33];  /* 32 lowercase hex digits */
    char parent_id[17]; /* the caller's span */
    char span_id[17];   /* the daemon's span for this request */
    uint8_t flags;      /* trace-flags (bit 0: sampled) */
} TraceContext;

/* Parses a traceparent header value; on success fills trace_id, parent_id and
 * flags, draws span_id and sets valid. Returns valid. */
bool trace_parse(TraceContext *tc, const char *s, size_t n);

/* "00-<trace_id>-<span_id>-<flags>": the traceresponse value, or the
 * traceparent a downstream call made for this request carries. */
void trace_format_child(const TraceContext *tc, char out[56]);

/* 16 random lowercase hex digits, not all zeros. */
void trace_new_span_id(char out[17]);

#endif
