/* ResolverGuard: the node kinds, and the configurations, the single pass does
 * not cover. Each entry is here because the dual run over the corpora
 * (tests/conformance/dual_run.py) found the single pass's plan differing from
 * the fixed point's for it, or because its rule depends on the order in which
 * the fixed point visits operators across the whole plan. */
#include "resolver_guard.h"

#include "catalog/conf.h"
#include "core/walk.h"

typedef struct Declined {
    NodeKind kind;
    const char *why;
} Declined;

static const Declined DECLINED[] = {
    {NK_Explain, "EXPLAIN"},
};

typedef struct GuardWalk {
    KindMask declined;
    KindMask declined_or_shapes; /* and the kinds declined_shape looks at */
    const char *why;
} GuardWalk;

/* Shapes the single pass does not cover, beyond single kinds. */
static const char *declined_shape(const Node *n) {
    /* HAVING over GROUPING SETS / CUBE / ROLLUP: ResolveGroupingAnalytics
       rewrites the Aggregate below a HAVING in the same iteration */
    if (n->kind == NK_UnresolvedHaving && kind_mask_any(n->kids[0]->mask, KIND_MASK(NK_GroupingSets, NK_Cube, NK_Rollup)))
        return "HAVING over grouping analytics";
    return NULL;
}

static WalkResult visit(const Node *n, void *ctx) {
    GuardWalk *g = ctx;
    if (node_is_plan(n)) {
        const char *why = declined_shape(n);
        if (why) {
            g->why = why;
            return WALK_ABORT;
        }
    }
    if (!kind_mask_any(n->mask, g->declined_or_shapes)) return WALK_PRUNE;
    if (kind_mask_has(g->declined, n->kind)) /* a mask bit may stand for several kinds */
        for (size_t i = 0; i < sizeof DECLINED / sizeof DECLINED[0]; i++)
            if (DECLINED[i].kind == n->kind) {
                g->why = DECLINED[i].why;
                return WALK_ABORT;
            }
    return WALK_CONTINUE;
}

const char *resolver_guard_declines(const Analysis *an, const Node *plan) {
    (void)an;
    if (node_kind_is_command(plan->kind)) return "a command";
    GuardWalk g = {.why = NULL};
    for (size_t i = 0; i < sizeof DECLINED / sizeof DECLINED[0]; i++)
        g.declined = kind_mask_or(g.declined, kind_mask_of(DECLINED[i].kind));
    g.declined_or_shapes = kind_mask_or(g.declined, KIND_MASK(NK_Join, NK_LateralJoin, NK_UnresolvedHaving));
    node_walk(plan, WALK_EXPRS | WALK_SUBQUERIES, visit, &g);
    return g.why;
}
