/* Reading the shared conformance corpus (JSON Lines) in tests: a minimal JSON
 * reader and Spark's plan normalisation (`#12` → `#x`, CTE ids → `xxxx`). */
#ifndef CZ_TEST_PRINT_CORPUS_H
#define CZ_TEST_PRINT_CORPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"

typedef enum JKind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JKind;

typedef struct JVal JVal;
struct JVal {
    JKind kind;
    bool b;
    double num;
    const char *s;  /* J_STR (NUL-terminated, unescaped) */
    size_t n;       /* J_ARR/J_OBJ element count */
    JVal *items;    /* J_ARR: n values; J_OBJ: 2n (key string, value) */
};

/* Parses one JSON document; NULL on malformed input. */
JVal *json_parse(Arena *a, const char *text, size_t len);
/* Object member or NULL. */
const JVal *json_get(const JVal *obj, const char *key);
/* The member as a string, or NULL when absent / not a string. */
const char *json_str(const JVal *obj, const char *key);

/* Spark's golden-file normalisation of a plan string, in the arena. */
const char *plan_normalise(Arena *a, const char *plan);

/* $CATALYZER_SHARED/conformance/<name>, or NULL when the variable is unset
 * or the file is missing. */
const char *corpus_path(Arena *a, const char *name);

/* Reads a whole file into the arena (NUL-terminated); NULL on failure. */
char *read_file_all(Arena *a, const char *path, size_t *len);

#endif
