/* Bearer tokens (see auth.h). */
#include "auth.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { TOKEN_MIN = 16, TOKEN_MAX = 512 };

typedef struct AuthEntry {
    uint8_t digest[SHA256_DIGEST_LENGTH];
    char principal[AUTH_PRINCIPAL_MAX + 1];
} AuthEntry;

struct AuthTokens {
    AuthEntry *e;
    size_t n;
};

/* RFC 6750: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
static bool token_valid(const char *s, size_t n) {
    if (n < TOKEN_MIN || n > TOKEN_MAX) return false;
    size_t i = 0;
    for (; i < n && s[i] != '='; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~+/", c)))
            return false;
    }
    if (i == 0) return false;
    for (; i < n; i++)
        if (s[i] != '=') return false;
    return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

AuthTokens *auth_tokens_parse(const char *text, size_t len, char *err, size_t errlen) {
    AuthTokens *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    size_t cap = 0, lineno = 0;
    for (size_t pos = 0; pos < len;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        pos += ll + (nl ? 1 : 0);
        lineno++;
        size_t i = 0;
        while (i < ll && is_space(line[i])) i++;
        if (i == ll || line[i] == '#') continue;
        size_t ts = i;
        while (i < ll && !is_space(line[i])) i++;
        size_t te = i;
        while (i < ll && is_space(line[i])) i++;
        size_t ps = i;
        while (i < ll && !is_space(line[i])) i++;
        size_t pe = i;
        while (i < ll && is_space(line[i])) i++;
        const char *bad = NULL;
        if (!token_valid(line + ts, te - ts))
            bad = "the token must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + / (then optional =)";
        else if (pe == ps)
            bad = "a principal name must follow the token";
        else if (pe - ps > AUTH_PRINCIPAL_MAX)
            bad = "the principal name is longer than 128 characters";
        else if (i < ll)
            bad = "expected TOKEN PRINCIPAL and nothing more";
        for (size_t k = ps; !bad && k < pe; k++)
            if ((unsigned char)line[k] < 0x21 || (unsigned char)line[k] > 0x7e) bad = "the principal name must be visible ASCII";
        AuthEntry e;
        if (!bad) {
            SHA256((const unsigned char *)line + ts, te - ts, e.digest);
            memcpy(e.principal, line + ps, pe - ps);
            e.principal[pe - ps] = '\0';
            for (size_t k = 0; k < t->n; k++)
                if (memcmp(t->e[k].digest, e.digest, sizeof e.digest) == 0) bad = "the same token appears twice";
        }
        if (bad) {
            /* The message names the line, never the token. */
            snprintf(err, errlen, "line %zu: %s", lineno, bad);
            auth_tokens_free(t);
            return NULL;
        }
        if (t->n == cap) {
            cap = cap ? cap * 2 : 8;
            AuthEntry *ne = realloc(t->e, cap * sizeof *ne);
            if (!ne) {
                snprintf(err, errlen, "out of memory");
                auth_tokens_free(t);
                return NULL;
            }
            t->e = ne;
        }
        t->e[t->n++] = e;
    }
    if (t->n == 0) {
        snprintf(err, errlen, "no tokens (expected lines of TOKEN PRINCIPAL)");
        auth_tokens_free(t);
        return NULL;
    }
    return t;
}

AuthTokens *auth_tokens_load(const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", path);
        return NULL;
    }
    size_t cap = 4096, n = 0, k;
    char *buf = malloc(cap);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        snprintf(err, errlen, "%s: too large or out of memory", path);
        return NULL;
    }
    char e[200];
    AuthTokens *t = auth_tokens_parse(buf, n, e, sizeof e);
    OPENSSL_cleanse(buf, n);
    free(buf);
    if (!t) snprintf(err, errlen, "%s: %s", path, e);
    return t;
}

void auth_tokens_free(AuthTokens *t) {
    if (!t) return;
    if (t->e) OPENSSL_cleanse(t->e, t->n * sizeof *t->e);
    free(t->e);
    free(t);
}

size_t auth_tokens_count(const AuthTokens *t) { return t ? t->n : 0; }

const char *auth_check_bearer(const AuthTokens *t, const char *value, size_t len) {
    if (!t || !value) return NULL;
    while (len && is_space(value[len - 1])) len--;
    size_t i = 0;
    while (i < len && is_space(value[i])) i++;
    if (len - i < 7 || strncasecmp(value + i, "bearer", 6) != 0 || !is_space(value[i + 6])) return NULL;
    i += 6;
    while (i < len && is_space(value[i])) i++;
    if (!token_valid(value + i, len - i)) return NULL;
    uint8_t d[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)value + i, len - i, d);
    /* Every entry is compared, so the time does not tell which one matched. */
    const char *who = NULL;
    for (size_t k = 0; k < t->n; k++)
        if (CRYPTO_memcmp(t->e[k].digest, d, sizeof d) == 0) who = t->e[k].principal;
    return who;
}
