#include "types.h"

#include "collation.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define PRIM(name, tid) const DataType name = {.id = tid}
PRIM(TYPE_NULL, T_NULL);
PRIM(TYPE_BOOLEAN, T_BOOLEAN);
PRIM(TYPE_BYTE, T_BYTE);
PRIM(TYPE_SHORT, T_SHORT);
PRIM(TYPE_INT, T_INT);
PRIM(TYPE_LONG, T_LONG);
PRIM(TYPE_FLOAT, T_FLOAT);
PRIM(TYPE_DOUBLE, T_DOUBLE);
PRIM(TYPE_STRING, T_STRING);
PRIM(TYPE_BINARY, T_BINARY);
PRIM(TYPE_DATE, T_DATE);
PRIM(TYPE_TIMESTAMP, T_TIMESTAMP);
PRIM(TYPE_TIMESTAMP_NTZ, T_TIMESTAMP_NTZ);
PRIM(TYPE_CALENDAR_INTERVAL, T_CALENDAR_INTERVAL);
PRIM(TYPE_VARIANT, T_VARIANT);
const DataType TYPE_YM_INTERVAL = {.id = T_YM_INTERVAL, .start_field = IF_YEAR, .end_field = IF_MONTH};
const DataType TYPE_DT_INTERVAL = {.id = T_DT_INTERVAL, .start_field = IF_DAY, .end_field = IF_SECOND};

const DataType *type_decimal(Arena *a, int precision, int scale) {
    DataType *t = ARENA_NEW(a, DataType);
    t->id = T_DECIMAL;
    t->precision = (uint8_t)precision;
    t->scale = (uint8_t)scale;
    return t;
}

const DataType *type_array(Arena *a, const DataType *elem, bool contains_null) {
    DataType *t = ARENA_NEW(a, DataType);
    t->id = T_ARRAY;
    t->elem = elem;
    t->contains_null = contains_null;
    return t;
}

const DataType *type_map(Arena *a, const DataType *key, const DataType *value, bool value_contains_null) {
    DataType *t = ARENA_NEW(a, DataType);
    t->id = T_MAP;
    t->elem = key;
    t->value = value;
    t->contains_null = value_contains_null;
    return t;
}

const DataType *type_struct(Arena *a, int nfields, const StructField *fields) {
    DataType *t = ARENA_NEW(a, DataType);
    t->id = T_STRUCT;
    t->nfields = nfields;
    StructField *f = ARENA_ARRAY(a, StructField, nfields ? nfields : 1);
    if (nfields) memcpy(f, fields, sizeof(StructField) * (size_t)nfields);
    t->fields = f;
    return t;
}

const DataType *type_char(Arena *a, TypeId id, int length) {
    DataType *t = ARENA_NEW(a, DataType);
    t->id = id;
    t->length = length;
    return t;
}

const DataType *type_ym_interval(Arena *a, int start, int end) {
    if (start == IF_YEAR && end == IF_MONTH) return &TYPE_YM_INTERVAL;
    DataType *t = ARENA_NEW(a, DataType);
    t->id = T_YM_INTERVAL;
    t->start_field = (uint8_t)start;
    t->end_field = (uint8_t)end;
    return t;
}

const DataType *type_dt_interval(Arena *a, int start, int end) {
    if (start == IF_DAY && end == IF_SECOND) return &TYPE_DT_INTERVAL;
    DataType *t = ARENA_NEW(a, DataType);
    t->id = T_DT_INTERVAL;
    t->start_field = (uint8_t)start;
    t->end_field = (uint8_t)end;
    return t;
}

const DataType *type_string_collated(Arena *a, int32_t collation) {
    if (collation == COLLATION_UTF8_BINARY) return &TYPE_STRING;
    DataType *t = ARENA_NEW(a, DataType);
    t->id = T_STRING;
    t->collation = collation;
    return t;
}

const DataType *type_string_explicit(Arena *a, int32_t collation) {
    DataType *t = ARENA_NEW(a, DataType);
    t->id = T_STRING;
    t->collation = collation;
    return t;
}

const DataType *type_with_default_collation(Arena *a, const DataType *t, int32_t collation) {
    switch (t->id) {
    case T_STRING: return t == &TYPE_STRING ? type_string_collated(a, collation) : t;
    case T_ARRAY: {
        const DataType *e = type_with_default_collation(a, t->elem, collation);
        return e == t->elem ? t : type_array(a, e, t->contains_null);
    }
    case T_MAP: {
        const DataType *k = type_with_default_collation(a, t->elem, collation);
        const DataType *v = type_with_default_collation(a, t->value, collation);
        return k == t->elem && v == t->value ? t : type_map(a, k, v, t->contains_null);
    }
    case T_STRUCT: {
        bool changed = false;
        StructField *f = ARENA_ARRAY(a, StructField, t->nfields ? t->nfields : 1);
        for (int i = 0; i < t->nfields; i++) {
            f[i] = t->fields[i];
            f[i].type = type_with_default_collation(a, t->fields[i].type, collation);
            changed = changed || f[i].type != t->fields[i].type;
        }
        return changed ? type_struct(a, t->nfields, f) : t;
    }
    default: return t;
    }
}

bool type_has_collated_string(const DataType *t) {
    switch (t->id) {
    case T_STRING: return t->collation != COLLATION_UTF8_BINARY;
    case T_ARRAY: return type_has_collated_string(t->elem);
    case T_MAP: return type_has_collated_string(t->elem) || type_has_collated_string(t->value);
    case T_STRUCT:
        for (int i = 0; i < t->nfields; i++)
            if (type_has_collated_string(t->fields[i].type)) return true;
        return false;
    default: return false;
    }
}

const DataType *type_with_collation(Arena *a, const DataType *t, int32_t collation) {
    switch (t->id) {
    case T_STRING: return t->collation == collation ? t : type_string_collated(a, collation);
    case T_ARRAY: {
        const DataType *e = type_with_collation(a, t->elem, collation);
        return e == t->elem ? t : type_array(a, e, t->contains_null);
    }
    case T_MAP: {
        const DataType *k = type_with_collation(a, t->elem, collation);
        const DataType *v = type_with_collation(a, t->value, collation);
        return k == t->elem && v == t->value ? t : type_map(a, k, v, t->contains_null);
    }
    case T_STRUCT: {
        StructField *f = ARENA_ARRAY(a, StructField, t->nfields ? t->nfields : 1);
        bool changed = false;
        for (int i = 0; i < t->nfields; i++) {
            f[i] = t->fields[i];
            f[i].type = type_with_collation(a, t->fields[i].type, collation);
            changed |= f[i].type != t->fields[i].type;
        }
        return changed ? type_struct(a, t->nfields, f) : t;
    }
    default: return t;
    }
}

const DataType *type_copy(Arena *a, const DataType *t) {
    switch (t->id) {
    case T_STRING: return type_string_collated(a, t->collation);
    case T_DECIMAL: return type_decimal(a, t->precision, t->scale);
    case T_CHAR:
    case T_VARCHAR: return type_char(a, t->id, t->length);
    case T_YM_INTERVAL: return type_ym_interval(a, t->start_field, t->end_field);
    case T_DT_INTERVAL: return type_dt_interval(a, t->start_field, t->end_field);
    case T_ARRAY: return type_array(a, type_copy(a, t->elem), t->contains_null);
    case T_MAP: return type_map(a, type_copy(a, t->elem), type_copy(a, t->value), t->contains_null);
    case T_STRUCT: {
        StructField *f = ARENA_ARRAY(a, StructField, t->nfields ? t->nfields : 1);
        for (int i = 0; i < t->nfields; i++) {
            f[i].name = arena_strdup(a, t->fields[i].name);
            f[i].type = type_copy(a, t->fields[i].type);
            f[i].nullable = t->fields[i].nullable;
            f[i].comment = t->fields[i].comment ? arena_strdup(a, t->fields[i].comment) : NULL;
        }
        DataType *s = ARENA_NEW(a, DataType);
        s->id = T_STRUCT;
        s->nfields = t->nfields;
        s->fields = f;
        return s;
    }
    default: return t; /* singletons */
    }
}

static bool type_eq(const DataType *x, const DataType *y, bool nullability) {
    if (x == y) return true;
    if (x->id != y->id) return false;
    switch (x->id) {
    case T_DECIMAL: return x->precision == y->precision && x->scale == y->scale;
    case T_STRING: return x->collation == y->collation;
    case T_CHAR:
    case T_VARCHAR: return x->length == y->length;
    case T_YM_INTERVAL:
    case T_DT_INTERVAL: return x->start_field == y->start_field && x->end_field == y->end_field;
    case T_ARRAY:
        return (!nullability || x->contains_null == y->contains_null) && type_eq(x->elem, y->elem, nullability);
    case T_MAP:
        return (!nullability || x->contains_null == y->contains_null) && type_eq(x->elem, y->elem, nullability) &&
               type_eq(x->value, y->value, nullability);
    case T_STRUCT:
        if (x->nfields != y->nfields) return false;
        for (int i = 0; i < x->nfields; i++) {
            if (strcmp(x->fields[i].name, y->fields[i].name) != 0) return false;
            if (nullability && x->fields[i].nullable != y->fields[i].nullable) return false;
            if (!type_eq(x->fields[i].type, y->fields[i].type, nullability)) return false;
        }
        return true;
    default: return true;
    }
}

bool type_equal(const DataType *x, const DataType *y) { return type_eq(x, y, true); }
bool type_same(const DataType *x, const DataType *y) { return type_eq(x, y, false); }

const DataType *type_decimal_for(Arena *a, const DataType *t) {
    switch (t->id) {
    case T_BYTE: return type_decimal(a, 3, 0);
    case T_SHORT: return type_decimal(a, 5, 0);
    case T_INT: return type_decimal(a, 10, 0);
    case T_LONG: return type_decimal(a, 20, 0);
    case T_FLOAT: return type_decimal(a, 14, 7);
    case T_DOUBLE: return type_decimal(a, 30, 15);
    case T_DECIMAL: return t;
    default: return NULL;
    }
}

static const char *const YM_FIELD[] = {"year", "month"};
static const char *const DT_FIELD[] = {"day", "hour", "minute", "second"};

static void put_upper(StrBuf *sb, const char *s) {
    for (; *s; s++) sb_putc(sb, (char)toupper((unsigned char)*s));
}

static void interval_print(StrBuf *sb, const DataType *t, bool upper) {
    const char *const *names = t->id == T_YM_INTERVAL ? YM_FIELD : DT_FIELD;
    sb_puts(sb, upper ? "INTERVAL " : "interval ");
    if (upper) put_upper(sb, names[t->start_field]); else sb_puts(sb, names[t->start_field]);
    if (t->end_field != t->start_field) {
        sb_puts(sb, upper ? " TO " : " to ");
        if (upper) put_upper(sb, names[t->end_field]); else sb_puts(sb, names[t->end_field]);
    }
}

static const char *const SIMPLE_NAME[T_COUNT_] = {
    [T_NULL] = "void", [T_BOOLEAN] = "boolean", [T_BYTE] = "tinyint", [T_SHORT] = "smallint",
    [T_INT] = "int", [T_LONG] = "bigint", [T_FLOAT] = "float", [T_DOUBLE] = "double",
    [T_STRING] = "string", [T_BINARY] = "binary", [T_DATE] = "date", [T_TIMESTAMP] = "timestamp",
    [T_TIMESTAMP_NTZ] = "timestamp_ntz", [T_CALENDAR_INTERVAL] = "interval", [T_VARIANT] = "variant",
};

static bool ident_needs_quote(const char *s) {
    if (!*s) return true;
    if (!(isalpha((unsigned char)*s) || *s == '_')) return true;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_')) return true;
    return false;
}

/* %d without printf: types are printed for every expression the encoders
 * and printers meet (decimal(7,2) all over TPC-DS), and vsnprintf cost
 * twenty times the digits. */
static void put_int(StrBuf *sb, int v) {
    char digits[16];
    size_t at = sizeof digits;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do digits[--at] = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0) digits[--at] = '-';
    sb_putn(sb, digits + at, sizeof digits - at);
}

/* NAME(n) or NAME(n,m): what "%s(%d)" / "%s(%d,%d)" printed. */
static void put_parameterised(StrBuf *sb, const char *name, int n, bool two, int m) {
    sb_puts(sb, name);
    sb_putc(sb, '(');
    put_int(sb, n);
    if (two) {
        sb_putc(sb, ',');
        put_int(sb, m);
    }
    sb_putc(sb, ')');
}

static void type_print(StrBuf *sb, const DataType *t, bool sql) {
    switch (t->id) {
    case T_STRING:
        /* StringType.typeName; sql is its upper-cased simpleString. */
        if (t->collation == COLLATION_UTF8_BINARY) {
            sb_puts(sb, sql ? "STRING" : "string");
        } else if (sql) {
            StrBuf name;
            sb_init(&name, sb->arena, 24);
            collation_print_name(&name, t->collation);
            sb_puts(sb, "STRING COLLATE ");
            put_upper(sb, sb_str(&name));
        } else {
            sb_puts(sb, "string collate ");
            collation_print_name(sb, t->collation);
        }
        return;
    case T_DECIMAL: put_parameterised(sb, sql ? "DECIMAL" : "decimal", t->precision, true, t->scale); return;
    case T_CHAR: put_parameterised(sb, sql ? "CHAR" : "char", t->length, false, 0); return;
    case T_VARCHAR: put_parameterised(sb, sql ? "VARCHAR" : "varchar", t->length, false, 0); return;
    case T_YM_INTERVAL:
    case T_DT_INTERVAL: interval_print(sb, t, sql); return;
    case T_ARRAY:
        sb_puts(sb, sql ? "ARRAY<" : "array<");
        type_print(sb, t->elem, sql);
        sb_putc(sb, '>');
        return;
    case T_MAP:
        sb_puts(sb, sql ? "MAP<" : "map<");
        type_print(sb, t->elem, sql);
        sb_puts(sb, sql ? ", " : ",");
        type_print(sb, t->value, sql);
        sb_putc(sb, '>');
        return;
    case T_STRUCT:
        sb_puts(sb, sql ? "STRUCT<" : "struct<");
        for (int i = 0; i < t->nfields; i++) {
            if (i) sb_puts(sb, sql ? ", " : ",");
            if (sql && ident_needs_quote(t->fields[i].name)) sb_put_quoted_ident(sb, t->fields[i].name);
            else sb_puts(sb, t->fields[i].name);
            sb_puts(sb, sql ? ": " : ":");
            type_print(sb, t->fields[i].type, sql);
            if (sql && !t->fields[i].nullable) sb_puts(sb, " NOT NULL");
        }
        sb_putc(sb, '>');
        return;
    default:
        if (sql) put_upper(sb, SIMPLE_NAME[t->id]);
        else sb_puts(sb, SIMPLE_NAME[t->id]);
        return;
    }
}

void type_print_catalog(StrBuf *sb, const DataType *t) { type_print(sb, t, false); }

/* DataType.toString: the Scala objects' and case classes' names. */
void type_print_scala(StrBuf *sb, const DataType *t) {
    static const char *const NAMES[T_COUNT_] = {
        [T_NULL] = "NullType", [T_BOOLEAN] = "BooleanType", [T_BYTE] = "ByteType", [T_SHORT] = "ShortType",
        [T_INT] = "IntegerType", [T_LONG] = "LongType", [T_FLOAT] = "FloatType", [T_DOUBLE] = "DoubleType",
        [T_STRING] = "StringType", [T_BINARY] = "BinaryType", [T_DATE] = "DateType",
        [T_TIMESTAMP] = "TimestampType", [T_TIMESTAMP_NTZ] = "TimestampNTZType",
        [T_CALENDAR_INTERVAL] = "CalendarIntervalType", [T_VARIANT] = "VariantType",
    };
    switch (t->id) {
    case T_STRING:
        sb_puts(sb, "StringType");
        if (t->collation == COLLATION_UTF8_BINARY) return;
        sb_putc(sb, '(');
        collation_print_name(sb, t->collation);
        sb_putc(sb, ')');
        return;
    case T_DECIMAL: sb_printf(sb, "DecimalType(%d,%d)", t->precision, t->scale); return;
    case T_CHAR: sb_printf(sb, "CharType(%d)", t->length); return;
    case T_VARCHAR: sb_printf(sb, "VarcharType(%d)", t->length); return;
    case T_YM_INTERVAL: sb_printf(sb, "YearMonthIntervalType(%d,%d)", t->start_field, t->end_field); return;
    case T_DT_INTERVAL: sb_printf(sb, "DayTimeIntervalType(%d,%d)", t->start_field, t->end_field); return;
    case T_ARRAY:
        sb_puts(sb, "ArrayType(");
        type_print_scala(sb, t->elem);
        sb_printf(sb, ",%s)", t->contains_null ? "true" : "false");
        return;
    case T_MAP:
        sb_puts(sb, "MapType(");
        type_print_scala(sb, t->elem);
        sb_putc(sb, ',');
        type_print_scala(sb, t->value);
        sb_printf(sb, ",%s)", t->contains_null ? "true" : "false");
        return;
    case T_STRUCT:
        sb_puts(sb, "StructType(");
        type_print_struct_fields(sb, t);
        sb_putc(sb, ')');
        return;
    default: sb_puts(sb, NAMES[t->id] ? NAMES[t->id] : "?"); return;
    }
}

/* StructField(name,type,nullable),... */
void type_print_struct_fields(StrBuf *sb, const DataType *t) {
    for (int i = 0; i < t->nfields; i++) {
        if (i) sb_putc(sb, ',');
        sb_printf(sb, "StructField(%s,", t->fields[i].name);
        type_print_scala(sb, t->fields[i].type);
        sb_printf(sb, ",%s)", t->fields[i].nullable ? "true" : "false");
    }
}
void type_print_sql(StrBuf *sb, const DataType *t) { type_print(sb, t, true); }

const char *type_catalog_string(Arena *a, const DataType *t) {
    StrBuf sb;
    sb_init(&sb, a, 32);
    type_print(&sb, t, false);
    return sb_str(&sb);
}

const char *type_sql(Arena *a, const DataType *t) {
    StrBuf sb;
    sb_init(&sb, a, 32);
    type_print(&sb, t, true);
    return sb_str(&sb);
}

/* ---- parsing ---- */

typedef struct TP {
    Arena *a;
    const char *s;
    size_t len, pos;
    const char *error;
} TP;

static void tp_ws(TP *p) {
    while (p->pos < p->len && isspace((unsigned char)p->s[p->pos])) p->pos++;
}

static bool tp_char(TP *p, char c) {
    tp_ws(p);
    if (p->pos < p->len && p->s[p->pos] == c) {
        p->pos++;
        return true;
    }
    return false;
}

/* Reads an identifier-ish word; returns its length (0 if none). */
static size_t tp_word(TP *p, const char **w) {
    tp_ws(p);
    size_t st = p->pos;
    while (p->pos < p->len && (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_')) p->pos++;
    *w = p->s + st;
    return p->pos - st;
}

static bool word_is(const char *w, size_t n, const char *kw) { return strlen(kw) == n && strncasecmp(w, kw, n) == 0; }

static bool tp_int(TP *p, int *out) {
    tp_ws(p);
    size_t st = p->pos;
    long v = 0;
    while (p->pos < p->len && isdigit((unsigned char)p->s[p->pos])) {
        v = v * 10 + (p->s[p->pos] - '0');
        if (v > 1000000) v = 1000000;
        p->pos++;
    }
    if (p->pos == st) return false;
    *out = (int)v;
    return true;
}

static bool tp_keyword(TP *p, const char *kw) {
    size_t save = p->pos;
    const char *w;
    size_t n = tp_word(p, &w);
    if (n && word_is(w, n, kw)) return true;
    p->pos = save;
    return false;
}

static const DataType *tp_type(TP *p, int depth);

static int interval_field(const char *w, size_t n, bool *ym) {
    if (word_is(w, n, "year")) { *ym = true; return IF_YEAR; }
    if (word_is(w, n, "month")) { *ym = true; return IF_MONTH; }
    *ym = false;
    if (word_is(w, n, "day")) return IF_DAY;
    if (word_is(w, n, "hour")) return IF_HOUR;
    if (word_is(w, n, "minute")) return IF_MINUTE;
    if (word_is(w, n, "second")) return IF_SECOND;
    return -1;
}

static const DataType *tp_type(TP *p, int depth) {
    if (depth > 64) {
        p->error = "type nested too deeply";
        return NULL;
    }
    const char *w;
    size_t n = tp_word(p, &w);
    if (!n) {
        p->error = "expected a type name";
        return NULL;
    }
    static const struct { const char *name; const DataType *t; } simple[] = {
        {"boolean", &TYPE_BOOLEAN}, {"bool", &TYPE_BOOLEAN}, {"tinyint", &TYPE_BYTE}, {"byte", &TYPE_BYTE},
        {"smallint", &TYPE_SHORT}, {"short", &TYPE_SHORT}, {"int", &TYPE_INT}, {"integer", &TYPE_INT},
        {"bigint", &TYPE_LONG}, {"long", &TYPE_LONG}, {"float", &TYPE_FLOAT}, {"real", &TYPE_FLOAT},
        {"double", &TYPE_DOUBLE}, {"string", &TYPE_STRING}, {"binary", &TYPE_BINARY}, {"date", &TYPE_DATE},
        {"timestamp", &TYPE_TIMESTAMP}, {"timestamp_ltz", &TYPE_TIMESTAMP}, {"timestamp_ntz", &TYPE_TIMESTAMP_NTZ},
        {"void", &TYPE_NULL}, {"variant", &TYPE_VARIANT},
    };
    if (word_is(w, n, "string") && tp_keyword(p, "collate")) {
        const char *cn;
        size_t cl = tp_word(p, &cn);
        int32_t id;
        if (!cl || !collation_from_name(arena_strndup(p->a, cn, cl), &id)) {
            p->error = "invalid collation name";
            return NULL;
        }
        return type_string_explicit(p->a, id);
    }
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (word_is(w, n, simple[i].name)) return simple[i].t;
    if (word_is(w, n, "decimal") || word_is(w, n, "dec") || word_is(w, n, "numeric")) {
        int prec = 10, scale = 0;
        if (tp_char(p, '(')) {
            if (!tp_int(p, &prec)) { p->error = "expected decimal precision"; return NULL; }
            if (tp_char(p, ',') && !tp_int(p, &scale)) { p->error = "expected decimal scale"; return NULL; }
            if (!tp_char(p, ')')) { p->error = "expected )"; return NULL; }
        }
        if (prec < 1 || prec > 38 || scale > prec) { p->error = "invalid decimal precision or scale"; return NULL; }
        return type_decimal(p->a, prec, scale);
    }
    if (word_is(w, n, "char") || word_is(w, n, "character") || word_is(w, n, "varchar")) {
        TypeId id = word_is(w, n, "varchar") ? T_VARCHAR : T_CHAR;
        int len;
        if (!tp_char(p, '(') || !tp_int(p, &len) || !tp_char(p, ')')) { p->error = "expected (length)"; return NULL; }
        return type_char(p->a, id, len);
    }
    if (word_is(w, n, "interval")) {
        size_t save = p->pos;
        const char *f;
        size_t fn = tp_word(p, &f);
        bool ym, ym2;
        int start = fn ? interval_field(f, fn, &ym) : -1;
        if (start < 0) {
            p->pos = save;
            return &TYPE_CALENDAR_INTERVAL;
        }
        int end = start;
        if (tp_keyword(p, "to")) {
            fn = tp_word(p, &f);
            end = fn ? interval_field(f, fn, &ym2) : -1;
            if (end < 0 || ym2 != ym || end < start) { p->error = "invalid interval type"; return NULL; }
        }
        return ym ? type_ym_interval(p->a, start, end) : type_dt_interval(p->a, start, end);
    }
    if (word_is(w, n, "array")) {
        if (!tp_char(p, '<')) { p->error = "expected <"; return NULL; }
        const DataType *e = tp_type(p, depth + 1);
        if (!e) return NULL;
        if (!tp_char(p, '>')) { p->error = "expected >"; return NULL; }
        return type_array(p->a, e, true);
    }
    if (word_is(w, n, "map")) {
        if (!tp_char(p, '<')) { p->error = "expected <"; return NULL; }
        const DataType *k = tp_type(p, depth + 1);
        if (!k) return NULL;
        if (!tp_char(p, ',')) { p->error = "expected ,"; return NULL; }
        const DataType *v = tp_type(p, depth + 1);
        if (!v) return NULL;
        if (!tp_char(p, '>')) { p->error = "expected >"; return NULL; }
        return type_map(p->a, k, v, true);
    }
    if (word_is(w, n, "struct")) {
        if (!tp_char(p, '<')) { p->error = "expected <"; return NULL; }
        StructField buf[64];
        StructField *fields = buf;
        int nf = 0, cap = 64;
        if (!tp_char(p, '>')) {
            do {
                tp_ws(p);
                const char *fnm;
                size_t fnl;
                char *name;
                if (p->pos < p->len && p->s[p->pos] == '`') {
                    StrBuf sb;
                    sb_init(&sb, p->a, 16);
                    p->pos++;
                    for (;;) {
                        if (p->pos >= p->len) { p->error = "unterminated `"; return NULL; }
                        char c = p->s[p->pos++];
                        if (c == '`') {
                            if (p->pos < p->len && p->s[p->pos] == '`') { sb_putc(&sb, '`'); p->pos++; continue; }
                            break;
                        }
                        sb_putc(&sb, c);
                    }
                    name = sb.data;
                } else {
                    fnl = tp_word(p, &fnm);
                    if (!fnl) { p->error = "expected field name"; return NULL; }
                    name = arena_strndup(p->a, fnm, fnl);
                }
                tp_char(p, ':');
                const DataType *ft = tp_type(p, depth + 1);
                if (!ft) return NULL;
                bool nullable = true;
                size_t save = p->pos;
                if (tp_keyword(p, "not")) {
                    if (tp_keyword(p, "null")) nullable = false;
                    else p->pos = save;
                }
                if (nf == cap) {
                    StructField *nfld = ARENA_ARRAY(p->a, StructField, cap * 2);
                    memcpy(nfld, fields, sizeof(StructField) * (size_t)nf);
                    fields = nfld;
                    cap *= 2;
                }
                fields[nf++] = (StructField){name, ft, nullable, NULL};
            } while (tp_char(p, ','));
            if (!tp_char(p, '>')) { p->error = "expected >"; return NULL; }
        }
        return type_struct(p->a, nf, fields);
    }
    p->error = "unsupported data type";
    p->pos = (size_t)(w - p->s);
    return NULL;
}

const DataType *type_parse(Arena *a, const char *s, size_t len, size_t *consumed, const char **error) {
    TP p = {.a = a, .s = s, .len = len};
    const DataType *t = tp_type(&p, 0);
    if (t) {
        tp_ws(&p);
        if (consumed) *consumed = p.pos;
        else if (p.pos != len) {
            p.error = "unexpected text after type";
            t = NULL;
        }
    }
    if (!t && error) *error = p.error;
    return t;
}
