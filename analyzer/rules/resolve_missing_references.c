/* ResolveMissingReferences — Spark's Analyzer.ResolveMissingReferences:
 * ORDER BY (and a Filter above a Project) may use columns of the FROM clause
 * that the SELECT list does not output. They are added to the Project below
 * and a Project on top restores the original output.
 *
 *   'Sort ['b ASC NULLS FIRST], true         Project [a#1]
 *   +- Project [a#1]                   =>    +- Sort [b#2 ASC NULLS FIRST], true
 *      +- Relation t[a#1,b#2]                   +- Project [a#1, b#2]
 *                                                  +- Relation t[a#1,b#2]
 */
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "rules/lib/builders.h"
#include "rules/lib/column_refs.h"
#include "rules/lib/dataframe_columns.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/variables.h"
#include "core/walk.h"

typedef struct Missing {
    Analysis *an;
    AttrList below;     /* attributes available below the Project */
    AttrList have;      /* the Project's output */
    Node **added;
    uint32_t nadded, cap;
} Missing;

static WalkResult find_missing(const Node *n, void *ctx) {
    Missing *m = ctx;
    if (!kind_mask_has(n->mask, NK_AttributeReference)) return WALK_PRUNE;
    if (n->kind == NK_OuterReference) return WALK_PRUNE;
    if (n->kind != NK_AttributeReference) return WALK_CONTINUE;
    for (uint32_t i = 0; i < m->have.n; i++)
        if (m->have.v[i]->u.attr.id == n->u.attr.id) return WALK_CONTINUE;
    for (uint32_t i = 0; i < m->nadded; i++)
        if (m->added[i]->u.attr.id == n->u.attr.id) return WALK_CONTINUE;
    for (uint32_t i = 0; i < m->below.n; i++)
        if (m->below.v[i]->u.attr.id == n->u.attr.id) {
            if (m->nadded == m->cap) {
                uint32_t cap = m->cap * 2 + 4;
                Node **a = ARENA_ARRAY(m->an->arena, Node *, cap);
                if (m->nadded) mem_copy(a, m->added, sizeof(Node *) * m->nadded);
                m->added = a;
                m->cap = cap;
            }
            m->added[m->nadded++] = m->below.v[i];
            break;
        }
    return WALK_CONTINUE;
}

/* SortOrder('all') */
static bool is_all_name(const Node *o) {
    if (o->kind != NK_SortOrder || o->nkids != 1) return false;
    const Node *g = o->kids[0];
    return g->kind == NK_UnresolvedAttribute && g->u.un.name.n == 1 && strcasecmp(g->u.un.name.v[0], "all") == 0;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || (p->kind != NK_Sort && p->kind != NK_Filter)) return p;
    Node *proj = p->kids[0];
    if (proj->kind != NK_Project || !plan_is_resolved(proj)) return p;
    if (!kind_mask_any(p->mask, KIND_MASK(NK_UnresolvedAttribute)) && node_resolved(p)) {
        /* resolved already: nothing is missing unless an attribute comes from below */
        AttrList have = plan_output(an, proj);
        bool all = true;
        for (uint32_t i = 0; i < p->nexprs && all; i++) all = expr_refs_within(p->exprs[i], have);
        if (all) return p;
    }
    AttrList below = plan_output(an, proj->kids[0]);
    Node **exprs = ARENA_ARRAY(an->arena, Node *, p->nexprs + 1);
    bool resolved = true;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        exprs[i] = p->exprs[i];
        /* df("c") against the plan below the projection (Spark's
           resolveExprsAndAddMissingAttrs on the Project's child) */
        exprs[i] = resolve_dataframe_columns(an, exprs[i], &proj->kids[0], 1);
        if (kind_mask_has(exprs[i]->mask, NK_UnresolvedAttribute))
            exprs[i] = resolve_expr_refs(an, exprs[i], below, NULL, 0);
        if (!node_resolved(exprs[i])) resolved = false;
    }
    if (an_failed(an)) return p;
    /* ORDER BY ALL wins over an outer column named `all` (ResolveOrderByAll) */
    if (p->kind == NK_Sort && p->nexprs == 1 && is_all_name(p->exprs[0]) && exprs[0]->nkids &&
        exprs[0]->kids[0]->kind != NK_AttributeReference)
        return p;
    if (!resolved) return node_with_exprs(an->arena, p, exprs, p->nexprs);
    Missing m = {an, below, plan_output(an, proj), NULL, 0, 0};
    for (uint32_t i = 0; i < p->nexprs; i++) node_walk(exprs[i], 0, find_missing, &m);
    if (!m.nadded) return node_with_exprs(an->arena, p, exprs, p->nexprs);
    /* Spark refuses to add columns below a DISTINCT or an aggregation */
    Node **items = ARENA_ARRAY(an->arena, Node *, proj->nexprs + m.nadded);
    mem_copy(items, proj->exprs, sizeof(Node *) * proj->nexprs);
    mem_copy(items + proj->nexprs, m.added, sizeof(Node *) * m.nadded);
    Node *wider = node_with_exprs(an->arena, proj, items, proj->nexprs + m.nadded);
    Node *op = node_copy(an->arena, p);
    node_set_exprs(an->arena, op, exprs, p->nexprs);
    node_set_kids(an->arena, op, &wider, 1);
    op = node_finish(op);
    AttrList orig = plan_output(an, proj);
    return make_project(an, op, orig.v, orig.n);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_Sort, NK_Filter), rewrite, an);
}

const Rule RULE_RESOLVE_MISSING_REFERENCES = {
    .name = "ResolveMissingReferences",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveMissingReferences",
    .kinds = {NK_Sort, NK_Filter},
    .nkinds = 2,
    .apply = apply,
};
