/* Spark's VariableSubstitution / ConfigReader over the statement text. */
#include "var_substitution.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "catalog/session.h"
#include "core/strbuf.h"

static bool enabled(const SessionState *s) {
    const char *v = state_get_conf(s, "spark.sql.variable.substitute");
    return !v || strcasecmp(v, "false") != 0;
}

static bool bound_prefix(const char *p, size_t n) {
    static const char *const P[] = {"hivevar", "hiveconf", "spark", "sparkconf"};
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++)
        if (strlen(P[i]) == n && strncasecmp(p, P[i], n) == 0) return true;
    return false;
}

const char *substitute_variables(Arena *a, const SessionState *s, const char *sql, size_t *len) {
    size_t n = *len;
    if (!s || !enabled(s) || !memchr(sql, '$', n)) return sql;
    StrBuf sb;
    sb_init(&sb, a, n + 16);
    bool changed = false;
    size_t i = 0;
    while (i < n) {
        if (sql[i] == '$' && i + 1 < n && sql[i + 1] == '{') {
            size_t j = i + 2;
            while (j < n && sql[j] != '}' && !isspace((unsigned char)sql[j])) j++;
            if (j < n && sql[j] == '}' && j > i + 2) {
                const char *body = sql + i + 2;
                size_t blen = j - i - 2;
                const char *key = body;
                size_t klen = blen;
                const char *colon = memchr(body, ':', blen);
                bool ok = true;
                if (colon) {
                    size_t plen = (size_t)(colon - body);
                    ok = bound_prefix(body, plen);
                    key = colon + 1;
                    klen = blen - plen - 1;
                }
                if (ok && klen) {
                    char *k = arena_strndup(a, key, klen);
                    const char *v = state_get_conf(s, k);
                    if (v) {
                        sb_puts(&sb, v);
                        changed = true;
                        i = j + 1;
                        continue;
                    }
                }
            }
        }
        sb_putc(&sb, sql[i++]);
    }
    if (!changed) return sql;
    *len = sb.len;
    return sb_str(&sb);
}
