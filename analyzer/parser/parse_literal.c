/* Literals as Spark's AstBuilder builds them: numbers (int → bigint →
 * decimal; L/S/Y/BD/D/F suffixes; exponent → double), strings with Spark's
 * escapes (adjacent literals concatenated), typed literals (DATE, TIMESTAMP,
 * TIMESTAMP_NTZ/LTZ, X'..', INTERVAL '..') and interval literals in all of
 * Spark's forms, with the ANSI interval types Spark 4 gives them.
 * Timestamps with a time zone are taken as UTC (no session time zone here). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parser_int.h"

/* ---- strings ---- */

bool ps_at_string(const Parser *p) {
    const Token *t = tk(p);
    return t->kind == TK_STRING && !(p->opts.double_quoted_identifiers && t->suffix == '"');
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
            /* \uXXXX */
            if (d == 'u' && i + 4 < n + 0 && isxdigit((unsigned char)s[i + 1]) && isxdigit((unsigned char)s[i + 2]) &&
                isxdigit((unsigned char)s[i + 3]) && isxdigit((unsigned char)s[i + 4])) {
                unsigned cp = (unsigned)strtoul(arena_strndup(p->a, s + i + 1, 4), NULL, 16);
                i += 4;
                if (cp < 0x80) out[j++] = (char)cp;
                else if (cp < 0x800) {
                    out[j++] = (char)(0xC0 | (cp >> 6));
                    out[j++] = (char)(0x80 | (cp & 0x3F));
                } else {
                    out[j++] = (char)(0xE0 | (cp >> 12));
                    out[j++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                    out[j++] = (char)(0x80 | (cp & 0x3F));
                }
                continue;
            }
            /* octal \ddd */
            if (d >= '0' && d <= '3' && i + 2 < n && s[i + 1] >= '0' && s[i + 1] <= '7' && s[i + 2] >= '0' &&
                s[i + 2] <= '7') {
                out[j++] = (char)(((d - '0') << 6) | ((s[i + 1] - '0') << 3) | (s[i + 2] - '0'));
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

static Node *lit(Parser *p, const DataType *t, int32_t start) {
    Node *n = node_new(p->a, NK_Literal, start, prev_stop(p));
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
    char *raw = arena_printf(p->a, "%s%.*s", neg ? "-" : "", (int)digits_len, txt);
    advance(p);
    if (t->kind == TK_INT) {
        errno = 0;
        long long v = strtoll(raw, NULL, 10);
        bool overflow = errno == ERANGE;
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
        Node *l = lit(p, suf == 'F' ? &TYPE_FLOAT : &TYPE_DOUBLE, start);
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
        exp10 = atoi(e + 1);
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
    if (scale < 0) scale = 0;
    if (prec < scale) prec = scale;
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

static bool parse_timestamp_str(const char *s, size_t n, int64_t *micros) {
    const char *e = s + n;
    trim(&s, &e);
    int64_t days;
    if (!parse_date_part(&s, e, &days)) return false;
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
        /* zone: Z, +hh:mm, -hh:mm, or a region name: accepted, taken as UTC offset 0 unless numeric */
        while (s < e && *s == ' ') s++;
        if (s < e) {
            if (*s == 'Z' && s + 1 == e) s++;
            else if (*s == '+' || *s == '-') {
                int sign = *s == '-' ? -1 : 1, oh = 0, om = 0;
                s++;
                if (!read_int(&s, e, 2, &oh)) return false;
                if (s < e && *s == ':') s++;
                read_int(&s, e, 2, &om);
                us -= sign * ((int64_t)oh * 3600 + om * 60) * 1000000;
            } else {
                while (s < e && (isalnum((unsigned char)*s) || *s == '/' || *s == '_' || *s == '+' || *s == '-' ||
                                 *s == ':'))
                    s++;
            }
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

/* ---- intervals ---- */

typedef struct Iv {
    int64_t months, days, micros;
} Iv;

enum { U_YEAR, U_MONTH, U_WEEK, U_DAY, U_HOUR, U_MINUTE, U_SECOND, U_MILLI, U_MICRO, U_NONE };

static int unit_of(const char *s, size_t n) {
    static const char *const names[] = {"year", "month", "week", "day", "hour", "minute", "second", "millisecond", "microsecond"};
    if (n > 1 && (s[n - 1] == 's' || s[n - 1] == 'S')) {
        for (int u = 0; u < U_NONE; u++)
            if (strlen(names[u]) == n - 1 && strncasecmp(names[u], s, n - 1) == 0) return u;
    }
    for (int u = 0; u < U_NONE; u++)
        if (strlen(names[u]) == n && strncasecmp(names[u], s, n) == 0) return u;
    return U_NONE;
}

/* Adds value (text, may be decimal for seconds-ish units) of unit to iv. */
static bool iv_add(Iv *iv, const char *v, size_t vn, int unit) {
    char buf[64];
    if (vn == 0 || vn >= sizeof buf) return false;
    memcpy(buf, v, vn);
    buf[vn] = 0;
    char *end;
    if (strchr(buf, '.')) {
        if (unit < U_DAY) return false;
        double d = strtod(buf, &end);
        if (*end) return false;
        static const double mul[] = {0, 0, 7 * 86400e6, 86400e6, 3600e6, 60e6, 1e6, 1e3, 1};
        iv->micros += (int64_t)(d * mul[unit] + (d < 0 ? -0.5 : 0.5));
        return true;
    }
    errno = 0;
    long long x = strtoll(buf, &end, 10);
    if (*end || errno) return false;
    switch (unit) {
    case U_YEAR: iv->months += x * 12; break;
    case U_MONTH: iv->months += x; break;
    case U_WEEK: iv->days += x * 7; break;
    case U_DAY: iv->days += x; break;
    case U_HOUR: iv->micros += x * 3600000000LL; break;
    case U_MINUTE: iv->micros += x * 60000000LL; break;
    case U_SECOND: iv->micros += x * 1000000LL; break;
    case U_MILLI: iv->micros += x * 1000LL; break;
    case U_MICRO: iv->micros += x; break;
    default: return false;
    }
    return true;
}

/* Spark's stringToInterval: "[interval] [+|-]N unit [...]". */
static bool string_to_interval(const char *s, size_t n, Iv *iv, unsigned *units_seen) {
    const char *e = s + n;
    memset(iv, 0, sizeof *iv);
    trim(&s, &e);
    if (e - s >= 8 && strncasecmp(s, "interval", 8) == 0) s += 8;
    bool any = false;
    for (;;) {
        while (s < e && isspace((unsigned char)*s)) s++;
        if (s >= e) break;
        const char *v = s;
        if (*s == '+' || *s == '-') s++;
        while (s < e && (isdigit((unsigned char)*s) || *s == '.')) s++;
        size_t vn = (size_t)(s - v);
        while (s < e && isspace((unsigned char)*s)) s++;
        const char *u = s;
        while (s < e && isalpha((unsigned char)*s)) s++;
        int unit = unit_of(u, (size_t)(s - u));
        if (unit == U_NONE) return false;
        const char *vv = v;
        if (*vv == '+') vv++, vn--;
        if (!iv_add(iv, vv, vn, unit)) return false;
        if (units_seen) *units_seen |= 1u << unit;
        any = true;
    }
    return any;
}

static Node *iv_literal(Parser *p, const Iv *iv, const DataType *t, int32_t start) {
    Node *l = lit(p, t, start);
    if (t->id == T_YM_INTERVAL) l->u.lit.v.u.i = iv->months;
    else if (t->id == T_DT_INTERVAL) l->u.lit.v.u.iv.micros = iv->days * 86400000000LL + iv->micros;
    else {
        l->u.lit.v.u.iv.months = (int32_t)iv->months;
        l->u.lit.v.u.iv.days = (int32_t)iv->days;
        l->u.lit.v.u.iv.micros = iv->micros;
    }
    return node_finish(l);
}

Node *ps_parse_typed_literal(Parser *p, Keyword kind, int32_t start) {
    const Token *st = tk(p);
    size_t n;
    const char *s = ps_parse_string_lit(p, &n);
    const char *vt = NULL;
    switch (kind) {
    case KW_DATE: {
        int64_t d;
        if (parse_date_str(s, n, &d)) {
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
        if (parse_timestamp_str(s, n, &us)) {
            Node *l = lit(p, kind == KW_TIMESTAMP_NTZ ? &TYPE_TIMESTAMP_NTZ : &TYPE_TIMESTAMP, start);
            l->u.lit.v.u.i = us;
            return node_finish(l);
        }
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
        Iv iv;
        if (string_to_interval(s, n, &iv, NULL)) return iv_literal(p, &iv, &TYPE_CALENDAR_INTERVAL, start);
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

static int ym_field(int u) { return u == U_YEAR ? IF_YEAR : IF_MONTH; }
static int dt_field(int u) { return u == U_DAY ? IF_DAY : u == U_HOUR ? IF_HOUR : u == U_MINUTE ? IF_MINUTE : IF_SECOND; }

static bool at_interval_unit(const Parser *p, int *u) {
    const Token *t = tk(p);
    if (t->kind != TK_WORD) return false;
    *u = unit_of(p->sql + t->start, (size_t)(t->end - t->start));
    return *u != U_NONE;
}

/* '1-2' YEAR TO MONTH / '1 2:3:4.5' DAY TO SECOND etc. */
static bool unit_to_unit(const char *s, size_t n, int from, int to, Iv *iv) {
    const char *e = s + n;
    memset(iv, 0, sizeof *iv);
    trim(&s, &e);
    int sign = 1;
    if (s < e && (*s == '-' || *s == '+')) sign = *s++ == '-' ? -1 : 1;
    if (to == U_MONTH) {
        int y = 0, m = 0;
        if (from == U_YEAR) {
            if (!read_int(&s, e, 10, &y) || s >= e || *s != '-') return false;
            s++;
        }
        if (!read_int(&s, e, 10, &m) || s != e) return false;
        iv->months = sign * ((int64_t)y * 12 + m);
        return true;
    }
    int64_t f[4] = {0, 0, 0, 0}; /* day hour minute second */
    int fi = from == U_DAY ? 0 : from == U_HOUR ? 1 : from == U_MINUTE ? 2 : 3;
    int ti = to == U_DAY ? 0 : to == U_HOUR ? 1 : to == U_MINUTE ? 2 : 3;
    int64_t frac = 0;
    for (int i = fi; i <= ti; i++) {
        int v;
        if (!read_int(&s, e, 10, &v)) return false;
        f[i] = v;
        if (i == 3 && s < e && *s == '.') {
            s++;
            int k = 0;
            while (s < e && isdigit((unsigned char)*s)) {
                if (k < 6) frac = frac * 10 + (*s - '0'), k++;
                s++;
            }
            while (k < 6) frac *= 10, k++;
        }
        if (i < ti) {
            char sep = i == 0 ? ' ' : ':';
            if (s >= e || *s != sep) return false;
            s++;
        }
    }
    if (s != e) return false;
    iv->micros = sign * ((((f[0] * 24 + f[1]) * 60 + f[2]) * 60 + f[3]) * 1000000 + frac);
    return true;
}

Node *ps_parse_interval(Parser *p, int32_t start) {
    /* INTERVAL 'str' (no unit) is a typed literal */
    if (ps_at_string(p)) {
        int save = p->pos;
        size_t n;
        ps_parse_string_lit(p, &n);
        int u;
        if (!at_interval_unit(p, &u)) {
            p->pos = save;
            return ps_parse_typed_literal(p, KW_INTERVAL, start);
        }
        p->pos = save;
    }
    /* multi-unit or unit-to-unit */
    Iv total = {0, 0, 0};
    unsigned ym = 0, dt = 0, other = 0;
    int count = 0;
    for (;;) {
        bool neg = false;
        int32_t vstart = cur_start(p);
        const char *vtext;
        size_t vn;
        bool is_str = false;
        if (is_op(p, OP_MINUS) || is_op(p, OP_PLUS)) {
            neg = is_op(p, OP_MINUS);
            advance(p);
        }
        if (ps_at_string(p)) {
            vtext = ps_parse_string_lit(p, &vn);
            is_str = true;
        } else if (tk(p)->kind == TK_INT || tk(p)->kind == TK_DECIMAL) {
            vtext = ps_tok_text(p, tk(p));
            vn = strlen(vtext);
            advance(p);
        } else {
            if (count) break;
            ps_syntax_error(p, "");
        }
        int u;
        if (!at_interval_unit(p, &u)) ps_syntax_error(p, "");
        const Token *ut = tk(p);
        advance(p);
        if (is_kw(p, KW_TO) && count == 0) {
            advance(p);
            int to;
            if (!at_interval_unit(p, &to)) ps_syntax_error(p, "");
            advance(p);
            Iv iv;
            bool ok = is_str && ((to == U_MONTH && u == U_YEAR) ||
                                 (to >= U_HOUR && to <= U_SECOND && u >= U_DAY && u < to && u != U_WEEK));
            if (ok) ok = unit_to_unit(vtext, vn, u, to, &iv);
            if (!ok) {
                ps_defer_error(p, ps_perr(p, "INVALID_INTERVAL_FORMAT.UNSUPPORTED_FROM_TO_EXPRESSION", vstart, prev_stop(p),
                                    "input", arena_printf(p->a, "%s", vtext), "from",
                                    ps_tok_text(p, ut), "to", ps_tok_text(p, &p->t[p->pos - 1]), NULL));
                return ps_mk_lit_null(p, start, prev_stop(p));
            }
            if (neg) iv.months = -iv.months, iv.micros = -iv.micros;
            if (to == U_MONTH) return iv_literal(p, &iv, type_ym_interval(p->a, ym_field(u), IF_MONTH), start);
            return iv_literal(p, &iv, type_dt_interval(p->a, dt_field(u), dt_field(to)), start);
        }
        /* value unit: parse "value unit" through stringToInterval's rules */
        Iv one;
        char *buf = arena_printf(p->a, "%s%.*s %s", neg ? "-" : "", (int)vn, vtext, ps_tok_text(p, ut));
        if (is_str && vn && (vtext[0] == '-' || vtext[0] == '+') && neg) buf = arena_printf(p->a, "%.*s %s", (int)vn, vtext, ps_tok_text(p, ut));
        if (!string_to_interval(buf, strlen(buf), &one, NULL)) {
            ps_defer_error(p, ps_perr(p, "INVALID_INTERVAL_FORMAT.INVALID_VALUE", vstart, prev_stop(p), "input",
                                      arena_printf(p->a, "%.*s", (int)vn, vtext), "value",
                                      arena_printf(p->a, "%.*s", (int)vn, vtext), NULL));
            return ps_mk_lit_null(p, start, prev_stop(p));
        }
        total.months += one.months;
        total.days += one.days;
        total.micros += one.micros;
        if (u == U_YEAR || u == U_MONTH) ym |= 1u << ym_field(u);
        else if (u == U_DAY || u == U_HOUR || u == U_MINUTE || u == U_SECOND) dt |= 1u << dt_field(u);
        else other |= 1u << u;
        count++;
        /* continue while another value follows */
        if (!(ps_at_string(p) || tk(p)->kind == TK_INT || tk(p)->kind == TK_DECIMAL ||
              ((is_op(p, OP_MINUS) || is_op(p, OP_PLUS)) &&
               (tk_at(p, 1)->kind == TK_INT || tk_at(p, 1)->kind == TK_DECIMAL || tk_at(p, 1)->kind == TK_STRING))))
            break;
        {
            /* the next value must be followed by a unit, else it is not ours */
            int off = (is_op(p, OP_MINUS) || is_op(p, OP_PLUS)) ? 2 : 1;
            const Token *nt = tk_at(p, off);
            if (nt->kind != TK_WORD || unit_of(p->sql + nt->start, (size_t)(nt->end - nt->start)) == U_NONE) break;
        }
    }
    if (ym && dt) {
        ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0029", start, prev_stop(p), "literal",
                                  arena_strndup(p->a, p->sql + start, (size_t)(prev_stop(p) - start + 1)), NULL));
        return ps_mk_lit_null(p, start, prev_stop(p));
    }
    if (ym) {
        int lo = (ym & 1) ? IF_YEAR : IF_MONTH, hi = (ym & 2) ? IF_MONTH : IF_YEAR;
        return iv_literal(p, &total, type_ym_interval(p->a, lo, hi), start);
    }
    if (dt) {
        int lo = 0, hi = 3;
        while (!(dt & (1u << lo))) lo++;
        while (!(dt & (1u << hi))) hi--;
        return iv_literal(p, &total, type_dt_interval(p->a, lo, hi), start);
    }
    (void)other;
    return iv_literal(p, &total, &TYPE_CALENDAR_INTERVAL, start);
}
