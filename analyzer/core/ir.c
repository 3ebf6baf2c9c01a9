/* Node construction and copy-on-write helpers (the walker and the
 * transform are in walk.c). */
#include "ir.h"

#include "func_sig.h"

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

/* What node_finish asks of a kind, in one byte: one load instead of a
 * call and a chain of comparisons per node (it runs for every node built). */
enum { TR_PLAN = 1, TR_UNRESOLVED = 2, TR_SUBQUERY = 4, TR_JOIN = 8, TR_CALL = 16 };
static const unsigned char KIND_TRAITS[NK_COUNT_] = {
#define X(name, cat, flags)                                                                                   \
    [NK_##name] = (unsigned char)(((cat) == CAT_PLAN ? TR_PLAN : 0) | (((flags) & UNRESOLVED) ? TR_UNRESOLVED : 0) | \
                                  (NK_##name == NK_ScalarSubquery || NK_##name == NK_Exists ||                \
                                           NK_##name == NK_ListQuery || NK_##name == NK_InSubquery ||         \
                                           NK_##name == NK_LateralSubquery                                    \
                                       ? TR_SUBQUERY                                                          \
                                       : 0) |                                                                 \
                                  (NK_##name == NK_Join ? TR_JOIN : 0) | (NK_##name == NK_Call ? TR_CALL : 0)),
#include "node_kinds.def"
#undef X
};

Node *node_finish(Node *n) {
    unsigned tr = KIND_TRAITS[n->kind];
    KindMask m = kind_mask_of(n->kind);
    if (!(n->nkids | n->nexprs) && !(tr & (TR_SUBQUERY | TR_JOIN | TR_CALL))) {
        /* a leaf (attributes, literals: most nodes built): what the loops below
           would find for no inputs */
        bool leaf_resolved = !(tr & TR_UNRESOLVED) && ((tr & TR_PLAN) || n->type) && !(n->flags & NF_PENDING);
        n->mask = m;
        n->height = 1;
        n->flags = (n->flags & ~(uint32_t)(NF_RESOLVED | NF_NONDETERMINISTIC | NF_PATTERNS)) |
                   (leaf_resolved ? NF_RESOLVED : 0);
        return n;
    }
    /* AND of the children's flags: resolved only if every child is; OR of
       their masks */
    uint32_t all = NF_RESOLVED, any = 0, h = 0, below = 0; /* below: OR of every input's flags */
    for (uint32_t i = 0; i < n->nkids; i++) {
        const Node *k = n->kids[i];
        if (k->height > h) h = k->height;
        m.w[0] |= k->mask.w[0];
        m.w[1] |= k->mask.w[1];
        all &= k->flags;
        any |= k->flags;
    }
    below = any;
    for (uint32_t i = 0; i < n->nexprs; i++) {
        const Node *e = n->exprs[i];
        if (e->height > h) h = e->height;
        m.w[0] |= e->mask.w[0];
        m.w[1] |= e->mask.w[1];
        all &= e->flags;
        below |= e->flags;
    }
    if ((tr & TR_SUBQUERY) && n->u.subq.plan) {
        const Node *p = n->u.subq.plan;
        m = kind_mask_or(m, p->mask);
        if (p->height > h) h = p->height;
        all &= p->flags;
        below |= p->flags;
    }
    uint32_t patterns = below & NF_PATTERNS;
    if ((tr & TR_CALL) && n->u.call.def) {
        const FuncSig *sig = call_sig(n);
        if (sig->flags & FD_TIME_WINDOW) patterns |= NF_TIME_WINDOW_CALL;
        if (sig->kind == FK_GENERATOR) patterns |= NF_GENERATOR_CALL;
        if (sig->kind == FK_WINDOW) patterns |= NF_WINDOW_FN_CALL;
        if (sig->flags & FD_GROUPING) patterns |= NF_GROUPING_CALL;
    }
    bool resolved = !(tr & TR_UNRESOLVED) && (all & NF_RESOLVED) && ((tr & TR_PLAN) || n->type) &&
                    !(n->flags & NF_PENDING);
    /* Spark's Join.resolved: a NATURAL or USING join is never resolved
       (ResolveNaturalAndUsingJoin must rewrite it first), so nothing above
       it expands a star over its unfinished output */
    if ((tr & TR_JOIN) && (n->u.join.natural || n->u.join.nusing)) resolved = false;
    bool nondet = ((tr & TR_CALL) && (n->flags & NF_NONDETERMINISTIC)) ||
                  (!(tr & TR_PLAN) && (any & NF_NONDETERMINISTIC));
    n->mask = m;
    n->height = h < UINT32_MAX ? h + 1 : h;
    n->flags = (n->flags & ~(uint32_t)(NF_RESOLVED | NF_NONDETERMINISTIC | NF_PATTERNS)) | (resolved ? NF_RESOLVED : 0) |
               (nondet ? NF_NONDETERMINISTIC : 0) | patterns;
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
