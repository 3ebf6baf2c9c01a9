/* ResolveHints — Spark's ResolveHints.ResolveJoinStrategyHints,
 * ResolveCoalesceHints and RemoveAllHints: a hint (Dataset.hint, Spark
 * Connect's Hint relation) becomes what it asks for, and a hint Spark does
 * not know is dropped.
 *
 *   'UnresolvedHint coalesce, [100]       Repartition 100, false
 *   +- LocalRelation [id#1]         =>    +- LocalRelation [id#1]
 *
 *   COALESCE(n)                     Repartition n, shuffle = false
 *   REPARTITION(n) / (n, cols) / (cols)   Repartition n, true / RepartitionByExpression
 *   REPARTITION_BY_RANGE(n?, cols)  RepartitionByExpression of ascending orders
 *   BROADCAST, MERGE, SHUFFLE_HASH, SHUFFLE_REPLICATE_NL (and their aliases)
 *                                   ResolvedHint (strategy=...) over the input
 */
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "core/walk.h"

static const char *join_strategy(const char *name) {
    static const char *const S[][2] = {
        {"BROADCAST", "broadcast"}, {"BROADCASTJOIN", "broadcast"}, {"MAPJOIN", "broadcast"},
        {"MERGE", "merge"}, {"SHUFFLE_MERGE", "merge"}, {"MERGEJOIN", "merge"},
        {"SHUFFLE_HASH", "shuffle_hash"}, {"SHUFFLE_REPLICATE_NL", "shuffle_replicate_nl"},
    };
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++)
        if (!strcasecmp(name, S[i][0])) return S[i][1];
    return NULL;
}

static bool int_param(const Node *e, int64_t *out) {
    if (e->kind != NK_Literal || e->u.lit.v.is_null || !e->type || !type_is_integral(e->type)) return false;
    *out = e->u.lit.v.u.i;
    return true;
}

static Node *hint_error(Analysis *an, const Node *h, const char *what) {
    return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP", h, "message",
                                  arena_printf(an->arena, "%s Hint expects %s", h->u.hint.name, what), NULL));
}

static Node *repartition(Analysis *an, Node *h, bool shuffle) {
    Node *r = node_new(an->arena, NK_Repartition, h->start, h->stop);
    int64_t n;
    if (h->nexprs != 1 || !int_param(h->exprs[0], &n) || n <= 0) return hint_error(an, h, "a partition number as a parameter");
    r->u.repart.num_partitions = (int32_t)n;
    r->u.repart.shuffle = shuffle;
    node_set_kids(an->arena, r, &h->kids[0], 1);
    return node_finish(r);
}

/* REPARTITION(n?, cols...) / REPARTITION_BY_RANGE(n?, cols...) */
static Node *repartition_by(Analysis *an, Node *h, bool by_range) {
    int64_t n = 0;
    uint32_t from = 0;
    if (h->nexprs && int_param(h->exprs[0], &n)) from = 1;
    if (from == h->nexprs && !by_range) return repartition(an, h, true);
    if (from == h->nexprs) return hint_error(an, h, "column names");
    Node **cols = ARENA_ARRAY(an->arena, Node *, h->nexprs - from);
    for (uint32_t i = from; i < h->nexprs; i++) {
        Node *c = h->exprs[i];
        if (c->kind == NK_Literal) return hint_error(an, h, "column names after the partition number");
        if (by_range && c->kind != NK_SortOrder) {
            Node *so = node_new(an->arena, NK_SortOrder, c->start, c->stop);
            so->u.sort_order.nulls_first = true; /* ascending: nulls first */
            node_set_kids(an->arena, so, &c, 1);
            c = node_finish(so);
        }
        cols[i - from] = c;
    }
    Node *r = node_new(an->arena, NK_RepartitionByExpression, h->start, h->stop);
    r->u.repart.num_partitions = (int32_t)n;
    node_set_exprs(an->arena, r, cols, h->nexprs - from);
    node_set_kids(an->arena, r, &h->kids[0], 1);
    return node_finish(r);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind != NK_UnresolvedHint || !p->nkids) return p;
    const char *name = p->u.hint.name ? p->u.hint.name : "";
    if (!strcasecmp(name, "COALESCE")) return repartition(an, p, false);
    if (!strcasecmp(name, "REPARTITION")) return repartition_by(an, p, false);
    if (!strcasecmp(name, "REPARTITION_BY_RANGE")) return repartition_by(an, p, true);
    const char *strategy = join_strategy(name);
    if (strategy && p->nexprs == 0) {
        Node *r = node_new(an->arena, NK_ResolvedHint, p->start, p->stop);
        r->u.hint.name = strategy;
        node_set_kids(an->arena, r, &p->kids[0], 1);
        return node_finish(r);
    }
    /* hints on named relations, REBALANCE and unknown hints are dropped (RemoveAllHints) */
    return p->kids[0];
}

static Node *apply(Analysis *an, Node *plan) {
    Node *r = transform(an->arena, plan, 0, KIND_MASK(NK_UnresolvedHint), rewrite, an);
    return r ? r : plan;
}

const Rule RULE_RESOLVE_HINTS = {
    .name = "ResolveHints",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.ResolveHints",
    .kinds = {NK_UnresolvedHint},
    .nkinds = 1,
    .apply = apply,
};
