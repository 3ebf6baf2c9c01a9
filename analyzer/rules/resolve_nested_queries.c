/* ResolveNestedQueries — resolves each query nested in FROM (a subquery with
 * an alias) and each CTE definition to completion as soon as it is met,
 * bottom-up, in its own nested analysis with the same outer scope. A FROM
 * subquery cannot see its siblings (LATERAL ones are expressions and are not
 * touched), so resolving it alone gives what the whole-plan fixed point
 * would, but in one pass: a chain of n nested subqueries or n CTEs that
 * build on each other takes n nested analyses instead of n iterations over
 * the whole plan (Spark needs one iteration per level). CTE definitions are
 * met in order, so a later one sees the earlier ones resolved.
 *
 *   SubqueryAlias s                      SubqueryAlias s
 *   +- 'Project [('a + 1) AS a]     =>   +- Project [(a#1 + 1) AS a#2]
 *      +- SubqueryAlias t                   +- SubqueryAlias t
 *         +- Project [1 AS a#1]                +- Project [1 AS a#1]
 */
#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "rules/lib/cte_registry.h"
#include "core/walk.h"

static bool is_query_root(const Node *p) {
    switch (p->kind) {
    case NK_UnresolvedRelation:
    case NK_UnresolvedIdentifierPlan:
    case NK_CTERelationRef:
    case NK_UnresolvedTableValuedFunction:
    case NK_UnresolvedInlineTable: return false; /* resolved directly by their own rules */
    default: return true;
    }
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || (p->kind != NK_SubqueryAlias && p->kind != NK_CTERelationDef)) return p;
    Node *child = p->kids[0];
    if (p->kind == NK_CTERelationDef && plan_is_resolved(child)) {
        /* later definitions and the main query can use it from now on */
        cte_register(an, p);
        return p;
    }
    if (plan_is_resolved(child) || !is_query_root(child)) return p;
    if (child->kind == NK_SubqueryAlias && !is_query_root(child->kids[0])) return p;
    bool cte = p->kind == NK_CTERelationDef;
    NameParts alias = cte ? (NameParts){0} : p->u.alias.name;
    Node *r = an_analyze_nested(an, child, an->outer, cte ? "cte" : "subquery",
                                cte ? p->u.cte.name : alias.n ? alias.v[alias.n - 1] : NULL);
    if (!r || r == child) return p;
    Node *n = node_with_kid(an->arena, p, 0, r);
    if (n->kind == NK_CTERelationDef && plan_is_resolved(r)) cte_register(an, n);
    return n;
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_SubqueryAlias, NK_CTERelationDef), rewrite, an);
}

const Rule RULE_RESOLVE_NESTED_QUERIES = {
    .name = "ResolveNestedQueries",
    .spark_rule = "(Catalyzer) the FROM-subquery and CTE parts of Spark's Resolution batch, one level at a time",
    .kinds = {NK_SubqueryAlias, NK_CTERelationDef},
    .nkinds = 2,
    .apply = apply,
};
