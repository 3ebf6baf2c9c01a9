/* ResolveSubqueryColumnAliases — Spark's ResolveSubqueryColumnAliases:
 * `t(a, b)` renames the columns of the aliased relation with a Project.
 *
 *   'UnresolvedSubqueryColumnAliases [a, b]      Project [c1#1 AS a#3, c2#2 AS b#4]
 *   +- LocalRelation [c1#1, c2#2]          =>    +- LocalRelation [c1#1, c2#2]
 */
#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "rules/lib/builders.h"
#include "core/walk.h"

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (p->kind != NK_UnresolvedSubqueryColumnAliases || !plan_is_resolved(p->kids[0])) return p;
    AttrList out = plan_output(an, p->kids[0]);
    if (out.n != p->u.cols.ncols) {
        return an_fail(an, error_make(an->arena, "ASSIGNMENT_ARITY_MISMATCH", p, "numTarget",
                                      arena_printf(an->arena, "%u", p->u.cols.ncols), "numExpr",
                                      arena_printf(an->arena, "%u", out.n), NULL));
    }
    Node **items = ARENA_ARRAY(an->arena, Node *, out.n + 1);
    for (uint32_t i = 0; i < out.n; i++) items[i] = make_alias(an, out.v[i], p->u.cols.cols[i], false);
    return make_project(an, p->kids[0], items, out.n);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedSubqueryColumnAliases), rewrite, an);
}

const Rule RULE_RESOLVE_SUBQUERY_COLUMN_ALIASES = {
    .name = "ResolveSubqueryColumnAliases",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveSubqueryColumnAliases",
    .kinds = {NK_UnresolvedSubqueryColumnAliases},
    .nkinds = 1,
    .apply = apply,
};
