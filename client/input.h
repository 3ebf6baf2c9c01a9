/* Reading statements from a `.sql` file (split on `;` outside quotes and
 * comments) or a `.jsonl` file (one {"sql": "..."} per line). */
#ifndef CZ_CLI_INPUT_H
#define CZ_CLI_INPUT_H

#include <stddef.h>

typedef struct Statement {
    const char *sql;
    size_t len;
} Statement;

typedef struct StatementList {
    Statement *v;
    size_t n, cap;
    char *text;   /* the file's contents (owned) */
    char **owned; /* strings decoded from JSON (owned) */
    size_t nowned;
} StatementList;

/* Reads FILE; returns 0, or -1 with a message on stderr. */
int statements_read(const char *path, StatementList *out);
void statements_free(StatementList *l);

#endif
