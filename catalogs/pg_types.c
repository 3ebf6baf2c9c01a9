/* PostgreSQL types to Spark types, as Spark's JDBC source maps them (pg_types.h). */
#include "pg_types.h"

#include <stdio.h>
#include <string.h>

/* pgjdbc's java.sql.Types for a PostgreSQL type (TypeInfoCache). */
typedef enum JdbcType {
    J_OTHER, J_BIT, J_SMALLINT, J_INTEGER, J_BIGINT, J_REAL, J_DOUBLE, J_NUMERIC, J_CHAR, J_VARCHAR,
    J_DATE, J_TIME, J_TIMESTAMP, J_BINARY, J_SQLXML, J_ARRAY, J_STRUCT, J_REF_CURSOR
} JdbcType;

static const struct { const char *name; JdbcType type; } PGJDBC_TYPES[] = {
    {"int2", J_SMALLINT},   {"int4", J_INTEGER},      {"oid", J_BIGINT},        {"int8", J_BIGINT},
    {"money", J_DOUBLE},    {"numeric", J_NUMERIC},   {"float4", J_REAL},       {"float8", J_DOUBLE},
    {"char", J_CHAR},       {"bpchar", J_CHAR},       {"varchar", J_VARCHAR},   {"text", J_VARCHAR},
    {"name", J_VARCHAR},    {"bytea", J_BINARY},      {"bool", J_BIT},          {"bit", J_BIT},
    {"date", J_DATE},       {"time", J_TIME},         {"timetz", J_TIME},       {"timestamp", J_TIMESTAMP},
    {"timestamptz", J_TIMESTAMP}, {"refcursor", J_REF_CURSOR}, {"json", J_OTHER}, {"point", J_OTHER},
    {"xml", J_SQLXML},
};

static JdbcType jdbc_type(const PgColumnType *t) {
    if (t->elem_typname) return J_ARRAY;
    for (size_t i = 0; i < sizeof PGJDBC_TYPES / sizeof PGJDBC_TYPES[0]; i++)
        if (!strcmp(t->typname, PGJDBC_TYPES[i].name)) return PGJDBC_TYPES[i].type;
    return t->typtype == 'c' ? J_STRUCT : J_OTHER;
}

/* pgjdbc's precision and scale of numeric(p, s) (a typmod of -1: 0, 0). */
static void numeric_precision_scale(int typmod, int *p, int *s) {
    if (typmod < 4) {
        *p = *s = 0;
        return;
    }
    int v = typmod - 4;
    *p = (v >> 16) & 0xffff;
    *s = ((v & 0x7ff) ^ 1024) - 1024; /* PostgreSQL 15 stores a signed 11-bit scale */
}

/* DecimalType.bounded: precision and scale capped at 38. */
static void decimal_bounded(int p, int s, char *out, size_t size) {
    if (p > 38) p = 38;
    if (s > 38) s = 38;
    snprintf(out, size, "decimal(%d,%d)", p, s);
}

/* PostgresDialect.toCatalystType: an array's element type (by name). */
static bool array_element(const char *name, int precision, int scale, char *out, size_t size) {
    static const char *const STRINGS[] = {
        "text", "varchar", "char", "bpchar", "cidr", "inet", "json", "jsonb", "uuid", "xml", "tsvector", "tsquery",
        "macaddr", "macaddr8", "txid_snapshot", "point", "line", "lseg", "box", "path", "polygon", "circle", "pg_lsn",
        "varbit", "interval", "pg_snapshot"};
    static const struct { const char *pg, *spark; } SIMPLE[] = {
        {"bool", "boolean"}, {"bit", "binary"}, {"int2", "smallint"}, {"int4", "int"}, {"int8", "bigint"},
        {"oid", "bigint"}, {"float4", "float"}, {"float8", "double"}, {"bytea", "binary"}, {"timestamp", "timestamp"},
        {"timestamptz", "timestamp"}, {"time", "timestamp"}, {"timetz", "timestamp"}, {"date", "date"}};
    for (size_t i = 0; i < sizeof STRINGS / sizeof STRINGS[0]; i++)
        if (!strcmp(name, STRINGS[i])) return snprintf(out, size, "string"), true;
    for (size_t i = 0; i < sizeof SIMPLE / sizeof SIMPLE[0]; i++)
        if (!strcmp(name, SIMPLE[i].pg)) return snprintf(out, size, "%s", SIMPLE[i].spark), true;
    if (!strcmp(name, "numeric") || !strcmp(name, "decimal")) {
        if (precision > 0) decimal_bounded(precision, scale, out, size);
        else snprintf(out, size, "decimal(38,18)");
        return true;
    }
    return false; /* money[] and the rest: Spark cannot read them */
}

bool pg_spark_type(const PgColumnType *t, bool prefer_ntz, char *out, size_t size) {
    JdbcType j = jdbc_type(t);
    const char *ts = prefer_ntz ? "timestamp_ntz" : "timestamp";
    /* PostgresDialect.getCatalystType first */
    switch (j) {
    case J_REAL: return snprintf(out, size, "float"), true;
    case J_SMALLINT: return snprintf(out, size, "smallint"), true;
    case J_BIT:
        if (!strcmp(t->typname, "bit")) {
            int bits = t->typmod > 0 ? t->typmod : 1; /* bit without a length is bit(1) */
            return snprintf(out, size, bits != 1 ? "binary" : "boolean"), true;
        }
        return snprintf(out, size, "boolean"), true;
    case J_DOUBLE: return snprintf(out, size, !strcmp(t->typname, "money") ? "string" : "double"), true;
    case J_OTHER: return snprintf(out, size, "string"), true;
    case J_ARRAY: {
        /* pgjdbc gives an array column no precision or scale */
        char elem[64];
        if (!array_element(t->elem_typname, 0, 0, elem, sizeof elem)) {
            snprintf(out, size, "Unrecognized SQL type ARRAY (%s)", t->typname);
            return false;
        }
        return snprintf(out, size, "array<%s>", elem), true;
    }
    default: break;
    }
    /* then JdbcUtils.getCatalystType; CHAR and VARCHAR end as STRING */
    switch (j) {
    case J_INTEGER: return snprintf(out, size, "int"), true;
    case J_BIGINT: return snprintf(out, size, "bigint"), true;
    case J_BINARY: return snprintf(out, size, "binary"), true;
    case J_CHAR:
    case J_VARCHAR:
    case J_SQLXML:
    case J_STRUCT: return snprintf(out, size, "string"), true;
    case J_DATE: return snprintf(out, size, "date"), true;
    case J_TIME:
    case J_TIMESTAMP: return snprintf(out, size, "%s", ts), true;
    case J_NUMERIC: {
        int p, s;
        numeric_precision_scale(t->typmod, &p, &s);
        if (p == 0 && s == 0) return snprintf(out, size, "decimal(38,18)"), true;
        if (s < 0) return decimal_bounded(p - s, 0, out, size), true;
        return decimal_bounded(p > s ? p : s, s, out, size), true;
    }
    default:
        snprintf(out, size, "Unrecognized SQL type %s (%s)", j == J_REF_CURSOR ? "REF_CURSOR" : "OTHER", t->typname);
        return false;
    }
}
