#include "analyze.h"

#include "executor.h"
#include "check/check.h"
#include "core/output.h"
#include "rules/lib/scope.h"

Node *analyze_query(Analysis *an, Node *plan) {
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
