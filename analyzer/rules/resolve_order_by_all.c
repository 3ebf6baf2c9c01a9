/* ResolveOrderByAll — Spark's ResolveReferencesInSort, its last step
 * (resolveOrderByAll): a global ORDER BY whose only sort key is the name
 * `ALL` (any case), when no column of that name exists (the child's output,
 * missing references and aggregate grouping columns are tried first by the
 * rules before this one), sorts by every output column of the child in
 * order, each with the direction and null ordering written after ALL.
 * SORT BY ALL and window ORDER BY ALL are not expanded.
 *
 *   'Sort ['ALL DESC NULLS LAST], true          Sort [g#1 DESC NULLS LAST, i#2 DESC NULLS LAST], true
 *   +- Project [g#1, i#2]                  =>   +- Project [g#1, i#2]
 */
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "core/walk.h"

static bool is_order_by_all(const Node *p) {
    if (p->kind != NK_Sort || !p->u.sort.global || p->nexprs != 1) return false;
    const Node *o = p->exprs[0];
    if (o->kind != NK_SortOrder || o->nkids != 1) return false;
    const Node *a = o->kids[0];
    return a->kind == NK_UnresolvedAttribute && a->u.un.name.n == 1 && strcasecmp(a->u.un.name.v[0], "all") == 0;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || !is_order_by_all(p) || !node_resolved(p->kids[0])) return p;
    AttrList out = plan_output(an, p->kids[0]);
    for (uint32_t i = 0; i < out.n; i++)
        if (strcasecmp(out.v[i]->u.attr.name, "all") == 0) return p; /* a column named ALL: ResolveReferences' */
    const Node *all = p->exprs[0];
    Node **orders = ARENA_ARRAY(an->arena, Node *, out.n ? out.n : 1);
    for (uint32_t i = 0; i < out.n; i++) {
        Node *so = node_new(an->arena, NK_SortOrder, all->start, all->stop);
        so->u.sort_order = all->u.sort_order;
        Node *attr = (Node *)out.v[i];
        node_set_kids(an->arena, so, &attr, 1);
        so->type = attr->type;
        orders[i] = node_finish(so);
    }
    return node_with_exprs(an->arena, p, orders, out.n);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedAttribute), rewrite, an);
}

const Rule RULE_RESOLVE_ORDER_BY_ALL = {
    .name = "ResolveOrderByAll",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.ResolveReferencesInSort (ORDER BY ALL)",
    .kinds = {NK_Sort},
    .nkinds = 1,
    .apply = apply,
};
