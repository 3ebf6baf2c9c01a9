/* Literals as Spark's AstBuilder builds them: numbers (int → bigint →
 * decimal; L/S/Y/BD/D/F suffixes; exponent → double), strings with Spark's
 * escapes (adjacent literals concatenated), typed literals (DATE, TIMESTAMP,
 * TIMESTAMP_NTZ/LTZ, X'..', INTERVAL '..'; interval literals are in
 * parse_interval.c).
 * Timestamps with a time zone are taken as UTC (no session time zone here). */
#include <ctype.h>
#include <time.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parser_int.h"
#include "core/tz.h"

/* ---- strings ---- */

bool ps_at_string(const Parser *p) {
    const Token *t = tk(p);
    return t->kind == TK_STRING && !(p->opts.double_quoted_identifiers && t->suffix == '"');
}

/* The four hex digits at s[i..i+4) (within n) as their value + 1; 0 if not hex. */
static unsigned hex4(const char *s, size_t i, size_t n) {
    if (i + 4 > n) return 0;
    unsigned v = 0;
    for (size_t k = i; k < i + 4; k++) {
        int c = (unsigned char)s[k];
        if (!isxdigit(c)) return 0;
        v = v * 16 + (unsigned)(isdigit(c) ? c - '0' : (tolower(c) - 'a') + 10);
    }
    return v + 1;
}

/* Code point cp (no surrogates) as UTF-8 into out; returns the bytes written. */
static size_t put_utf8(char *out, unsigned cp) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

const char *ps_unescape_string(Parser *p, const Token *t, size_t *len) {
    bool raw = t->suffix == 'R';
    const char *s = p->sql + t->start + (raw ? 2 : 1);
    size_t n = (size_t)(t->end - t->start) - (raw ? 3 : 2);
    char *out = arena_alloc(p->a, n + 1);
    size_t j = 0;
    if (raw) {
        memcpy(out, s, n);
        j = n;
    } else {
        for (size_t i = 0; i < n; i++) {
            char c = s[i];
            if (c != '\\' || i + 1 >= n) {
                out[j++] = c;
                continue;
            }
            char d = s[++i];
            /* \uXXXX: a UTF-16 unit as Java reads it; a surrogate pair
             * (\uD83D\uDE00) is one code point, a lone surrogate becomes '?'
             * as Java's UTF-8 encoder writes it (UTF8String.fromString) */
            if (d == 'u' && hex4(s, i + 1, n)) {
                unsigned cp = hex4(s, i + 1, n) - 1;
                i += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 < n && s[i + 1] == '\\' && s[i + 2] == 'u' &&
                    hex4(s, i + 3, n) && hex4(s, i + 3, n) - 1 >= 0xDC00 && hex4(s, i + 3, n) - 1 <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(s, i + 3, n) - 1 - 0xDC00);
                    i += 6;
                } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                    cp = '?';
                }
                j += put_utf8(out + j, cp);
                continue;
            }
            /* octal \ddd: the char with that code (up to U+00FF), UTF-8
             * encoded as Spark's strings are: '\377' is U+00FF, two bytes */
            if (d >= '0' && d <= '3' && i + 2 < n && s[i + 1] >= '0' && s[i + 1] <= '7' && s[i + 2] >= '0' &&
                s[i + 2] <= '7') {
                j += put_utf8(out + j, (unsigned)(((d - '0') << 6) | ((s[i + 1] - '0') << 3) | (s[i + 2] - '0')));
                i += 2;
                continue;
            }
            switch (d) {
            case '0': out[j++] = 0; break;
            case '\'': out[j++] = '\''; break;
            case '"': out[j++] = '"'; break;
            case 'b': out[j++] = '\b'; break;
            case 'n': out[j++] = '\n'; break;
            case 'r': out[j++] = '\r'; break;
            case 't': out[j++] = '\t'; break;
            case 'Z': out[j++] = '\x1A'; break;
            case '\\': out[j++] = '\\'; break;
            case '%': out[j++] = '\\'; out[j++] = '%'; break;
            case '_': out[j++] = '\\'; out[j++] = '_'; break;
            default: out[j++] = d; break;
            }
        }
    }
    out[j] = 0;
    *len = j;
    return out;
}

const char *ps_parse_string_lit(Parser *p, size_t *len) {
    if (!ps_at_string(p)) ps_syntax_error(p, "");
    size_t n0;
    const char *s = ps_unescape_string(p, tk(p), &n0);
    advance(p);
    if (!ps_at_string(p)) {
        if (len) *len = n0;
        return s;
    }
    StrBuf sb;
    sb_init(&sb, p->a, n0 + 32);
    sb_putn(&sb, s, n0);
    while (ps_at_string(p)) {
        size_t k;
        const char *x = ps_unescape_string(p, tk(p), &k);
        sb_putn(&sb, x, k);
        advance(p);
    }
    if (len) *len = sb.len;
    return sb.data;
}

/* ---- numbers ---- */

static Node *lit(Parser *p, const DataType *t, int32_t start);
Node *ps_literal_node(Parser *p, const DataType *t, int32_t start) { return lit(p, t, start); }

static Node *lit(Parser *p, const DataType *t, int32_t start) {
    Node *n = ps_new(p, NK_Literal, start, prev_stop(p));
    n->type = t;
    n->u.lit.v.type = t;
    return n;
}

static ErrorInfo *range_error(Parser *p, const char *raw, const char *type, const char *min, const char *max,
                              int32_t start) {
    return ps_perr(p, "INVALID_NUMERIC_LITERAL_RANGE", start, prev_stop(p), "rawStrippedQualifier", raw, "minValue", min,
                "maxValue", max, "typeName", type, NULL);
}

/* Digits of a decimal literal (no exponent) into unscaled/scale/precision. */
static bool decimal_of(const char *s, size_t n, bool neg, __int128 *unscaled, int *prec, int *scale) {
    __int128 v = 0;
    int digits = 0, sc = 0;
    bool dot = false, nonzero = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.') {
            dot = true;
            continue;
        }
        int d = s[i] - '0';
        if (dot) sc++;
        if (d || nonzero) {
            nonzero = true;
            digits++;
            if (digits > 38) return false;
        }
        v = v * 10 + d;
    }
    if (!digits) digits = 1;
    *unscaled = neg ? -v : v;
    *scale = sc;
    *prec = digits > sc ? digits : sc;
    return true;
}

Node *ps_parse_number(Parser *p, bool neg, int32_t start) {
    const Token *t = tk(p);
    const char *txt = p->sql + t->start;
    size_t n = (size_t)(t->end - t->start);
    int suf = t->suffix;
    size_t digits_len = n - (suf == 'B' ? 2 : suf ? 1 : 0);
    /* the sign and the digits without the suffix (copied by hand: a printf
       per number literal was a tenth of parsing TPC-DS) */
    size_t sign_len = neg ? 1 : 0;
    char *raw = arena_alloc(p->a, sign_len + digits_len + 1);
    if (neg) raw[0] = '-';
    memcpy(raw + sign_len, txt, digits_len);
    raw[sign_len + digits_len] = 0;
    advance(p);
    if (t->kind == TK_INT) {
        long long v = 0;
        bool overflow = false;
        if (digits_len <= 18) {
            /* the lexer gave only digits: at most 18 cannot overflow */
            for (size_t i = 0; i < digits_len; i++) v = v * 10 + (txt[i] - '0');
            if (neg) v = -v;
        } else {
            errno = 0;
            v = strtoll(raw, NULL, 10);
            overflow = errno == ERANGE;
        }
        if (suf == 'L') {
            if (overflow) ps_defer_error(p, range_error(p, raw, "bigint", "-9223372036854775808", "9223372036854775807", start));
            Node *l = lit(p, &TYPE_LONG, start);
            l->u.lit.v.u.i = v;
            return node_finish(l);
        }
        if (suf == 'S') {
            if (overflow || v < -32768 || v > 32767) ps_defer_error(p, range_error(p, raw, "smallint", "-32768", "32767", start));
            Node *l = lit(p, &TYPE_SHORT, start);
            l->u.lit.v.u.i = v;
            return node_finish(l);
        }
        if (suf == 'Y') {
            if (overflow || v < -128 || v > 127) ps_defer_error(p, range_error(p, raw, "tinyint", "-128", "127", start));
            Node *l = lit(p, &TYPE_BYTE, start);
            l->u.lit.v.u.i = v;
            return node_finish(l);
        }
        if (!overflow && v >= INT32_MIN && v <= INT32_MAX) {
            Node *l = lit(p, &TYPE_INT, start);
            l->u.lit.v.u.i = v;
            return node_finish(l);
        }
        if (!overflow) {
            Node *l = lit(p, &TYPE_LONG, start);
            l->u.lit.v.u.i = v;
            return node_finish(l);
        }
        /* too big for bigint: a decimal */
    }
    if (t->kind == TK_EXP || (t->kind == TK_TYPEDNUM && (suf == 'D' || suf == 'F'))) {
        double d = strtod(raw, NULL);
        /* beyond the type's range: INVALID_NUMERIC_LITERAL_RANGE, as Spark's
           parser checks a float or double literal */
        bool fl = suf == 'F';
        if (isinf(d) || (fl && fabs(d) > 3.4028234663852886e38)) {
            size_t rl = strlen(raw);
            if (t->kind == TK_TYPEDNUM && rl && isalpha((unsigned char)raw[rl - 1])) rl--;
            ps_defer_error(p, range_error(p, arena_strndup(p->a, raw, rl), fl ? "float" : "double",
                                          fl ? "-3.4028234663852886E+38" : "-1.7976931348623157E+308",
                                          fl ? "3.4028234663852886E+38" : "1.7976931348623157E+308", start));
            d = 0;
        }
        Node *l = lit(p, fl ? &TYPE_FLOAT : &TYPE_DOUBLE, start);
        l->u.lit.v.u.d = d;
        return node_finish(l);
    }
    /* decimal: plain, BD, or an integer too big for bigint */
    const char *digits = raw + (neg ? 1 : 0);
    size_t dl = strlen(digits);
    int exp10 = 0;
    const char *e = memchr(digits, 'e', dl);
    if (!e) e = memchr(digits, 'E', dl);
    if (e) {
        long x = strtol(e + 1, NULL, 10); /* clamps on overflow */
        exp10 = x > 100000 ? 100000 : x < -100000 ? -100000 : (int)x;
        dl = (size_t)(e - digits);
    }
    __int128 u;
    int prec, scale;
    if (!decimal_of(digits, dl, neg, &u, &prec, &scale)) {
        ps_defer_error(p, ps_perr(p, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION", start, prev_stop(p), "precision",
                            arena_printf(p->a, "%d", (int)dl), "maxPrecision", "38", NULL));
        u = 0, prec = 1, scale = 0;
    }
    scale -= exp10;
    while (scale < 0 && prec < 38) {
        u *= 10;
        scale++;
        prec++;
    }
    if (scale < 0) { /* more integral digits than 38 */
        prec -= scale;
        scale = 0;
    }
    if (prec < scale) prec = scale;
    if (prec > 38) {
        ps_defer_error(p, ps_perr(p, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION", start, prev_stop(p), "precision",
                                  arena_printf(p->a, "%d", prec), "maxPrecision", "38", NULL));
        prec = scale = 38;
    }
    Node *l = lit(p, type_decimal(p->a, prec, scale), start);
    l->u.lit.v.u.dec = u;
    return node_finish(l);
}

/* ---- dates and timestamps ---- */

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static bool valid_ymd(int y, int m, int d) {
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1) return false;
    int md = mdays[m - 1];
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) md = 29;
    return d <= md;
}

/* Reads 1..max digits. */
static bool read_int(const char **s, const char *end, int maxd, int *out) {
    int v = 0, k = 0;
    while (*s < end && isdigit((unsigned char)**s) && k < maxd) {
        v = v * 10 + (**s - '0');
        (*s)++;
        k++;
    }
    *out = v;
    return k > 0;
}

/* yyyy[-[m]m[-[d]d]] then end, or ' '/'T' and a time part when allowed. */
static bool parse_date_part(const char **sp, const char *end, int64_t *days) {
    const char *s = *sp;
    int y, m = 1, d = 1;
    bool neg = false;
    if (s < end && (*s == '-' || *s == '+')) neg = *s++ == '-';
    if (!read_int(&s, end, 7, &y)) return false;
    if (neg) y = -y;
    if (s < end && *s == '-') {
        s++;
        if (!read_int(&s, end, 2, &m)) return false;
        if (s < end && *s == '-') {
            s++;
            if (!read_int(&s, end, 2, &d)) return false;
        }
    }
    if (!valid_ymd(y, m, d)) return false;
    *days = days_from_civil(y, (unsigned)m, (unsigned)d);
    *sp = s;
    return true;
}

static void trim(const char **s, const char **e) {
    while (*s < *e && isspace((unsigned char)**s)) (*s)++;
    while (*e > *s && isspace((unsigned char)(*e)[-1])) (*e)--;
}

static bool parse_date_str(const char *s, size_t n, int64_t *days) {
    const char *e = s + n;
    trim(&s, &e);
    if (!parse_date_part(&s, e, days)) return false;
    return s == e || *s == ' ' || *s == 'T';
}

/* The wall-clock time written; zone[] the zone or offset after it ("" if none). */
static bool parse_timestamp_str(const char *s, size_t n, int64_t *micros, char *zone, size_t zone_size) {
    const char *e = s + n;
    zone[0] = '\0';
    trim(&s, &e);
    int64_t days;
    if (!parse_date_part(&s, e, &days)) return false;
    if (days > 106751991LL || days < -106751991LL) return false; /* outside the microsecond range */
    int64_t us = 0;
    if (s < e && (*s == ' ' || *s == 'T')) {
        s++;
        int h = 0, mi = 0, sec = 0;
        if (!read_int(&s, e, 2, &h)) return false;
        if (s < e && *s == ':') {
            s++;
            if (!read_int(&s, e, 2, &mi)) return false;
            if (s < e && *s == ':') {
                s++;
                if (!read_int(&s, e, 2, &sec)) return false;
                if (s < e && *s == '.') {
                    s++;
                    int64_t frac = 0;
                    int k = 0;
                    while (s < e && isdigit((unsigned char)*s)) {
                        if (k < 6) frac = frac * 10 + (*s - '0'), k++;
                        s++;
                    }
                    while (k < 6) frac *= 10, k++;
                    us = frac;
                }
            }
        }
        if (h > 23 || mi > 59 || sec > 59) return false;
        us += ((int64_t)h * 3600 + mi * 60 + sec) * 1000000;
        /* zone: Z, +hh:mm, -hh:mm, or a region name; the caller converts */
        while (s < e && *s == ' ') s++;
        if (s < e) {
            const char *zs = s;
            while (s < e && (isalnum((unsigned char)*s) || *s == '/' || *s == '_' || *s == '+' || *s == '-' || *s == ':'))
                s++;
            if (s != e || (size_t)(e - zs) >= zone_size) return false;
            memcpy(zone, zs, (size_t)(e - zs));
            zone[e - zs] = '\0';
        }
        if (s != e) return false;
    } else if (s != e) return false;
    *micros = days * 86400LL * 1000000 + us;
    return true;
}

static bool parse_hex(Parser *p, const char *s, size_t n, const char **out, uint32_t *outlen) {
    size_t bytes = (n + 1) / 2;
    char *b = arena_alloc(p->a, bytes + 1);
    size_t i = 0, j = 0;
    if (n % 2) {
        if (!isxdigit((unsigned char)s[0])) return false;
        b[j++] = (char)strtol((char[]){s[0], 0}, NULL, 16);
        i = 1;
    }
    for (; i < n; i += 2) {
        if (!isxdigit((unsigned char)s[i]) || !isxdigit((unsigned char)s[i + 1])) return false;
        char pair[3] = {s[i], s[i + 1], 0};
        b[j++] = (char)strtol(pair, NULL, 16);
    }
    *out = b;
    *outlen = (uint32_t)j;
    return true;
}

static const char *session_zone(const Parser *p) { return p->opts.time_zone ? p->opts.time_zone : "UTC"; }

static int64_t now_micros(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* An instant as the wall clock of zone z (micros). */
static bool to_wall(const char *z, int64_t instant, int64_t *out) {
    int32_t off;
    if (!tz_offset_at_instant(z, floor_div(instant, 1000000), &off)) return false;
    *out = instant + (int64_t)off * 1000000;
    return true;
}

/* DateTimeUtils' special values: `epoch`, `now`, `today`, `yesterday`,
 * `tomorrow`, optionally followed by a zone (`tomorrow EST`); 0 = unknown word,
 * 1..5 the word, *zone the zone or NULL. */
static int special_word(Parser *p, const char *s, size_t n, const char **zone) {
    static const char *const WORDS[] = {"epoch", "now", "today", "yesterday", "tomorrow"};
    const char *e = s + n;
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && isspace((unsigned char)e[-1])) e--;
    const char *w = s;
    while (s < e && isalpha((unsigned char)*s)) s++;
    size_t wl = (size_t)(s - w);
    for (int i = 0; i < 5; i++) {
        if (strlen(WORDS[i]) != wl || strncasecmp(w, WORDS[i], wl) != 0) continue;
        while (s < e && *s == ' ') s++;
        *zone = s < e ? arena_strndup(p->a, s, (size_t)(e - s)) : NULL;
        return i + 1;
    }
    return 0;
}

/* convertSpecialTimestamp / convertSpecialTimestampNTZ: the value as the
 * session zone's wall clock (today: midnight of today in the named zone) */
static bool special_timestamp(Parser *p, const char *s, size_t n, bool ntz, int64_t *out) {
    const char *zone;
    int w = special_word(p, s, n, &zone);
    if (!w || (w <= 2 && zone)) return false;
    const char *sz = session_zone(p), *z = zone ? zone : sz;
    int64_t instant = 0;
    if (w == 1) instant = 0;
    else {
        int64_t now = now_micros();
        if (w == 2) instant = now;
        else {
            int64_t local;
            if (!to_wall(z, now, &local)) return false;
            int64_t day = floor_div(local, 86400000000LL) + (w == 4 ? -1 : w == 5 ? 1 : 0);
            int32_t off;
            if (!tz_offset_at_local(z, day * 86400, &off)) return false;
            instant = day * 86400000000LL - (int64_t)off * 1000000;
        }
    }
    if (ntz && w == 1) {
        *out = 0;
        return true;
    }
    return to_wall(sz, instant, out);
}

/* convertSpecialDate: epoch, now/today, yesterday, tomorrow in the session zone */
static bool special_date(Parser *p, const char *s, size_t n, int64_t *days) {
    const char *zone;
    int w = special_word(p, s, n, &zone);
    if (!w || zone) return false;
    if (w == 1) {
        *days = 0;
        return true;
    }
    int64_t local;
    if (!to_wall(session_zone(p), now_micros(), &local)) return false;
    *days = floor_div(local, 86400000000LL) + (w == 4 ? -1 : w == 5 ? 1 : 0);
    return true;
}

Node *ps_parse_typed_literal(Parser *p, Keyword kind, int32_t start) {
    const Token *st = tk(p);
    size_t n;
    const char *s = ps_parse_string_lit(p, &n);
    const char *vt = NULL;
    switch (kind) {
    case KW_DATE: {
        int64_t d;
        if (special_date(p, s, n, &d) || parse_date_str(s, n, &d)) {
            Node *l = lit(p, &TYPE_DATE, start);
            l->u.lit.v.u.i = d;
            return node_finish(l);
        }
        vt = "\"DATE\"";
        break;
    }
    case KW_TIMESTAMP:
    case KW_TIMESTAMP_LTZ:
    case KW_TIMESTAMP_NTZ: {
        int64_t us;
        char zone[64];
        bool special = special_timestamp(p, s, n, kind == KW_TIMESTAMP_NTZ, &us);
        if (special || parse_timestamp_str(s, n, &us, zone, sizeof zone)) {
            /* TIMESTAMP is spark.sql.timestampType; under TIMESTAMP_NTZ a value
               naming a zone is still a TIMESTAMP (LTZ) literal */
            bool zoned = !special && zone[0];
            bool ntz = kind == KW_TIMESTAMP_NTZ || (kind == KW_TIMESTAMP && p->opts.timestamp_ntz && !zoned && !special);
            /* a zone written: the time as the session zone's wall clock
               (an NTZ literal drops the zone) */
            if (!ntz && zoned && !tz_convert_local(zone, session_zone(p), us, &us)) goto bad_ts;
            Node *l = lit(p, ntz ? &TYPE_TIMESTAMP_NTZ : &TYPE_TIMESTAMP, start);
            l->u.lit.v.u.i = us;
            return node_finish(l);
        }
    bad_ts:
        vt = kind == KW_TIMESTAMP_NTZ ? "\"TIMESTAMP_NTZ\"" : kind == KW_TIMESTAMP_LTZ ? "\"TIMESTAMP_LTZ\"" : "\"TIMESTAMP\"";
        break;
    }
    case KW_X: {
        const char *b;
        uint32_t bl;
        if (parse_hex(p, s, n, &b, &bl)) {
            Node *l = lit(p, &TYPE_BINARY, start);
            l->u.lit.v.u.s.p = b;
            l->u.lit.v.u.s.len = bl;
            return node_finish(l);
        }
        vt = "\"X\"";
        break;
    }
    case KW_INTERVAL: {
        Node *iv = ps_interval_from_string(p, s, n, start);
        if (iv) return iv;
        vt = "\"INTERVAL\"";
        break;
    }
    default: break;
    }
    ps_defer_error(p, ps_perr(p, "INVALID_TYPED_LITERAL", start, prev_stop(p), "valueType", vt ? vt : "\"?\"", "value",
                        arena_printf(p->a, "'%s'", s), NULL));
    (void)st;
    return ps_mk_lit_null(p, start, prev_stop(p));
}
