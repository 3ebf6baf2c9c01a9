/* The state of one analysis: the request arena, the SQL text, the session's
 * configuration and catalog as of the start, expression-id and CTE-id
 * counters, and the first error. Passed to every rule and helper. */
#ifndef CZ_ANALYSIS_H
#define CZ_ANALYSIS_H

#include <stdbool.h>

#include "arena.h"
#include "errors.h"
#include "ir.h"

struct Catalog;
struct Conf;
struct OuterScope;
struct SessionState;
typedef struct Analysis Analysis;

/* How code below the driver starts an analysis of its own (a view body, a
 * subquery, a command's query) without including the driver: the driver
 * fills this in (driver/analyze.c) when it creates the Analysis. */
typedef struct AnalysisDriver {
    /* A whole query: the batches to a fixed point, then CheckAnalysis. NULL on error. */
    Node *(*analyze_query)(Analysis *an, Node *plan);
    /* A plan nested in the current one, with the enclosing scopes `outer`;
     * depth-limited; the result is marked analysed when resolved. NULL on error.
     * kind ("view", "cte", "subquery", "scalar-subquery", ...) and name (may be
     * NULL) say what it is, for the trace events' scope. */
    Node *(*analyze_nested)(Analysis *an, Node *plan, struct OuterScope *outer, const char *kind, const char *name);
} AnalysisDriver;

struct Analysis {
    Arena *arena;
    const char *sql;            /* the statement's text (may be NULL for decoded plans) */
    size_t sql_len;
    const struct Conf *conf;    /* the session's configuration for this statement (catalog/conf.h) */
    const struct Catalog *catalog; /* the catalog version this analysis started with */
    struct SessionState *session;  /* variables, temp views, current namespace (read-only during analysis) */
    ExprId next_id;             /* expression ids: unique within the request */
    int64_t next_cte_id;
    ErrorInfo *error;           /* the first error; NULL while none */
    uint32_t max_depth;
    int depth;                  /* view / subquery nesting while resolving */
    int view_depth;             /* views being expanded inside one another (spark.sql.view.maxNestedViewDepth) */
    uint32_t nested_height;     /* the statement's height plus the heights of the view bodies being expanded
                                   inside one another: each is parsed under max_depth on its own, the
                                   plan they make together must stay under it too */
    struct Tracer *tracer;      /* executor.h; NULL: no tracing, no timing */
    struct OuterScope *outer;   /* the enclosing queries' scopes while resolving a subquery (rules/scope.h) */
    uint64_t deadline_ns;       /* CLOCK_MONOTONIC; 0: none */
    const volatile int *cancel; /* non-zero: stop */
    struct CteRegistry *ctes;   /* resolved CTE definitions by id (rules/cte_refs.c) */
    const char *view_ns;        /* inside a persistent view: its namespace (names resolve there,
                                   and temporary views are not visible); NULL otherwise */
    const AnalysisDriver *driver; /* nested analyses; set by whoever creates the Analysis */
    const char *time_zone;      /* the session time zone (TimeZoneAwareExpression's timeZoneId); NULL: UTC */
    struct CzPhaseTimes *phases; /* catalyzer.h: where resolve and check times are added; NULL: not timed */
    struct HybridState *hybrid; /* resolver/hybrid_analyzer.h: which analyzer runs, what the dual run found */
};

static inline ExprId an_new_id(Analysis *an) { return ++an->next_id; }

static inline Node *an_analyze_query(Analysis *an, Node *plan) { return an->driver->analyze_query(an, plan); }
static inline Node *an_analyze_nested(Analysis *an, Node *plan, struct OuterScope *outer, const char *kind,
                                      const char *name) {
    return an->driver->analyze_nested(an, plan, outer, kind, name);
}

/* Records err unless an error is already recorded. Returns NULL so callers
 * can write `return an_fail(an, err);` in functions returning a node. */
Node *an_fail(Analysis *an, ErrorInfo *err);
static inline bool an_failed(const Analysis *an) { return an->error != NULL; }

/* For long loops outside the rule executor (constant evaluation, command
 * work): true, with CATALYZER_CANCELLED or CATALYZER_DEADLINE_EXCEEDED
 * recorded, once the request is cancelled or past its deadline (or already
 * failed). Reads the clock: call it every so many steps. */
bool an_out_of_time(Analysis *an);

#endif
