/* What a plan node reads and whether its inputs are ready (lib/plan_inputs.h). */
#include "plan_inputs.h"
#include "core/output.h"
#include "core/walk.h"

bool children_resolved(const Node *plan) {
    for (uint32_t i = 0; i < plan->nkids; i++)
        if (!plan_is_resolved(plan->kids[i])) return false;
    return true;
}

/* The children's metadata output (Spark's resolveChildren falls back to it). */
static const AttrList *children_hidden(Analysis *an, const Node *plan) {
    AttrList l = {0, NULL};
    for (uint32_t i = 0; i < plan->nkids; i++) {
        AttrList m = plan_metadata_output(an, plan->kids[i]);
        if (!m.n) continue;
        if (!l.n) {
            l = m;
            continue;
        }
        Node **v = ARENA_ARRAY(an->arena, Node *, l.n + m.n);
        mem_copy(v, l.v, sizeof(Node *) * l.n);
        mem_copy(v + l.n, m.v, sizeof(Node *) * m.n);
        l = (AttrList){l.n + m.n, v};
    }
    if (!l.n) return NULL;
    AttrList *h = ARENA_NEW(an->arena, AttrList);
    *h = l;
    h->index = NULL;
    h->hidden = NULL;
    return h;
}

AttrList plan_input(Analysis *an, const Node *plan) {
    if (plan->nkids == 0) return (AttrList){0, NULL};
    const AttrList *hidden = children_hidden(an, plan);
    if (plan->nkids == 1) {
        AttrList l = plan_output(an, plan->kids[0]);
        l.hidden = hidden;
        return l;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < plan->nkids; i++) n += plan_output(an, plan->kids[i]).n;
    AttrList l = {0, ARENA_ARRAY(an->arena, Node *, n + 1)};
    for (uint32_t i = 0; i < plan->nkids; i++) {
        AttrList c = plan_output(an, plan->kids[i]);
        if (c.n) mem_copy(l.v + l.n, c.v, sizeof(Node *) * c.n);
        l.n += c.n;
    }
    l.hidden = hidden;
    return l;
}

typedef struct Within {
    AttrList attrs;
    bool ok;
} Within;

static WalkResult check_within(const Node *n, void *ctx) {
    Within *w = ctx;
    if (!kind_mask_has(n->mask, NK_AttributeReference)) return WALK_PRUNE;
    if (n->kind == NK_OuterReference || n->kind == NK_LambdaFunction) return WALK_PRUNE;
    if (n->kind == NK_AttributeReference) {
        for (uint32_t i = 0; i < w->attrs.n; i++)
            if (w->attrs.v[i]->u.attr.id == n->u.attr.id) return WALK_CONTINUE;
        w->ok = false;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

bool expr_refs_within(const Node *e, AttrList attrs) {
    Within w = {attrs, true};
    node_walk(e, 0, check_within, &w);
    return w.ok;
}
