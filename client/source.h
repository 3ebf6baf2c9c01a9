/* Where the CLI reads its input from: a FILE, `-` (standard input) or the
 * text of `-e 'SQL'`. Every subcommand that takes FILE reads it through
 * source_slurp, so the three forms work alike everywhere. */
#ifndef CZ_CLI_SOURCE_H
#define CZ_CLI_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

/* The FILE name that stands for the text of `-e`: an argument spelled "-e"
 * is an option to getopt, so no real file can arrive under this name. */
#define SOURCE_INLINE "-e"
/* The FILE name that stands for standard input. */
#define SOURCE_STDIN "-"

/* Remembers the SQL of `-e` (the CLI has one per process). */
void source_set_inline(const char *sql);

/* The whole input, NUL-terminated, malloc'd; NULL when it cannot be read.
 * Standard input is read once; a second read of it gives what the first did. */
char *source_slurp(const char *path, size_t *len);

/* A .jsonl file (one {"sql": ...} per line); `-` and `-e` are SQL text. */
bool source_is_jsonl(const char *path);

#endif
