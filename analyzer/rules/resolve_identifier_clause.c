/* ResolveIdentifierClause — Spark's ResolveIdentifierClause: once the
 * expression of an IDENTIFIER(expr) clause is resolved (literals, session
 * variables), it must be a constant STRING; its value is parsed as a
 * multi-part identifier and the clause is replaced by what it names:
 *   PlanWithUnresolvedIdentifier → UnresolvedRelation (or, if the name is a
 *     CTE in scope where the clause stands, the CTE reference — SPARK-46625)
 *     / UnresolvedTableValuedFunction
 *   ExpressionWithUnresolvedIdentifier → UnresolvedAttribute / UnresolvedFunction
 *
 *   'Project ['IDENTIFIER('c' || '1')]         'Project ['c1]
 *   +- 'PlanWithUnresolvedIdentifier 't'  =>   +- 'UnresolvedRelation [t]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "eval/consteval.h"
#include "parser/parser.h"
#include "rules/lib/cte_scope.h"
#include "rules/lib/identifier.h"
#include "rules/lib/variables.h"
#include "core/walk.h"

/* IDENTIFIER(expr)(args) in FROM: the parser leaves the nameless function
 * as the clause's child; it is taken in (its arguments after the
 * identifier) so no rule looks a nameless function up meanwhile. */
static Node *detach_tvf(Analysis *an, Node *p) {
    if (p->u.idplan.builds != NK_UnresolvedTableValuedFunction || !p->nkids) return p;
    const Node *f = p->kids[0];
    Node **ex = ARENA_ARRAY(an->arena, Node *, f->nexprs + 2);
    ex[0] = p->exprs[0];
    mem_copy(ex + 1, f->exprs, sizeof(Node *) * f->nexprs);
    Node *c = node_copy(an->arena, p);
    node_set_exprs(an->arena, c, ex, f->nexprs + 1);
    node_set_kids(an->arena, c, NULL, 0);
    return node_finish(c);
}

static Node *build_plan(Analysis *an, Node *p) {
    p = detach_tvf(an, p);
    const Node *e = p->exprs[0];
    if (!node_resolved(e)) return p;
    NameParts parts;
    if (!identifier_name_parts(an, e, &parts)) return p;
    if (p->u.idplan.builds == NK_UnresolvedTableValuedFunction) {
        Node *f = node_new(an->arena, NK_UnresolvedTableValuedFunction, p->start, p->stop);
        f->u.un.name = parts;
        node_set_exprs(an->arena, f, node_exprs_from(p, 1), p->nexprs - 1);
        return node_finish(f);
    }
    if (p->u.idplan.builds != NK_UnresolvedRelation) return p;
    if (parts.n == 1) {
        const CteScope *d = cte_scope_lookup(an, p->u.idplan.ctes, parts.v[0]);
        if (d) return cte_scope_make_ref(an, p, parts.v[0], d);
    }
    Node *r = node_new(an->arena, NK_UnresolvedRelation, p->start, p->stop);
    r->u.un.name = parts;
    return node_finish(r);
}

static Node *build_expr(Node *e, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || e->kind != NK_UnresolvedIdentifierExpr || !node_resolved(e->kids[0])) return e;
    NameParts parts;
    if (!identifier_name_parts(an, e->kids[0], &parts)) return e;
    if (!e->u.idexpr.is_function) {
        Node *a = node_new(an->arena, NK_UnresolvedAttribute, e->start, e->stop);
        a->u.un.name = parts;
        return node_finish(a);
    }
    if (parts.n > 3) {
        an_fail(an, error_make(an->arena, "IDENTIFIER_TOO_MANY_NAME_PARTS", e->kids[0], "identifier",
                               sql_id_parts(an->arena, parts), NULL));
        return e;
    }
    Node *f = node_new(an->arena, NK_UnresolvedFunction, e->start, e->stop);
    f->u.un.name = parts;
    f->u.un.nargs = e->nkids - 1;
    if (e->u.idexpr.distinct) f->flags |= NF_DISTINCT;
    node_set_kids(an->arena, f, node_kids_from(e, 1), e->nkids - 1);
    return node_finish(f);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an)) return p;
    if (p->kind == NK_UnresolvedIdentifierPlan) return build_plan(an, p);
    if (!p->nexprs) return p;
    return transform(an->arena, p, TX_NODE_EXPRS, KIND_MASK(NK_UnresolvedIdentifierExpr), build_expr, an);
}

static Node *apply(Analysis *an, Node *plan) {
    Node *r = transform(an->arena, plan, 0, KIND_MASK(NK_UnresolvedIdentifierPlan, NK_UnresolvedIdentifierExpr), rewrite, an);
    return an_failed(an) ? plan : r;
}

const Rule RULE_RESOLVE_IDENTIFIER_CLAUSE = {
    .name = "ResolveIdentifierClause",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.ResolveIdentifierClause",
    .kinds = {NK_UnresolvedIdentifierPlan, NK_UnresolvedIdentifierExpr},
    .nkinds = 2,
    .apply = apply,
};
