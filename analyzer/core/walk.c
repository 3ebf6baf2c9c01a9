/* The walker and the transform (walk.h). */
#include "walk.h"

#include <string.h>

/* ---- walk ---- */

static bool walk(const Node *n, unsigned flags, WalkFn fn, void *ctx) {
    WalkResult r = fn(n, ctx);
    if (r == WALK_ABORT) return false;
    if (r == WALK_PRUNE) return true;
    if (node_kind_is_plan(n->kind) && (flags & WALK_EXPRS))
        for (uint32_t i = 0; i < n->nexprs; i++)
            if (!walk(n->exprs[i], flags, fn, ctx)) return false;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (!walk(n->kids[i], flags, fn, ctx)) return false;
    if ((flags & WALK_SUBQUERIES) && node_kind_is_subquery(n->kind) && n->u.subq.plan)
        if (!walk(n->u.subq.plan, flags, fn, ctx)) return false;
    return true;
}

bool node_walk(const Node *n, unsigned flags, WalkFn fn, void *ctx) { return walk(n, flags, fn, ctx); }

/* ---- transform ---- */

typedef struct Tx {
    Arena *a;
    unsigned flags;
    KindMask interest;
    RewriteFn fn;
    void *ctx;
} Tx;

static Node *tx_node(const Tx *t, Node *n);

/* The nodes of v[0..n) rewritten by rec; NULL when none changed. Small
 * arrays on the stack (copied by node_with_*), large ones in the arena. */
typedef Node *(*TxRec)(const Tx *t, Node *n);

static Node **tx_array(const Tx *t, Node *const *v, uint32_t n, Node **stack, uint32_t nstack, TxRec rec) {
    Node **out = NULL;
    for (uint32_t i = 0; i < n; i++) {
        Node *k = rec(t, v[i]);
        if (k != v[i] && !out) {
            out = n <= nstack ? stack : arena_alloc(t->a, sizeof(Node *) * n);
            memcpy(out, v, sizeof(Node *) * i);
        }
        if (out) out[i] = k;
    }
    return out;
}

static Node *tx_kids(const Tx *t, Node *n) {
    Node *stack[8];
    Node **out = n->nkids ? tx_array(t, n->kids, n->nkids, stack, 8, tx_node) : NULL;
    return out ? node_with_kids(t->a, n, out, n->nkids) : n;
}

static Node *tx_exprs(const Tx *t, Node *n, TxRec rec) {
    Node *stack[8];
    Node **out = n->nexprs ? tx_array(t, n->exprs, n->nexprs, stack, 8, rec) : NULL;
    return out ? node_with_exprs(t->a, n, out, n->nexprs) : n;
}

static Node *tx_apply(const Tx *t, Node *n) {
    Node *r = t->fn(n, t->ctx);
    if (!r) return n; /* NULL: the rewrite failed and recorded why */
    /* Spark's copyTagsFrom: the plan node a rule puts in the place of one
       with a client plan id takes that id, unless it has one of its own */
    if (r != n && n->plan_id >= 0 && r->plan_id < 0 && node_kind_is_plan(r->kind)) {
        Node *c = node_copy(t->a, r);
        c->flags = r->flags;
        c->plan_id = n->plan_id;
        r = c;
    }
    return r;
}

/* TX_SUBQUERIES: the subquery expressions inside one plan node's
 * expressions get their plans rewritten by the outer transform. */
static Node *tx_subquery_expr(const Tx *outer, Node *e) {
    if (!kind_mask_any(e->mask, KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery,
                                          NK_LateralSubquery)))
        return e;
    Node *stack[8];
    Node **kids = e->nkids ? tx_array(outer, e->kids, e->nkids, stack, 8, tx_subquery_expr) : NULL;
    Node *n = kids ? node_with_kids(outer->a, e, kids, e->nkids) : e;
    if (!node_kind_is_subquery(n->kind) || !n->u.subq.plan) return n;
    Node *p = tx_node(outer, n->u.subq.plan);
    if (p == n->u.subq.plan) return n;
    Node *c = node_copy(outer->a, n);
    c->u.subq.plan = p;
    return node_finish(c);
}

static bool tx_skip(const Tx *t, const Node *n) {
    if (!kind_mask_any(n->mask, t->interest)) return true;
    if (!(t->flags & TX_INTO_ANALYZED) && (n->flags & NF_ANALYZED)) return true;
    return (t->flags & TX_SKIP_RESOLVED) && (n->flags & NF_RESOLVED);
}

static Node *tx_node(const Tx *t, Node *n) {
    if (tx_skip(t, n)) return n;
    if (t->flags & TX_PRE_ORDER) return tx_kids(t, tx_apply(t, n));
    n = tx_kids(t, n);
    if ((t->flags & TX_SUBQUERIES) && n->nexprs) n = tx_exprs(t, n, tx_subquery_expr);
    return tx_apply(t, n);
}

Node *transform(Arena *a, Node *root, unsigned flags, KindMask interest, RewriteFn fn, void *ctx) {
    Tx t = {a, flags & ~(unsigned)TX_NODE_EXPRS, interest, fn, ctx};
    if (flags & TX_NODE_EXPRS) return tx_exprs(&t, root, tx_node);
    return tx_node(&t, root);
}
