#include "analyze.h"

#include "catalyzer.h"
#include "executor.h"
#include "check/check.h"
#include "core/output.h"
#include "print/printer.h"
#include "resolver/hybrid_analyzer.h"
#include "rules/lib/scope.h"

/* The single-pass resolver's trace events, as the executor reports a rule
 * application (batch "SinglePass", the resolver as the rule). */
static bool sp_tracing(const Analysis *an) { return an->tracer && an->tracer->fn; }

static void sp_trace(Analysis *an, const char *batch, const char *rule, int iteration, bool effective, uint64_t nanos,
                     const char *changed_kinds, const Node *before, const Node *after) {
    Tracer *t = an->tracer;
    if (!t || !t->fn || t->level == CZ_TRACE_NONE || (t->level == CZ_TRACE_EFFECTIVE && !effective)) return;
    CzTraceEvent ev = {.batch = batch, .rule = rule, .iteration = iteration, .effective = effective, .nanos = nanos,
                       .changed_kinds = effective ? changed_kinds : NULL, .depth = t->scope.depth,
                       .scope = t->scope.path ? t->scope.path : "", .scope_id = t->scope.id,
                       .parent_scope_id = t->scope.parent_id};
    if (effective && t->plans) {
        ev.plan = plan_tree_string(an->arena, after);
        (void)before;
    }
    t->fn(t->ctx, &ev);
}

/* The driver's side of the hybrid analyzer: the batches and the executor. */
static HybridHooks hybrid_hooks(ResolverBatch *rb, int cap) {
    const Batch *const *batches;
    int nb = analyzer_batches(&batches);
    if (nb > cap) nb = cap;
    for (int i = 0; i < nb; i++)
        rb[i] = (ResolverBatch){batches[i]->name, batches[i]->once, (uint32_t)batches[i]->nrules, batches[i]->rules};
    return (HybridHooks){{(uint32_t)nb, rb, sp_tracing, sp_trace}, executor_run};
}

Node *analyze_query(Analysis *an, Node *plan) {
    ResolverBatch rb[16];
    HybridHooks h = hybrid_hooks(rb, 16);
    return hybrid_analyze_query(an, plan, &h);
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
    ResolverBatch rb[16];
    HybridHooks h = hybrid_hooks(rb, 16);
    Node *r = hybrid_resolve_nested(an, plan, &h);
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
