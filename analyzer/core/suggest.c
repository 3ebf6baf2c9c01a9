/* Spark's order of suggested names (StringUtils.orderSuggestedIdentifiersBySimilarity). */
#include "suggest.h"

#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "strbuf.h"

/* UTF-8 to UTF-16 code units (a code point above U+FFFF: a surrogate pair),
 * as Java holds the strings commons-text measures. Invalid bytes count as one
 * unit each. */
static uint16_t *utf16(Arena *a, const char *s, size_t *len) {
    size_t n = strlen(s);
    uint16_t *u = ARENA_ARRAY(a, uint16_t, 2 * n + 1);
    size_t k = 0;
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        uint32_t c = *p;
        int more = c >= 0xF0 && c < 0xF8 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        if (c >= 0xF8 || (c >= 0x80 && c < 0xC0) || (size_t)(end - p) <= (size_t)more) more = 0;
        for (int i = 1; i <= more; i++)
            if ((p[i] & 0xC0u) != 0x80u) more = 0;
        if (more) {
            c &= 0x3Fu >> more;
            for (int i = 1; i <= more; i++) c = (c << 6) | (p[i] & 0x3Fu);
        }
        p += 1 + more;
        if (c > 0xFFFF) {
            c -= 0x10000;
            u[k++] = (uint16_t)(0xD800 + (c >> 10));
            u[k++] = (uint16_t)(0xDC00 + (c & 0x3FF));
        } else {
            u[k++] = (uint16_t)c;
        }
    }
    *len = k;
    return u;
}

uint32_t levenshtein_utf16(Arena *a, const char *x, const char *y) {
    size_t n, m;
    const uint16_t *s = utf16(a, x, &n), *t = utf16(a, y, &m);
    uint32_t *prev = ARENA_ARRAY(a, uint32_t, m + 1), *cur = ARENA_ARRAY(a, uint32_t, m + 1);
    for (size_t j = 0; j <= m; j++) prev[j] = (uint32_t)j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = (uint32_t)i;
        for (size_t j = 1; j <= m; j++) {
            uint32_t sub = prev[j - 1] + (s[i - 1] != t[j - 1]);
            uint32_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        uint32_t *tmp = prev;
        prev = cur, cur = tmp;
    }
    return prev[m];
}

/* QuotingUtils.quoteIfNeeded: a part of letters, digits and '_' that is not
 * all digits stays bare; anything else is back-quoted. */
static void put_quoted_if_needed(StrBuf *sb, const char *part) {
    bool word = *part != '\0', digits = true;
    for (const char *p = part; *p; p++) {
        char c = *p;
        bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!alnum) word = false;
        if (c < '0' || c > '9') digits = false;
    }
    if (word && !digits) sb_puts(sb, part);
    else sb_put_quoted_ident(sb, part);
}

/* The candidates' parts before their last k, all equal (Seq equality: exact)? */
static bool same_prefix(const NameParts *c, uint32_t n, uint32_t k) {
    uint32_t l0 = c[0].n > k ? c[0].n - k : 0;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t l = c[i].n > k ? c[i].n - k : 0;
        if (l != l0) return false;
        for (uint32_t j = 0; j < l; j++)
            if (strcmp(c[i].v[j], c[0].v[j]) != 0) return false;
    }
    return true;
}

typedef struct Ranked {
    NameParts parts; /* what Spark keeps of the candidate */
    uint32_t dist;
    uint32_t order;
} Ranked;

static int cmp_ranked(const void *x, const void *y) {
    const Ranked *a = x, *b = y;
    if (a->dist != b->dist) return a->dist < b->dist ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order; /* sortBy is stable */
}

/* orderSuggestedIdentifiersBySimilarity(base, cands): base_parts is how many
 * parts parseAttributeName finds in base. Returns the candidates' kept parts,
 * most similar first. */
static Ranked *order_by_similarity(Arena *a, const char *base, uint32_t base_parts, const NameParts *cands,
                                   uint32_t n) {
    Ranked *r = ARENA_ARRAY(a, Ranked, n + 1);
    /* a qualifier every candidate shares is stripped: it tells none apart */
    uint32_t keep = 0;
    if (n && base_parts == 1 && same_prefix(cands, n, 1)) keep = 1;
    else if (n && base_parts <= 2 && same_prefix(cands, n, 2)) keep = 2;
    for (uint32_t i = 0; i < n; i++) {
        NameParts p = cands[i];
        if (keep && p.n > keep) p = (NameParts){keep, p.v + (p.n - keep)};
        r[i].parts = p;
        r[i].dist = levenshtein_utf16(a, sql_id_parts(a, p), base); /* quoteNameParts */
        r[i].order = i;
    }
    qsort(r, n, sizeof(Ranked), cmp_ranked);
    return r;
}

const char *suggest_columns_ordered(Arena *a, NameParts name, const NameParts *cands, uint32_t n) {
    /* the distance is to UnresolvedAttribute.sql: parts quoted only if needed */
    StrBuf base;
    sb_init(&base, a, 32);
    for (uint32_t i = 0; i < name.n; i++) {
        if (i) sb_putc(&base, '.');
        put_quoted_if_needed(&base, name.v[i]);
    }
    Ranked *r = order_by_similarity(a, sb_str(&base), name.n, cands, n);
    StrBuf sb;
    sb_init(&sb, a, 64);
    for (uint32_t i = 0; i < n && i < 5; i++) {
        NameParts p = r[i].parts;
        /* toSQLId drops the alias Spark gives an unnamed subquery */
        if (p.n > 1 && strcmp(p.v[0], "__auto_generated_subquery_name") == 0) p = (NameParts){p.n - 1, p.v + 1};
        if (i) sb_puts(&sb, ", ");
        sb_puts(&sb, sql_id_parts(a, p));
    }
    return sb_str(&sb);
}

/* parseAttributeName's part count: dots outside back-quotes, plus one. */
static uint32_t attribute_name_parts(const char *s) {
    uint32_t n = 1;
    bool quoted = false;
    for (; *s; s++) {
        if (*s == '`') quoted = !quoted;
        else if (*s == '.' && !quoted) n++;
    }
    return n;
}

const char *suggest_names(Arena *a, const char *name, const char *const *cands, uint32_t n, uint32_t take,
                          const char *sep) {
    NameParts *c = ARENA_ARRAY(a, NameParts, n + 1);
    const char **names = ARENA_ARRAY(a, const char *, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        names[i] = cands[i];
        c[i] = (NameParts){1, &names[i]};
    }
    Ranked *r = order_by_similarity(a, name, attribute_name_parts(name), c, n);
    StrBuf sb;
    sb_init(&sb, a, 64);
    for (uint32_t i = 0; i < n && i < take; i++) {
        if (i) sb_puts(&sb, sep);
        sb_puts(&sb, sql_id_parts(a, r[i].parts));
    }
    return sb_str(&sb);
}
