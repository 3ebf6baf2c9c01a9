#include <criterion/criterion.h>
#include <string.h>

#include "core/types.h"

static Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }

TestSuite(types, .init = setup, .fini = teardown);

static void roundtrip(const char *in, const char *catalog, const char *sql) {
    const char *err = NULL;
    const DataType *t = type_parse(A, in, strlen(in), NULL, &err);
    cr_assert(t, "parse %s: %s", in, err ? err : "?");
    cr_expect_str_eq(type_catalog_string(A, t), catalog, "catalog string of %s", in);
    cr_expect_str_eq(type_sql(A, t), sql, "sql of %s", in);
    /* the catalog string parses back to an equal type (it does not quote
       field names, so only when they are plain identifiers) */
    if (strchr(catalog, ' ') && strncmp(catalog, "interval", 8) != 0) return;
    const DataType *u = type_parse(A, catalog, strlen(catalog), NULL, &err);
    cr_assert(u, "reparse %s", catalog);
    cr_expect(type_equal(t, u), "round trip of %s", in);
}

Test(types, primitives) {
    roundtrip("INT", "int", "INT");
    roundtrip("integer", "int", "INT");
    roundtrip("BIGINT", "bigint", "BIGINT");
    roundtrip("long", "bigint", "BIGINT");
    roundtrip("tinyint", "tinyint", "TINYINT");
    roundtrip("smallint", "smallint", "SMALLINT");
    roundtrip("boolean", "boolean", "BOOLEAN");
    roundtrip("float", "float", "FLOAT");
    roundtrip("double", "double", "DOUBLE");
    roundtrip("string", "string", "STRING");
    roundtrip("binary", "binary", "BINARY");
    roundtrip("date", "date", "DATE");
    roundtrip("timestamp", "timestamp", "TIMESTAMP");
    roundtrip("timestamp_ntz", "timestamp_ntz", "TIMESTAMP_NTZ");
    roundtrip("void", "void", "VOID");
}

Test(types, decimals) {
    roundtrip("decimal(10,2)", "decimal(10,2)", "DECIMAL(10,2)");
    roundtrip("DECIMAL( 38 , 0 )", "decimal(38,0)", "DECIMAL(38,0)");
    roundtrip("decimal", "decimal(10,0)", "DECIMAL(10,0)");
    roundtrip("numeric(5)", "decimal(5,0)", "DECIMAL(5,0)");
    const char *err = NULL;
    cr_expect_null(type_parse(A, "decimal(39,0)", 13, NULL, &err));
    cr_expect_null(type_parse(A, "decimal(3,4)", 12, NULL, &err));
}

Test(types, intervals) {
    roundtrip("interval year to month", "interval year to month", "INTERVAL YEAR TO MONTH");
    roundtrip("interval day to second", "interval day to second", "INTERVAL DAY TO SECOND");
    roundtrip("interval day", "interval day", "INTERVAL DAY");
    roundtrip("interval hour to minute", "interval hour to minute", "INTERVAL HOUR TO MINUTE");
    roundtrip("interval month", "interval month", "INTERVAL MONTH");
    const char *err = NULL;
    cr_expect_null(type_parse(A, "interval second to day", 22, NULL, &err));
    cr_expect_null(type_parse(A, "interval year to day", 20, NULL, &err));
}

Test(types, composites) {
    roundtrip("array<int>", "array<int>", "ARRAY<INT>");
    roundtrip("ARRAY<ARRAY<INT>>", "array<array<int>>", "ARRAY<ARRAY<INT>>");
    roundtrip("map<int, string>", "map<int,string>", "MAP<INT, STRING>");
    roundtrip("struct<a:int,b:string>", "struct<a:int,b:string>", "STRUCT<a: INT, b: STRING>");
    roundtrip("struct<a int, `b c`: array<double>>", "struct<a:int,b c:array<double>>",
              "STRUCT<a: INT, `b c`: ARRAY<DOUBLE>>");
    roundtrip("struct<>", "struct<>", "STRUCT<>");
    roundtrip("char(3)", "char(3)", "CHAR(3)");
    roundtrip("varchar(10)", "varchar(10)", "VARCHAR(10)");
}

Test(types, errors) {
    const char *err = NULL;
    cr_expect_null(type_parse(A, "", 0, NULL, &err));
    cr_expect_null(type_parse(A, "array<int", 9, NULL, &err));
    cr_expect_null(type_parse(A, "foo", 3, NULL, &err));
    cr_expect_null(type_parse(A, "int int", 7, NULL, &err));
    size_t used = 0;
    cr_expect_not_null(type_parse(A, "int int", 7, &used, &err));
    cr_expect_eq(used, 4);
}

Test(types, equality) {
    cr_expect(type_equal(type_decimal(A, 10, 2), type_decimal(A, 10, 2)));
    cr_expect(!type_equal(type_decimal(A, 10, 2), type_decimal(A, 10, 3)));
    cr_expect(!type_equal(type_array(A, &TYPE_INT, true), type_array(A, &TYPE_INT, false)));
    cr_expect(type_same(type_array(A, &TYPE_INT, true), type_array(A, &TYPE_INT, false)));
    cr_expect_str_eq(type_catalog_string(A, type_decimal_for(A, &TYPE_LONG)), "decimal(20,0)");
}
