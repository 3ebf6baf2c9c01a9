#include "analyze.h"

#include <time.h>

#include "catalyzer.h"
#include "executor.h"
#include "check/check.h"
#include "core/output.h"
#include "rules/lib/scope.h"

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* With phase timing on, the outermost query's resolution and check are
 * timed; a query analysed inside them (a command's, a view's) counts in
 * the enclosing phase, so the phases are cleared while they run. */
static Node *analyze_query_timed(Analysis *an, Node *plan) {
    CzPhaseTimes *ph = an->phases;
    an->phases = NULL;
    uint64_t t0 = now_ns();
    Node *resolved = executor_run(an, plan);
    uint64_t t1 = now_ns();
    ph->resolve_ns += t1 - t0;
    if (resolved && !check_analysis(an, resolved)) resolved = NULL;
    ph->check_ns += now_ns() - t1;
    an->phases = ph;
    return resolved;
}

Node *analyze_query(Analysis *an, Node *plan) {
    if (an->phases) return analyze_query_timed(an, plan);
    Node *resolved = executor_run(an, plan);
    if (!resolved) return NULL;
    if (!check_analysis(an, resolved)) return NULL;
    return resolved;
}

/* While events are traced, a nested analysis gets its own scope: a number,
 * and a path under the enclosing one. */
static TraceScope enter_scope(Tracer *t, Arena *a, const char *kind, const char *name) {
    TraceScope saved = t->scope;
    uint32_t id = ++t->next_scope_id;
    const char *seg = name && *name ? arena_printf(a, "%s %s#%u", kind, name, id) : arena_printf(a, "%s#%u", kind, id);
    t->scope.path = saved.path && *saved.path ? arena_printf(a, "%s/%s", saved.path, seg) : seg;
    t->scope.id = id;
    t->scope.parent_id = saved.id;
    t->scope.depth = saved.depth + 1;
    return saved;
}

Node *analyze_nested(Analysis *an, Node *plan, struct OuterScope *outer, const char *kind, const char *name) {
    if ((uint32_t)++an->depth > an->max_depth) {
        an->depth--;
        return an_fail(an, error_make(an->arena, "CATALYZER_LIMIT_EXCEEDED", plan, "limit", "nesting depth", NULL));
    }
    struct OuterScope *saved = an->outer;
    an->outer = outer;
    Tracer *t = an->tracer && an->tracer->fn ? an->tracer : NULL;
    TraceScope saved_scope = {0};
    if (t) saved_scope = enter_scope(t, an->arena, kind, name);
    Node *r = executor_run(an, plan);
    if (t) t->scope = saved_scope;
    an->outer = saved;
    an->depth--;
    if (r && plan_is_resolved(r) && !(r->flags & NF_ANALYZED)) {
        /* finished: later rules leave this subtree alone (Spark's `analyzed`) */
        Node *m = node_copy(an->arena, r);
        m->flags |= NF_ANALYZED;
        r = node_finish(m);
    }
    return r;
}

const AnalysisDriver ANALYSIS_DRIVER = {analyze_query, analyze_nested};
