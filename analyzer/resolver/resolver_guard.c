/* ResolverGuard: the node kinds, and the configurations, the single pass does
 * not cover; and the kinds a session names in
 * catalyzer.analyzer.singlePass.declineKinds ("Window,LateralJoin"), to take
 * the batches for a kind of plan without turning the single pass off. Each entry is here because the dual run over the corpora
 * (tests/conformance/dual_run.py) found the single pass's plan differing from
 * the fixed point's for it, or because its rule depends on the order in which
 * the fixed point visits operators across the whole plan. */
#include "resolver_guard.h"

#include <string.h>
#include <strings.h>

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
    const char *conf_kinds;      /* catalyzer.analyzer.singlePass.declineKinds */
    KindMask declined;
    KindMask declined_or_shapes; /* and the kinds declined_shape looks at */
    const char *why;
} GuardWalk;

/* Shapes the single pass does not cover, beyond single kinds. */
static const char *declined_shape(const Node *n) {
    (void)n; /* none at present: the dual run found none the single pass gets wrong */
    return NULL;
}

/* Whether the comma-separated list names kind k (case-insensitive). */
static bool listed(const char *list, NodeKind k) {
    const char *name = node_kind_name(k);
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        while (*p == ' ' || *p == ',') p++;
        const char *e = p;
        while (*e && *e != ',' && *e != ' ') e++;
        if ((size_t)(e - p) == n && strncasecmp(p, name, n) == 0) return true;
        p = e;
    }
    return false;
}

static WalkResult visit(const Node *n, void *ctx) {
    GuardWalk *g = ctx;
    if (g->conf_kinds && listed(g->conf_kinds, n->kind)) {
        g->why = node_kind_name(n->kind); /* named in declineKinds */
        return WALK_ABORT;
    }
    if (node_is_plan(n)) {
        const char *why = declined_shape(n);
        if (why) {
            g->why = why;
            return WALK_ABORT;
        }
    }
    if (!g->conf_kinds && !kind_mask_any(n->mask, g->declined_or_shapes)) return WALK_PRUNE;
    if (kind_mask_has(g->declined, n->kind)) /* a mask bit may stand for several kinds */
        for (size_t i = 0; i < sizeof DECLINED / sizeof DECLINED[0]; i++)
            if (DECLINED[i].kind == n->kind) {
                g->why = DECLINED[i].why;
                return WALK_ABORT;
            }
    return WALK_CONTINUE;
}

/* A key's value as the session set it, or NULL. */
static const char *conf_text(const struct Conf *c, const char *key) {
    for (int i = c ? c->nentries - 1 : -1; i >= 0; i--)
        if (c->keys[i] && !strcasecmp(c->keys[i], key)) return c->values[i] && *c->values[i] ? c->values[i] : NULL;
    return NULL;
}

const char *resolver_guard_declines(const Analysis *an, const Node *plan) {
    if (node_kind_is_command(plan->kind)) return "a command";
    GuardWalk g = {.conf_kinds = conf_text(an->conf, "catalyzer.analyzer.singlePass.declineKinds")};
    for (size_t i = 0; i < sizeof DECLINED / sizeof DECLINED[0]; i++)
        g.declined = kind_mask_or(g.declined, kind_mask_of(DECLINED[i].kind));
    g.declined_or_shapes = kind_mask_or(g.declined, KIND_MASK(NK_Join, NK_LateralJoin, NK_UnresolvedHaving));
    node_walk(plan, WALK_EXPRS | WALK_SUBQUERIES, visit, &g);
    return g.why;
}
