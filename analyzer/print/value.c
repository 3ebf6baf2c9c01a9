/* Constant values: Spark's Literal.toString (value_print) and Literal.sql
 * (value_print_sql), with the date/time and interval formats they use. */
#include <stdio.h>
#include <string.h>

#include "print_internal.h"
#include "printer.h"

enum { MICROS_PER_SECOND = 1000000 };
#define MICROS_PER_MINUTE (60LL * MICROS_PER_SECOND)
#define MICROS_PER_HOUR (60LL * MICROS_PER_MINUTE)
#define MICROS_PER_DAY (24LL * MICROS_PER_HOUR)

/* "%lld" / "%llu" without printf: integer literals, ids and counts are
 * everywhere in plans, and vsnprintf cost many times the digits. */
void print_uint64(StrBuf *sb, unsigned long long u) {
    char digits[24];
    size_t at = sizeof digits;
    do digits[--at] = (char)('0' + u % 10);
    while (u /= 10);
    pr_putn(sb, digits + at, sizeof digits - at);
}

void print_int64(StrBuf *sb, long long v) {
    char digits[24];
    size_t at = sizeof digits;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do digits[--at] = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0) digits[--at] = '-';
    pr_putn(sb, digits + at, sizeof digits - at);
}

static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

/* Proleptic Gregorian civil date from days since 1970-01-01 (H. Hinnant). */
static void civil(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
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

static void year_print(StrBuf *sb, int64_t y) {
    /* java.time prints years beyond 4 digits with a sign */
    if (y > 9999)
        sb_printf(sb, "+%lld", (long long)y);
    else if (y < 0)
        sb_printf(sb, "-%04lld", (long long)-y);
    else { /* 0000-9999: the common case, without printf */
        char b[4] = {(char)('0' + y / 1000), (char)('0' + y / 100 % 10), (char)('0' + y / 10 % 10), (char)('0' + y % 10)};
        pr_putn(sb, b, sizeof b);
    }
}

void date_print(StrBuf *sb, int64_t days) {
    int64_t y;
    unsigned m, d;
    civil(days, &y, &m, &d);
    year_print(sb, y);
    /* "-%02u-%02u": m is 1..12 and d 1..31 */
    char b[6] = {'-', (char)('0' + m / 10), (char)('0' + m % 10), '-', (char)('0' + d / 10), (char)('0' + d % 10)};
    pr_putn(sb, b, sizeof b);
}

void timestamp_print(StrBuf *sb, int64_t micros) {
    int64_t days = floor_div(micros, MICROS_PER_DAY);
    int64_t rest = micros - days * MICROS_PER_DAY;
    date_print(sb, days);
    int64_t secs = rest / MICROS_PER_SECOND;
    int frac = (int)(rest % MICROS_PER_SECOND);
    sb_printf(sb, " %02d:%02d:%02d", (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
    if (frac) {
        char f[8];
        snprintf(f, sizeof f, "%06d", frac);
        int n = 6;
        while (f[n - 1] == '0') n--;
        pr_putc(sb, '.');
        pr_putn(sb, f, (size_t)n);
    }
}

static const char *const YM_FIELD[] = {"YEAR", "MONTH"};
static const char *const DT_FIELD[] = {"DAY", "HOUR", "MINUTE", "SECOND"};

void ym_interval_print(StrBuf *sb, int64_t months, int start, int end) {
    bool neg = months < 0;
    uint64_t m = neg ? (uint64_t)0 - (uint64_t)months : (uint64_t)months;
    pr_puts(sb, "INTERVAL '");
    if (neg) pr_putc(sb, '-');
    if (start == IF_YEAR && end == IF_MONTH)
        sb_printf(sb, "%llu-%llu", (unsigned long long)(m / 12), (unsigned long long)(m % 12));
    else if (start == IF_YEAR)
        sb_printf(sb, "%llu", (unsigned long long)(m / 12));
    else
        sb_printf(sb, "%llu", (unsigned long long)m);
    pr_puts(sb, "' ");
    pr_puts(sb, YM_FIELD[start & 1]);
    if (end != start) {
        pr_puts(sb, " TO ");
        pr_puts(sb, YM_FIELD[end & 1]);
    }
}

static void seconds_print(StrBuf *sb, uint64_t rest) {
    if (rest < 10ULL * MICROS_PER_SECOND) pr_putc(sb, '0');
    decimal_print_plain_stripped(sb, (__int128)rest, 6);
}

void dt_interval_print(StrBuf *sb, int64_t micros, int start, int end) {
    bool neg = micros < 0;
    uint64_t rest = neg ? (uint64_t)0 - (uint64_t)micros : (uint64_t)micros;
    if (start > 3) start = 3;
    if (end > 3 || end < start) end = start;
    pr_puts(sb, "INTERVAL '");
    if (neg) pr_putc(sb, '-');
    switch (start) {
    case IF_DAY:
        sb_printf(sb, "%llu", (unsigned long long)(rest / MICROS_PER_DAY));
        rest %= MICROS_PER_DAY;
        break;
    case IF_HOUR:
        sb_printf(sb, "%02llu", (unsigned long long)(rest / MICROS_PER_HOUR));
        rest %= MICROS_PER_HOUR;
        break;
    case IF_MINUTE:
        sb_printf(sb, "%02llu", (unsigned long long)(rest / MICROS_PER_MINUTE));
        rest %= MICROS_PER_MINUTE;
        break;
    default: seconds_print(sb, rest); break;
    }
    if (start < IF_HOUR && IF_HOUR <= end) {
        sb_printf(sb, " %02llu", (unsigned long long)(rest / MICROS_PER_HOUR));
        rest %= MICROS_PER_HOUR;
    }
    if (start < IF_MINUTE && IF_MINUTE <= end) {
        sb_printf(sb, ":%02llu", (unsigned long long)(rest / MICROS_PER_MINUTE));
        rest %= MICROS_PER_MINUTE;
    }
    if (start < IF_SECOND && IF_SECOND <= end) {
        pr_putc(sb, ':');
        seconds_print(sb, rest);
    }
    pr_puts(sb, "' ");
    pr_puts(sb, DT_FIELD[start]);
    if (end != start) {
        pr_puts(sb, " TO ");
        pr_puts(sb, DT_FIELD[end]);
    }
}

static void unit(StrBuf *sb, int64_t v, const char *name) {
    if (v) sb_printf(sb, "%lld %s ", (long long)v, name);
}

void calendar_interval_print(StrBuf *sb, int32_t months, int32_t days, int64_t micros) {
    if (!months && !days && !micros) {
        pr_puts(sb, "0 seconds");
        return;
    }
    size_t start = sb->len;
    if (months) {
        unit(sb, months / 12, "years");
        unit(sb, months % 12, "months");
    }
    unit(sb, days, "days");
    if (micros) {
        int64_t rest = micros;
        unit(sb, rest / MICROS_PER_HOUR, "hours");
        rest %= MICROS_PER_HOUR;
        unit(sb, rest / MICROS_PER_MINUTE, "minutes");
        rest %= MICROS_PER_MINUTE;
        if (rest) {
            decimal_print_plain_stripped(sb, rest, 6);
            pr_puts(sb, " seconds ");
        }
    }
    if (sb->len > start) sb_truncate(sb, sb->len - 1);
}

static void hex_print(StrBuf *sb, const char *p, uint32_t n) {
    static const char hex[] = "0123456789ABCDEF";
    for (uint32_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        pr_putc(sb, hex[c >> 4]);
        pr_putc(sb, hex[c & 15]);
    }
}

/* The value of v as the given element type (array items, map entries, struct fields). */
static Value as_type(const Value *v, const DataType *t) {
    Value x = *v;
    if (t && (x.type == NULL || x.type->id == T_NULL)) x.type = t;
    return x;
}

static void value_string(StrBuf *sb, const Value *v, const DataType *t);

/* A value as Spark holds it inside ArrayData / InternalRow and their
 * toString prints it: dates as days, timestamps and day-time intervals as
 * microseconds, year-month intervals as months, arrays and rows as
 * [a,b], maps as `keys: [..], values: [..]`. */
static void internal_print(StrBuf *sb, const Value *v, const DataType *t) {
    if (v->is_null || !t) {
        pr_puts(sb, "null");
        return;
    }
    switch (t->id) {
    case T_DATE:
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ:
    case T_YM_INTERVAL: print_int64(sb, (long long)v->u.i); return;
    case T_DT_INTERVAL: print_int64(sb, (long long)v->u.iv.micros); return;
    case T_ARRAY:
        pr_putc(sb, '[');
        for (uint32_t i = 0; i < v->u.list.n; i++) {
            if (i) pr_putc(sb, ',');
            Value x = as_type(&v->u.list.items[i], t->elem);
            internal_print(sb, &x, x.type ? x.type : t->elem);
        }
        pr_putc(sb, ']');
        return;
    case T_MAP: {
        const DataType *kt = type_array(sb->arena, t->elem, false), *vt = type_array(sb->arena, t->value, true);
        Value *ks = ARENA_ARRAY(sb->arena, Value, v->u.list.n + 1), *vs = ARENA_ARRAY(sb->arena, Value, v->u.list.n + 1);
        for (uint32_t i = 0; i < v->u.list.n; i++) {
            ks[i] = v->u.list.items[2 * i];
            vs[i] = v->u.list.items[2 * i + 1];
        }
        Value ka = {.type = kt, .u.list = {ks, v->u.list.n}}, va = {.type = vt, .u.list = {vs, v->u.list.n}};
        pr_puts(sb, "keys: ");
        internal_print(sb, &ka, kt);
        pr_puts(sb, ", values: ");
        internal_print(sb, &va, vt);
        return;
    }
    case T_STRUCT:
        pr_putc(sb, '[');
        for (uint32_t i = 0; i < v->u.list.n; i++) {
            if (i) pr_putc(sb, ',');
            const DataType *ft = (int)i < t->nfields ? t->fields[i].type : NULL;
            Value x = as_type(&v->u.list.items[i], ft);
            internal_print(sb, &x, x.type ? x.type : &TYPE_NULL);
        }
        pr_putc(sb, ']');
        return;
    default: value_string(sb, v, t); return;
    }
}

static void value_string(StrBuf *sb, const Value *v, const DataType *t) {
    if (v->is_null) {
        pr_puts(sb, "null");
        return;
    }
    switch (t->id) {
    case T_NULL: pr_puts(sb, "null"); return;
    case T_BOOLEAN: pr_puts(sb, v->u.b ? "true" : "false"); return;
    case T_BYTE:
    case T_SHORT:
    case T_INT:
    case T_LONG: print_int64(sb, (long long)v->u.i); return;
    case T_FLOAT: java_float_print(sb, (float)v->u.d); return;
    case T_DOUBLE: java_double_print(sb, v->u.d); return;
    case T_DECIMAL: decimal_print(sb, v->u.dec, t->scale); return;
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR: pr_putn(sb, v->u.s.p, v->u.s.len); return;
    case T_BINARY:
        pr_puts(sb, "0x");
        hex_print(sb, v->u.s.p, v->u.s.len);
        return;
    case T_DATE: date_print(sb, v->u.i); return;
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ: timestamp_print(sb, v->u.i); return;
    case T_YM_INTERVAL: ym_interval_print(sb, v->u.i, t->start_field, t->end_field); return;
    case T_DT_INTERVAL:
        dt_interval_print(sb, v->u.iv.micros, t->start_field, t->end_field);
        return;
    case T_CALENDAR_INTERVAL: calendar_interval_print(sb, v->u.iv.months, v->u.iv.days, v->u.iv.micros); return;
    case T_ARRAY:
        internal_print(sb, v, t);
        return;
    case T_MAP:
        /* Literal.toString of ArrayBasedMapData */
        pr_puts(sb, "map(");
        internal_print(sb, v, t);
        pr_putc(sb, ')');
        return;
    case T_STRUCT:
        internal_print(sb, v, t);
        return;
    case T_VARIANT: pr_puts(sb, "variant"); return;
    case T_COUNT_: return;
    }
}

void value_print(StrBuf *sb, const Value *v) { value_string(sb, v, v->type ? v->type : &TYPE_NULL); }

static void string_sql(StrBuf *sb, const char *p, uint32_t n) {
    pr_putc(sb, '\'');
    for (uint32_t i = 0; i < n; i++) {
        if (p[i] == '\\' || p[i] == '\'') pr_putc(sb, '\\');
        pr_putc(sb, p[i]);
    }
    pr_putc(sb, '\'');
}

static void value_sql(StrBuf *sb, const Value *v, const DataType *t) {
    if (v->is_null || t->id == T_NULL) {
        if (t->id == T_NULL || t->id == T_ARRAY || t->id == T_MAP || t->id == T_STRUCT) {
            pr_puts(sb, "NULL");
        } else {
            pr_puts(sb, "CAST(NULL AS ");
            type_print_sql(sb, t);
            pr_putc(sb, ')');
        }
        return;
    }
    switch (t->id) {
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR: string_sql(sb, v->u.s.p, v->u.s.len); return;
    case T_BYTE: sb_printf(sb, "%lldY", (long long)v->u.i); return;
    case T_SHORT: sb_printf(sb, "%lldS", (long long)v->u.i); return;
    case T_LONG: sb_printf(sb, "%lldL", (long long)v->u.i); return;
    case T_FLOAT: {
        float f = (float)v->u.d;
        pr_puts(sb, "CAST(");
        if (f != f)
            pr_puts(sb, "'NaN'");
        else if (f > 3.4028235e38f || f < -3.4028235e38f)
            pr_puts(sb, f > 0 ? "'Infinity'" : "'-Infinity'");
        else {
            pr_putc(sb, '\''); /* Literal.sql of a float: CAST('-0.8' AS FLOAT) */
            java_float_print(sb, f);
            pr_putc(sb, '\'');
        }
        pr_puts(sb, " AS FLOAT)");
        return;
    }
    case T_DOUBLE: {
        double d = v->u.d;
        if (d != d)
            pr_puts(sb, "CAST('NaN' AS DOUBLE)");
        else if (d > 1.7976931348623157e308)
            pr_puts(sb, "CAST('Infinity' AS DOUBLE)");
        else if (d < -1.7976931348623157e308)
            pr_puts(sb, "CAST('-Infinity' AS DOUBLE)");
        else {
            java_double_print(sb, d);
            pr_putc(sb, 'D');
        }
        return;
    }
    case T_DECIMAL:
        decimal_print(sb, v->u.dec, t->scale);
        pr_puts(sb, "BD");
        return;
    case T_DATE:
        pr_puts(sb, "DATE '");
        date_print(sb, v->u.i);
        pr_putc(sb, '\'');
        return;
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ:
        pr_puts(sb, t->id == T_TIMESTAMP ? "TIMESTAMP '" : "TIMESTAMP_NTZ '");
        timestamp_print(sb, v->u.i);
        pr_putc(sb, '\'');
        return;
    case T_CALENDAR_INTERVAL:
        pr_puts(sb, "INTERVAL '");
        calendar_interval_print(sb, v->u.iv.months, v->u.iv.days, v->u.iv.micros);
        pr_putc(sb, '\'');
        return;
    case T_BINARY:
        pr_puts(sb, "X'");
        hex_print(sb, v->u.s.p, v->u.s.len);
        pr_putc(sb, '\'');
        return;
    case T_ARRAY:
        pr_puts(sb, "ARRAY(");
        for (uint32_t i = 0; i < v->u.list.n; i++) {
            if (i) pr_puts(sb, ", ");
            /* a decimal element keeps its own precision and scale (Spark's Decimal) */
            const Value *x = &v->u.list.items[i];
            value_sql(sb, x, t->elem->id == T_DECIMAL && x->type && x->type->id == T_DECIMAL ? x->type : t->elem);
        }
        pr_putc(sb, ')');
        return;
    case T_MAP:
        pr_puts(sb, "MAP(");
        for (uint32_t i = 0; i < v->u.list.n; i++) {
            if (i) pr_puts(sb, ", ");
            value_sql(sb, &v->u.list.items[2 * i], t->elem);
            pr_puts(sb, ", ");
            value_sql(sb, &v->u.list.items[2 * i + 1], t->value);
        }
        pr_putc(sb, ')');
        return;
    case T_STRUCT:
        pr_puts(sb, "NAMED_STRUCT(");
        for (uint32_t i = 0; i < v->u.list.n && (int)i < t->nfields; i++) {
            if (i) pr_puts(sb, ", ");
            pr_puts(sb, t->fields[i].name);
            pr_puts(sb, ", ");
            value_sql(sb, &v->u.list.items[i], t->fields[i].type);
        }
        pr_putc(sb, ')');
        return;
    default: value_string(sb, v, t); return;
    }
}

void value_print_sql(StrBuf *sb, const Value *v) { value_sql(sb, v, v->type ? v->type : &TYPE_NULL); }
