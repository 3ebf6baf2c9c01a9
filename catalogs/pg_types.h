/* PostgreSQL column types as Spark's JDBC source reads them: pgjdbc's
 * java.sql.Types for the PostgreSQL type, then Spark's PostgresDialect
 * (getCatalystType), then JdbcUtils.getCatalystType, then CHAR/VARCHAR read
 * as STRING (CharVarcharUtils.replaceCharVarcharWithStringInSchema).
 * Read from apache/spark sql/core/.../jdbc/PostgresDialect.scala and
 * .../datasources/jdbc/JdbcUtils.scala (Spark 4.0). */
#ifndef CZ_PG_TYPES_H
#define CZ_PG_TYPES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct PgColumnType {
    const char *typname;     /* pg_type.typname of the column's type (a domain's base type) */
    char typtype;            /* pg_type.typtype: 'b' base, 'c' composite, 'e' enum, 'r' range, ... */
    const char *elem_typname;/* for an array type (typname "_int4"): the element's typname; else NULL */
    int typmod;              /* the column's atttypmod (-1: none) */
} PgColumnType;

/* Writes the Spark type string (catalog form: "int", "decimal(7,2)",
 * "array<string>") into out and returns true; false with a reason in out for
 * a type Spark's JDBC source cannot read (it fails the table's load). */
bool pg_spark_type(const PgColumnType *t, bool prefer_timestamp_ntz, char *out, size_t size);

#endif
