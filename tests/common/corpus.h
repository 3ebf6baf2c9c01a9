/* The one loader of the shared corpus for the C tests: Spark's golden
 * records (`../shared/conformance/NAME.jsonl`, one JSON object a line) and the
 * TPC-H / TPC-DS scripts (`../shared/workloads`). The shared folder comes
 * from $CATALYZER_SHARED (tests/meson.build sets it to ../shared beside the
 * clone). A user's clone has no ../shared: the corpus tests then exit 77,
 * which meson reports as SKIP (corpus_main.c). */
#ifndef CZ_TEST_CORPUS_H
#define CZ_TEST_CORPUS_H

#include <stdbool.h>
#include <stddef.h>

/* One record; strings are NULL when the record does not have the field. */
typedef struct CorpusRecord {
    const char *file;          /* Spark's test file ("cte.sql"), or the workload script ("tpch/q1.sql") */
    long index;                /* statement number within the file */
    const char *sql;
    const char *kind;          /* "query", "command", ... */
    const char *expect;        /* "ok" or "error" */
    const char *error_class;
    const char *error_phase;   /* "parse", "analysis", "execution" */
    const char *schema;        /* the output schema string Spark printed */
    const char *analyzed_plan; /* Spark's analysed plan, ids normalised */
    bool plan_redacted;
    const char *function;      /* spark-functions.jsonl: the function the example is for */
    const char *param_error;   /* message_parameters.error (PARSE_SYNTAX_ERROR) */
    const char *param_hint;    /* message_parameters.hint */
    size_t nconf;              /* the file's configuration (file_config.set) */
    const char **conf_keys, **conf_values;
} CorpusRecord;

typedef struct Corpus {
    CorpusRecord *v;
    size_t n, cap;
    void *owned; /* what the strings point into */
} Corpus;

/* $CATALYZER_SHARED when it holds the corpus (conformance/spark-visible.jsonl,
 * conformance/spark-functions.jsonl and workloads/), else NULL. */
const char *corpus_shared_dir(void);

/* Exits 77 (meson's SKIP) with a message saying what is missing, unless
 * corpus_shared_dir() finds the corpus. */
void corpus_require(void);

/* Appends the records of conformance/NAME (e.g. "spark-visible.jsonl"), in
 * file order. False (with a message on stderr) if the file cannot be read or
 * a line is not a JSON object. */
bool corpus_load_jsonl(Corpus *c, const char *name);

/* Appends every statement of the workload scripts (workloads/tpch,
 * workloads/tpcds, workloads/tpcds-v2.7.0, files in name order, split on `;`
 * as the CLI splits them): file "tpch/q1.sql", index the statement's line,
 * expect "ok". False if a folder cannot be read. */
bool corpus_load_workloads(Corpus *c);

/* Whether a and b come from the same Spark test file (one session a file). */
bool corpus_same_file(const CorpusRecord *a, const CorpusRecord *b);

void corpus_free(Corpus *c);

#endif
