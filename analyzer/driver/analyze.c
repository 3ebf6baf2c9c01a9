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

Node *analyze_nested(Analysis *an, Node *plan, struct OuterScope *outer) {
    if ((uint32_t)++an->depth > an->max_depth) {
        an->depth--;
        return an_fail(an, error_make(an->arena, "CATALYZER_LIMIT_EXCEEDED", plan, "limit", "nesting depth", NULL));
    }
    struct OuterScope *saved = an->outer;
    an->outer = outer;
    Node *r = executor_run(an, plan);
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
