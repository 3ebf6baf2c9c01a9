/* Options and identifiers of external-catalog requests (catalog_request.h). */
#include "catalog_request.h"

#include <stdbool.h>
#include <stdio.h>
#include <strings.h>

const char *catalog_option(const CzCatalogRequest *req, const char *key) {
    for (int i = req->noptions - 1; i >= 0; i--)
        if (!strcasecmp(req->option_keys[i], key)) return req->option_values[i];
    return NULL;
}

/* One part of Identifier.toString: as is when it is a plain word, else in backquotes. */
static void append_quoted_if_needed(char *out, size_t size, size_t *o, const char *part) {
    bool plain = *part != 0, digits = true;
    for (const char *p = part; *p; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            plain = false;
        if (*p < '0' || *p > '9') digits = false;
    }
    if (plain && !digits) {
        *o += (size_t)snprintf(out + *o, *o < size ? size - *o : 0, "%s", part);
        return;
    }
    *o += (size_t)snprintf(out + *o, *o < size ? size - *o : 0, "`");
    for (const char *p = part; *p; p++)
        *o += (size_t)snprintf(out + *o, *o < size ? size - *o : 0, *p == '`' ? "``" : "%c", *p);
    *o += (size_t)snprintf(out + *o, *o < size ? size - *o : 0, "`");
}

size_t catalog_identifier_string(const CzCatalogRequest *req, char *out, size_t size) {
    size_t o = 0;
    if (size) out[0] = 0;
    for (int i = 0; i < req->nnamespace; i++) {
        append_quoted_if_needed(out, size, &o, req->ns[i]);
        o += (size_t)snprintf(out + o, o < size ? size - o : 0, ".");
    }
    append_quoted_if_needed(out, size, &o, req->table ? req->table : "");
    return o;
}
