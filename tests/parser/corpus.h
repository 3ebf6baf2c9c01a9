/* Shared by the parser's corpus and robustness tests: loading the statements
 * of the Spark corpus (.jsonl) and the workload scripts (.sql). */
#ifndef CZ_TEST_PARSER_CORPUS_H
#define CZ_TEST_PARSER_CORPUS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct CorpusStmt {
    char *where;        /* "file:index" */
    char *sql;
    size_t len;
    char *error_class;  /* expected parse-phase error class, or NULL */
    char *error_param;  /* PARSE_SYNTAX_ERROR's `error` parameter, or NULL */
    char *hint_param;   /* and its `hint` */
} CorpusStmt;

typedef struct Corpus {
    CorpusStmt *v;
    size_t n, cap;
} Corpus;

/* The shared directory, or NULL (tests then skip). */
const char *corpus_shared_dir(void);
/* Loads every statement: spark-visible.jsonl, spark-functions.jsonl and the
 * workload .sql files. Returns false if a file cannot be read. */
bool corpus_load(Corpus *c, const char *shared);
void corpus_free(Corpus *c);

#endif
