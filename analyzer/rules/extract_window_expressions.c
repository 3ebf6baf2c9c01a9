/* ExtractWindowExpressions — Spark's Analyzer.ExtractWindowExpressions: a
 * resolved Project or Aggregate whose list holds window expressions becomes
 *   Project [the original output]
 *   +- Project [window output ++ the list with windows replaced by attributes]
 *      +- Window [...] per distinct (PARTITION BY, ORDER BY), in first-use order
 *         +- Project/Aggregate [regular items ++ what the windows need (_w0, ...)]
 * Expressions the windows need (function arguments, partition and order
 * expressions, aggregates inside window specs) are computed below the
 * windows; non-attribute ones get internal names _w0, _w1, ...; window
 * expressions without an alias of their own are named _we0, ...
 * A HAVING over such an Aggregate becomes a Filter between the Aggregate and
 * the windows; ORDER BY columns missing above the windows are added below
 * them (Spark's ResolveMissingReferences through the new operators).
 * Window functions in WHERE or HAVING are _LEGACY_ERROR_TEMP_1034, in ORDER BY
 * UNSUPPORTED_EXPR_FOR_OPERATOR.
 *
 *   Project [a#1, sum(b#2) windowspecdefinition(a#1, ...) AS s#3]
 *   +- Relation t[a#1,b#2]
 *     =>
 *   Project [a#1, s#3]
 *   +- Project [a#1, b#2, s#3, s#3]
 *      +- Window [sum(b#2) windowspecdefinition(a#1, ...) AS s#3], [a#1]
 *         +- Project [a#1, b#2]
 *            +- Relation t[a#1,b#2]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/func_sig.h"
#include "core/output.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/column_refs.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/semantic_equal.h"
#include "rules/lib/variables.h"
#include "core/walk.h"

/* memcpy that accepts an empty (possibly NULL) source */
#define MEMCPY(d, s, n) \
    do { \
        if ((n) != 0) mem_copy((d), (s), (n)); \
    } while (0)

typedef struct NodeVec {
    Node **v;
    uint32_t n, cap;
} NodeVec;

static void vec_push(Arena *a, NodeVec *x, Node *e) {
    if (x->n == x->cap) {
        uint32_t cap = x->cap * 2 + 8;
        Node **v = ARENA_ARRAY(a, Node *, cap);
        if (x->n) MEMCPY(v, x->v, sizeof(Node *) * x->n);
        x->v = v;
        x->cap = cap;
    }
    x->v[x->n++] = e;
}

static bool has_generator(const Node *e) {
    if (e->kind == NK_Call && e->u.call.def && func_kind(e->u.call.def) == FK_GENERATOR) return true;
    if (e->kind == NK_ScalarSubquery || e->kind == NK_Exists || e->kind == NK_InSubquery || e->kind == NK_ListQuery)
        return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (has_generator(e->kids[i])) return true;
    return false;
}

static bool has_window(const Node *e) { return expr_has_kind(e, KIND_MASK(NK_WindowExpression)); }

typedef struct Extract {
    Analysis *an;
    NodeVec regular;      /* regular items, then the extracted ones */
    uint32_t nregular;    /* how many of them are the original regular items */
    NodeVec keys;         /* extracted expressions (for semantic lookup), parallel to regular[nregular..] */
} Extract;

static bool produced(const Extract *x, ExprId id) {
    for (uint32_t i = 0; i < x->regular.n; i++)
        if (named_expr_id(x->regular.v[i]) == id) return true;
    return false;
}

typedef struct Refs {
    const Extract *x;
    bool missing;
} Refs;

static WalkResult find_missing(const Node *n, void *ctx) {
    Refs *r = ctx;
    if (n->kind == NK_OuterReference) return WALK_PRUNE;
    if (n->kind == NK_AttributeReference && !produced(r->x, n->u.attr.id)) {
        r->missing = true;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

static Node *get_or_extract(Extract *x, Node *key, Node *value) {
    Analysis *an = x->an;
    for (uint32_t i = 0; i < x->keys.n; i++)
        if (x->keys.v[i] && expr_semantic_equal(x->keys.v[i], key)) return to_attribute(an, x->regular.v[x->nregular + i]);
    Node *alias = make_alias(an, value, arena_printf(an->arena, "_w%u", x->keys.n), false);
    vec_push(an->arena, &x->keys, key);
    vec_push(an->arena, &x->regular, alias);
    return to_attribute(an, alias);
}

static bool is_foldable(const Node *e) {
    switch (e->kind) {
    case NK_Literal: return true;
    case NK_Cast: return e->nkids == 1 && is_foldable(e->kids[0]);
    case NK_Call:
        if (!e->u.call.def || func_kind(e->u.call.def) != FK_SCALAR || (e->flags & NF_NONDETERMINISTIC) || !e->nkids)
            return false;
        for (uint32_t i = 0; i < e->nkids; i++)
            if (!is_foldable(e->kids[i])) return false;
        return true;
    default: return false;
    }
}

/* Spark's extractExpr: what a window needs from below. */
static Node *extract_expr(Extract *x, Node *e) {
    Analysis *an = x->an;
    if (e->kind == NK_AttributeReference || e->kind == NK_Alias || e->kind == NK_OuterReference) {
        if (e->kind == NK_OuterReference) return e;
        Refs r = {x, false};
        if (e->kind == NK_AttributeReference) r.missing = !produced(x, e->u.attr.id);
        else node_walk(e, 0, find_missing, &r);
        if (r.missing) {
            bool known = false;
            for (uint32_t i = 0; i < x->keys.n && !known; i++)
                if (x->keys.v[i] && expr_semantic_equal(x->keys.v[i], e)) known = true;
            if (!known) {
                vec_push(an->arena, &x->keys, e);
                vec_push(an->arena, &x->regular, e);
            }
        }
        return e->kind == NK_Alias ? to_attribute(an, e) : e;
    }
    if (is_foldable(e)) return e;
    if (e->kind == NK_NamedArgument && e->nkids == 1) return node_with_kid(an->arena, e, 0, get_or_extract(x, e, e->kids[0]));
    return get_or_extract(x, e, e);
}

static Node *xform(Extract *x, Node *e);

static Node *xform_kids(Extract *x, Node *e) {
    if (!e->nkids) return e;
    Node **k = ARENA_ARRAY(x->an->arena, Node *, e->nkids);
    for (uint32_t i = 0; i < e->nkids; i++) k[i] = xform(x, e->kids[i]);
    return node_with_kids(x->an->arena, e, k, e->nkids);
}

static Node *map_kids(Extract *x, Node *e, uint32_t from, uint32_t to) {
    if (from >= to) return e;
    Node **k = ARENA_ARRAY(x->an->arena, Node *, e->nkids);
    MEMCPY(k, e->kids, sizeof(Node *) * e->nkids);
    for (uint32_t i = from; i < to && i < e->nkids; i++) {
        /* a WITHIN GROUP ordering stays in the function; its child comes from below */
        if (k[i]->kind == NK_SortOrder && k[i]->nkids)
            k[i] = node_with_kid(x->an->arena, k[i], 0, extract_expr(x, k[i]->kids[0]));
        else
            k[i] = extract_expr(x, e->kids[i]);
    }
    return node_with_kids(x->an->arena, e, k, e->nkids);
}

/* The top-down transform of Spark's extract over an expression with windows. */
static Node *xform(Extract *x, Node *e) {
    Analysis *an = x->an;
    switch (e->kind) {
    case NK_Call:
        if (e->u.call.def && func_kind(e->u.call.def) == FK_WINDOW) return xform_kids(x, map_kids(x, e, 0, e->nkids));
        break;
    case NK_WindowSpecDefinition: {
        uint32_t np = e->u.wspec.npartition, no = e->u.wspec.norder;
        Node **k = ARENA_ARRAY(an->arena, Node *, e->nkids);
        MEMCPY(k, e->kids, sizeof(Node *) * e->nkids);
        for (uint32_t i = 0; i < np && i < e->nkids; i++) k[i] = extract_expr(x, e->kids[i]);
        for (uint32_t i = np; i < np + no && i < e->nkids; i++)
            if (k[i]->kind == NK_SortOrder && k[i]->nkids) k[i] = node_with_kid(an->arena, k[i], 0, extract_expr(x, k[i]->kids[0]));
        return xform_kids(x, node_with_kids(an->arena, e, k, e->nkids));
    }
    case NK_WindowExpression:
        if (e->nkids == 2 && e->kids[0]->kind == NK_AggregateExpression) {
            Node *agg = e->kids[0];
            Node *fn = agg->nkids ? agg->kids[0] : NULL;
            if (!fn) break;
            /* the windowed aggregate stays; its function's arguments come from below */
            Node *nfn = xform_kids(x, map_kids(x, fn, 0, fn->nkids));
            Node *nagg = node_with_kid(an->arena, agg, 0, nfn);
            Node *nspec = xform(x, e->kids[1]);
            Node *k[2] = {nagg, nspec};
            return node_with_kids(an->arena, e, k, 2);
        }
        break;
    case NK_AggregateExpression: return get_or_extract(x, e, e);
    case NK_AttributeReference: return extract_expr(x, e);
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_ListQuery:
    case NK_InSubquery:
    case NK_LateralSubquery:
    case NK_OuterReference: return e;
    default: break;
    }
    return xform_kids(x, e);
}

typedef struct Windows {
    Analysis *an;
    NodeVec named; /* Alias(WindowExpression) in extraction order */
} Windows;

static Node *name_windows(Windows *w, Node *e) {
    Analysis *an = w->an;
    if (e->kind == NK_Alias && e->nkids == 1 && e->kids[0]->kind == NK_WindowExpression) {
        vec_push(an->arena, &w->named, e);
        return to_attribute(an, e);
    }
    if (e->kind == NK_WindowExpression) {
        Node *alias = make_alias(an, e, arena_printf(an->arena, "_we%u", w->named.n), false);
        vec_push(an->arena, &w->named, alias);
        return to_attribute(an, alias);
    }
    if (!e->nkids || !kind_mask_has(e->mask, NK_WindowExpression)) return e;
    Node **k = ARENA_ARRAY(an->arena, Node *, e->nkids);
    for (uint32_t i = 0; i < e->nkids; i++) k[i] = name_windows(w, e->kids[i]);
    return node_with_kids(an->arena, e, k, e->nkids);
}

static const Node *spec_of(const Node *named) {
    const Node *we = named->kids[0];
    return we->kids[1];
}

static bool same_spec(const Node *a, const Node *b) {
    uint32_t np = a->u.wspec.npartition, no = a->u.wspec.norder;
    if (np != b->u.wspec.npartition || no != b->u.wspec.norder) return false;
    for (uint32_t i = 0; i < np + no; i++)
        if (!expr_semantic_equal(a->kids[i], b->kids[i])) return false;
    return true;
}

/* Spark's addWindow. */
static Node *add_windows(Analysis *an, Node *const *with_windows, uint32_t n, Node *child) {
    Windows w = {an, {0}};
    Node **list = ARENA_ARRAY(an->arena, Node *, n + 1);
    for (uint32_t i = 0; i < n; i++) list[i] = name_windows(&w, with_windows[i]);
    /* group by spec, first use first */
    uint32_t m = w.named.n;
    bool *done = ARENA_ARRAY(an->arena, bool, m + 1);
    Node *last = child;
    for (uint32_t i = 0; i < m; i++) {
        if (done[i]) continue;
        const Node *spec = spec_of(w.named.v[i]);
        NodeVec group = {0};
        for (uint32_t j = i; j < m; j++) {
            if (!done[j] && same_spec(spec, spec_of(w.named.v[j]))) {
                done[j] = true;
                vec_push(an->arena, &group, w.named.v[j]);
            }
        }
        uint32_t np = spec->u.wspec.npartition, no = spec->u.wspec.norder;
        Node **ex = ARENA_ARRAY(an->arena, Node *, group.n + np + no + 1);
        MEMCPY(ex, group.v, sizeof(Node *) * group.n);
        for (uint32_t k = 0; k < np + no; k++) ex[group.n + k] = spec->kids[k];
        Node *win = node_new(an->arena, NK_Window, last->start, last->stop);
        win->u.window.nwindow = group.n;
        win->u.window.npartition = np;
        win->u.window.norder = no;
        node_set_exprs(an->arena, win, ex, group.n + np + no);
        node_set_kids(an->arena, win, &last, 1);
        last = node_finish(win);
    }
    AttrList out = plan_output(an, last);
    Node **proj = ARENA_ARRAY(an->arena, Node *, out.n + n + 1);
    MEMCPY(proj, out.v, sizeof(Node *) * out.n);
    MEMCPY(proj + out.n, list, sizeof(Node *) * n);
    return make_project(an, last, proj, out.n + n);
}

/* Splits list into regular and windowed items and extracts what the windows need. */
static void extract(Analysis *an, Node *const *list, uint32_t n, Extract *x, NodeVec *windowed) {
    memset(x, 0, sizeof *x);
    x->an = an;
    for (uint32_t i = 0; i < n; i++)
        if (!has_window(list[i])) vec_push(an->arena, &x->regular, list[i]);
    x->nregular = x->regular.n;
    for (uint32_t i = 0; i < n; i++)
        if (has_window(list[i])) vec_push(an->arena, windowed, xform(x, list[i]));
}

static Node *final_project(Analysis *an, Node *const *list, uint32_t n, Node *child) {
    Node **out = ARENA_ARRAY(an->arena, Node *, n + 1);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        Node *a = to_attribute(an, list[i]);
        if (a) out[m++] = a;
    }
    return make_project(an, child, out, m);
}

static bool exprs_resolved(const Node *p) {
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (!node_resolved(p->exprs[i])) return false;
    return true;
}


/* ORDER BY over an aggregation with windows may name grouping columns that
 * are not selected (TPC-DS q12, q98). Spark adds them to the Aggregate through
 * the operators ExtractWindowExpressions builds (ResolveMissingReferences);
 * here they are added to the Aggregate before the windows are extracted, and
 * a Project on top restores the output. */
static bool is_grouping_attr(const Node *agg, const Node *e) {
    for (uint32_t i = 0; i < agg->u.aggregate.ngroup; i++)
        if (expr_semantic_equal(agg->exprs[i], e)) return true;
    return false;
}

typedef struct SortMissing {
    Analysis *an;
    const Node *agg;
    AttrList out;
    NodeVec added;
    bool bad;
} SortMissing;

static WalkResult sort_missing(const Node *n, void *ctx) {
    SortMissing *m = ctx;
    if (n->kind == NK_OuterReference || n->kind == NK_AggregateExpression) {
        if (n->kind == NK_AggregateExpression) m->bad = true;
        return WALK_PRUNE;
    }
    if (n->kind != NK_AttributeReference) return WALK_CONTINUE;
    for (uint32_t i = 0; i < m->out.n; i++)
        if (m->out.v[i]->u.attr.id == n->u.attr.id) return WALK_CONTINUE;
    for (uint32_t i = 0; i < m->added.n; i++)
        if (m->added.v[i]->u.attr.id == n->u.attr.id) return WALK_CONTINUE;
    if (m->agg->kind == NK_Aggregate && !is_grouping_attr(m->agg, n)) {
        m->bad = true;
        return WALK_ABORT;
    }
    vec_push(m->an->arena, &m->added, (Node *)n);
    return WALK_CONTINUE;
}

static bool list_has_window(Node *const *v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (has_window(v[i])) return true;
    return false;
}

/* Sort over a Project or Aggregate that still holds window expressions. */
static Node *sort_over_windowed(Analysis *an, Node *sort) {
    Node *op = sort->kids[0];
    if (node_resolved(sort) || (op->kind != NK_Aggregate && op->kind != NK_Project) || !children_resolved(op) ||
        !exprs_resolved(op))
        return sort;
    uint32_t ng = op->kind == NK_Aggregate ? op->u.aggregate.ngroup : 0;
    if (!list_has_window(node_exprs_from(op, ng), op->nexprs - ng)) return sort;
    AttrList out = plan_output(an, op);
    AttrList in = plan_output(an, op->kids[0]);
    Node **exprs = ARENA_ARRAY(an->arena, Node *, sort->nexprs + 1);
    for (uint32_t i = 0; i < sort->nexprs; i++) {
        Node *e = resolve_expr_refs(an, sort->exprs[i], out, NULL, 0);
        if (!an_failed(an) && kind_mask_has(e->mask, NK_UnresolvedAttribute)) e = resolve_expr_refs(an, e, in, NULL, 0);
        if (an_failed(an) || !node_resolved(e->kind == NK_SortOrder && e->nkids ? e->kids[0] : e)) return sort;
        exprs[i] = e;
    }
    SortMissing m = {an, op, out, {0}, false};
    for (uint32_t i = 0; i < sort->nexprs && !m.bad; i++) node_walk(exprs[i], 0, sort_missing, &m);
    if (m.bad || !m.added.n) return sort;
    Node **all = ARENA_ARRAY(an->arena, Node *, op->nexprs + m.added.n);
    MEMCPY(all, op->exprs, sizeof(Node *) * op->nexprs);
    MEMCPY(all + op->nexprs, m.added.v, sizeof(Node *) * m.added.n);
    Node *nop = node_with_exprs(an->arena, op, all, op->nexprs + m.added.n);
    Node *ns = node_copy(an->arena, sort);
    node_set_exprs(an->arena, ns, exprs, sort->nexprs);
    node_set_kids(an->arena, ns, &nop, 1);
    ns = node_finish(ns);
    return make_project(an, ns, out.v, out.n);
}

static Node *windowed_aggregate(Analysis *an, Node *p, Node *having);
static bool exprs_resolved(const Node *p);

/* HAVING over an aggregation with windows: the windows go above the Filter. */
static Node *having_over_windowed(Analysis *an, Node *h) {
    Node *agg = h->kids[0];
    if (agg->kind != NK_Aggregate || !children_resolved(agg) || !exprs_resolved(agg)) return h;
    uint32_t ng = agg->u.aggregate.ngroup;
    if (!list_has_window(node_exprs_from(agg, ng), agg->nexprs - ng)) return h;
    return windowed_aggregate(an, agg, h);
}
/* An Aggregate with windows (and the HAVING above it, if any) becomes
 * Project [output] over Windows over [Filter over] Aggregate [regular items]. */
static Node *windowed_aggregate(Analysis *an, Node *p, Node *having) {
    uint32_t ng = p->u.aggregate.ngroup;
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (expr_has_kind(p->exprs[i], KIND_MASK(NK_LateralColumnAliasReference))) return having ? having : p;
    Extract x;
    NodeVec windowed = {0};
    extract(an, node_exprs_from(p, ng), p->nexprs - ng, &x, &windowed);
    Node **all = ARENA_ARRAY(an->arena, Node *, ng + x.regular.n + 1);
    MEMCPY(all, p->exprs, sizeof(Node *) * ng);
    MEMCPY(all + ng, x.regular.v, sizeof(Node *) * x.regular.n);
    Node *agg = node_new(an->arena, NK_Aggregate, p->start, p->stop);
    agg->u.aggregate.ngroup = ng;
    node_set_exprs(an->arena, agg, all, ng + x.regular.n);
    node_set_kids(an->arena, agg, p->kids, 1);
    agg = node_finish(agg);
    Node *below = agg;
    if (having) {
        /* the HAVING condition is resolved against the aggregation without windows */
        Node *r = RULE_RESOLVE_AGGREGATE_FUNCTIONS.apply(an, node_with_kid(an->arena, having, 0, agg));
        if (an_failed(an) || !r) return having;
        if (r->kind == NK_UnresolvedHaving) return node_with_exprs(an->arena, having, r->exprs, r->nexprs);
        below = r;
    }
    Node *with = add_windows(an, windowed.v, windowed.n, below);
    return final_project(an, node_exprs_from(p, ng), p->nexprs - ng, with);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an)) return p;
    switch (p->kind) {
    case NK_Sort: {
        /* ORDER BY rank() OVER (...): Spark's CheckAnalysis (only a Window hosts window expressions) */
        bool resolved = true, win = false;
        for (uint32_t i = 0; i < p->nexprs; i++) {
            if (!node_resolved(p->exprs[i])) resolved = false;
            if (has_window(p->exprs[i])) win = true;
        }
        if (win && resolved) {
            StrBuf sb;
            sb_init(&sb, an->arena, 64);
            for (uint32_t i = 0; i < p->nexprs; i++) {
                const Node *e = p->exprs[i];
                if (!has_window(e)) continue;
                if (sb.len) sb_puts(&sb, ", ");
                sb_puts(&sb, expr_sql_quoted(an->arena, e->kind == NK_SortOrder && e->nkids ? e->kids[0] : e));
            }
            return an_fail(an, error_make(an->arena, "UNSUPPORTED_EXPR_FOR_OPERATOR", p, "invalidExprSqls", sb_str(&sb),
                                          NULL));
        }
        return sort_over_windowed(an, p);
    }
    case NK_Filter:
    case NK_UnresolvedHaving:
        if (p->nexprs && has_window(p->exprs[0]))
            return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1034", p->exprs[0], "clauseName",
                                          p->kind == NK_Filter ? "WHERE" : "HAVING", NULL));
        return p->kind == NK_UnresolvedHaving && p->nkids ? having_over_windowed(an, p) : p;
    case NK_Project: {
        bool any = false;
        for (uint32_t i = 0; i < p->nexprs; i++)
            if (has_window(p->exprs[i])) any = true;
        if (!any || !children_resolved(p) || !exprs_resolved(p)) return p;
        for (uint32_t i = 0; i < p->nexprs; i++)
            if (expr_has_kind(p->exprs[i], KIND_MASK(NK_LateralColumnAliasReference)) || has_generator(p->exprs[i]))
                return p; /* lateral aliases and generators go first */
        Extract x;
        NodeVec windowed = {0};
        extract(an, p->exprs, p->nexprs, &x, &windowed);
        Node *below = make_project(an, p->kids[0], x.regular.v, x.regular.n);
        Node *with = add_windows(an, windowed.v, windowed.n, below);
        return final_project(an, p->exprs, p->nexprs, with);
    }
    case NK_Aggregate: {
        uint32_t ng = p->u.aggregate.ngroup;
        if (!list_has_window(node_exprs_from(p, ng), p->nexprs - ng) || !children_resolved(p) || !exprs_resolved(p)) return p;
        return windowed_aggregate(an, p, NULL);
    }
    default: return p;
    }
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_PRE_ORDER, KIND_MASK(NK_WindowExpression), rewrite, an);
}

const Rule RULE_EXTRACT_WINDOW_EXPRESSIONS = {
    .name = "ExtractWindowExpressions",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ExtractWindowExpressions",
    .kinds = {NK_WindowExpression},
    .nkinds = 1,
    .apply = apply,
};
