/* Session state: configuration, current namespace, temporary views and
 * session variables. A statement that changes it works on a clone and the
 * clone replaces the state only if the statement succeeds — a failed
 * statement leaves no trace. */
#ifndef CZ_SESSION_H
#define CZ_SESSION_H

#include "catalog.h"
#include "catalyzer.h"
#include "conf.h"
#include "core/ir.h"

typedef struct TempView {
    const char *name;
    const char *sql;       /* the view's query text, re-analysed where referenced */
    int ncols;             /* user column names (0: the query's own) */
    const char **cols;
    const Node *plan;      /* for views created from a decoded plan: the unresolved plan */
    int nout;              /* the view's schema when it was created: where it is used, */
    const char **out_names;/* its query's output is cast back to these (as Spark's */
    const DataType **out_types; /* View shows) */
    const char *provider;  /* CREATE TEMPORARY VIEW v (cols) USING fmt: the format (sql and plan NULL) */
} TempView;

typedef struct Variable {
    const char *name;
    const DataType *type;
    Value value;
    const char *default_sql; /* the DEFAULT expression's text, for SET VAR v = DEFAULT */
} Variable;

/* A SQL function (CREATE [TEMPORARY] FUNCTION f(params) RETURNS t RETURN
 * body): Spark's SQLFunction. The body is text, parsed where it is called. */
typedef struct SqlFunction {
    const char *name;
    const char *ns;          /* the database of a persistent function; NULL: temporary */
    int nparams;
    const char **param_names;
    const DataType **param_types;
    const char **param_defaults; /* DEFAULT expressions' text, NULL where none */
    const DataType *ret_type;
    const char *body;        /* the text after RETURN */
    bool body_is_query;
} SqlFunction;

typedef struct SessionState {
    Arena *arena;            /* everything of this state lives here */
    Conf conf;
    int nbase;               /* the launch configuration (set through the API, as Spark's SparkConf), */
    const char **base_keys;  /* which RESET returns to */
    const char **base_values;
    const char *current_ns;  /* the session catalog's current database: "default" */
    const char *current_catalog; /* set by USE; NULL: spark.sql.defaultCatalog */
    bool has_v2_ns;          /* a v2 current catalog's namespace was set by USE (else its default, []) */
    NameParts current_v2_ns;
    int nviews;
    TempView *views;
    int nvars;
    Variable *vars;
    int nfuncs;
    SqlFunction *funcs;      /* SQL functions, temporary and persistent */
    int func_cap;            /* funcs' capacity (doubling: n puts cost O(n), not O(n^2)) */
    uint32_t func_mask;      /* a case-insensitive hash index on (ns, name): buckets - 1 */
    int32_t *func_head;      /* per bucket: the first function, -1 none */
    int32_t *func_next;      /* per function: the next one in its bucket, -1 none */
    const CzCatalogProvider *catalog_provider; /* external v2 catalogs (external_catalog.h); NULL: none */
    struct ExternalTableMemo *external_memo;   /* the session's converted external tables (shared by its states) */
    const char *default_time_zone; /* the zone when spark.sql.session.timeZone is unset; NULL: look it up
                                    * (cz_default_time_zone) — a daemon fixes it once, as the JVM does */
} SessionState;

struct CzSession {
    Catalog *catalog;        /* the published version */
    SessionState *state;
    Arena *udf_arena;        /* registered function signatures (outlive catalog versions) */
    const CzCatalogProvider *catalog_provider; /* given to every state the session publishes */
    struct ExternalTableMemo *external_memo;
};

void conf_init_defaults(Conf *c);
bool conf_apply(Conf *c, const char *key, const char *value);
/* Sets key=value as text (and typed) in a state's conf. */
bool state_set_conf(SessionState *s, const char *key, const char *value);
const char *state_get_conf(const SessionState *s, const char *key);
/* Removes key: its typed field returns to the default. */
bool state_unset_conf(SessionState *s, const char *key);
/* Sets key=value and records it as a launch value (RESET keeps it). */
bool state_set_base_conf(SessionState *s, const char *key, const char *value);
/* RESET key: the key's launch value, or its default. */
void state_reset_conf(SessionState *s, const char *key);
/* RESET: every key back to its launch value or default. */
void state_reset_all_conf(SessionState *s);

/* spark.sql.session.timeZone, or the default zone (cz_default_time_zone). */
const char *conf_session_time_zone(Arena *a, const SessionState *s);

SessionState *state_new(void);
SessionState *state_clone(const SessionState *s);
void state_free(SessionState *s);

const TempView *state_find_view(const SessionState *s, const char *name);
void state_put_view(SessionState *s, const TempView *v);
bool state_drop_view(SessionState *s, const char *name);
const Variable *state_find_var(const SessionState *s, const char *name);
void state_put_var(SessionState *s, const char *name, const DataType *type, const Value *value, const char *default_sql);
bool state_drop_var(SessionState *s, const char *name);
/* ns NULL: the temporary function called name. */
const SqlFunction *state_find_func(const SessionState *s, const char *ns, const char *name);
void state_put_func(SessionState *s, const SqlFunction *f);
bool state_drop_func(SessionState *s, const char *ns, const char *name);

/* Deep copy of a value into an arena. */
Value value_copy(Arena *a, const Value *v);

#endif
