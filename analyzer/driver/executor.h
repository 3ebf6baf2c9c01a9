/* The rule executor: batches of rules run once or to a fixed point, every
 * application timed (when someone listens), "effective" detected by pointer
 * comparison, a trace hook per application. */
#ifndef CZ_EXECUTOR_H
#define CZ_EXECUTOR_H

#include "catalyzer.h"
#include "core/analysis.h"
#include "core/ir.h"
#include "rules/rule.h"


typedef struct Batch {
    const char *name;
    bool once;               /* false: to a fixed point (conf max iterations) */
    int nrules;
    const Rule *const *rules;
} Batch;

/* The analyzer's batches, in order (batches.c). */
int analyzer_batches(const Batch *const **batches);

/* The analysis the executor is running for, as trace events name it. */
typedef struct TraceScope {
    const char *path;        /* CzTraceEvent.scope: "" for the statement */
    uint32_t id, parent_id;
    int depth;
} TraceScope;

typedef struct Tracer {
    CzTraceFn fn;
    void *ctx;
    CzTraceLevel level;
    bool plans;
    bool timing;             /* measure rule times (for totals) even without fn */
    int ntotals;
    CzRuleTotal *totals;     /* per rule, allocated in the arena on first use */
    TraceScope scope;        /* set by analyze_nested while events are traced */
    uint32_t next_scope_id;
} Tracer;

/* Runs the batches over plan; returns the final plan (NULL on error, with
 * an->error set). Nested analyses (subqueries, views) call it again with
 * the same tracer. */
Node *executor_run(Analysis *an, Node *plan);

#endif
