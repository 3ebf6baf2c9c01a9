/* Catalyzer's public API: sessions, statements, results, tracing.
 *
 * The library has no global mutable state. A CzSession holds one client's
 * state (configuration, catalog version, session variables, temporary views,
 * current namespace) and must not be used by two threads at once; distinct
 * sessions are independent. Each statement runs in its own arena, owned by
 * the CzResult it returns; a statement that fails leaves the session as it
 * was. */
#ifndef CATALYZER_H
#define CATALYZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct CzSession CzSession;
typedef struct CzResult CzResult;
typedef struct Node Node;

/* ---- sessions ---- */

/* A session with Spark 4's defaults and an empty `spark_catalog.default`.
 * with_test_tables: also create the tables Spark's SQL test harness creates
 * (testdata, arraydata, mapdata, aggtest, onek, tenk1). Free with
 * cz_session_free. */
CzSession *cz_session_new(bool with_test_tables);
void cz_session_free(CzSession *s);

/* Sets a configuration key (Spark's keys, e.g. spark.sql.caseSensitive, and
 * Catalyzer's catalyzer.*). Returns false (and leaves the session unchanged)
 * for a value the key does not accept. Unknown keys are stored as given.
 * A value set here is the session's launch configuration (as Spark's
 * SparkConf): SQL `RESET` returns to it, not to the default. */
bool cz_session_set_conf(CzSession *s, const char *key, const char *value);
/* The current value, or NULL if unset and without default. Valid until the next change. */
const char *cz_session_get_conf(const CzSession *s, const char *key);
/* Removes a key set on the session (Spark's RuntimeConfig.unset): the
 * analyzer's behaviour for it returns to the default. */
bool cz_session_unset_conf(CzSession *s, const char *key);
/* The keys set on the session, in the order they were first set; valid
 * until the next change. Returns the count. */
int cz_session_conf_keys(const CzSession *s, const char *const **keys);
/* The session time zone when spark.sql.session.timeZone is not set (Spark
 * takes the JVM's: here $TZ, else /etc/timezone, else UTC), into buf. */
void cz_default_time_zone(char *buf, size_t size);
/* Fixes the zone the session uses while spark.sql.session.timeZone is unset
 * (and SET TIME ZONE LOCAL sets): a daemon looks the machine's up once at
 * start, as the JVM does, instead of on every statement. NULL: look it up. */
void cz_session_set_default_time_zone(CzSession *s, const char *zone);

/* Adds or replaces a catalog table: name "t", "db.t" or "spark_catalog.db.t"
 * (the namespace is created if missing); columns as Spark type strings.
 * Returns false and writes a message into err (if given) on a bad name or type. */
bool cz_session_create_table(CzSession *s, const char *name, int ncols, const char *const *col_names,
                             const char *const *col_types, const bool *col_nullable, char *err, size_t errlen);

/* Registers a user-defined scalar function's signature so calls resolve and
 * type-check: argument and result types as Spark type strings. */
bool cz_session_register_function(CzSession *s, const char *name, int nargs, const char *const *arg_types,
                                  const char *result_type, bool deterministic, char *err, size_t errlen);

/* Bytes the session's state holds (catalog, variables and their values,
 * views, conf, function signatures): what a daemon bounds per session. */
size_t cz_session_memory_bytes(const CzSession *s);

/* ---- external catalogs ----
 *
 * Spark loads a v2 catalog's table when a query names it (CatalogPlugin.
 * loadTable). A session registers such a catalog with
 * spark.sql.catalog.NAME=<plugin class> (and its options as
 * spark.sql.catalog.NAME.<option>); when the plugin class is one the session's
 * provider handles, the analyzer asks the provider for each table the query
 * names instead of looking in the session's own catalog. The analyzer does no
 * I/O itself: the provider (see catalogs/ for the JDBC and remote ones) may
 * block, within the request's deadline. */
typedef struct CzExternalColumn {
    const char *name;
    const char *type;      /* a Spark type string: "int", "decimal(7,2)", "array<string>" */
    bool nullable;
} CzExternalColumn;

typedef struct CzExternalTable {
    int ncols;
    const CzExternalColumn *cols;
    const char *name;      /* the table's name() as RelationV2 prints it ("tpcds.store_sales") */
    uint64_t version;      /* identifies this copy of the table's metadata: a provider gives a
                              changed table a new version (0: unknown, never reused) */
    void *provider_data;   /* the provider's own (what release_table needs) */
} CzExternalTable;

/* A function of an external catalog (FunctionCatalog.loadFunction, bound
 * to its declared input types): what resolving and typing a call needs.
 * Arguments are cast to arg_types as a session UDF's are. */
typedef struct CzExternalFunction {
    const char *name;            /* as the plan prints the call */
    int nargs;
    const char *const *arg_types; /* Spark type strings */
    const char *result_type;
    bool deterministic;
    bool aggregate;
    void *provider_data;         /* the provider's own (what release_function needs) */
} CzExternalFunction;

typedef enum CzCatalogStatus {
    CZ_CATALOG_FOUND,
    CZ_CATALOG_NOT_FOUND,  /* the analysis reports TABLE_OR_VIEW_NOT_FOUND / SCHEMA_NOT_FOUND */
    CZ_CATALOG_FAILED      /* the provider filled *failure with the Spark error to report */
} CzCatalogStatus;

typedef struct CzCatalogRequest {
    const char *catalog;        /* "pg" */
    const char *plugin_class;   /* the value of spark.sql.catalog.pg */
    int noptions;               /* spark.sql.catalog.pg.<key> = value, prefix removed */
    const char *const *option_keys;
    const char *const *option_values;
    int nnamespace;             /* the namespace, part by part */
    const char *const *ns;
    const char *table;          /* NULL for a namespace lookup */
    uint64_t deadline_ns;       /* CLOCK_MONOTONIC; 0: none */
    const volatile int *cancel;
} CzCatalogRequest;

/* The error a provider reports: a Spark error class and its parameters. */
typedef struct CzCatalogFailure {
    char error_class[96];       /* "FAILED_JDBC.TABLE_EXISTS" */
    int nparams;
    char names[4][32];
    char values[4][512];
} CzCatalogFailure;

typedef struct CzCatalogProvider {
    void *ctx;
    /* Whether plugin_class is one this provider loads. */
    bool (*handles)(void *ctx, const char *plugin_class);
    /* Loads req->ns.req->table into *out; out's memory stays valid until
     * release_table(out). */
    CzCatalogStatus (*load_table)(void *ctx, const CzCatalogRequest *req, CzExternalTable *out,
                                  CzCatalogFailure *failure);
    void (*release_table)(void *ctx, CzExternalTable *t);
    /* Whether the namespace req->ns exists (req->table is NULL). */
    CzCatalogStatus (*namespace_exists)(void *ctx, const CzCatalogRequest *req, CzCatalogFailure *failure);
    /* REFRESH TABLE: forget what is cached of req's table (NULL: nothing is cached). */
    void (*invalidate_table)(void *ctx, const CzCatalogRequest *req);
    /* Loads the function req->ns.req->table (req->table is the function's
     * name) into *out, valid until release_function(out); NULL: the
     * provider's catalogs have no functions (calls are UNRESOLVED_ROUTINE). */
    CzCatalogStatus (*load_function)(void *ctx, const CzCatalogRequest *req, CzExternalFunction *out,
                                     CzCatalogFailure *failure);
    void (*release_function)(void *ctx, CzExternalFunction *f);
} CzCatalogProvider;

/* Whether type is a Spark type string the analyzer reads ("decimal(7,2)",
 * "array<struct<a:int>>"): for providers checking what a source gave them
 * before handing it over. False with the reason in why. */
bool cz_type_check(const char *type, char *why, size_t whylen);

/* Gives the session a provider (NULL: none). The provider must outlive the
 * session; one provider may serve many sessions (it must then be thread-safe). */
void cz_session_set_catalog_provider(CzSession *s, const CzCatalogProvider *p);

/* ---- tracing ---- */

typedef struct CzTraceEvent {
    const char *batch;
    const char *rule;
    int iteration;        /* 1-based within the batch */
    bool effective;       /* the rule changed the plan */
    uint64_t nanos;       /* time the application took */
    const char *plan;     /* the plan after the rule (tree string); NULL unless requested */
    const char *changed_kinds; /* "Project,Filter": kinds of the nodes the rule replaced; NULL if none */
    /* Which analysis the event belongs to. A nested analysis (a view's body, a
     * CTE definition, a FROM subquery, a subquery expression) runs inside one
     * rule application of the analysis containing it, so its events come
     * before that rule's own event. */
    int depth;                 /* 0: the statement; n: inside n nested analyses */
    const char *scope;         /* "" at depth 0; else the nested analysis' path, outermost first,
                                  '/'-separated: "cte t#1/scalar-subquery#3" (kind, name if any, #scope_id) */
    uint32_t scope_id;         /* 0: the statement; nested analyses 1, 2, ... in the order they start */
    uint32_t parent_scope_id;  /* the scope_id of the analysis this one is nested in */
    const char *plan_before;   /* with trace_plans, on the first effective event of each analysis: the plan
                                  it started from; NULL otherwise */
} CzTraceEvent;

typedef void (*CzTraceFn)(void *ctx, const CzTraceEvent *ev);

typedef enum CzTraceLevel { CZ_TRACE_NONE, CZ_TRACE_EFFECTIVE, CZ_TRACE_ALL } CzTraceLevel;

/* Where one statement's time went, in nanoseconds (CzRunOptions.phases):
 * what `catalyzer bench --phases` reports. Each field is added to, so one
 * struct can sum several runs; a command's nested queries count in resolve
 * and check. */
typedef struct CzPhaseTimes {
    uint64_t parse_ns;   /* ${var} substitution and SQL text -> unresolved plan (cz_run_sql only) */
    uint64_t resolve_ns; /* resolution of the statement's queries: the rule batches, nested analyses included */
    uint64_t check_ns;   /* CheckAnalysis of those queries */
    uint64_t output_ns;  /* the result's output attributes and schema string */
    uint64_t tree_ns;    /* the tree string (want_tree) */
} CzPhaseTimes;

typedef struct CzRunOptions {
    CzTraceFn trace;          /* NULL: no tracing (costs nothing) */
    void *trace_ctx;
    CzTraceLevel trace_level; /* which events reach `trace` */
    bool trace_plans;         /* render the plan after each effective rule */
    bool want_tree;           /* render the analysed plan's tree string into the result */
    size_t memory_limit;      /* arena budget in bytes; 0 = unlimited */
    uint32_t max_depth;       /* parser recursion / nested-analysis limit; 0 = default (20000) */
    uint64_t deadline_ns;     /* CLOCK_MONOTONIC deadline; 0 = none */
    const volatile int *cancel; /* non-NULL and non-zero: stop as soon as possible */
    /* Parameter markers: named (:name) and positional (?), as SQL literals text. */
    int nnamed_params;
    const char *const *param_names;
    const char *const *param_values_sql;
    int npos_params;
    const char *const *pos_params_sql;
    CzPhaseTimes *phases;     /* non-NULL: each phase's time is added here (costs a clock read a phase) */
} CzRunOptions;

/* ---- statements ---- */

/* Parses and analyses one statement (SQL text, need not be NUL-terminated)
 * and, if it is a command (CREATE VIEW, DECLARE, SET, USE, ...), applies it to
 * the session. Never returns NULL. The caller frees the result. */
CzResult *cz_run_sql(CzSession *s, const char *sql, size_t len, const CzRunOptions *opts);

/* Only parses one statement: on success the result's tree (cz_result_tree)
 * is the unresolved plan as `catalyzer parse` prints it (cz_result_plan is
 * NULL: nothing was analysed); on failure the error is the parse error. The
 * session supplies the parser's configuration only. Never returns NULL. */
CzResult *cz_parse_sql(CzSession *s, const char *sql, size_t len, const CzRunOptions *opts);

/* Analyses an already-built unresolved plan (e.g. decoded from protobuf),
 * allocated in the arena obtained from cz_result_prepare. */
struct Arena;
CzResult *cz_result_prepare(void); /* an empty result whose arena a decoder fills */
struct Arena *cz_result_arena(CzResult *r);
void cz_run_plan(CzSession *s, CzResult *r, Node *unresolved, const char *sql_text, const CzRunOptions *opts);

typedef enum CzStatus { CZ_OK, CZ_ERROR } CzStatus;

typedef struct CzError {
    const char *error_class;  /* "UNRESOLVED_COLUMN.WITH_SUGGESTION" */
    const char *sqlstate;     /* "42703" */
    const char *message;      /* "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column ..." */
    int nparams;
    const char *const *param_names;  /* in Spark's order */
    const char *const *param_values;
    int start, stop;          /* query context: character offsets, stop inclusive; -1 if none */
    const char *fragment;     /* the SQL text of [start, stop]; NULL if none */
    const char *phase;        /* "parse", "analysis" or "execution" */
} CzError;

CzStatus cz_result_status(const CzResult *r);
const CzError *cz_result_error(const CzResult *r);   /* NULL when ok */
const char *cz_result_schema(const CzResult *r);     /* "struct<a:int>"; NULL on error */
const char *cz_result_tree(const CzResult *r);       /* analysed plan tree string, if requested */
const Node *cz_result_plan(const CzResult *r);       /* the analysed plan; NULL on error */
/* A query's output attributes (resolved AttributeReference nodes, in the
 * result's arena), as Spark's LogicalPlan.output; 0 for commands and errors. */
int cz_result_output(const CzResult *r, const Node *const **attrs);
bool cz_result_is_command(const CzResult *r);
size_t cz_result_arena_bytes(const CzResult *r);
/* The `catalyzer run` JSON line for this result (no trailing newline); lives in the result. */
const char *cz_result_json(CzResult *r, int index);
void cz_result_free(CzResult *r);

/* Per-rule totals of the statement: count, effective count, nanoseconds. */
typedef struct CzRuleTotal {
    const char *batch, *rule;
    uint32_t runs, effective;
    uint64_t nanos;
} CzRuleTotal;
int cz_result_rule_totals(const CzResult *r, const CzRuleTotal **totals);

/* Splits a script into statements as `catalyzer parse` does: on `;` outside
 * quotes and comments; empty statements are dropped. Calls fn per statement
 * with its offset and length in text. */
void cz_split_statements(const char *text, size_t len, void (*fn)(void *ctx, const char *stmt, size_t len, size_t offset),
                         void *ctx);

#endif
