/* What every external catalog reads from a CzCatalogRequest: its options,
 * by name as Spark reads them, and the table's identifier as Spark prints
 * it (Identifier.toString). */
#ifndef CZ_CATALOG_REQUEST_H
#define CZ_CATALOG_REQUEST_H

#include <stddef.h>

#include "catalyzer.h"

/* A catalog option by name (case-insensitive, as Spark's CaseInsensitiveStringMap;
 * the last one set wins). NULL: not set. */
const char *catalog_option(const CzCatalogRequest *req, const char *key);

/* Identifier.toString of req's namespace and table into out: each part as is
 * when it is a plain word, else in backquotes ("tpcds.store_sales",
 * "`my db`.t"). Returns the length it needs (as snprintf). */
size_t catalog_identifier_string(const CzCatalogRequest *req, char *out, size_t size);

#endif
