/* Spark 4's ANSI type coercion (AnsiTypeCoercion, DecimalPrecision,
 * AnsiStringPromotionTypeCoercion, Cast.canAnsiCast / canANSIStoreAssign):
 * wider types, implicit casts for expected input types, cast legality. */
#include <string.h>

#include "functions.h"
#include "registry.h"

/* ---- small type facts ---- */

static int numeric_rank(TypeId id) {
    switch (id) {
    case T_BYTE: return 1;
    case T_SHORT: return 2;
    case T_INT: return 3;
    case T_LONG: return 4;
    case T_FLOAT: return 6;
    case T_DOUBLE: return 7;
    default: return 0;
    }
}

static bool is_atomic(const DataType *t) {
    return t->id != T_NULL && !type_is_complex(t) && t->id != T_VARIANT && t->id != T_CALENDAR_INTERVAL;
}

bool type_orderable(const DataType *t) { return fn_type_orderable(t); }

bool fn_type_orderable(const DataType *t) {
    switch (t->id) {
    case T_MAP: return false;
    case T_VARIANT: return false;
    case T_CALENDAR_INTERVAL: return false;
    case T_ARRAY: return fn_type_orderable(t->elem);
    case T_STRUCT:
        for (int i = 0; i < t->nfields; i++)
            if (!fn_type_orderable(t->fields[i].type)) return false;
        return true;
    default: return true;
    }
}

bool fn_type_comparable_eq(const DataType *t) {
    switch (t->id) {
    case T_MAP: return false;
    case T_VARIANT: return false;
    case T_ARRAY: return fn_type_comparable_eq(t->elem);
    case T_STRUCT:
        for (int i = 0; i < t->nfields; i++)
            if (!fn_type_comparable_eq(t->fields[i].type)) return false;
        return true;
    default: return true;
    }
}

bool fn_type_contains_null_type(const DataType *t) {
    switch (t->id) {
    case T_NULL: return true;
    case T_ARRAY: return fn_type_contains_null_type(t->elem);
    case T_MAP: return fn_type_contains_null_type(t->elem) || fn_type_contains_null_type(t->value);
    case T_STRUCT:
        for (int i = 0; i < t->nfields; i++)
            if (fn_type_contains_null_type(t->fields[i].type)) return true;
        return false;
    default: return false;
    }
}

const DataType *fn_type_replace_null(Arena *a, const DataType *t) { (void)a; return t; }

/* ---- decimals (DecimalPrecision, allowPrecisionLoss = true) ---- */

#define MAX_PREC 38

const DataType *fn_decimal_bounded(Arena *a, int p, int s) {
    if (p > MAX_PREC) p = MAX_PREC;
    if (s > MAX_PREC) s = MAX_PREC;
    return type_decimal(a, p, s);
}

const DataType *fn_decimal_adjust(Arena *a, int p, int s) {
    if (p <= MAX_PREC) return type_decimal(a, p, s);
    if (s < 0) return type_decimal(a, MAX_PREC, s);
    int int_digits = p - s;
    int min_scale = s < 6 ? s : 6;
    int adj = MAX_PREC - int_digits;
    if (adj < min_scale) adj = min_scale;
    return type_decimal(a, MAX_PREC, adj);
}

/* DecimalType.fromLiteral for integral literals (the smallest precision that
 * holds the value); forType otherwise. */
const DataType *fn_decimal_of_literal(Arena *a, const Node *lit) {
    const DataType *t = lit->type;
    if (lit->kind == NK_Literal && !lit->u.lit.v.is_null && type_is_integral(t)) {
        int64_t v = lit->u.lit.v.u.i;
        uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        int digits = 1;
        while (m >= 10) {
            m /= 10;
            digits++;
        }
        return type_decimal(a, digits, 0);
    }
    return type_decimal_for(a, t);
}

static bool decimal_wider_than_integral(const DataType *d, const DataType *i) {
    int ip = i->id == T_BYTE ? 3 : i->id == T_SHORT ? 5 : i->id == T_INT ? 10 : 20;
    return d->precision - d->scale >= ip;
}

const DataType *fn_wider_decimal(Arena *a, const DataType *x, const DataType *y) {
    if (type_is_integral(x)) x = type_decimal_for(a, x);
    if (type_is_integral(y)) y = type_decimal_for(a, y);
    int s = x->scale > y->scale ? x->scale : y->scale;
    int r1 = x->precision - x->scale, r2 = y->precision - y->scale;
    int r = r1 > r2 ? r1 : r2;
    /* DecimalPrecision.widerDecimalType: over 38 digits the integral digits
       are kept and the scale gives way (DecimalType.boundedPreferIntegralDigits;
       spark.sql.legacy.decimal.retainFractionDigitsOnTruncate off) */
    if (r + s > MAX_PREC) return type_decimal(a, MAX_PREC, s - (r + s - MAX_PREC) > 0 ? s - (r + s - MAX_PREC) : 0);
    return fn_decimal_bounded(a, r + s, s);
}

/* ---- wider types ---- */

typedef const DataType *(*WidenFn)(Arena *a, const DataType *x, const DataType *y);

static const DataType *complex_common(Arena *a, const DataType *x, const DataType *y, WidenFn f) {
    if (x->id == T_ARRAY && y->id == T_ARRAY) {
        const DataType *e = f(a, x->elem, y->elem);
        return e ? type_array(a, e, x->contains_null || y->contains_null) : NULL;
    }
    if (x->id == T_MAP && y->id == T_MAP) {
        const DataType *k = f(a, x->elem, y->elem);
        const DataType *v = f(a, x->value, y->value);
        return k && v ? type_map(a, k, v, x->contains_null || y->contains_null) : NULL;
    }
    if (x->id == T_STRUCT && y->id == T_STRUCT) {
        if (x->nfields != y->nfields) return NULL;
        StructField *fs = ARENA_ARRAY(a, StructField, x->nfields ? x->nfields : 1);
        for (int i = 0; i < x->nfields; i++) {
            if (strcasecmp(x->fields[i].name, y->fields[i].name) != 0) return NULL;
            const DataType *t = f(a, x->fields[i].type, y->fields[i].type);
            if (!t) return NULL;
            fs[i] = x->fields[i];
            fs[i].type = t;
            fs[i].nullable = x->fields[i].nullable || y->fields[i].nullable;
        }
        return type_struct(a, x->nfields, fs);
    }
    return NULL;
}

static TypeId datetime_wider(TypeId x, TypeId y) {
    if (x == y) return x;
    if (x == T_TIMESTAMP || y == T_TIMESTAMP) return T_TIMESTAMP;
    return T_TIMESTAMP_NTZ; /* date with ntz */
}

static const DataType *prim(TypeId id) {
    switch (id) {
    case T_NULL: return &TYPE_NULL;
    case T_BOOLEAN: return &TYPE_BOOLEAN;
    case T_BYTE: return &TYPE_BYTE;
    case T_SHORT: return &TYPE_SHORT;
    case T_INT: return &TYPE_INT;
    case T_LONG: return &TYPE_LONG;
    case T_FLOAT: return &TYPE_FLOAT;
    case T_DOUBLE: return &TYPE_DOUBLE;
    case T_STRING: return &TYPE_STRING;
    case T_BINARY: return &TYPE_BINARY;
    case T_DATE: return &TYPE_DATE;
    case T_TIMESTAMP: return &TYPE_TIMESTAMP;
    case T_TIMESTAMP_NTZ: return &TYPE_TIMESTAMP_NTZ;
    case T_CALENDAR_INTERVAL: return &TYPE_CALENDAR_INTERVAL;
    case T_VARIANT: return &TYPE_VARIANT;
    default: return NULL;
    }
}

/* Two strings: STRING, or the one collated string of the two; none for two
 * collations that differ (SPARK-50060: no implicit conversion between
 * collations; CollationTypeCoercion brings its expressions to one first). */
static const DataType *common_string(const DataType *x, const DataType *y) {
    bool cx = x->id == T_STRING && x->collation != 0, cy = y->id == T_STRING && y->collation != 0;
    if (cx && cy) return x->collation == y->collation ? x : NULL;
    if (cx) return y->id == T_STRING ? NULL : x;
    if (cy) return x->id == T_STRING ? NULL : y;
    return &TYPE_STRING;
}

const DataType *fn_tightest_common_type(Arena *a, const DataType *x, const DataType *y) {
    if (type_equal(x, y)) return x;
    if (x->id == T_NULL) return y;
    if (y->id == T_NULL) return x;
    if (type_is_integral(x) && y->id == T_DECIMAL && decimal_wider_than_integral(y, x)) return y;
    if (x->id == T_DECIMAL && type_is_integral(y) && decimal_wider_than_integral(x, y)) return x;
    int rx = numeric_rank(x->id), ry = numeric_rank(y->id);
    if (rx && ry) {
        const DataType *w = rx >= ry ? x : y;
        return w->id == T_FLOAT ? &TYPE_DOUBLE : w;
    }
    if (type_is_datetime(x) && type_is_datetime(y)) return prim(datetime_wider(x->id, y->id));
    if (x->id == T_DT_INTERVAL && y->id == T_DT_INTERVAL)
        return type_dt_interval(a, x->start_field < y->start_field ? x->start_field : y->start_field,
                                x->end_field > y->end_field ? x->end_field : y->end_field);
    if (x->id == T_YM_INTERVAL && y->id == T_YM_INTERVAL)
        return type_ym_interval(a, x->start_field < y->start_field ? x->start_field : y->start_field,
                                x->end_field > y->end_field ? x->end_field : y->end_field);
    if (type_is_string(x) && type_is_string(y)) return common_string(x, y);
    return complex_common(a, x, y, fn_tightest_common_type);
}

static const DataType *wider_for_decimal(Arena *a, const DataType *x, const DataType *y) {
    if (x->id == T_DECIMAL && y->id == T_DECIMAL) return fn_wider_decimal(a, x, y);
    if (x->id == T_DECIMAL && type_is_integral(y)) return fn_wider_decimal(a, x, y);
    if (y->id == T_DECIMAL && type_is_integral(x)) return fn_wider_decimal(a, x, y);
    if ((x->id == T_DECIMAL && (y->id == T_FLOAT || y->id == T_DOUBLE)) ||
        (y->id == T_DECIMAL && (x->id == T_FLOAT || x->id == T_DOUBLE)))
        return &TYPE_DOUBLE;
    return NULL;
}

/* AnsiStringPromotionTypeCoercion.findWiderTypeForString */
static const DataType *wider_for_string(const DataType *x, const DataType *y) {
    if (!type_is_string(x)) {
        if (!type_is_string(y)) return NULL;
        const DataType *t = x;
        x = y;
        y = t;
    }
    if (type_is_integral(y)) return &TYPE_LONG;
    if (y->id == T_FLOAT || y->id == T_DOUBLE || y->id == T_DECIMAL) return &TYPE_DOUBLE;
    if (y->id == T_NULL) return x;
    if (y->id == T_YM_INTERVAL || y->id == T_DT_INTERVAL) return NULL;
    if (is_atomic(y)) return type_is_string(y) ? common_string(x, y) : y;
    return NULL;
}

const DataType *coerce_wider_type(Arena *a, const DataType *x, const DataType *y) {
    const DataType *t = fn_tightest_common_type(a, x, y);
    if (!t) t = wider_for_decimal(a, x, y);
    if (!t) t = wider_for_string(x, y);
    if (!t) t = complex_common(a, x, y, coerce_wider_type);
    return t;
}

/* findWiderTypeWithoutStringPromotion: what array functions use */
const DataType *fn_wider_no_string(Arena *a, const DataType *x, const DataType *y) {
    const DataType *t = fn_tightest_common_type(a, x, y);
    if (!t) t = wider_for_decimal(a, x, y);
    if (!t) t = complex_common(a, x, y, fn_wider_no_string);
    return t;
}

const DataType *coerce_wider_type_n(Arena *a, const DataType *const *types, int n) {
    const DataType *t = &TYPE_NULL;
    for (int i = 0; i < n && t; i++) t = coerce_wider_type(a, t, types[i]);
    return t;
}

/* ---- cast legality ---- */

static bool store_assign(const DataType *from, const DataType *to) {
    if (type_same(from, to)) return true;
    if (from->id == T_NULL) return true;
    if (type_is_numeric(from) && type_is_numeric(to)) return true;
    if (is_atomic(from) && type_is_string(to)) return true;
    if (from->id == T_CALENDAR_INTERVAL && type_is_string(to)) return true;
    if (type_is_datetime(from) && type_is_datetime(to)) return true;
    if (from->id == T_ARRAY && to->id == T_ARRAY) return store_assign(from->elem, to->elem);
    if (from->id == T_MAP && to->id == T_MAP)
        return store_assign(from->elem, to->elem) && store_assign(from->value, to->value);
    if (from->id == T_STRUCT && to->id == T_STRUCT) {
        if (from->nfields != to->nfields) return false;
        for (int i = 0; i < from->nfields; i++)
            if (!store_assign(from->fields[i].type, to->fields[i].type)) return false;
        return true;
    }
    return false;
}

bool can_cast(const DataType *from, const DataType *to, bool ansi) {
    if (type_same(from, to) || from->id == T_NULL) return true;
    TypeId f = from->id, t = to->id;
    bool fs = type_is_string(from), fn = type_is_numeric(from), fi = type_is_integral(from);
    if (type_is_string(to)) return f != T_VARIANT || true;
    switch (t) {
    case T_BINARY: return fs || (!ansi && fi);
    case T_BOOLEAN: return fs || fn || (!ansi && (type_is_datetime(from)));
    case T_TIMESTAMP: return fs || f == T_DATE || f == T_TIMESTAMP_NTZ || fn || f == T_VARIANT || (!ansi && f == T_BOOLEAN);
    case T_TIMESTAMP_NTZ: return fs || f == T_DATE || f == T_TIMESTAMP || f == T_VARIANT;
    case T_DATE: return fs || f == T_TIMESTAMP || f == T_TIMESTAMP_NTZ || f == T_VARIANT;
    case T_CALENDAR_INTERVAL: return fs;
    /* Cast.canCast: an integral or decimal to any ANSI interval and back;
       a multi-field interval fails at run time (CAST_INVALID_INPUT), not here */
    case T_DT_INTERVAL: return fs || f == T_DT_INTERVAL || fi || f == T_DECIMAL;
    case T_YM_INTERVAL: return fs || f == T_YM_INTERVAL || fi || f == T_DECIMAL;
    case T_BYTE: case T_SHORT: case T_INT: case T_LONG: case T_FLOAT: case T_DOUBLE: case T_DECIMAL:
        if (fn || fs || f == T_BOOLEAN || f == T_TIMESTAMP || f == T_VARIANT) return true;
        if ((f == T_DT_INTERVAL || f == T_YM_INTERVAL) && (type_is_integral(to) || t == T_DECIMAL)) return true;
        if (!ansi && (f == T_DATE || f == T_BINARY)) return f == T_DATE;
        return false;
    case T_ARRAY: return f == T_ARRAY ? can_cast(from->elem, to->elem, ansi) : f == T_VARIANT;
    case T_MAP:
        return f == T_MAP ? can_cast(from->elem, to->elem, ansi) && can_cast(from->value, to->value, ansi)
                          : f == T_VARIANT;
    case T_STRUCT:
        if (f == T_VARIANT) return true;
        if (f != T_STRUCT || from->nfields != to->nfields) return false;
        for (int i = 0; i < from->nfields; i++)
            if (!can_cast(from->fields[i].type, to->fields[i].type, ansi)) return false;
        return true;
    case T_VARIANT: return f != T_CALENDAR_INTERVAL && f != T_BINARY ? true : f == T_BINARY;
    default: return false;
    }
}

/* ---- implicit casts for expected input types (AnsiTypeCoercion.implicitCast) ---- */

static bool spec_accepts(char code, const DataType *t);
static const DataType *spec_concrete(Arena *a, char code);

bool fn_spec_accepts(char code, const DataType *t) { return spec_accepts(code, t); }
const DataType *fn_spec_concrete(Arena *a, char code) { return spec_concrete(a, code); }

static bool spec_accepts(char code, const DataType *t) {
    switch (code) {
    case '?': case 'C': case 'L': return true;
    case 'n': return type_is_numeric(t);
    case 'N': case 'K': return type_is_numeric(t) || t->id == T_YM_INTERVAL || t->id == T_DT_INTERVAL;
    case 'U': return type_is_numeric(t) || type_is_interval(t);
    case 'i': return t->id == T_INT;
    case 'l': return t->id == T_LONG;
    case 'd': return t->id == T_DOUBLE;
    case 'f': return t->id == T_FLOAT;
    case 'y': return t->id == T_BYTE;
    case 's': case 'F': return type_is_string(t);
    case 'b': case 'o': return t->id == T_BOOLEAN;
    case 'q': return type_is_integral(t) || t->id == T_BOOLEAN || t->id == T_NULL;
    case 'B': return t->id == T_BINARY;
    case 'D': return t->id == T_DATE;
    case 'T': return t->id == T_TIMESTAMP || t->id == T_TIMESTAMP_NTZ;
    case 'Z': return t->id == T_TIMESTAMP;
    case 'X': return t->id == T_TIMESTAMP_NTZ;
    case 'M': return t->id == T_DECIMAL;
    case 'G': return t->id == T_DECIMAL && t->precision == 18 && t->scale == 6;
    case 'H': return t->id == T_DECIMAL && t->precision == 16 && t->scale == 6;
    case 'I': return type_is_integral(t);
    case 'x': return type_is_string(t) || t->id == T_BINARY;
    case 'Q': return t->id != T_NULL;
    case 'g': return type_is_string(t) || t->id == T_BINARY || t->id == T_NULL;
    case 'A': return t->id == T_ARRAY;
    case 'R': return t->id == T_ARRAY && type_is_string(t->elem);
    case 'm': return t->id == T_MAP;
    case 'S': return t->id == T_STRUCT;
    case 'v': return t->id == T_VARIANT;
    case 'W': return t->id == T_DT_INTERVAL;
    case 'Y': return t->id == T_YM_INTERVAL;
    case 'c': return t->id == T_CALENDAR_INTERVAL;
    case 'j': return t->id == T_INT || t->id == T_LONG; /* int or bigint */
    default: return false;
    }
}

static const DataType *spec_concrete(Arena *a, char code) {
    switch (code) {
    case 'n': case 'N': case 'K': case 'U': case 'd': return &TYPE_DOUBLE;
    case 'i': case 'I': case 'j': return &TYPE_INT;
    case 'l': return &TYPE_LONG;
    case 'f': return &TYPE_FLOAT;
    case 'y': return &TYPE_BYTE;
    case 's': case 'F': case 'x': return &TYPE_STRING;
    case 'b': return &TYPE_BOOLEAN;
    case 'B': return &TYPE_BINARY;
    case 'D': return &TYPE_DATE;
    case 'T': case 'Z': return &TYPE_TIMESTAMP;
    case 'X': return &TYPE_TIMESTAMP_NTZ;
    case 'M': return type_decimal(a, 38, 18);
    case 'G': return type_decimal(a, 18, 6);
    case 'H': return type_decimal(a, 16, 6);
    case 'A': return type_array(a, &TYPE_NULL, true);
    case 'v': return &TYPE_VARIANT;
    case 'W': return type_dt_interval(a, IF_DAY, IF_SECOND);
    case 'Y': return type_ym_interval(a, IF_YEAR, IF_MONTH);
    case 'c': return &TYPE_CALENDAR_INTERVAL;
    default: return NULL;
    }
}

const DataType *fn_implicit_cast_type(Arena *a, const DataType *from, char code) {
    if (spec_accepts(code, from)) return from;
    /* 'o': a boolean the function checks without implicit casts (ExpectsInputTypes) */
    if (code == 'o') return from->id == T_NULL ? &TYPE_BOOLEAN : NULL;
    if (code == 'q') return NULL; /* bit_count: integral or boolean, no implicit cast */
    if (code == 'g') return fn_implicit_cast_type(a, from, 'x');
    if (code == 'Q') return &TYPE_STRING; /* only a NULL gets here */
    if (code == 'M' && type_is_numeric(from)) return type_decimal_for(a, from);
    if (type_is_string(from) && (code == 's' || code == 'x' || code == 'F')) return NULL;
    if ((from->id == T_FLOAT || from->id == T_DOUBLE || from->id == T_DECIMAL) && code == 'I') return NULL;
    if (type_is_string(from)) {
        switch (code) {
        case 'I': case 'N': case 'K': case 'U': case 'A': case 'm': case 'S': case 'W': case 'Y': break;
        default: return spec_concrete(a, code);
        }
    }
    if (code == 'x') return fn_implicit_cast_type(a, from, 's');
    if (code == 'j') {
        const DataType *t = fn_implicit_cast_type(a, from, 'i');
        return t ? t : fn_implicit_cast_type(a, from, 'l');
    }
    if (code == 'N' || code == 'K' || code == 'U') return fn_implicit_cast_type(a, from, 'n');
    /* Spark 4.0 casts timestamps to double where any numeric is expected (avg(ts)) */
    if (code == 'n' && from->id == T_TIMESTAMP) return &TYPE_DOUBLE;
    if (code == 'A' && from->id == T_NULL) return spec_concrete(a, code);
    /* ArrayType(StringType): an array whose elements cast to string implicitly */
    if (code == 'R') {
        if (from->id == T_NULL) return type_array(a, &TYPE_STRING, true);
        if (from->id != T_ARRAY) return NULL;
        const DataType *e = fn_implicit_cast_type(a, from->elem, 's');
        return e ? type_array(a, e, from->contains_null) : NULL;
    }
    const DataType *c = spec_concrete(a, code);
    if (!c || c->id == T_ARRAY) return NULL;
    return store_assign(from, c) ? c : NULL;
}

/* TypeCoercion.implicitCast (ANSI off) where the ANSI rules refuse: a number
   casts to any numeric type a function expects. */
const DataType *fn_legacy_implicit_cast_type(Arena *a, const DataType *from, char code) {
    if (!type_is_numeric(from)) return NULL;
    if (code == 'j') return &TYPE_INT;
    const DataType *c = spec_concrete(a, code);
    return c && type_is_numeric(c) ? c : NULL;
}

const char *fn_spec_required_type(Arena *a, char code) {
    (void)a;
    switch (code) {
    case 'n': return "\"NUMERIC\"";
    /* Sum/Average: TypeCollection(NumericType, YearMonthIntervalType, DayTimeIntervalType) */
    case 'N': return "(\"NUMERIC\" or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL DAY TO SECOND\")";
    /* NumericAndAnsiInterval (abs) */
    case 'K': return "(\"NUMERIC\" or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\")";
    /* NumericAndInterval (unary minus, +, -) */
    case 'U': return "(\"NUMERIC\" or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL\")";
    case 'i': return "\"INT\"";
    case 'l': return "\"BIGINT\"";
    case 'j': return "(\"INT\" or \"BIGINT\")";
    case 'd': return "\"DOUBLE\"";
    case 'f': return "\"FLOAT\"";
    case 'y': return "\"TINYINT\"";
    case 's': case 'F': return "\"STRING\"";
    case 'g': return "(\"STRING\" or \"BINARY\" or \"VOID\")";
    case 'b': case 'o': return "\"BOOLEAN\"";
    case 'q': return "(\"INTEGRAL\" or \"BOOLEAN\")";
    case 'B': return "\"BINARY\"";
    case 'D': return "\"DATE\"";
    case 'T': return "\"(TIMESTAMP OR TIMESTAMP WITHOUT TIME ZONE)\"";
    case 'Z': return "\"TIMESTAMP\"";
    case 'X': return "\"TIMESTAMP_NTZ\"";
    case 'M': return "\"DECIMAL\"";
    case 'G': return "\"DECIMAL(18,6)\"";
    case 'H': return "\"DECIMAL(16,6)\"";
    case 'I': return "\"INTEGRAL\"";
    case 'x': return "(\"STRING\" or \"BINARY\")";
    case 'A': return "\"ARRAY\"";
    case 'R': return "\"ARRAY<STRING>\"";
    case 'm': return "\"MAP\"";
    case 'S': return "\"STRUCT\"";
    case 'v': return "\"VARIANT\"";
    case 'W': return "\"INTERVAL DAY TO SECOND\"";
    case 'Y': return "\"INTERVAL YEAR TO MONTH\"";
    case 'c': return "\"INTERVAL\"";
    default: return "\"ANY\"";
    }
}
