/* x-request-id and W3C traceparent (see trace.h). */
#include "trace.h"

#include <openssl/rand.h>
#include <stdio.h>
#include <string.h>

static bool id_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == ':' || c == '/' || c == '+' || c == '=' || c == '@' || c == '-';
}

bool request_id_valid(const char *s, size_t n) {
    if (n < 1 || n > REQUEST_ID_MAX) return false;
    for (size_t i = 0; i < n; i++)
        if (!id_char((unsigned char)s[i])) return false;
    return true;
}

static bool lower_hex(const char *s, size_t n, bool *all_zero) {
    bool zero = true;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
        if (c != '0') zero = false;
    }
    if (all_zero) *all_zero = zero;
    return true;
}

static unsigned hexval(char c) { return c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10); }

bool trace_parse(TraceContext *tc, const char *s, size_t n) {
    memset(tc, 0, sizeof *tc);
    /* VV-TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT-PPPPPPPPPPPPPPPP-FF: 2+1+32+1+16+1+2 = 55 */
    if (n < 55) return false;
    bool zero;
    if (!lower_hex(s, 2, NULL) || (s[0] == 'f' && s[1] == 'f')) return false;
    bool v00 = s[0] == '0' && s[1] == '0';
    if (v00 ? n != 55 : (n > 55 && s[55] != '-')) return false;
    if (s[2] != '-' || s[35] != '-' || s[52] != '-') return false;
    if (!lower_hex(s + 3, 32, &zero) || zero) return false;
    memcpy(tc->trace_id, s + 3, 32);
    if (!lower_hex(s + 36, 16, &zero) || zero) return false;
    memcpy(tc->parent_id, s + 36, 16);
    if (!lower_hex(s + 53, 2, NULL)) return false;
    tc->flags = (uint8_t)(hexval(s[53]) << 4 | hexval(s[54]));
    trace_new_span_id(tc->span_id);
    tc->valid = true;
    return true;
}

void trace_format_child(const TraceContext *tc, char out[56]) {
    snprintf(out, 56, "00-%s-%s-%02x", tc->trace_id, tc->span_id, tc->flags);
}

void trace_new_span_id(char out[17]) {
    static const char HEX[] = "0123456789abcdef";
    unsigned char r[8];
    do {
        if (RAND_bytes(r, sizeof r) != 1) memset(r, 0x5a, sizeof r);
    } while (!(r[0] | r[1] | r[2] | r[3] | r[4] | r[5] | r[6] | r[7]));
    for (int i = 0; i < 8; i++) {
        out[2 * i] = HEX[r[i] >> 4];
        out[2 * i + 1] = HEX[r[i] & 15];
    }
    out[16] = '\0';
}
