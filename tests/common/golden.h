/* Shared by the golden-file tests: reading files, normalising expression
 * ids as Spark's golden files print them, and comparing against (or, with
 * CATALYZER_UPDATE_GOLDEN=1, rewriting) a golden file. */
#ifndef CZ_TEST_GOLDEN_H
#define CZ_TEST_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"

/* The whole file, NUL-terminated, malloc'd (caller frees); NULL if unreadable. */
char *golden_slurp(const char *path, size_t *len);

/* Appends s with `#123` written `#x` (`#123L` as `#xL`) and the ids of
 * CTERelationDef / CTERelationRef as `xxxx`, as Spark's golden files print them. */
void golden_normalise_ids(StrBuf *out, const char *s);

/* Compares got with the file at path (criterion assertions; the message
 * names the first differing line), or rewrites the file when
 * CATALYZER_UPDATE_GOLDEN is set. */
void golden_expect_file(const char *path, const char *got);

/* For each DIR/NAME.sql (DIR relative to $CATALYZER_SOURCE): its statements
 * run in a fresh session (with Spark's test tables), `print` appends each
 * statement's result to the output, which must equal DIR/NAME.plan.
 * Returns the number of files checked. */
typedef void (*GoldenPrintFn)(StrBuf *out, int index, const char *stmt, size_t len, void *result);
int golden_check_dir(const char *dir_rel, GoldenPrintFn print);

/* $CATALYZER_SOURCE/rel, or NULL (the test then skips). */
const char *golden_source_path(char *buf, size_t cap, const char *rel);

#endif
