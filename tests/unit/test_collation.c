/* Collation names as Spark's CollationFactory reads, normalises and suggests
 * them (core/collation.c), and collated string types (core/types.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "core/collation.h"
#include "core/types.h"

static Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }

TestSuite(collation, .init = setup, .fini = teardown);

static int32_t id_of(const char *name) {
    int32_t id = -2;
    cr_assert(collation_from_name(name, &id), "%s should name a collation", name);
    return id;
}

static void normalises(const char *in, const char *out) {
    cr_expect_str_eq(collation_name(A, id_of(in)), out, "normalised name of %s", in);
}

static void invalid(const char *name) {
    int32_t id;
    cr_expect(!collation_from_name(name, &id), "%s should not name a collation", name);
}

Test(collation, ids_as_spark_packs_them) {
    cr_expect_eq(id_of("UTF8_BINARY"), 0);
    cr_expect_eq(id_of("UTF8_LCASE"), 1);
    cr_expect_eq(id_of("UNICODE"), 0x20000000);
    cr_expect_eq(id_of("UNICODE_AI"), 0x20010000);
    cr_expect_eq(id_of("UNICODE_CI"), 0x20020000);
    cr_expect_eq(id_of("UNICODE_CI_AI"), 0x20030000);
    /* SpaceTrimming is NONE or RTRIM, bit 18 (SPARK-49874 dropped LTRIM and TRIM) */
    cr_expect_eq(id_of("UNICODE_RTRIM"), 0x20040000);
    cr_expect_eq(id_of("UNICODE_CI_AI_RTRIM"), 0x20070000);
    cr_expect_eq(id_of("af"), 0x20000001);
    cr_expect_eq(id_of("af_CI_AI"), 0x20030001);
    cr_expect_eq(id_of("UTF8_LCASE_RTRIM"), 1 | (1 << 18));
}

Test(collation, names_are_case_insensitive_and_normalised) {
    normalises("utf8_binary", "UTF8_BINARY");
    normalises("Utf8_LCase", "UTF8_LCASE");
    normalises("unicode_ci", "UNICODE_CI");
    normalises("UNICODE_AI_CI", "UNICODE_CI_AI");
    normalises("unicode_cs_as", "UNICODE");
    normalises("EN_usa_ai_ci", "en_USA_CI_AI");
    normalises("sr_cyrl_srb", "sr_Cyrl_SRB");
    normalises("SR_CYRL_SRB_AI", "sr_Cyrl_SRB_AI");
    normalises("zh_hant_mac_rtrim", "zh_Hant_MAC_RTRIM");
    normalises("unicode_rtrim_ci", "UNICODE_CI_RTRIM");
    normalises("utf8_binary_rtrim", "UTF8_BINARY_RTRIM");
    normalises("de", "de");
    /* Java's split("_") drops trailing empty parts */
    normalises("UNICODE_CI_", "UNICODE_CI");
}

Test(collation, invalid_names) {
    invalid("UTF8_BS");
    invalid("UTF8_BINARY_CI");     /* the UTF8 family takes only trimming */
    invalid("UTF8_LCASE_RTRIM_LTRIM");
    invalid("UNICODE_CI_CS");      /* a kind of specifier twice */
    invalid("UNICODE_AI_AI");
    invalid("UNICODE_RTRIM_LTRIM");
    invalid("UNICODE_RTRIM_RTRIM");
    invalid("UTF8_BINARY_LTRIM");  /* only RTRIM is left of the trimming specifiers */
    invalid("UTF8_LCASE_TRIM");
    invalid("UNICODE_LTRIM");
    invalid("en_CI_TRIM");
    invalid("UNICODE__CI");
    invalid("UNICODE_");
    invalid("UNICODEX");
    invalid("en_US");              /* countries are ISO 3166 alpha-3 */
    invalid("sr_Cyrl_SRB_XX");
    invalid("");
}

Test(collation, facts) {
    cr_expect(collation_is_case_insensitive(id_of("UTF8_LCASE")));
    cr_expect(collation_is_case_insensitive(id_of("UNICODE_CI")));
    cr_expect(!collation_is_case_insensitive(id_of("UNICODE_AI")));
    cr_expect(collation_is_accent_insensitive(id_of("en_AI")));
    cr_expect(collation_has_trim(id_of("UTF8_BINARY_RTRIM")));
    cr_expect(collation_is_binary(id_of("UTF8_BINARY")));
    cr_expect(!collation_is_binary(id_of("UTF8_BINARY_RTRIM")));
    cr_expect(collation_is_icu(id_of("UNICODE")));
    cr_expect(!collation_is_icu(COLLATION_INDETERMINATE));
}

Test(collation, suggestions_as_spark_computes_them) {
    /* the nearest root always; the next ones only within distance 2 of the name */
    cr_expect_str_eq(collation_suggestions(A, "UTF8_BS"), "UTF8_LCASE");
    cr_expect_str_eq(collation_suggestions(A, "UTF8_BINARX"), "UTF8_BINARY");
    cr_expect_str_eq(collation_suggestions(A, "unicod"), "UNICODE");
    /* modifiers are kept, once each, the weaker of a conflicting pair dropped */
    cr_expect_str_eq(collation_suggestions(A, "UNICODEE_CI"), "UNICODE_CI");
    cr_expect_str_eq(collation_suggestions(A, "UNICODEE_CI_CS"), "UNICODE_CS");
    /* in the order written, not normalised */
    cr_expect_str_eq(collation_suggestions(A, "UNICODEE_AI_CI_AI"), "UNICODE_AI_CI");
    /* short names have several near roots (ties keep the sorted order) */
    cr_expect_str_eq(collation_suggestions(A, "enx"), "en, bn, ee");
    cr_expect_eq(collation_levenshtein("kitten", "sitting"), 3);
    cr_expect_eq(collation_levenshtein("", "abc"), 3);
}

static void roundtrip(const char *in, const char *catalog, const char *sql, const char *scala) {
    const char *err = NULL;
    const DataType *t = type_parse(A, in, strlen(in), NULL, &err);
    cr_assert(t, "parse %s: %s", in, err ? err : "?");
    cr_expect_str_eq(type_catalog_string(A, t), catalog);
    cr_expect_str_eq(type_sql(A, t), sql);
    StrBuf sb;
    sb_init(&sb, A, 32);
    type_print_scala(&sb, t);
    cr_expect_str_eq(sb_str(&sb), scala);
    const DataType *u = type_parse(A, catalog, strlen(catalog), NULL, &err);
    cr_assert(u, "reparse %s", catalog);
    cr_expect(type_equal(t, u), "round trip of %s", in);
}

Test(collation, collated_string_types) {
    roundtrip("string collate utf8_lcase", "string collate UTF8_LCASE", "STRING COLLATE UTF8_LCASE",
              "StringType(UTF8_LCASE)");
    roundtrip("STRING COLLATE UTF8_BINARY", "string", "STRING", "StringType");
    roundtrip("array<string collate unicode_ci>", "array<string collate UNICODE_CI>",
              "ARRAY<STRING COLLATE UNICODE_CI>", "ArrayType(StringType(UNICODE_CI),true)");
    roundtrip("struct<a: string collate sr_cyrl_srb>", "struct<a:string collate sr_Cyrl_SRB>",
              "STRUCT<a: STRING COLLATE SR_CYRL_SRB>", "StructType(StructField(a,StringType(sr_Cyrl_SRB),true))");
    const char *err = NULL;
    cr_expect(!type_parse(A, "string collate nope", 19, NULL, &err));
    const DataType *l = type_string_collated(A, COLLATION_UTF8_LCASE);
    cr_expect(!type_equal(l, &TYPE_STRING));
    cr_expect(type_equal(type_string_collated(A, COLLATION_UTF8_BINARY), &TYPE_STRING));
    cr_expect(type_has_collated_string(type_array(A, l, true)));
    cr_expect(!type_has_collated_string(type_array(A, &TYPE_STRING, true)));
    const DataType *m = type_with_collation(A, type_map(A, &TYPE_STRING, &TYPE_INT, true), COLLATION_UNICODE);
    cr_expect_str_eq(type_catalog_string(A, m), "map<string collate UNICODE,int>");
}
