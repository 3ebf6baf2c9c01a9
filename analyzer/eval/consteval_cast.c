/* Spark's ANSI casts over constant values (Cast.scala with ansiEnabled):
 * string parsing of numbers, booleans, dates and timestamps as Spark's
 * UTF8String/DateTimeUtils accept them, range checks that raise
 * CAST_OVERFLOW / NUMERIC_VALUE_OUT_OF_RANGE, malformed input that raises
 * CAST_INVALID_INPUT, and the cast-to-string text of every type. Timestamps
 * are taken in UTC. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "consteval_int.h"
#include "print/printer.h"

enum { US_PER_SEC = 1000000 };
#define US_PER_DAY (86400LL * US_PER_SEC)

/* ---- calendar ---- */

int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = (int64_t)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = yy + (*m <= 2);
}

static bool leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static unsigned month_days(int64_t y, unsigned m) {
    static const unsigned D[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : D[m - 1];
}

static void trim_span(const char **s, uint32_t *n) {
    /* Spark trims ASCII whitespace and control characters (UTF8String.trimAll) */
    while (*n && (unsigned char)(*s)[0] <= ' ') (*s)++, (*n)--;
    while (*n && (unsigned char)(*s)[*n - 1] <= ' ') (*n)--;
}

/* Date part: [+-]yyyy[-[m]m[-[d]d]]; returns bytes consumed or 0. */
static uint32_t parse_date_part(const char *s, uint32_t n, int64_t *days) {
    uint32_t i = 0;
    int sign = 1;
    if (i < n && (s[i] == '+' || s[i] == '-')) sign = s[i++] == '-' ? -1 : 1;
    int64_t seg[3] = {0, 1, 1};
    int nseg = 0;
    while (nseg < 3) {
        uint32_t st = i;
        int64_t v = 0;
        while (i < n && isdigit((unsigned char)s[i]) && i - st < 10) v = v * 10 + (s[i++] - '0');
        uint32_t digits = i - st;
        if (nseg == 0 ? (digits < 4 || digits > 7) : (digits < 1 || digits > 2)) return 0;
        seg[nseg++] = v;
        if (i < n && s[i] == '-' && nseg < 3) {
            i++;
            continue;
        }
        break;
    }
    int64_t y = sign * seg[0];
    if (seg[1] < 1 || seg[1] > 12) return 0;
    if (seg[2] < 1 || (unsigned)seg[2] > month_days(y, (unsigned)seg[1])) return 0;
    *days = days_from_civil(y, (unsigned)seg[1], (unsigned)seg[2]);
    return i;
}

bool parse_date_text(const char *s, uint32_t n, int64_t *days) {
    trim_span(&s, &n);
    uint32_t used = parse_date_part(s, n, days);
    if (!used) return false;
    /* anything after a 'T' or a space is ignored, as Spark does */
    return used == n || s[used] == 'T' || s[used] == ' ';
}

static bool parse_zone(const char *s, uint32_t n, int64_t *offset_us) {
    *offset_us = 0;
    while (n && *s == ' ') s++, n--;
    if (!n) return true;
    if ((n == 1 && (*s == 'Z' || *s == 'z')) || (n == 3 && (!strncasecmp(s, "UTC", 3) || !strncasecmp(s, "GMT", 3))))
        return true;
    if (n > 3 && (!strncasecmp(s, "UTC", 3) || !strncasecmp(s, "GMT", 3))) s += 3, n -= 3;
    if (*s != '+' && *s != '-') return false;
    int sign = *s == '-' ? -1 : 1;
    s++, n--;
    int h = 0, m = 0;
    uint32_t i = 0;
    while (i < n && isdigit((unsigned char)s[i]) && i < 2) h = h * 10 + (s[i++] - '0');
    if (!i) return false;
    if (i < n && s[i] == ':') i++;
    uint32_t ms = i;
    while (i < n && isdigit((unsigned char)s[i]) && i - ms < 2) m = m * 10 + (s[i++] - '0');
    if (i != n || h > 18 || m > 59) return false;
    *offset_us = sign * ((int64_t)h * 3600 + m * 60) * US_PER_SEC;
    return true;
}

bool parse_timestamp_text(const char *s, uint32_t n, int64_t *micros) {
    trim_span(&s, &n);
    int64_t days;
    uint32_t i = parse_date_part(s, n, &days);
    if (!i) return false;
    int64_t us = 0;
    if (i < n) {
        if (s[i] != 'T' && s[i] != ' ') return false;
        i++;
        int64_t f[3] = {0, 0, 0};
        int nf = 0;
        while (nf < 3 && i < n && isdigit((unsigned char)s[i])) {
            uint32_t st = i;
            int64_t v = 0;
            while (i < n && isdigit((unsigned char)s[i]) && i - st < 2) v = v * 10 + (s[i++] - '0');
            f[nf++] = v;
            if (i < n && s[i] == ':' && nf < 3) i++;
            else break;
        }
        if (nf == 1 && i < n && s[i] != ':') {
            /* "2020-01-01 12" is not a timestamp */
            if (nf < 2) return false;
        }
        if (nf && nf < 2) return false;
        if (f[0] > 23 || f[1] > 59 || f[2] > 59) return false;
        us = ((f[0] * 60 + f[1]) * 60 + f[2]) * US_PER_SEC;
        if (i < n && s[i] == '.') {
            i++;
            int64_t frac = 0;
            int nd = 0;
            while (i < n && isdigit((unsigned char)s[i])) {
                if (nd < 6) frac = frac * 10 + (s[i] - '0'), nd++;
                i++;
            }
            while (nd < 6) frac *= 10, nd++;
            us += frac;
        }
        int64_t off;
        if (!parse_zone(s + i, n - i, &off)) return false;
        us -= off;
    }
    *micros = days * US_PER_DAY + us;
    return true;
}

/* ---- number parsing ---- */

/* Integer text (trimmed, optional sign, digits only): Spark's toLongExact. */
static bool parse_long_text(const char *s, uint32_t n, int64_t *out) {
    trim_span(&s, &n);
    if (!n) return false;
    uint32_t i = 0;
    bool neg = false;
    if (s[0] == '+' || s[0] == '-') neg = s[i++] == '-';
    if (i == n) return false;
    unsigned __int128 v = 0;
    for (; i < n; i++) {
        if (!isdigit((unsigned char)s[i])) return false;
        v = v * 10 + (unsigned)(s[i] - '0');
        if (v > (unsigned __int128)INT64_MAX + 1) return false;
    }
    if (!neg && v > (unsigned __int128)INT64_MAX) return false;
    *out = neg ? (int64_t)(0 - (uint64_t)v) : (int64_t)v;
    return true;
}

/* Decimal text: [+-]digits[.digits][e[+-]digits] into unscaled/scale
 * (scale may be negative before adjustment). */
static bool parse_decimal_text(const char *s, uint32_t n, __int128 *unscaled, int *scale, int *digits) {
    trim_span(&s, &n);
    if (!n) return false;
    uint32_t i = 0;
    bool neg = false;
    if (s[0] == '+' || s[0] == '-') neg = s[i++] == '-';
    __int128 v = 0;
    int nd = 0, sc = 0, sig = 0;
    bool any = false, dot = false;
    for (; i < n; i++) {
        char c = s[i];
        if (isdigit((unsigned char)c)) {
            any = true;
            if (sig < 38) {
                v = v * 10 + (c - '0');
                if (v) sig++;
                if (dot) sc++;
            } else if (!dot) sc--; /* too many digits: drop (precision check fails later) */
            nd++;
        } else if (c == '.' && !dot) dot = true;
        else break;
    }
    if (!any) return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int64_t e;
        if (!parse_long_text(s + i, n - i, &e) || e > 1000 || e < -1000) return false;
        sc -= (int)e;
        i = n;
    }
    if (i != n) return false;
    *unscaled = neg ? -v : v;
    *scale = sc;
    *digits = sig;
    (void)nd;
    return true;
}

static bool parse_double_text(const char *s, uint32_t n, double *out) {
    trim_span(&s, &n);
    if (!n || n > 400) return false;
    char buf[512];
    mem_copy(buf, s, n);
    buf[n] = 0;
    const char *p = buf;
    int sign = 1;
    if (*p == '+' || *p == '-') sign = *p++ == '-' ? -1 : 1;
    if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity")) {
        *out = sign * INFINITY;
        return true;
    }
    if (!strcasecmp(p, "nan")) {
        *out = NAN;
        return true;
    }
    /* Java accepts a trailing d/D/f/F type suffix */
    size_t L = strlen(buf);
    if (L && strchr("dDfF", buf[L - 1])) buf[--L] = 0;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q) && !strchr(".eE+-", *q)) return false;
    char *end;
    double d = strtod(buf, &end);
    if (*end || end == buf) return false;
    *out = d;
    return true;
}

/* ---- to string ---- */

static void text_of(StrBuf *sb, const Value *v, const DataType *t);

static void text_item(StrBuf *sb, const Value *v, const DataType *t) {
    if (v->is_null) sb_puts(sb, "null");
    else text_of(sb, v, v->type && v->type->id != T_NULL ? v->type : t);
}

static void text_of(StrBuf *sb, const Value *v, const DataType *t) {
    switch (t->id) {
    case T_BINARY: sb_putn(sb, v->u.s.p, v->u.s.len); return;
    case T_ARRAY:
        sb_putc(sb, '[');
        for (uint32_t i = 0; i < v->u.list.n; i++) {
            if (i) sb_puts(sb, ", ");
            text_item(sb, &v->u.list.items[i], t->elem);
        }
        sb_putc(sb, ']');
        return;
    case T_MAP:
        sb_putc(sb, '{');
        for (uint32_t i = 0; i < v->u.list.n; i++) {
            if (i) sb_puts(sb, ", ");
            text_item(sb, &v->u.list.items[2 * i], t->elem);
            sb_puts(sb, " -> ");
            text_item(sb, &v->u.list.items[2 * i + 1], t->value);
        }
        sb_putc(sb, '}');
        return;
    case T_STRUCT:
        sb_putc(sb, '{');
        for (uint32_t i = 0; i < v->u.list.n; i++) {
            if (i) sb_puts(sb, ", ");
            text_item(sb, &v->u.list.items[i], (int)i < t->nfields ? t->fields[i].type : &TYPE_NULL);
        }
        sb_putc(sb, '}');
        return;
    default: {
        Value x = *v;
        x.type = t;
        value_print(sb, &x);
        return;
    }
    }
}

const char *value_to_text(Arena *a, const Value *v, uint32_t *len) {
    StrBuf sb;
    sb_init(&sb, a, 32);
    text_of(&sb, v, v->type);
    *len = (uint32_t)sb.len;
    return sb_str(&sb);
}

/* ---- errors ---- */

static const char *value_sql(Arena *a, const Value *v) {
    StrBuf sb;
    sb_init(&sb, a, 32);
    value_print_sql(&sb, v);
    return sb_str(&sb);
}

static EvStatus invalid_input(Eval *ev, const Value *in, const DataType *to, const Node *at) {
    Arena *a = ev->an->arena;
    return ev_fail(ev, error_make(a, "CAST_INVALID_INPUT", at, "expression", value_sql(a, in), "sourceType",
                                  sql_type_quoted(a, in->type), "targetType", sql_type_quoted(a, to), NULL));
}

static EvStatus overflow(Eval *ev, const Value *in, const DataType *to, const Node *at) {
    Arena *a = ev->an->arena;
    return ev_fail(ev, error_make(a, "CAST_OVERFLOW", at, "value", value_sql(a, in), "sourceType",
                                  sql_type_quoted(a, in->type), "targetType", sql_type_quoted(a, to), NULL));
}

static EvStatus out_of_range(Eval *ev, const Value *in, const DataType *to, const Node *at) {
    Arena *a = ev->an->arena;
    return ev_fail(ev, error_make(a, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION", at, "value", value_sql(a, in),
                                  "precision", arena_printf(a, "%d", to->precision), "scale",
                                  arena_printf(a, "%d", to->scale), "config", sql_conf(a, "spark.sql.ansi.enabled"),
                                  NULL));
}

/* ---- casts ---- */

static bool integral_range(TypeId id, int64_t *lo, int64_t *hi) {
    switch (id) {
    case T_BYTE: *lo = INT8_MIN, *hi = INT8_MAX; return true;
    case T_SHORT: *lo = INT16_MIN, *hi = INT16_MAX; return true;
    case T_INT: *lo = INT32_MIN, *hi = INT32_MAX; return true;
    case T_LONG: *lo = INT64_MIN, *hi = INT64_MAX; return true;
    default: return false;
    }
}

static EvStatus to_integral(Eval *ev, const Value *in, const DataType *to, const Node *at, Value *out) {
    int64_t lo, hi, v;
    integral_range(to->id, &lo, &hi);
    const DataType *f = in->type;
    switch (f->id) {
    case T_BOOLEAN: v = in->u.b; break;
    case T_BYTE:
    case T_SHORT:
    case T_INT:
    case T_LONG: v = in->u.i; break;
    case T_FLOAT:
    case T_DOUBLE: {
        double d = in->u.d;
        if (d != d || d >= (double)hi + 1.0 || d <= (double)lo - 1.0) return overflow(ev, in, to, at);
        v = (int64_t)d;
        break;
    }
    case T_DECIMAL: {
        __int128 q = in->u.dec / pow10_i128(f->scale);
        if (q > hi || q < lo) return overflow(ev, in, to, at);
        v = (int64_t)q;
        break;
    }
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR:
        if (!parse_long_text(in->u.s.p, in->u.s.len, &v) || v < lo || v > hi) return invalid_input(ev, in, to, at);
        break;
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ: {
        int64_t s = in->u.i / US_PER_SEC - (in->u.i % US_PER_SEC < 0);
        v = s;
        break;
    }
    case T_YM_INTERVAL: v = in->u.i; break;
    case T_DT_INTERVAL: v = in->u.iv.micros / US_PER_SEC; break;
    default: return EV_NOTCONST;
    }
    if (v < lo || v > hi) return overflow(ev, in, to, at);
    *out = v_long(to, v);
    return EV_OK;
}

static EvStatus dec_result(Eval *ev, const Value *in, __int128 unscaled, int scale, const DataType *to, const Node *at,
                           Value *out) {
    if (scale < to->scale && to->scale - scale > 38) return out_of_range(ev, in, to, at);
    __int128 r = dec_rescale(unscaled, scale, to->scale);
    if (!dec_fits(r, to->precision)) return out_of_range(ev, in, to, at);
    *out = v_dec(to, r);
    return EV_OK;
}

static EvStatus to_decimal(Eval *ev, const Value *in, const DataType *to, const Node *at, Value *out) {
    const DataType *f = in->type;
    switch (f->id) {
    case T_BOOLEAN: return dec_result(ev, in, in->u.b, 0, to, at, out);
    case T_BYTE:
    case T_SHORT:
    case T_INT:
    case T_LONG: return dec_result(ev, in, in->u.i, 0, to, at, out);
    case T_DECIMAL: return dec_result(ev, in, in->u.dec, f->scale, to, at, out);
    case T_FLOAT:
    case T_DOUBLE: {
        double d = in->u.d;
        if (d != d || isinf(d)) return overflow(ev, in, to, at);
        /* Spark goes through the double's shortest decimal text */
        StrBuf sb;
        sb_init(&sb, ev->an->arena, 32);
        Value dv = v_double(&TYPE_DOUBLE, f->id == T_FLOAT ? (double)(float)d : d);
        if (f->id == T_FLOAT) {
            dv.type = &TYPE_FLOAT;
        }
        value_print(&sb, &dv);
        __int128 u;
        int sc, nd;
        if (!parse_decimal_text(sb.data, (uint32_t)sb.len, &u, &sc, &nd)) return overflow(ev, in, to, at);
        return dec_result(ev, in, u, sc, to, at, out);
    }
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR: {
        __int128 u;
        int sc, nd;
        if (!parse_decimal_text(in->u.s.p, in->u.s.len, &u, &sc, &nd)) return invalid_input(ev, in, to, at);
        if (sc < 0) {
            if (-sc > 38 || __builtin_mul_overflow(u, pow10_i128(-sc), &u)) return out_of_range(ev, in, to, at);
            sc = 0;
        }
        return dec_result(ev, in, u, sc, to, at, out);
    }
    default: return EV_NOTCONST;
    }
}

static EvStatus to_fractional(Eval *ev, const Value *in, const DataType *to, const Node *at, Value *out) {
    double d;
    switch (in->type->id) {
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR:
        if (!parse_double_text(in->u.s.p, in->u.s.len, &d)) return invalid_input(ev, in, to, at);
        break;
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ: d = (double)in->u.i / US_PER_SEC; break;
    default:
        if (!type_is_numeric(in->type) && in->type->id != T_BOOLEAN) return EV_NOTCONST;
        d = value_as_double(in);
    }
    if (to->id == T_FLOAT) d = (double)(float)d;
    *out = v_double(to, d);
    return EV_OK;
}

static EvStatus to_boolean(Eval *ev, const Value *in, const DataType *to, const Node *at, Value *out) {
    if (type_is_string(in->type)) {
        const char *s = in->u.s.p;
        uint32_t n = in->u.s.len;
        trim_span(&s, &n);
        static const char *const T[] = {"t", "true", "y", "yes", "1"};
        static const char *const F[] = {"f", "false", "n", "no", "0"};
        for (size_t i = 0; i < 5; i++) {
            if (strlen(T[i]) == n && !strncasecmp(s, T[i], n)) {
                *out = v_bool(true);
                return EV_OK;
            }
            if (strlen(F[i]) == n && !strncasecmp(s, F[i], n)) {
                *out = v_bool(false);
                return EV_OK;
            }
        }
        return invalid_input(ev, in, to, at);
    }
    if (type_is_numeric(in->type)) {
        *out = v_bool(in->type->id == T_DECIMAL ? in->u.dec != 0 : value_as_double(in) != 0);
        return EV_OK;
    }
    return EV_NOTCONST;
}

static EvStatus to_date(Eval *ev, const Value *in, const DataType *to, const Node *at, Value *out) {
    int64_t days;
    switch (in->type->id) {
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR:
        if (!parse_date_text(in->u.s.p, in->u.s.len, &days)) return invalid_input(ev, in, to, at);
        break;
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ: days = in->u.i / US_PER_DAY - (in->u.i % US_PER_DAY < 0); break;
    default: return EV_NOTCONST;
    }
    *out = v_long(to, days);
    return EV_OK;
}

static EvStatus to_timestamp(Eval *ev, const Value *in, const DataType *to, const Node *at, Value *out) {
    int64_t us;
    switch (in->type->id) {
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR:
        if (!parse_timestamp_text(in->u.s.p, in->u.s.len, &us)) return invalid_input(ev, in, to, at);
        break;
    case T_DATE: us = in->u.i * US_PER_DAY; break;
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ: us = in->u.i; break;
    case T_BYTE:
    case T_SHORT:
    case T_INT:
    case T_LONG:
        if (__builtin_mul_overflow(in->u.i, (int64_t)US_PER_SEC, &us)) return overflow(ev, in, to, at);
        break;
    case T_FLOAT:
    case T_DOUBLE: {
        double d = in->u.d * US_PER_SEC;
        if (d != d || isinf(d) || d > 9.2e18 || d < -9.2e18) return overflow(ev, in, to, at);
        us = (int64_t)d;
        break;
    }
    case T_DECIMAL: us = (int64_t)dec_rescale(in->u.dec, in->type->scale, 6); break;
    default: return EV_NOTCONST;
    }
    *out = v_long(to, us);
    return EV_OK;
}

static EvStatus to_complex(Eval *ev, const Value *in, const DataType *to, const Node *at, Value *out) {
    const DataType *f = in->type;
    if (f->id != to->id) return EV_NOTCONST;
    uint32_t n = to->id == T_MAP ? in->u.list.n * 2 : in->u.list.n;
    Value *items = ARENA_ARRAY(ev->an->arena, Value, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        const DataType *it;
        if (to->id == T_ARRAY) it = to->elem;
        else if (to->id == T_MAP) it = i % 2 ? to->value : to->elem;
        else {
            if ((int)i >= to->nfields) return EV_NOTCONST;
            it = to->fields[i].type;
        }
        Value x = in->u.list.items[i];
        if (!x.type || x.type->id == T_NULL) x.type = to->id == T_ARRAY ? f->elem : to->id == T_MAP ? (i % 2 ? f->value : f->elem)
                                                                                                    : ((int)i < f->nfields ? f->fields[i].type : &TYPE_NULL);
        if (!x.type) x.type = &TYPE_NULL;
        EvStatus st = ev_cast(ev, &x, it, at, &items[i]);
        if (st) return st;
    }
    *out = (Value){.type = to};
    out->u.list.items = items;
    out->u.list.n = in->u.list.n;
    return EV_OK;
}

EvStatus ev_cast(Eval *ev, const Value *in, const DataType *to, const Node *at, Value *out) {
    if (in->is_null || !in->type || in->type->id == T_NULL) {
        *out = v_null(to);
        return EV_OK;
    }
    const DataType *f = in->type;
    if (type_equal(f, to) || (type_is_string(f) && type_is_string(to))) {
        *out = *in;
        out->type = to;
        return EV_OK;
    }
    switch (to->id) {
    case T_NULL: *out = v_null(to); return EV_OK;
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR: {
        uint32_t n;
        const char *s = value_to_text(ev->an->arena, in, &n);
        *out = (Value){.type = to};
        out->u.s.p = s;
        out->u.s.len = n;
        return EV_OK;
    }
    case T_BINARY:
        if (!type_is_string(f)) return EV_NOTCONST;
        *out = *in;
        out->type = to;
        return EV_OK;
    case T_BOOLEAN: return to_boolean(ev, in, to, at, out);
    case T_BYTE:
    case T_SHORT:
    case T_INT:
    case T_LONG: return to_integral(ev, in, to, at, out);
    case T_FLOAT:
    case T_DOUBLE: return to_fractional(ev, in, to, at, out);
    case T_DECIMAL: return to_decimal(ev, in, to, at, out);
    case T_DATE: return to_date(ev, in, to, at, out);
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ: return to_timestamp(ev, in, to, at, out);
    case T_ARRAY:
    case T_MAP:
    case T_STRUCT: return to_complex(ev, in, to, at, out);
    case T_YM_INTERVAL:
        if (f->id == T_YM_INTERVAL) {
            *out = *in;
            out->type = to;
            return EV_OK;
        }
        return EV_NOTCONST;
    case T_DT_INTERVAL:
        if (f->id == T_DT_INTERVAL) {
            *out = *in;
            out->type = to;
            return EV_OK;
        }
        return EV_NOTCONST;
    default: return EV_NOTCONST;
    }
}
