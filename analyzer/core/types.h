/* Spark's data types: construction, equality, parsing from and printing in
 * Spark's two forms — catalogString (`int`, `decimal(10,2)`, `array<int>`,
 * `struct<a:int,b:string>`: what schema strings use) and sql (`INT`,
 * `DECIMAL(10,2)`, `ARRAY<INT>`, `STRUCT<a: INT>`: what CAST names use).
 *
 * Primitive types are immutable singletons; composite types live in an arena
 * (or, for catalog types, in the catalog's arena). Types are compared with
 * type_equal, never by pointer. */
#ifndef CZ_TYPES_H
#define CZ_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "strbuf.h"

typedef enum TypeId {
    T_NULL,          /* void */
    T_BOOLEAN,
    T_BYTE,          /* tinyint */
    T_SHORT,         /* smallint */
    T_INT,
    T_LONG,          /* bigint */
    T_FLOAT,
    T_DOUBLE,
    T_DECIMAL,
    T_STRING,
    T_CHAR,          /* char(n) */
    T_VARCHAR,       /* varchar(n) */
    T_BINARY,
    T_DATE,
    T_TIMESTAMP,
    T_TIMESTAMP_NTZ,
    T_YM_INTERVAL,   /* interval year to month (fields in start/end) */
    T_DT_INTERVAL,   /* interval day to second (fields in start/end) */
    T_CALENDAR_INTERVAL, /* interval */
    T_ARRAY,
    T_MAP,
    T_STRUCT,
    T_VARIANT,
    T_COUNT_
} TypeId;

/* Interval fields, as Spark numbers them. */
enum { IF_YEAR = 0, IF_MONTH = 1 };
enum { IF_DAY = 0, IF_HOUR = 1, IF_MINUTE = 2, IF_SECOND = 3 };

typedef struct DataType DataType;

typedef struct StructField {
    const char *name;
    const DataType *type;
    bool nullable;
    const char *comment; /* NULL if none */
} StructField;

struct DataType {
    TypeId id;
    uint8_t precision;     /* decimal */
    uint8_t scale;         /* decimal */
    uint8_t start_field;   /* intervals */
    uint8_t end_field;     /* intervals */
    bool contains_null;    /* array elements / map values may be null */
    int32_t length;        /* char(n) / varchar(n) */
    int32_t collation;     /* string: a collation id (core/collation.h); 0 is UTF8_BINARY */
    const DataType *elem;  /* array element; map key */
    const DataType *value; /* map value */
    int nfields;           /* struct */
    const StructField *fields;
};

/* Singletons. */
extern const DataType TYPE_NULL, TYPE_BOOLEAN, TYPE_BYTE, TYPE_SHORT, TYPE_INT, TYPE_LONG,
    TYPE_FLOAT, TYPE_DOUBLE, TYPE_STRING, TYPE_BINARY, TYPE_DATE, TYPE_TIMESTAMP,
    TYPE_TIMESTAMP_NTZ, TYPE_CALENDAR_INTERVAL, TYPE_VARIANT, TYPE_YM_INTERVAL,
    TYPE_DT_INTERVAL;

/* Constructors (arena-allocated). */
const DataType *type_decimal(Arena *a, int precision, int scale);
const DataType *type_array(Arena *a, const DataType *elem, bool contains_null);
const DataType *type_map(Arena *a, const DataType *key, const DataType *value, bool value_contains_null);
const DataType *type_struct(Arena *a, int nfields, const StructField *fields); /* fields copied */
const DataType *type_char(Arena *a, TypeId id /* T_CHAR or T_VARCHAR */, int length);
const DataType *type_ym_interval(Arena *a, int start, int end);
const DataType *type_dt_interval(Arena *a, int start, int end);
/* StringType(collationId): TYPE_STRING for UTF8_BINARY. */
const DataType *type_string_collated(Arena *a, int32_t collation);
/* A string written with its collation (`STRING COLLATE UTF8_BINARY`): never
 * the TYPE_STRING singleton, which stands for a plain `STRING` (Spark's
 * StringType object, the default string type a DEFAULT COLLATION replaces). */
const DataType *type_string_explicit(Arena *a, int32_t collation);
/* `t` with every plain STRING in it given `collation` (DEFAULT COLLATION). */
const DataType *type_with_default_collation(Arena *a, const DataType *t, int32_t collation);
/* The collation of a string type (0 for anything else). */
static inline int32_t type_collation(const DataType *t) { return t->id == T_STRING ? t->collation : 0; }
/* A string with a collation other than UTF8_BINARY anywhere inside
 * (SchemaUtils.hasNonUTF8BinaryCollation). */
bool type_has_collated_string(const DataType *t);
/* `t` with every string in it given collation `collation` (arrays, maps and
 * structs rebuilt as needed). */
const DataType *type_with_collation(Arena *a, const DataType *t, int32_t collation);

/* Deep copy into another arena (catalog publishing). */
const DataType *type_copy(Arena *a, const DataType *t);

bool type_equal(const DataType *x, const DataType *y);
/* Equal ignoring nullability flags (Spark's sameType). */
bool type_same(const DataType *x, const DataType *y);

static inline bool type_is_integral(const DataType *t) {
    return t->id == T_BYTE || t->id == T_SHORT || t->id == T_INT || t->id == T_LONG;
}
static inline bool type_is_numeric(const DataType *t) {
    return type_is_integral(t) || t->id == T_FLOAT || t->id == T_DOUBLE || t->id == T_DECIMAL;
}
static inline bool type_is_string(const DataType *t) {
    return t->id == T_STRING || t->id == T_CHAR || t->id == T_VARCHAR;
}
static inline bool type_is_datetime(const DataType *t) {
    return t->id == T_DATE || t->id == T_TIMESTAMP || t->id == T_TIMESTAMP_NTZ;
}
static inline bool type_is_interval(const DataType *t) {
    return t->id == T_YM_INTERVAL || t->id == T_DT_INTERVAL || t->id == T_CALENDAR_INTERVAL;
}
static inline bool type_is_complex(const DataType *t) {
    return t->id == T_ARRAY || t->id == T_MAP || t->id == T_STRUCT;
}

/* Spark's DecimalType.forType: the decimal that holds every value of an
 * integral type (tinyint → decimal(3,0), ..., bigint → decimal(20,0)); NULL
 * for non-integral types other than decimal (returned as is). */
const DataType *type_decimal_for(Arena *a, const DataType *t);

/* Printing. */
void type_print_catalog(StrBuf *sb, const DataType *t); /* `decimal(10,2)` */
void type_print_scala(StrBuf *sb, const DataType *t);   /* DataType.toString: `DecimalType(10,2)` */
void type_print_struct_fields(StrBuf *sb, const DataType *t); /* `StructField(a,IntegerType,true),...` */
void type_print_sql(StrBuf *sb, const DataType *t);     /* `DECIMAL(10,2)` */
const char *type_catalog_string(Arena *a, const DataType *t);
const char *type_sql(Arena *a, const DataType *t);

/* Parses a Spark type name (case-insensitive; `int`, `integer`, `long`,
 * `decimal(10, 2)`, `dec`, `numeric`, `array<int>`, `map<string, int>`,
 * `struct<a: int, b string>`, `interval day to second`, `char(3)`, ...).
 * Returns NULL and sets *error (static text) on failure; *consumed gets the
 * number of bytes used (the whole input must be a type unless consumed is
 * non-NULL). */
const DataType *type_parse(Arena *a, const char *s, size_t len, size_t *consumed, const char **error);

#endif
