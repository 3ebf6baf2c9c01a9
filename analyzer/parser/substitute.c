/* `${var}` substitution before parsing, as Spark's VariableSubstitution /
 * ConfigReader do: `${name}` or `${prefix:name}`, looked up by the caller. */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "parser.h"
#include "core/strbuf.h"

/* Whether "${" occurs: memchr for '$' is much faster than memmem on
 * statements that have none (nearly all). */
static bool has_reference(const char *s, size_t len) {
    for (const char *p = memchr(s, '$', len); p; p = memchr(p + 1, '$', len - (size_t)(p + 1 - s)))
        if ((size_t)(p + 1 - s) < len && p[1] == '{') return true;
    return false;
}

const char *parse_substitute_variables(Arena *a, const char *sql, size_t len, ParseVarLookup lookup, void *ctx,
                                       size_t *outlen) {
    if (outlen) *outlen = len;
    if (!lookup || len < 3 || !has_reference(sql, len)) return sql;
    StrBuf sb;
    sb_init(&sb, a, len + 64);
    size_t i = 0;
    while (i < len) {
        if (sql[i] == '$' && i + 1 < len && sql[i + 1] == '{') {
            /* ${(\w+?:)?\S+?} */
            size_t j = i + 2, colon = 0;
            while (j < len && sql[j] != '}' && !isspace((unsigned char)sql[j])) {
                if (sql[j] == ':' && !colon) colon = j;
                j++;
            }
            if (j < len && sql[j] == '}' && j > i + 2) {
                const char *prefix = NULL, *name;
                if (colon) {
                    bool word = colon > i + 2;
                    for (size_t k = i + 2; k < colon; k++)
                        if (!isalnum((unsigned char)sql[k]) && sql[k] != '_') word = false;
                    if (word) prefix = arena_strndup(a, sql + i + 2, colon - i - 2);
                }
                name = prefix ? arena_strndup(a, sql + colon + 1, j - colon - 1) : arena_strndup(a, sql + i + 2, j - i - 2);
                const char *v = *name ? lookup(ctx, prefix, name) : NULL;
                if (v) {
                    sb_puts(&sb, v);
                    i = j + 1;
                    continue;
                }
            }
        }
        sb_putc(&sb, sql[i++]);
    }
    if (outlen) *outlen = sb.len;
    return sb.data;
}
