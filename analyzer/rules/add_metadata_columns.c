/* AddMetadataColumns — Spark's Analyzer.AddMetadataColumns: an operator that
 * references a hidden column (a USING/NATURAL join's other key, reachable by
 * qualified name only, see ResolveNaturalAndUsingJoin) gets it from below:
 * each Project on the way down whose hidden output holds it appends its whole
 * hidden output to its list. An operator whose output would change is
 * wrapped in a Project of its old output.
 *
 *   'Project [k#1, k#3]                       Project [k#1, k#3]
 *   +- Project [k#1, v#2, w#4]         =>     +- Project [k#1, v#2, w#4, k#3]
 *      (hidden: k#3)                             +- Join Inner, (k#1 = k#3)
 *      +- Join Inner, (k#1 = k#3)
 */
#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "core/walk.h"
#include "rules/lib/builders.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"

static bool has_id(AttrList l, ExprId id) {
    for (uint32_t i = 0; i < l.n; i++)
        if (l.v[i]->u.attr.id == id) return true;
    return false;
}

/* The hidden columns a node's expressions read that its children do not output. */
typedef struct Needed {
    Analysis *an;
    AttrList input, hidden;
    Node **v;
    uint32_t n, cap;
} Needed;

static WalkResult collect(const Node *e, void *ctx) {
    Needed *nd = ctx;
    if (!kind_mask_has(e->mask, NK_AttributeReference)) return WALK_PRUNE;
    if (e->kind != NK_AttributeReference) return WALK_CONTINUE;
    ExprId id = e->u.attr.id;
    if (has_id(nd->input, id) || !has_id(nd->hidden, id) || has_id((AttrList){nd->n, nd->v}, id))
        return WALK_CONTINUE;
    if (nd->n == nd->cap) {
        uint32_t cap = nd->cap ? nd->cap * 2 : 4;
        Node **v = ARENA_ARRAY(nd->an->arena, Node *, cap);
        mem_copy(v, nd->v, sizeof(Node *) * nd->n);
        nd->v = v;
        nd->cap = cap;
    }
    nd->v[nd->n++] = (Node *)e;
    return WALK_CONTINUE;
}

static bool any_needed(AttrList l, const Needed *nd) {
    for (uint32_t i = 0; i < nd->n; i++)
        if (has_id(l, nd->v[i]->u.attr.id)) return true;
    return false;
}

/* Spark's addMetadataCol: down to every Project whose hidden output holds a
 * needed column. */
static Node *add_columns(Analysis *an, Node *p, const Needed *nd) {
    if (p->kind == NK_Project && any_needed(plan_metadata_output(an, p), nd)) {
        AttrList m = plan_metadata_output(an, p);
        Node **items = ARENA_ARRAY(an->arena, Node *, p->nexprs + m.n + 1);
        mem_copy(items, p->exprs, sizeof(Node *) * p->nexprs);
        for (uint32_t i = 0; i < m.n; i++) items[p->nexprs + i] = visible_attr(an, m.v[i]);
        Node *c = node_copy(an->arena, p); /* keeps the hidden output, as Spark copies the tag */
        Node *child = add_columns(an, p->kids[0], nd);
        node_set_kids(an->arena, c, &child, 1);
        node_set_exprs(an->arena, c, items, p->nexprs + m.n);
        return node_finish(c);
    }
    if (!p->nkids) return p;
    Node **kids = ARENA_ARRAY(an->arena, Node *, p->nkids);
    for (uint32_t i = 0; i < p->nkids; i++) kids[i] = add_columns(an, p->kids[i], nd);
    return node_with_kids(an->arena, p, kids, p->nkids);
}

static bool same_output(AttrList a, AttrList b) {
    if (a.n != b.n) return false;
    for (uint32_t i = 0; i < a.n; i++)
        if (a.v[i]->u.attr.id != b.v[i]->u.attr.id) return false;
    return true;
}

static Node *rewrite(Node *p, Analysis *an) {
    if (!p->nkids) return p;
    AttrList input = plan_input(an, p);
    if (!input.hidden) return p;
    Needed nd = {an, input, *input.hidden, NULL, 0, 0};
    for (uint32_t i = 0; i < p->nexprs; i++) node_walk(p->exprs[i], 0, collect, &nd);
    if (!nd.n) return p;
    Node **kids = ARENA_ARRAY(an->arena, Node *, p->nkids);
    for (uint32_t i = 0; i < p->nkids; i++) kids[i] = add_columns(an, p->kids[i], &nd);
    Node *q = node_with_kids(an->arena, p, kids, p->nkids);
    if (q == p) return p;
    AttrList before = plan_output(an, p);
    if (same_output(before, plan_output(an, q))) return q;
    return make_project(an, q, before.v, before.n);
}

/* Top-down, as Spark, but only under resolved operators: our operators
 * (`=`, `AND`, ...) resolve a rule later than Spark's, so a resolved node can
 * have a parent Spark would already have resolved in the same pass; acting
 * on the node first would wrap it in a Project Spark does not make. */
static Node *down(Analysis *an, Node *p) {
    if (an_failed(an) || !kind_mask_has(p->mask, NK_Project) || (p->flags & NF_ANALYZED) || !plan_is_resolved(p))
        return p;
    p = rewrite(p, an);
    if (!p->nkids) return p;
    Node **kids = ARENA_ARRAY(an->arena, Node *, p->nkids);
    for (uint32_t i = 0; i < p->nkids; i++) kids[i] = down(an, p->kids[i]);
    return node_with_kids(an->arena, p, kids, p->nkids);
}

static Node *apply(Analysis *an, Node *plan) { return down(an, plan); }

const Rule RULE_ADD_METADATA_COLUMNS = {
    .name = "AddMetadataColumns",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$AddMetadataColumns",
    .kinds = {NK_Project},
    .nkinds = 1,
    .apply = apply,
};
