/* pgjdbc connection URLs (jdbc:postgresql://host[:port][,host2...]/database?key=value&...)
 * as libpq connection keywords, and the URL as Spark shows it in errors
 * (JDBCOptions.getRedactUrl: the password removed). */
#ifndef CZ_JDBC_URL_H
#define CZ_JDBC_URL_H

#include <stdbool.h>
#include <stddef.h>

#define JDBC_URL_MAX_PARAMS 16

typedef struct JdbcPgUrl {
    int n;
    char keys[JDBC_URL_MAX_PARAMS][32];
    char values[JDBC_URL_MAX_PARAMS][256];
} JdbcPgUrl;

/* false with a reason in err for a URL that is not jdbc:postgresql:... */
bool jdbc_pg_url_parse(const char *url, JdbcPgUrl *out, char *err, size_t errlen);
/* Adds or replaces a libpq keyword. */
void jdbc_pg_url_set(JdbcPgUrl *u, const char *key, const char *value);
/* The URL without password=... (Spark's redacted form). */
void jdbc_url_redact(const char *url, char *out, size_t size);

#endif
