/* Conditional, hashing, bitmap, reflection, variant, cast-named functions
 * (`date(x)`, `int(x)`), and the JSON/CSV/XML/XPath family. */
#include "functions.h"
#include "registry.h"
#include "core/func_sig.h"

#define CAST_FN(nm, ty) {SCALAR(nm, 1, 1, "?", cast_alias, ty)}
#define XPATH(nm, ty) {SCALAR(nm, 2, 2, "ss", fixed, ty), .flags = FD_NULLABLE}

const FuncDef FUNCS_MISC[] = {
    /* conditional */
    {SCALAR("coalesce", 1, -1, "C", common, NULL)},
    {SCALAR("if", 3, 3, "?CC", if, NULL), .print = CS_IF},
    {SCALAR("iff", 3, 3, "?CC", if, NULL), .print = CS_IF},
    {SCALAR("ifnull", 2, 2, "CC", common, NULL), .flags = FD_INHERIT_ANALYSIS},
    {SCALAR("nvl", 2, 2, "CC", common, NULL), .flags = FD_INHERIT_ANALYSIS},
    {SCALAR("nvl2", 3, 3, "?CC", nvl2, NULL), .flags = FD_INHERIT_ANALYSIS},
    {SCALAR("nullif", 2, 2, "??", nullif, NULL)},
    {SCALAR("equal_null", 2, 2, "??", eq, NULL), .flags = FD_NOT_NULL},
    {SCALAR("assert_true", 1, 2, "??", assert_true, NULL), .flags = FD_INHERIT_ANALYSIS},
    {SCALAR("raise_error", 1, 2, "??", raise_error, NULL), .tostring_tail = ", $T"},
    /* introspection and environment */
    {SCALAR("typeof", 1, 1, "?", fixed, "string"), .flags = FD_NOT_NULL},
    {SCALAR("uuid", 0, 1, "l", fixed, "string"), .flags = FD_NONDET | FD_NOT_NULL},
    {SCALAR("version", 0, 0, "", fixed, "string"), .flags = FD_NOT_NULL},
    {SCALAR("monotonically_increasing_id", 0, 0, "", fixed, "bigint"), .flags = FD_NONDET | FD_NOT_NULL},
    {SCALAR("spark_partition_id", 0, 0, "", fixed, "int"), .pname = "SPARK_PARTITION_ID",
     .flags = FD_NONDET | FD_NOT_NULL},
    {SCALAR("input_file_name", 0, 0, "", fixed, "string"), .flags = FD_NONDET | FD_NOT_NULL},
    {SCALAR("input_file_block_length", 0, 0, "", fixed, "bigint"), .flags = FD_NONDET | FD_NOT_NULL},
    {SCALAR("input_file_block_start", 0, 0, "", fixed, "bigint"), .flags = FD_NONDET | FD_NOT_NULL},
    {SCALAR("java_method", 2, -1, "ss?", fixed, "string"), .flags = FD_NONDET | FD_NULLABLE, .tostring_tail = ", true"},
    {SCALAR("reflect", 2, -1, "ss?", fixed, "string"), .flags = FD_NONDET | FD_NULLABLE, .tostring_tail = ", true"},
    {SCALAR("try_reflect", 2, -1, "ss?", fixed, "string"), .flags = FD_NONDET | FD_NULLABLE},
    {SCALAR("grouping", 1, 1, "?", fixed, "tinyint"), .flags = FD_NOT_NULL | FD_GROUPING},
    {SCALAR("grouping_id", 0, -1, "?", fixed, "bigint"), .flags = FD_NOT_NULL | FD_GROUPING},
    /* hashing and bitmaps */
    /* AtLeastNNonNulls(n, children): DataFrame.na.drop only (not callable by name) */
    {SCALAR("@atleastnnonnulls", 1, -1, "i?", fixed, "boolean"), .pname = "atleastnnonnulls", .flags = FD_NOT_NULL},
    {SCALAR("hash", 1, -1, "?", fixed, "int"), .flags = FD_NOT_NULL, .tostring_tail = ", 42"},
    {SCALAR("xxhash64", 1, -1, "?", fixed, "bigint"), .flags = FD_NOT_NULL, .tostring_tail = ", 42"},
    {SCALAR("bitmap_bit_position", 1, 1, "l", fixed, "bigint")},
    {SCALAR("bitmap_bucket_number", 1, 1, "l", fixed, "bigint")},
    {SCALAR("bitmap_count", 1, 1, "B", fixed, "bigint")},
    {SCALAR("hll_sketch_estimate", 1, 1, "B", fixed, "bigint")},
    {SCALAR("hll_union", 2, 3, "BBb", fixed, "binary"), .defaults = "bfalse"},
    /* variant */
    /* Avro (Spark's spark-avro module, which the analyzer does not have: the
       calls are checked, then refused as Spark refuses them without it) */
    {SCALAR("from_avro", 2, 3, "???", avro, NULL)},
    {SCALAR("to_avro", 1, 2, "??", avro, NULL)},
    {SCALAR("parse_json", 1, 1, "s", fixed, "variant"), .tostring_tail = ", true" /* failOnError */},
    {SCALAR("try_parse_json", 1, 1, "s", fixed, "variant"), .flags = FD_NULLABLE},
    {SCALAR("is_variant_null", 1, 1, "v", fixed, "boolean"), .flags = FD_NOT_NULL},
    {SCALAR("schema_of_variant", 1, 1, "v", fixed, "string")},
    {SCALAR("to_variant_object", 1, 1, "?", fixed, "variant")},
    {SCALAR("variant_get", 2, 3, "vss", variant_get, NULL), .print_nargs = 2, .tostring_tail = ", $T, true, $Z"},
    {SCALAR("try_variant_get", 2, 3, "vss", variant_get, NULL), .print_nargs = 2,
     .tostring_tail = ", $T, false, $Z"},
    /* casts spelled as functions */
    CAST_FN("boolean", "boolean"), CAST_FN("tinyint", "tinyint"), CAST_FN("smallint", "smallint"),
    CAST_FN("int", "int"), CAST_FN("bigint", "bigint"), CAST_FN("float", "float"), CAST_FN("double", "double"),
    CAST_FN("decimal", "decimal(10,0)"), CAST_FN("date", "date"), CAST_FN("timestamp", "timestamp"),
    CAST_FN("binary", "binary"), CAST_FN("string", "string"),
    END_OF_TABLE,
};

const FuncDef FUNCS_FORMATS[] = {
    {SCALAR("from_json", 2, 3, "s??", from_schema, NULL), .print_nargs = 1},
    {SCALAR("from_csv", 2, 3, "s??", from_schema, NULL), .print_nargs = 1},
    {SCALAR("from_xml", 2, 3, "s??", from_schema, NULL), .print_nargs = 1},
    {SCALAR("to_json", 1, 2, "??", to_format, "string"), .flags = FD_NULLABLE, .sql_nargs = 1},
    {SCALAR("to_csv", 1, 2, "??", to_format, "string"), .flags = FD_NULLABLE, .sql_nargs = 1},
    {SCALAR("to_xml", 1, 2, "??", to_format, "string"), .flags = FD_NULLABLE, .sql_nargs = 1},
    {SCALAR("schema_of_json", 1, 2, "s?", schema_of, NULL), .flags = FD_NOT_NULL, .sql_nargs = 1},
    {SCALAR("schema_of_csv", 1, 2, "s?", schema_of, NULL), .flags = FD_NOT_NULL, .sql_nargs = 1},
    {SCALAR("schema_of_xml", 1, 2, "s?", schema_of, NULL), .flags = FD_NOT_NULL, .sql_nargs = 1},
    {SCALAR("get_json_object", 2, 2, "ss", fixed, "string"), .flags = FD_NULLABLE},
    {SCALAR("json_array_length", 1, 1, "s", fixed, "int"), .flags = FD_NULLABLE | FD_EXPECTS_INPUT},
    {SCALAR("json_object_keys", 1, 1, "s", fixed, "array<string>"), .flags = FD_NULLABLE | FD_EXPECTS_INPUT},
    XPATH("xpath", "array<string>"), XPATH("xpath_boolean", "boolean"), XPATH("xpath_double", "double"),
    XPATH("xpath_number", "double"), XPATH("xpath_float", "float"), XPATH("xpath_int", "int"),
    XPATH("xpath_long", "bigint"), XPATH("xpath_short", "smallint"), XPATH("xpath_string", "string"),
    END_OF_TABLE,
};
