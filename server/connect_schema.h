/* Spark Connect's types and schemas: spark.connect.DataType messages to and
 * from the analyzer's types, and the three text forms Connect uses — DDL
 * ("id BIGINT, a INT", or a type "array<int>"), Spark's JSON schema
 * ({"type":"struct","fields":[...]}) and the printed forms (StructType.toDDL,
 * StructType.treeString, DataType.typeName). No I/O; everything in the
 * caller's arena. Decoders return NULL with a one-line reason in err. */
#ifndef CZ_CONNECT_SCHEMA_H
#define CZ_CONNECT_SCHEMA_H

#include <stddef.h>

#include "core/arena.h"
#include "spark/connect/types.pb-c.h"
#include "core/types.h"

/* The analyzer's type as a DataType message (every struct field nullable as given). */
Spark__Connect__DataType *connect_type_encode(Arena *a, const DataType *t);

/* A DataType message as the analyzer's type; Unparsed goes through
 * connect_parse_ddl. Nesting is limited by max_depth. */
const DataType *connect_type_decode(Arena *a, const Spark__Connect__DataType *t, unsigned max_depth, char *err,
                                    size_t errlen);

/* Spark's parseDatatypeString: a table schema ("a INT, b STRING NOT NULL"),
 * else a data type ("int", "array<int>"), else the fields of a struct ("a: int"). */
const DataType *connect_parse_ddl(Arena *a, const char *s, char *err, size_t errlen);

/* Spark's DataType.fromJson. */
const DataType *connect_parse_json_type(Arena *a, const char *json, char *err, size_t errlen);

/* DataType.parseTypeWithFallback: DDL first, then JSON. */
const DataType *connect_parse_schema(Arena *a, const char *s, char *err, size_t errlen);

/* StructType.toDDL: "id BIGINT,a INT NOT NULL". */
const char *connect_struct_to_ddl(Arena *a, const DataType *t);

/* StructType.treeString(level): "root\n |-- a: integer (nullable = true)\n...";
 * level <= 0 prints every level. */
const char *connect_tree_string(Arena *a, const DataType *t, int level);

/* DataType.typeName: "integer", "long", "decimal(10,2)", "array", ... */
const char *connect_type_name(Arena *a, const DataType *t);

/* The JSON form (DataType.json) of a type, e.g. for json_to_ddl round trips and tests. */
const char *connect_type_json(Arena *a, const DataType *t);

#endif
