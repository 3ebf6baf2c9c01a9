/* ValidatePipeExpressions — Spark's ValidateAndStripPipeExpressions: the
 * expressions of a pipe SELECT or EXTEND may not contain an aggregate
 * function (outside window functions), each aggregate expression of a pipe
 * AGGREGATE must contain one. Spark marks them with PipeExpression wrappers;
 * here the Project and Aggregate the pipe operators build carry the clause.
 *
 *   Project(|> SELECT) [sum(x#1) AS s#2]   =>   error PIPE_OPERATOR_CONTAINS_AGGREGATE_FUNCTION
 *   +- Relation t[x#1]                             (clause SELECT, expr sum(x#1))
 */
#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "core/walk.h"
#include "print/printer.h"
#include "rules/lib/plan_inputs.h"

typedef struct FirstAgg {
    const Node *found;
} FirstAgg;

/* Spark's findFirstAggregate: not inside window expressions */
static WalkResult first_agg(const Node *n, void *ctx) {
    FirstAgg *f = ctx;
    if (n->kind == NK_WindowExpression) return WALK_PRUNE;
    if (n->kind == NK_AggregateExpression) {
        f->found = n->nkids ? n->kids[0] : n;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

static const Node *find_first_agg(const Node *e) {
    FirstAgg f = {NULL};
    node_walk(e, 0, first_agg, &f);
    return f.found;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an)) return p;
    if (p->kind == NK_Project && p->u.project.pipe_clause) {
        for (uint32_t i = 0; i < p->nexprs; i++) {
            if (!node_resolved(p->exprs[i])) continue;
            const Node *agg = find_first_agg(p->exprs[i]);
            if (agg)
                return an_fail(an, error_make(an->arena, "PIPE_OPERATOR_CONTAINS_AGGREGATE_FUNCTION", agg, "expr",
                                              expr_to_string(an->arena, agg), "clause", p->u.project.pipe_clause, NULL));
        }
    }
    if (p->kind == NK_Aggregate && p->u.aggregate.pipe) {
        uint32_t ng = p->u.aggregate.ngroup;
        for (uint32_t i = 2 * ng; i < p->nexprs; i++) {
            Node *e = p->exprs[i];
            if (!node_resolved(e)) continue;
            if (!expr_has_kind(e, KIND_MASK(NK_AggregateExpression))) {
                const Node *c = e->kind == NK_Alias && e->nkids ? e->kids[0] : e;
                return an_fail(an, error_make(an->arena,
                                              "PIPE_OPERATOR_AGGREGATE_EXPRESSION_CONTAINS_NO_AGGREGATE_FUNCTION", c,
                                              "expr", expr_to_string(an->arena, c), NULL));
            }
        }
    }
    return p;
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_AggregateExpression, NK_Aggregate), rewrite, an);
}

const Rule RULE_VALIDATE_PIPE_EXPRESSIONS = {
    .name = "ValidatePipeExpressions",
    .spark_rule = "org.apache.spark.sql.catalyst.expressions.ValidateAndStripPipeExpressions",
    .kinds = {NK_Project, NK_Aggregate},
    .nkinds = 2,
    .apply = apply,
};
