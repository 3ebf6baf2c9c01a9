/* Array, map and struct functions, and the higher-order functions over
 * them (their lambdas are typed through func_lambda_arg_types). */
#include "functions.h"
#include "registry.h"
#include "core/func_sig.h"

#define HOF (FD_LAMBDA)

const FuncDef FUNCS_COLLECTION[] = {
    {SCALAR("array", 0, -1, "C", array, NULL)},
    {SCALAR("array_append", 2, 2, "??", array_elem_op, NULL)},
    {SCALAR("array_prepend", 2, 2, "??", array_elem_op, NULL)},
    {SCALAR("array_remove", 2, 2, "??", array_elem_op, NULL)},
    {SCALAR("array_contains", 2, 2, "??", array_elem_op, "boolean")},
    {SCALAR("array_position", 2, 2, "??", array_elem_op, "bigint")},
    {SCALAR("array_insert", 3, 3, "Ai?", array_insert, NULL), .tostring_tail = ", false"},
    {SCALAR("array_compact", 1, 1, "A", arg0, NULL)},
    {SCALAR("array_distinct", 1, 1, "A", arg0, NULL)},
    {SCALAR("array_except", 2, 2, "??", array_setop, NULL)},
    {SCALAR("array_intersect", 2, 2, "??", array_setop, NULL)},
    {SCALAR("array_union", 2, 2, "??", array_setop, NULL)},
    {SCALAR("arrays_overlap", 2, 2, "??", array_setop, "boolean"), .flags = FD_NULLABLE},
    {SCALAR("array_join", 2, 3, "Rss", fixed, "string"), .tostring_tail = "$<2, $?2"},
    {SCALAR("array_max", 1, 1, "A", elem, NULL)},
    {SCALAR("array_min", 1, 1, "A", elem, NULL)},
    {SCALAR("array_repeat", 2, 2, "?i", array_repeat, NULL)},
    {SCALAR("array_size", 1, 1, "A", fixed, "int")},
    {SCALAR("arrays_zip", 0, -1, "?", arrays_zip, NULL)},
    {SCALAR("cardinality", 1, 1, "?", size, NULL), .tostring_tail = ", $a"},
    {SCALAR("size", 1, 1, "?", size, NULL), .tostring_tail = ", $a"},
    {SCALAR("element_at", 2, 2, "??", elem, NULL), .tostring_tail = ", None, $A"},
    {SCALAR("try_element_at", 2, 2, "??", elem, NULL)},
    {SCALAR("get", 2, 2, "??", elem, NULL)},
    {SCALAR("flatten", 1, 1, "?", flatten, NULL)},
    {SCALAR("shuffle", 1, 2, "Al", arg0, NULL), .flags = FD_NONDET},
    {SCALAR("slice", 3, 3, "Aii", arg0, NULL)},
    {SCALAR("sort_array", 1, 2, "Ao", sort_array, NULL), .defaults = "btrue"},
    {SCALAR("sequence", 2, 3, "???", sequence, NULL), .tostring_tail = "$<2, $?2, $Z"},
    {SCALAR("map", 0, -1, "?", map, NULL)},
    {SCALAR("map_concat", 0, -1, "?", map_concat, NULL)},
    /* Column.withField / dropFields (Spark Connect's UpdateFields): UpdateFields(struct, ops), the ops
       WithField(name, value) and DropField(name) */
    {SCALAR("@update_fields", 2, -1, "??", update_fields, NULL), .pname = "update_fields"},
    {SCALAR("@withfield", 2, 2, "s?", field_op, NULL), .pname = "WithField", .flags = FD_SQL_SKIP_FIRST},
    {SCALAR("@dropfield", 1, 1, "s", field_op, NULL), .pname = "dropfield", .flags = FD_SQL_SKIP_FIRST},
    {SCALAR("map_contains_key", 2, 2, "??", map_key_op, NULL)},
    {SCALAR("map_entries", 1, 1, "?", map_entries, NULL)},
    {SCALAR("map_from_arrays", 2, 2, "??", map_from_arrays, NULL)},
    {SCALAR("map_from_entries", 1, 1, "?", map_from_entries, NULL)},
    {SCALAR("map_keys", 1, 1, "?", map_keys, NULL)},
    {SCALAR("map_values", 1, 1, "?", map_values, NULL)},
    {SCALAR("str_to_map", 1, 3, "sss", str_to_map, NULL), .defaults = "s,|s:"},
    {SCALAR("named_struct", 0, -1, "?", named_struct, NULL)},
    {SCALAR("struct", 0, -1, "?", struct, NULL), .print = CS_STRUCT},
    /* higher-order */
    {SCALAR("transform", 2, 2, "?L", transform, NULL), .flags = HOF},
    {SCALAR("filter", 2, 2, "?L", filter, NULL), .flags = HOF},
    {SCALAR("exists", 2, 2, "?L", exists, NULL), .flags = HOF},
    {SCALAR("forall", 2, 2, "?L", exists, NULL), .flags = HOF},
    {SCALAR("aggregate", 3, 4, "??L", aggregate, NULL), .flags = HOF},
    {SCALAR("reduce", 3, 4, "??L", aggregate, NULL), .flags = HOF},
    {SCALAR("zip_with", 3, 3, "??L", zip_with, NULL), .flags = HOF},
    {SCALAR("map_filter", 2, 2, "?L", map_filter, NULL), .flags = HOF},
    {SCALAR("transform_keys", 2, 2, "?L", transform_keys, NULL), .flags = HOF},
    {SCALAR("transform_values", 2, 2, "?L", transform_values, NULL), .flags = HOF},
    {SCALAR("map_zip_with", 3, 3, "??L", map_zip_with, NULL), .flags = HOF},
    {SCALAR("array_sort", 1, 2, "AL", array_sort, NULL), .flags = HOF, .tostring_tail = ", false"},
    END_OF_TABLE,
};
