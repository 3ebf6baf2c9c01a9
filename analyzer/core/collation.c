#include "collation.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The ICU locale names in Spark's ICULocaleNames order (sorted, with
 * "UNICODE", the root locale, first since upper case sorts first). */
static const char *const LOCALES[] = {
    "UNICODE",
#include "collation_locales.inc"
};
enum { NLOCALES = (int)(sizeof LOCALES / sizeof LOCALES[0]) };

enum {
    ICU_BIT = 1 << 29,
    LCASE_BIT = 1 << 0,
    AI_BIT = 1 << 16,
    CI_BIT = 1 << 17,
    TRIM_SHIFT = 18,
    TRIM_MASK = 1 << 18,
    LOCALE_MASK = 0xFFF,
};
/* SpaceTrimming: NONE or RTRIM, bit 18 (LTRIM and TRIM were dropped before
 * Spark 4.0, SPARK-49874; bits 19-21 stay reserved) */
enum { TRIM_NONE, TRIM_RIGHT };
static const char *const TRIM_NAME[] = {"", "RTRIM"};

static void upper_copy(char *dst, const char *src, size_t cap) {
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++) dst[i] = (char)toupper((unsigned char)src[i]);
    dst[i] = 0;
}

static bool ieq_n(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (toupper((unsigned char)a[i]) != toupper((unsigned char)b[i]) || !a[i]) return false;
    return true;
}

static int trim_from_spec(const char *s, size_t n) {
    if (n == 5 && memcmp(s, "RTRIM", 5) == 0) return TRIM_RIGHT;
    return -1;
}

/* CollationSpecUTF8.collationNameToId: UTF8_BINARY or UTF8_LCASE, then at
 * most one trimming specifier. */
static bool utf8_from_name(const char *up, int32_t *id) {
    int32_t base;
    size_t plen;
    if (strncmp(up, "UTF8_BINARY", 11) == 0) base = COLLATION_UTF8_BINARY, plen = 11;
    else if (strncmp(up, "UTF8_LCASE", 10) == 0) base = COLLATION_UTF8_LCASE, plen = 10;
    else return false;
    const char *rest = up + plen;
    if (!*rest) return *id = base, true;
    if (*rest != '_') return false;
    int trim = trim_from_spec(rest + 1, strlen(rest + 1));
    if (trim < 0) return false;
    *id = base | (trim << TRIM_SHIFT);
    return true;
}

/* CollationSpecICU.collationNameToId: the longest locale prefix, then
 * `_`-separated specifiers, each kind at most once. */
static bool icu_from_name(const char *up, int32_t *id) {
    size_t n = strlen(up);
    int locale = -1;
    size_t locale_len = 0;
    for (int i = 0; i < NLOCALES; i++) {
        size_t l = strlen(LOCALES[i]);
        if (l <= n && l > locale_len && ieq_n(up, LOCALES[i], l)) locale = i, locale_len = l;
    }
    if (locale < 0) return false;
    int32_t out = ICU_BIT | locale;
    if (locale_len == n) return *id = out, true;
    if (up[locale_len] != '_') return false;
    bool case_set = false, accent_set = false, trim_set = false;
    /* Java's split("_") drops trailing empty parts (`UNICODE_CI_` is UNICODE_CI). */
    char spec[256];
    size_t sl = strlen(up + locale_len + 1);
    if (sl == 0) return false;
    memcpy(spec, up + locale_len + 1, sl + 1);
    while (sl > 0 && spec[sl - 1] == '_') spec[--sl] = 0;
    if (sl == 0) return *id = out, true;
    const char *p = spec;
    for (;;) {
        const char *e = strchr(p, '_');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == 2 && (memcmp(p, "CI", 2) == 0 || memcmp(p, "CS", 2) == 0)) {
            if (case_set) return false;
            case_set = true;
            if (p[1] == 'I') out |= CI_BIT;
        } else if (l == 2 && (memcmp(p, "AI", 2) == 0 || memcmp(p, "AS", 2) == 0)) {
            if (accent_set) return false;
            accent_set = true;
            if (p[1] == 'I') out |= AI_BIT;
        } else {
            int trim = trim_from_spec(p, l);
            if (trim < 0 || trim_set) return false;
            trim_set = true;
            out |= trim << TRIM_SHIFT;
        }
        if (!e) break;
        p = e + 1;
    }
    *id = out;
    return true;
}

bool collation_from_name(const char *name, int32_t *id) {
    char up[256];
    if (strlen(name) >= sizeof up) return false;
    upper_copy(up, name, sizeof up);
    if (strncmp(up, "UTF8_", 5) == 0) return utf8_from_name(up, id);
    return icu_from_name(up, id);
}

bool collation_is_icu(int32_t id) { return id >= 0 && (id & ICU_BIT); }
bool collation_is_case_insensitive(int32_t id) {
    if (id < 0) return false;
    return collation_is_icu(id) ? (id & CI_BIT) != 0 : (id & LCASE_BIT) != 0;
}
bool collation_is_accent_insensitive(int32_t id) { return collation_is_icu(id) && (id & AI_BIT); }
bool collation_has_trim(int32_t id) { return id >= 0 && (id & TRIM_MASK); }
bool collation_is_binary(int32_t id) { return id == COLLATION_UTF8_BINARY; }

void collation_print_name(StrBuf *sb, int32_t id) {
    if (id < 0) {
        sb_puts(sb, "null");
        return;
    }
    int trim = (id & TRIM_MASK) >> TRIM_SHIFT;
    if (collation_is_icu(id)) {
        int locale = id & LOCALE_MASK;
        sb_puts(sb, locale < NLOCALES ? LOCALES[locale] : "UNICODE");
        if (id & CI_BIT) sb_puts(sb, "_CI");
        if (id & AI_BIT) sb_puts(sb, "_AI");
    } else {
        sb_puts(sb, (id & LCASE_BIT) ? "UTF8_LCASE" : "UTF8_BINARY");
    }
    if (trim) {
        sb_putc(sb, '_');
        sb_puts(sb, TRIM_NAME[trim]);
    }
}

const char *collation_name(Arena *a, int32_t id) {
    StrBuf sb;
    sb_init(&sb, a, 24);
    collation_print_name(&sb, id);
    return sb_str(&sb);
}

int collation_levenshtein(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    int stack_row[2][64];
    int *prev = stack_row[0], *cur = stack_row[1];
    int *heap = NULL;
    if (m + 1 > 64) {
        heap = malloc(sizeof(int) * 2 * (m + 1));
        if (!heap) return (int)(n > m ? n : m);
        prev = heap, cur = heap + m + 1;
    }
    for (size_t j = 0; j <= m; j++) prev[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        int *t = prev;
        prev = cur, cur = t;
    }
    int d = prev[m];
    free(heap);
    return d;
}

static bool ends_with(const char *s, size_t n, const char *suffix) {
    size_t l = strlen(suffix);
    return n >= l && memcmp(s + n - l, suffix, l) == 0;
}

const char *collation_suggestions(Arena *a, const char *name) {
    static const char *const UTF8_ROOTS[] = {"UTF8_BINARY", "UTF8_LCASE"};
    static const char *const MODIFIERS[] = {"_CI", "_AI", "_CS", "_AS"};
    const bool utf8 = strncmp(name, "UTF8_", 5) == 0; /* case-sensitive, as Spark's */
    const char *const *roots = utf8 ? UTF8_ROOTS : LOCALES;
    const int nroots = utf8 ? 2 : NLOCALES;
    const int nmods = utf8 ? 0 : 4;

    size_t n = strlen(name);
    char *locale = arena_alloc(a, n + 1);
    upper_copy(locale, name, n + 1);
    char *upper_name = arena_strdup(a, locale);
    /* Strip trailing modifiers (collected last first), keep each once in
     * written order, and drop the weaker of a conflicting pair. */
    const char *found[64];
    int nfound = 0;
    for (;;) {
        int hit = -1;
        for (int k = 0; k < nmods; k++)
            if (ends_with(locale, n, MODIFIERS[k])) hit = k;
        if (hit < 0 || nfound == 64) break;
        found[nfound++] = MODIFIERS[hit];
        n -= 3;
        locale[n] = 0;
    }
    const char *mods[4];
    int nm = 0;
    for (int i = nfound - 1; i >= 0; i--) {
        bool seen = false;
        for (int k = 0; k < nm; k++) seen |= mods[k] == found[i];
        if (!seen) mods[nm++] = found[i];
    }
    bool has[4] = {false, false, false, false};
    for (int k = 0; k < nm; k++)
        for (int j = 0; j < 4; j++) has[j] |= mods[k] == MODIFIERS[j];
    int w = 0;
    for (int k = 0; k < nm; k++) {
        if (mods[k] == MODIFIERS[0] && has[2]) continue; /* _CI with _CS */
        if (mods[k] == MODIFIERS[1] && has[3]) continue; /* _AI with _AS */
        mods[w++] = mods[k];
    }
    nm = w;

    /* Roots by distance to the name without modifiers (a stable sort). */
    int *dist = arena_alloc(a, sizeof(int) * (size_t)nroots);
    int *order = arena_alloc(a, sizeof(int) * (size_t)nroots);
    char buf[64];
    for (int i = 0; i < nroots; i++) {
        upper_copy(buf, roots[i], sizeof buf);
        dist[i] = collation_levenshtein(buf, locale);
        order[i] = i;
    }
    for (int i = 1; i < nroots; i++) {
        int o = order[i], j = i;
        while (j > 0 && dist[order[j - 1]] > dist[o]) order[j] = order[j - 1], j--;
        order[j] = o;
    }

    StrBuf out;
    sb_init(&out, a, 64);
    for (int i = 0; i < 3 && i < nroots; i++) {
        StrBuf s;
        sb_init(&s, a, 32);
        sb_puts(&s, roots[order[i]]);
        for (int k = 0; k < nm; k++) sb_puts(&s, mods[k]);
        if (i > 0) {
            char *up = arena_strdup(a, sb_str(&s));
            upper_copy(up, sb_str(&s), strlen(up) + 1);
            if (collation_levenshtein(up, upper_name) >= 3) break;
            sb_puts(&out, ", ");
        }
        sb_puts(&out, sb_str(&s));
    }
    return sb_str(&out);
}
