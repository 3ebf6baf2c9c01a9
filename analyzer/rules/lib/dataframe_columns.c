/* DataFrame column references by plan id (lib/dataframe_columns.h), as
 * Spark's ColumnResolutionHelper resolves them (resolveDataFrameColumn,
 * resolveDataFrameColumnByPlanId, resolveDataFrameColumnRecursively,
 * resolveDataFrameStar). A Connect client tags every relation it sends with
 * a plan id and every df("a") with the id of df's plan:
 *
 *   df1 = t1 (plan 0), df2 = t2 (plan 1), both with a column `id`
 *   df1.join(df2, df1("id") === df2("id"))
 *
 *   'Join Inner, ('id[plan 0] = 'id[plan 1])        Join Inner, (id#1 = id#3)
 *   :- LocalRelation [id#1, v#2]      (plan 0)  =>  :- LocalRelation [id#1, v#2]
 *   +- LocalRelation [id#3, w#4]      (plan 1)      +- LocalRelation [id#3, w#4]
 *
 * where resolving by name would be AMBIGUOUS_REFERENCE. */
#include "dataframe_columns.h"

#include "builders.h"
#include "scope.h"
#include "plan_inputs.h"
#include "core/walk.h"
#include "print/printer.h"

typedef struct Hit {
    Node *e;   /* the resolved column (an attribute, or an Alias of a nested field) */
    int depth; /* how far below the operator the node with the plan id was */
} Hit;

typedef struct DfCtx {
    Analysis *an;
    const Node *col; /* the UnresolvedAttribute being resolved */
    const Node *root; /* the whole expression: only a whole-item nested field keeps its alias */
} DfCtx;

static WalkResult find_df_column(const Node *n, void *ctx) {
    bool *found = ctx;
    if (!kind_mask_any(n->mask, KIND_MASK(NK_UnresolvedAttribute, NK_UnresolvedStar))) return WALK_PRUNE;
    if ((n->kind == NK_UnresolvedAttribute || n->kind == NK_UnresolvedStar) && n->plan_id >= 0) {
        *found = true;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

bool has_dataframe_columns(const Node *e) {
    bool found = false;
    node_walk(e, 0, find_df_column, &found);
    return found;
}

/* p's output and metadata output (what a column of p may reference). */
static AttrList reachable(Analysis *an, const Node *p) {
    AttrList out = plan_output(an, p), meta = plan_metadata_output(an, p);
    if (!meta.n) return out;
    Node **v = ARENA_ARRAY(an->arena, Node *, out.n + meta.n);
    if (out.n) mem_copy(v, out.v, sizeof(Node *) * out.n);
    mem_copy(v + out.n, meta.v, sizeof(Node *) * meta.n);
    return (AttrList){out.n + meta.n, v, NULL, NULL};
}

static const char *col_sql(Analysis *an, const Node *col) { return expr_sql_quoted(an->arena, col); }

static bool ambiguous(Analysis *an, const Node *col) {
    an_fail(an, error_make(an->arena, "AMBIGUOUS_COLUMN_REFERENCE", col, "name", col_sql(an, col), NULL));
    return false;
}

static bool same_column(const Node *a, const Node *b) {
    return a->kind == NK_AttributeReference && b->kind == NK_AttributeReference && a->u.attr.id == b->u.attr.id;
}

static bool column_recursively(DfCtx *c, const Node *p, int depth, Hit *out, bool *matched);

/* resolveDataFrameColumnByPlanId: the nearest hit among the plans; two
 * different columns at the same (nearest) depth are ambiguous. */
static bool column_by_plan_id(DfCtx *c, Node *const *q, uint32_t nq, int depth, Hit *out, bool *matched) {
    Hit best = {NULL, 0};
    bool tie = false;
    for (uint32_t i = 0; i < nq; i++) {
        Hit h = {NULL, 0};
        if (!column_recursively(c, q[i], depth, &h, matched)) return false;
        if (!h.e) continue;
        if (!best.e || h.depth < best.depth) {
            best = h;
            tie = false;
        } else if (h.depth == best.depth && !same_column(h.e, best.e)) {
            tie = true;
        }
    }
    if (tie) return ambiguous(c->an, c->col);
    *out = best;
    return true;
}

/* resolveDataFrameColumnRecursively */
static bool column_recursively(DfCtx *c, const Node *p, int depth, Hit *out, bool *matched) {
    Analysis *an = c->an;
    Hit h = {NULL, 0};
    if (p->plan_id == c->col->plan_id) {
        *matched = true;
        /* p.resolve(nameParts): a failure (missing, ambiguous) is no hit */
        AttrList attrs = plan_output(an, p);
        AttrList meta = plan_metadata_output(an, p);
        if (meta.n) attrs.hidden = &meta;
        Node *found = NULL;
        ErrorInfo *before = an->error;
        if (resolve_name(an, c->col, c->col->u.un.name, attrs, &found) == RS_FOUND) h = (Hit){found, depth};
        an->error = before;
    } else {
        /* a Union's children count as one: its first child */
        uint32_t nk = p->kind == NK_Union && p->nkids ? 1 : p->nkids;
        if (!column_by_plan_id(c, p->kids, nk, depth + 1, &h, matched)) return false;
    }
    /* a self join's other copy: the column must still be in this node's output */
    if (h.e && !expr_refs_within(h.e, reachable(an, p))) h.e = NULL;
    *out = h;
    return true;
}

typedef struct Walk {
    DfCtx c;
    Node *const *plans;
    uint32_t n;
} Walk;

static Node *resolve_one(Node *e, void *ctx) {
    Walk *w = ctx;
    Analysis *an = w->c.an;
    if (an_failed(an) || e->kind != NK_UnresolvedAttribute || e->plan_id < 0) return e;
    w->c.col = e;
    Hit h = {NULL, 0};
    bool matched = false;
    if (!column_by_plan_id(&w->c, w->plans, w->n, 0, &h, &matched)) return e;
    if (!matched) {
        /* df1.select(df2("a")): df2's plan is not below this operator */
        an_fail(an, error_make(an->arena, "CANNOT_RESOLVE_DATAFRAME_COLUMN", e, "name", col_sql(an, e), NULL));
        return e;
    }
    if (!h.e) return e; /* left to name resolution */
    Node *found = h.e;
    if (found->kind == NK_Alias && e != w->c.root && found->nkids == 1 && found->kids[0]->kind == NK_GetStructField)
        found = found->kids[0]; /* inside an expression a nested field is not named (as by name) */
    found = visible_attr(an, found);
    if (found->kind == NK_AttributeReference && (found->start != e->start || found->stop != e->stop)) {
        Node *p = node_copy(an->arena, found);
        p->start = e->start;
        p->stop = e->stop;
        found = node_finish(p);
    }
    return found;
}

Node *resolve_dataframe_columns(Analysis *an, Node *e, Node *const *plans, uint32_t n) {
    if (an_failed(an) || !has_dataframe_columns(e)) return e;
    Walk w = {{an, NULL, e}, plans, n};
    Node *r = transform(an->arena, e, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedAttribute), resolve_one, &w);
    return r ? r : e;
}

/* ---- df["*"] ---- */

typedef struct StarHit {
    bool found;
    AttrList attrs;
} StarHit;

static bool star_recursively(Analysis *an, const Node *star, const Node *p, StarHit *out, bool *matched);

static bool star_by_plan_id(Analysis *an, const Node *star, Node *const *q, uint32_t nq, StarHit *out,
                            bool *matched) {
    StarHit best = {false, {0, NULL, NULL, NULL}};
    for (uint32_t i = 0; i < nq; i++) {
        StarHit h = {false, {0, NULL, NULL, NULL}};
        if (!star_recursively(an, star, q[i], &h, matched)) return false;
        if (!h.found) continue;
        if (best.found) return ambiguous(an, star);
        best = h;
    }
    *out = best;
    return true;
}

static bool star_recursively(Analysis *an, const Node *star, const Node *p, StarHit *out, bool *matched) {
    StarHit h = {false, {0, NULL, NULL, NULL}};
    if (p->plan_id == star->plan_id) {
        *matched = true;
        h.found = true;
        h.attrs = plan_output(an, p);
    } else if (!star_by_plan_id(an, star, p->kids, p->nkids, &h, matched)) {
        return false;
    }
    if (h.found) {
        AttrList in = reachable(an, p);
        for (uint32_t i = 0; i < h.attrs.n && h.found; i++) h.found = expr_refs_within(h.attrs.v[i], in);
    }
    *out = h;
    return true;
}

bool expand_dataframe_star(Analysis *an, const Node *star, Node *const *plans, uint32_t n, AttrList *out) {
    StarHit h = {false, {0, NULL, NULL, NULL}};
    bool matched = false;
    if (!star_by_plan_id(an, star, plans, n, &h, &matched)) return false;
    if (!h.found) {
        an_fail(an, error_make(an->arena, "CANNOT_RESOLVE_DATAFRAME_COLUMN", star, "name", col_sql(an, star), NULL));
        return false;
    }
    AttrList r = {0, ARENA_ARRAY(an->arena, Node *, h.attrs.n + 1), NULL, NULL};
    for (uint32_t i = 0; i < h.attrs.n; i++)
        if (!h.attrs.v[i]->u.attr.metadata_col) r.v[r.n++] = h.attrs.v[i];
    *out = r;
    return true;
}
