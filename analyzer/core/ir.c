/* Node construction and copy-on-write helpers (the walker and the
 * transform are in walk.c). */
#include "ir.h"

#include <string.h>

enum { CAT_EXPR, CAT_PLAN };
enum { UNRESOLVED = 1, COMMAND = 2 };
#define EXPR CAT_EXPR
#define PLAN CAT_PLAN

static const char *const KIND_NAME[NK_COUNT_] = {
#define X(name, cat, flags) [NK_##name] = #name,
#include "node_kinds.def"
#undef X
};
static const unsigned char KIND_CAT[NK_COUNT_] = {
#define X(name, cat, flags) [NK_##name] = cat,
#include "node_kinds.def"
#undef X
};
static const unsigned char KIND_FLAGS[NK_COUNT_] = {
#define X(name, cat, flags) [NK_##name] = flags,
#include "node_kinds.def"
#undef X
};

const KindMask KIND_MASK_ALL = {{~(uint64_t)0, ~(uint64_t)0}};


const char *node_kind_name(NodeKind k) { return (unsigned)k < NK_COUNT_ ? KIND_NAME[k] : "?"; }
bool node_kind_is_plan(NodeKind k) { return KIND_CAT[k] == CAT_PLAN; }
bool node_kind_is_unresolved(NodeKind k) { return KIND_FLAGS[k] & UNRESOLVED; }
bool node_kind_is_command(NodeKind k) { return KIND_FLAGS[k] & COMMAND; }

Node *node_new(Arena *a, NodeKind k, int32_t start, int32_t stop) {
    Node *n = ARENA_NEW(a, Node);
    n->kind = k;
    n->start = start;
    n->stop = stop;
    n->plan_id = -1;
    return n;
}

Node *node_copy(Arena *a, const Node *n) {
    Node *c = arena_alloc(a, sizeof(Node));
    memcpy(c, n, sizeof(Node));
    c->out = NULL;
    c->flags &= ~(uint32_t)(NF_ANALYZED | NF_SP_SEALED); /* a copy is about to differ */
    return c;
}

void node_set_kids(Arena *a, Node *n, Node *const *kids, uint32_t nkids) {
    n->nkids = nkids;
    if (!nkids) {
        n->kids = NULL;
        return;
    }
    n->kids = arena_alloc(a, sizeof(Node *) * nkids);
    memcpy(n->kids, kids, sizeof(Node *) * nkids);
}

void node_set_exprs(Arena *a, Node *n, Node *const *exprs, uint32_t nexprs) {
    n->nexprs = nexprs;
    if (!nexprs) {
        n->exprs = NULL;
        return;
    }
    n->exprs = arena_alloc(a, sizeof(Node *) * nexprs);
    memcpy(n->exprs, exprs, sizeof(Node *) * nexprs);
}

bool node_kind_is_subquery(NodeKind k) {
    return k == NK_ScalarSubquery || k == NK_Exists || k == NK_ListQuery || k == NK_InSubquery ||
           k == NK_LateralSubquery;
}

/* node_kind_is_subquery as a table: node_finish asks it of every node */
static const unsigned char KIND_IS_SUBQUERY[NK_COUNT_] = {
    [NK_ScalarSubquery] = 1, [NK_Exists] = 1, [NK_ListQuery] = 1, [NK_InSubquery] = 1, [NK_LateralSubquery] = 1,
};

Node *node_finish(Node *n) {
    NodeKind kind = n->kind;
    /* kind_mask_of in two registers (its array form goes through memory) */
    unsigned bit = kind_mask_bit(kind);
    uint64_t one = (uint64_t)1 << (bit & 63);
    uint64_t m0 = bit < 64 ? one : 0, m1 = bit < 64 ? 0 : one;
    bool is_plan = KIND_CAT[kind] == CAT_PLAN;
    /* AND of the children's flags: resolved only if every child is; OR of
       their masks */
    uint32_t all = NF_RESOLVED, any = 0, h = 0;
    Node *const *kids = n->kids;
    for (uint32_t i = 0, nk = n->nkids; i < nk; i++) {
        const Node *k = kids[i];
        if (k->height > h) h = k->height;
        m0 |= k->mask.w[0];
        m1 |= k->mask.w[1];
        all &= k->flags;
        any |= k->flags;
    }
    Node *const *exprs = n->exprs;
    for (uint32_t i = 0, ne = n->nexprs; i < ne; i++) {
        const Node *e = exprs[i];
        if (e->height > h) h = e->height;
        m0 |= e->mask.w[0];
        m1 |= e->mask.w[1];
        all &= e->flags;
    }
    uint32_t flags = n->flags;
    bool resolved = !(KIND_FLAGS[kind] & UNRESOLVED) && (all & NF_RESOLVED) && !(flags & NF_PENDING) &&
                    (is_plan || n->type);
    bool nondet = ((flags & NF_NONDETERMINISTIC) && kind == NK_Call) || (!is_plan && (any & NF_NONDETERMINISTIC));
    if (KIND_IS_SUBQUERY[kind] && n->u.subq.plan) {
        const Node *plan = n->u.subq.plan;
        m0 |= plan->mask.w[0];
        m1 |= plan->mask.w[1];
        if (plan->height > h) h = plan->height;
        resolved = resolved && (plan->flags & NF_RESOLVED);
    }
    /* Spark's Join.resolved: a NATURAL or USING join is never resolved
       (ResolveNaturalAndUsingJoin must rewrite it first), so nothing above
       it expands a star over its unfinished output */
    if (kind == NK_Join && (n->u.join.natural || n->u.join.nusing)) resolved = false;
    n->mask.w[0] = m0;
    n->mask.w[1] = m1;
    n->height = h < UINT32_MAX ? h + 1 : h;
    n->flags = (flags & ~(uint32_t)(NF_RESOLVED | NF_NONDETERMINISTIC)) | (resolved ? NF_RESOLVED : 0) |
               (nondet ? NF_NONDETERMINISTIC : 0);
    return n;
}

static bool same_ptrs(Node *const *a, Node *const *b, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (a[i] != b[i]) return false;
    return true;
}

Node *node_with_kids(Arena *a, Node *n, Node *const *kids, uint32_t nkids) {
    if (nkids == n->nkids && same_ptrs(n->kids, kids, nkids)) return n;
    Node *c = node_copy(a, n);
    node_set_kids(a, c, kids, nkids);
    return node_finish(c);
}

Node *node_with_exprs(Arena *a, Node *n, Node *const *exprs, uint32_t nexprs) {
    if (nexprs == n->nexprs && same_ptrs(n->exprs, exprs, nexprs)) return n;
    Node *c = node_copy(a, n);
    node_set_exprs(a, c, exprs, nexprs);
    return node_finish(c);
}

Node *node_with_kid(Arena *a, Node *n, uint32_t i, Node *kid) {
    if (n->kids[i] == kid) return n;
    Node *c = node_copy(a, n);
    node_set_kids(a, c, n->kids, n->nkids);
    c->kids[i] = kid;
    return node_finish(c);
}

NameParts name_parts(Arena *a, uint32_t n, const char *const *parts) {
    NameParts np = {n, NULL};
    if (n) {
        np.v = arena_alloc(a, sizeof(char *) * n);
        memcpy(np.v, parts, sizeof(char *) * n);
    }
    return np;
}

NameParts name_parts1(Arena *a, const char *part) { return name_parts(a, 1, &part); }
