/* Regenerates analyzer/core/collation_locales.inc: the ICU locales that have
 * a collator, named as Spark's CollationFactory names them (language, then
 * `_Script`, then `_ISO3COUNTRY`; locales with a variant left out), one
 * string a line in byte order (Java's String order for these ASCII names).
 * Not part of the build: the analyzer does not link ICU, it ships the list.
 *   cc scripts/gen-collation-locales.c $(pkg-config --cflags --libs icu-i18n icu-uc) -o /tmp/gen
 *   /tmp/gen | LC_ALL=C sort -u | sed 's/^/    "/; s/$/",/' > analyzer/core/collation_locales.inc */
#include <stdio.h>
#include <unicode/ucol.h>
#include <unicode/uloc.h>

int main(void) {
    int n = ucol_countAvailable();
    for (int i = 0; i < n; i++) {
        const char *loc = ucol_getAvailable(i);
        char lang[64], script[64], variant[64];
        UErrorCode e = U_ZERO_ERROR;
        uloc_getVariant(loc, variant, sizeof variant, &e);
        if (variant[0]) continue;
        e = U_ZERO_ERROR;
        uloc_getLanguage(loc, lang, sizeof lang, &e);
        e = U_ZERO_ERROR;
        uloc_getScript(loc, script, sizeof script, &e);
        const char *country = uloc_getISO3Country(loc);
        printf("%s%s%s%s%s\n", lang, script[0] ? "_" : "", script, country[0] ? "_" : "", country);
    }
    return 0;
}
