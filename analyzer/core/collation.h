/* Spark's collations (CollationFactory): names, ids and the facts about them
 * the analyzer needs. A collation id packs the collation the way Spark's
 * does (so ids compare as Spark's StringType(collationId) do):
 *   UTF8 family: bit 0 = LCASE, bit 18 = RTRIM;
 *   ICU family:  bit 29 set, bits 0-11 = locale index (UNICODE is 0),
 *                bit 16 = accent-insensitive, bit 17 = case-insensitive,
 *                bit 18 = RTRIM (the one space trimming Spark 4 has).
 * UTF8_BINARY is 0; INDETERMINATE (two implicit collations that disagree)
 * is -1. Names are matched case-insensitively and printed normalised:
 * `utf8_lcase` → UTF8_LCASE, `EN_usa_ai_ci` → en_USA_CI_AI. */
#ifndef CZ_COLLATION_H
#define CZ_COLLATION_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "strbuf.h"

enum {
    COLLATION_UTF8_BINARY = 0,
    COLLATION_UTF8_LCASE = 1,
    COLLATION_UNICODE = 0x20000000,
    COLLATION_UNICODE_CI = 0x20020000,
    COLLATION_INDETERMINATE = -1,
};

/* CollationFactory.collationNameToId: false if `name` names no collation. */
bool collation_from_name(const char *name, int32_t *id);

/* The normalised name (`UTF8_LCASE`, `sr_Cyrl_SRB_CI_AI`, `UNICODE_RTRIM`);
 * `null` for INDETERMINATE, as Spark has no name for it. */
void collation_print_name(StrBuf *sb, int32_t id);
const char *collation_name(Arena *a, int32_t id);

/* CollationFactory.getClosestSuggestionsOnInvalidName with 3 suggestions:
 * the COLLATION_INVALID_NAME error's `proposals` (`UNICODE_CI, UNICODE`). */
const char *collation_suggestions(Arena *a, const char *name);

bool collation_is_icu(int32_t id);
bool collation_is_case_insensitive(int32_t id);   /* UTF8_LCASE or an ICU _CI */
bool collation_is_accent_insensitive(int32_t id); /* an ICU _AI */
bool collation_has_trim(int32_t id);              /* _RTRIM */
/* Binary equality: UTF8_BINARY (with or without trimming is not binary). */
bool collation_is_binary(int32_t id);

/* Levenshtein distance of two byte strings (UTF8String.levenshteinDistance
 * on the ASCII names collations have). */
int collation_levenshtein(const char *a, const char *b);

#endif
