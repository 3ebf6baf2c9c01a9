/* pgjdbc URLs to libpq keywords (jdbc_url.h). */
#include "jdbc_url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void jdbc_pg_url_set(JdbcPgUrl *u, const char *key, const char *value) {
    int i = 0;
    while (i < u->n && strcmp(u->keys[i], key)) i++;
    if (i == u->n) {
        if (u->n == JDBC_URL_MAX_PARAMS) return;
        u->n++;
    }
    snprintf(u->keys[i], sizeof u->keys[i], "%s", key);
    snprintf(u->values[i], sizeof u->values[i], "%s", value);
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* %XX decoding of a URL component into out. */
static void url_decode(const char *s, size_t len, char *out, size_t size) {
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < size; i++) {
        if (s[i] == '%' && i + 2 < len && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            out[o++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
            i += 2;
        } else {
            out[o++] = s[i];
        }
    }
    out[o] = 0;
}

/* pgjdbc property names that have a libpq keyword of another name. */
static const char *libpq_keyword(const char *prop) {
    static const struct { const char *jdbc, *libpq; } MAP[] = {
        {"user", "user"}, {"password", "password"}, {"ssl", NULL}, {"sslmode", "sslmode"},
        {"sslcert", "sslcert"}, {"sslkey", "sslkey"}, {"sslrootcert", "sslrootcert"},
        {"connectTimeout", "connect_timeout"}, {"ApplicationName", "application_name"},
        {"applicationName", "application_name"}, {"options", "options"}, {"currentSchema", NULL},
    };
    for (size_t i = 0; i < sizeof MAP / sizeof MAP[0]; i++)
        if (!strcmp(prop, MAP[i].jdbc)) return MAP[i].libpq;
    return NULL; /* pgjdbc-only tuning (fetch sizes, socket factories, ...): nothing to do for metadata */
}

bool jdbc_pg_url_parse(const char *url, JdbcPgUrl *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    static const char PREFIX[] = "jdbc:postgresql:";
    if (!url || strncasecmp(url, PREFIX, sizeof PREFIX - 1)) {
        snprintf(err, errlen, "not a PostgreSQL JDBC URL (jdbc:postgresql://HOST:PORT/DATABASE): %s", url ? url : "(none)");
        return false;
    }
    const char *p = url + sizeof PREFIX - 1;
    const char *query = strchr(p, '?');
    size_t main_len = query ? (size_t)(query - p) : strlen(p);
    char host[256] = "localhost", port[16] = "5432", db[256] = "";
    if (main_len >= 2 && p[0] == '/' && p[1] == '/') {
        const char *h = p + 2, *end = p + main_len;
        const char *slash = memchr(h, '/', (size_t)(end - h));
        const char *hend = slash ? slash : end;
        /* first host only: pgjdbc's multi-host failover has no libpq twin worth the surprise */
        const char *comma = memchr(h, ',', (size_t)(hend - h));
        if (comma) hend = comma;
        const char *colon = NULL;
        if (h < hend && *h == '[') { /* [IPv6]:port */
            const char *rb = memchr(h, ']', (size_t)(hend - h));
            if (rb) {
                snprintf(host, sizeof host, "%.*s", (int)(rb - h - 1), h + 1);
                if (rb + 1 < hend && rb[1] == ':') colon = rb + 1;
            }
        } else {
            colon = memchr(h, ':', (size_t)(hend - h));
            if (hend > h) snprintf(host, sizeof host, "%.*s", (int)((colon ? colon : hend) - h), h);
        }
        if (colon && colon + 1 < hend) {
            snprintf(port, sizeof port, "%.*s", (int)(hend - colon - 1), colon + 1);
            for (const char *c = port; *c; c++)
                if (*c < '0' || *c > '9') {
                    snprintf(err, errlen, "bad port in JDBC URL: %s", port);
                    return false;
                }
        }
        if (slash) url_decode(slash + 1, (size_t)(end - slash - 1), db, sizeof db);
    } else {
        url_decode(p, main_len, db, sizeof db); /* jdbc:postgresql:database */
    }
    jdbc_pg_url_set(out, "host", host);
    jdbc_pg_url_set(out, "port", port);
    if (db[0]) jdbc_pg_url_set(out, "dbname", db);
    if (query) {
        const char *q = query + 1;
        while (*q) {
            const char *amp = strchr(q, '&');
            size_t len = amp ? (size_t)(amp - q) : strlen(q);
            const char *eq = memchr(q, '=', len);
            if (eq) {
                char k[64], v[256];
                url_decode(q, (size_t)(eq - q), k, sizeof k);
                url_decode(eq + 1, len - (size_t)(eq - q) - 1, v, sizeof v);
                const char *kw = libpq_keyword(k);
                if (kw) jdbc_pg_url_set(out, kw, v);
            }
            q += len + (amp ? 1 : 0);
        }
    }
    return true;
}

void jdbc_url_redact(const char *url, char *out, size_t size) {
    size_t o = 0;
    for (const char *p = url; *p && o + 1 < size;) {
        bool at_param = (p > url) && (p[-1] == '?' || p[-1] == '&');
        if (at_param && !strncasecmp(p, "password=", 9)) {
            const char *amp = strchr(p, '&');
            p = amp ? amp + 1 : p + strlen(p);
            if (!amp && o > 0 && (out[o - 1] == '&' || out[o - 1] == '?')) o--;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = 0;
}
