/* Bearer-token authentication (--auth-token-file). The file holds one token
 * a line followed by the principal it stands for:
 *
 *     # comments and blank lines are ignored
 *     9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822c  alice
 *     60303ae22b998861bce3b28f33eec1be758a213c86c93c07  etl-nightly
 *
 * Tokens are RFC 6750 b64token characters, 16 to 512 of them, each unique;
 * principals are 1 to AUTH_PRINCIPAL_MAX visible ASCII characters. Clients
 * send `authorization: Bearer TOKEN` (gRPC metadata or HTTP header). Only
 * SHA-256 digests of the tokens are kept, compared in constant time. */
#ifndef CZ_AUTH_H
#define CZ_AUTH_H

#include <stdbool.h>
#include <stddef.h>

enum { AUTH_PRINCIPAL_MAX = 128 };

typedef struct AuthTokens AuthTokens;

/* NULL (and err, naming the line) when the file cannot be read or a line is bad. */
AuthTokens *auth_tokens_load(const char *path, char *err, size_t errlen);
/* The same from text in memory (what the load function reads). */
AuthTokens *auth_tokens_parse(const char *text, size_t len, char *err, size_t errlen);
void auth_tokens_free(AuthTokens *t);
size_t auth_tokens_count(const AuthTokens *t);

/* The principal an Authorization header value ("Bearer TOKEN", scheme
 * case-insensitive) stands for; NULL when the value is malformed or the token
 * unknown. The pointer lives as long as t. */
const char *auth_check_bearer(const AuthTokens *t, const char *value, size_t len);

#endif
