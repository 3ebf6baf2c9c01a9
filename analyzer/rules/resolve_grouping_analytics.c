/* ResolveGroupingAnalytics — Spark's Analyzer.ResolveGroupingAnalytics: an
 * Aggregate grouped by GROUPING SETS / ROLLUP / CUBE becomes an Aggregate over
 * an Expand that produces one copy of each input row per grouping set, with
 * the columns left out of the set nulled and a spark_grouping_id bitmask
 * (bit set = column not grouped, first column highest). grouping(c) and
 * grouping_id() become expressions over that id. A HAVING above it (and an
 * ORDER BY naming grouping columns that are not selected) is resolved against
 * the aggregation with plain grouping first (as Spark's
 * tryResolveHavingCondition) and then rewired to the new operators; grouping()
 * in them reads spark_grouping_id. Also: GROUP BY ordinals and select-list
 * aliases inside CUBE/ROLLUP/GROUPING SETS, the legacy grouping__id column.
 * grouping()/grouping_id() anywhere else is UNSUPPORTED_GROUPING_EXPRESSION.
 *
 *   Aggregate [rollup(a#1)], [a#1, count(1) AS c#3]
 *   +- Relation t[a#1,b#2]
 *     =>
 *   Aggregate [a#5, spark_grouping_id#6L], [a#5, count(1) AS c#3]
 *   +- Expand [[a#1, b#2, a#4, 0], [a#1, b#2, null, 1]], [a#1, b#2, a#5, spark_grouping_id#6L]
 *      +- Project [a#1, b#2, a#1 AS a#4]
 *         +- Relation t[a#1,b#2]
 */
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/column_refs.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"
#include "rules/lib/semantic_equal.h"
#include "rules/lib/variables.h"
#include "core/walk.h"

/* memcpy that accepts an empty (possibly NULL) source */
#define MEMCPY(d, s, n) \
    do { \
        if ((n) != 0) mem_copy((d), (s), (n)); \
    } while (0)

typedef struct ExprSet {
    Node **v;
    uint32_t n;
} ExprSet;

typedef struct Sets {
    ExprSet *v;
    uint32_t n;
} Sets;

static bool is_analytics(const Node *e) {
    return e->kind == NK_Rollup || e->kind == NK_Cube || e->kind == NK_GroupingSets;
}

/* Whether every expression inside the grouping element is resolved. */
static bool leaves_resolved(const Node *e) {
    if (is_analytics(e) || e->kind == NK_ExprList) {
        for (uint32_t i = 0; i < e->nkids; i++)
            if (!leaves_resolved(e->kids[i])) return false;
        return true;
    }
    return node_resolved(e);
}

static ExprSet set_concat(Arena *a, ExprSet x, ExprSet y) {
    ExprSet s = {ARENA_ARRAY(a, Node *, x.n + y.n + 1), x.n + y.n};
    if (x.n) MEMCPY(s.v, x.v, sizeof(Node *) * x.n);
    if (y.n) MEMCPY(s.v + x.n, y.v, sizeof(Node *) * y.n);
    return s;
}

/* The expressions of one grouping set: (a, b) is an ExprList; a bare a is itself. */
static ExprSet set_of(Node *const *slot) {
    const Node *l = *slot;
    if (l->kind == NK_ExprList) return (ExprSet){l->kids, l->nkids};
    return (ExprSet){(Node **)slot, 1};
}

static Sets sets_new(Arena *a, uint32_t cap) { return (Sets){ARENA_ARRAY(a, ExprSet, cap + 1), 0}; }

/* BaseGroupingSets.cubeExprs */
static Sets cube_sets(Arena *a, const ExprSet *in, uint32_t n) {
    if (n == 0) {
        Sets s = sets_new(a, 1);
        s.v[s.n++] = (ExprSet){NULL, 0};
        return s;
    }
    Sets rest = cube_sets(a, in + 1, n - 1);
    Sets s = sets_new(a, rest.n * 2);
    for (uint32_t i = 0; i < rest.n; i++) s.v[s.n++] = set_concat(a, in[0], rest.v[i]);
    for (uint32_t i = 0; i < rest.n; i++) s.v[s.n++] = rest.v[i];
    return s;
}

/* BaseGroupingSets.rollupExprs: the inits, longest first */
static Sets rollup_sets(Arena *a, const ExprSet *in, uint32_t n) {
    Sets s = sets_new(a, n + 1);
    for (uint32_t k = n + 1; k-- > 0;) {
        ExprSet acc = {NULL, 0};
        for (uint32_t i = 0; i < k; i++) acc = set_concat(a, acc, in[i]);
        s.v[s.n++] = acc;
    }
    return s;
}

static void push_distinct(Arena *a, ExprSet *s, uint32_t *cap, Node *e) {
    for (uint32_t i = 0; i < s->n; i++)
        if (expr_semantic_equal(s->v[i], e)) return;
    if (s->n == *cap) {
        uint32_t nc = *cap * 2 + 8;
        Node **v = ARENA_ARRAY(a, Node *, nc);
        if (s->n) MEMCPY(v, s->v, sizeof(Node *) * s->n);
        s->v = v;
        *cap = nc;
    }
    s->v[s->n++] = e;
}

/* The selected grouping sets of one GROUP BY element (selectedGroupByExprs). */
static Sets element_sets(Arena *a, const Node *e) {
    if (!is_analytics(e)) {
        Sets s = sets_new(a, 1);
        Node **one = ARENA_ARRAY(a, Node *, 1);
        one[0] = (Node *)e;
        s.v[s.n++] = (ExprSet){one, 1};
        return s;
    }
    uint32_t nsets = e->kind == NK_GroupingSets ? e->u.un.nargs : e->nkids;
    if (nsets > e->nkids) nsets = e->nkids;
    if (e->kind == NK_GroupingSets) {
        Sets out = sets_new(a, 8);
        uint32_t cap = 8;
        for (uint32_t i = 0; i < nsets; i++) {
            const Node *k = e->kids[i];
            Sets sub;
            if (is_analytics(k)) sub = element_sets(a, k);
            else {
                sub = sets_new(a, 1);
                sub.v[sub.n++] = set_of(&e->kids[i]);
            }
            for (uint32_t j = 0; j < sub.n; j++) {
                if (out.n == cap) {
                    ExprSet *v = ARENA_ARRAY(a, ExprSet, cap * 2);
                    MEMCPY(v, out.v, sizeof(ExprSet) * out.n);
                    out.v = v;
                    cap *= 2;
                }
                out.v[out.n++] = sub.v[j];
            }
        }
        return out;
    }
    ExprSet *in = ARENA_ARRAY(a, ExprSet, nsets + 1);
    for (uint32_t i = 0; i < nsets; i++)
        in[i] = set_of(&e->kids[i]);
    return e->kind == NK_Cube ? cube_sets(a, in, nsets) : rollup_sets(a, in, nsets);
}

/* The distinct group-by expressions of one element (groupByExprs). */
static void element_exprs(Arena *a, const Node *e, ExprSet *out, uint32_t *cap) {
    if (!is_analytics(e) && e->kind != NK_ExprList) {
        push_distinct(a, out, cap, (Node *)e);
        return;
    }
    /* GROUP BY a, b GROUPING SETS (...): the user's columns come first, so
       they keep their order (Spark 4's GroupingSets.children) */
    uint32_t nsets = e->kind == NK_GroupingSets && e->u.un.nargs <= e->nkids ? e->u.un.nargs : e->nkids;
    for (uint32_t i = nsets; i < e->nkids; i++) element_exprs(a, e->kids[i], out, cap);
    for (uint32_t i = 0; i < nsets; i++) element_exprs(a, e->kids[i], out, cap);
}


/* SubstituteUnresolvedOrdinals inside grouping analytics: GROUP BY CUBE(1, 2). */
static bool ordinal_value(const Node *e, int64_t *v) {
    if (e->kind == NK_Literal && !e->u.lit.v.is_null && e->type && e->type->id == T_INT &&
        !(e->flags & NF_IMPLICIT)) {
        *v = e->u.lit.v.u.i;
        return true;
    }
    if (e->kind == NK_Call && e->nkids == 1 && e->u.call.name && !strcmp(e->u.call.name, "-") &&
        ordinal_value(e->kids[0], v)) {
        *v = -*v;
        return true;
    }
    return false;
}

typedef struct Ordinals {
    Analysis *an;
    Node *const *items;
    uint32_t nitems;
    bool waiting;
} Ordinals;

static Node *subst_ordinal(Ordinals *o, Node *e, bool inside) {
    Analysis *an = o->an;
    int64_t v;
    if (inside && !is_analytics(e) && e->kind != NK_ExprList) {
        if (!ordinal_value(e, &v)) return e;
        if (v < 1 || (uint64_t)v > o->nitems) {
            an_fail(an, error_make(an->arena, "GROUP_BY_POS_OUT_OF_RANGE", e, "index",
                                   arena_printf(an->arena, "%lld", (long long)v), "size",
                                   arena_printf(an->arena, "%u", o->nitems), NULL));
            return e;
        }
        Node *item = o->items[v - 1];
        if (!node_resolved(item)) {
            o->waiting = true;
            return e;
        }
        Node *target = item->kind == NK_Alias ? item->kids[0] : item;
        if (expr_has_kind(target, KIND_MASK(NK_AggregateExpression))) {
            an_fail(an, error_make(an->arena, "GROUP_BY_POS_AGGREGATE", e, "index",
                                   arena_printf(an->arena, "%lld", (long long)v), "aggExpr",
                                   expr_sql(an->arena, item), NULL)); /* the item's .sql, as ordinals outside CUBE */
            return e;
        }
        return target;
    }
    if (!is_analytics(e) && e->kind != NK_ExprList) return e;
    if (!e->nkids) return e;
    Node **k = ARENA_ARRAY(an->arena, Node *, e->nkids);
    for (uint32_t i = 0; i < e->nkids; i++) k[i] = subst_ordinal(o, e->kids[i], true);
    return node_with_kids(an->arena, e, k, e->nkids);
}

static Node *analytics_ordinals(Analysis *an, Node *agg) {
    if (!an->conf->group_by_ordinal) return agg;
    uint32_t ng = agg->u.aggregate.ngroup;
    Ordinals o = {an, node_exprs_from(agg, ng), agg->nexprs - ng, false};
    Node **g = ARENA_ARRAY(an->arena, Node *, agg->nexprs);
    MEMCPY(g, agg->exprs, sizeof(Node *) * agg->nexprs);
    bool changed = false;
    for (uint32_t i = 0; i < ng; i++) {
        if (!is_analytics(g[i])) continue;
        g[i] = subst_ordinal(&o, g[i], false);
        if (g[i] != agg->exprs[i]) changed = true;
    }
    if (an_failed(an) || !changed) return agg;
    return node_with_exprs(an->arena, agg, g, agg->nexprs);
}

typedef struct Analytics {
    Sets selected;   /* selectedGroupByExprs */
    ExprSet group;   /* distinct groupByExprs */
} Analytics;

/* Spark's GroupingAnalytics extractor over the grouping list. */
static bool analytics_of(Analysis *an, const Node *agg, Analytics *out) {
    Arena *a = an->arena;
    uint32_t ng = agg->u.aggregate.ngroup;
    bool any = false;
    for (uint32_t i = 0; i < ng; i++)
        if (is_analytics(agg->exprs[i])) any = true;
    if (!any) return false;
    for (uint32_t i = 0; i < ng; i++)
        if (!leaves_resolved(agg->exprs[i])) return false;
    uint32_t cap = 8;
    out->group = (ExprSet){ARENA_ARRAY(a, Node *, cap), 0};
    /* GroupingSets' flat sets come before the user's extra GROUP BY columns */
    for (uint32_t i = 0; i < ng; i++) element_exprs(a, agg->exprs[i], &out->group, &cap);
    Sets acc = element_sets(a, agg->exprs[0]);
    for (uint32_t i = 1; i < ng; i++) {
        Sets y = element_sets(a, agg->exprs[i]);
        Sets z = sets_new(a, acc.n * y.n);
        for (uint32_t p = 0; p < acc.n; p++)
            for (uint32_t q = 0; q < y.n; q++) z.v[z.n++] = set_concat(a, acc.v[p], y.v[q]);
        acc = z;
    }
    out->selected = acc;
    return true;
}

static int index_of(const ExprSet *s, const Node *e) {
    for (uint32_t i = 0; i < s->n; i++)
        if (expr_semantic_equal(s->v[i], e)) return (int)i;
    return -1;
}

static const char *exprs_string(Analysis *an, Node *const *v, uint32_t n) {
    StrBuf sb;
    sb_init(&sb, an->arena, 64);
    for (uint32_t i = 0; i < n; i++) {
        if (i) sb_putc(&sb, ',');
        expr_print(&sb, v[i]);
    }
    return sb_str(&sb);
}

static bool is_grouping_call(const Node *e, const char *name) {
    if (e->kind != NK_Call || !e->u.call.def) return false;
    const char *n = func_name(e->u.call.def);
    /* the first letter rules out nearly every call before the string compare */
    return (n[0] | 32) == (name[0] | 32) && !strcasecmp(n, name);
}

static Node *literal_long(Analysis *an, int64_t v) {
    Node *l = node_new(an->arena, NK_Literal, -1, -1);
    l->type = &TYPE_LONG;
    l->u.lit.v.type = &TYPE_LONG;
    l->u.lit.v.u.i = v;
    return node_finish(l);
}

typedef struct Replace {
    Analysis *an;
    const ExprSet *group;
    Node *gid;
} Replace;

/* replaceGroupingFunc: grouping(c) → cast((gid >> (n-1-i)) & 1 as tinyint), grouping_id() → gid */
static Node *replace_grouping(Node *e, void *ctx) {
    Replace *r = ctx;
    Analysis *an = r->an;
    if (an_failed(an)) return e;
    if (is_grouping_call(e, "grouping_id")) {
        bool ok = e->nkids == 0 || e->nkids == r->group->n;
        for (uint32_t i = 0; ok && i < e->nkids; i++)
            if (!expr_semantic_equal(e->kids[i], r->group->v[i])) ok = false;
        if (!ok)
            return an_fail(an, error_make(an->arena, "GROUPING_ID_COLUMN_MISMATCH", e, "groupingIdColumn",
                                          exprs_string(an, e->kids, e->nkids), "groupByColumns",
                                          exprs_string(an, r->group->v, r->group->n), NULL));
        return r->gid;
    }
    if (is_grouping_call(e, "grouping") && e->nkids == 1) {
        int idx = index_of(r->group, e->kids[0]);
        if (idx < 0)
            return an_fail(an, error_make(an->arena, "GROUPING_COLUMN_MISMATCH", e, "grouping",
                                          expr_to_string(an->arena, e->kids[0]), "groupingColumns",
                                          exprs_string(an, r->group->v, r->group->n), NULL));
        Node *sa[2] = {r->gid, make_literal_int(an, (int64_t)r->group->n - 1 - idx, NULL)};
        Node *sh = make_call(an, "shiftright", false, sa, 2, e->start, e->stop);
        if (!sh) return e;
        Node *aa[2] = {sh, literal_long(an, 1)};
        Node *band = make_call(an, "&", true, aa, 2, e->start, e->stop);
        if (!band) return e;
        return make_cast(an, band, &TYPE_BYTE);
    }
    return e;
}

static Node *replace_group_exprs(Analysis *an, Node *e, const ExprSet *group, Node *const *attrs) {
    if (e->kind == NK_AggregateExpression) return e;
    int idx = index_of(group, e);
    if (idx >= 0) return attrs[idx];
    if (!e->nkids || e->kind == NK_ScalarSubquery || e->kind == NK_Exists || e->kind == NK_InSubquery ||
        e->kind == NK_ListQuery)
        return e;
    Node **k = ARENA_ARRAY(an->arena, Node *, e->nkids);
    for (uint32_t i = 0; i < e->nkids; i++) k[i] = replace_group_exprs(an, e->kids[i], group, attrs);
    return node_with_kids(an->arena, e, k, e->nkids);
}

static Node *typed_list(Analysis *an, Node *const *v, uint32_t n) {
    Node *l = node_new(an->arena, NK_ExprList, -1, -1);
    l->type = &TYPE_NULL;
    node_set_kids(an->arena, l, v, n);
    return node_finish(l);
}

static Node *null_literal(Analysis *an, const DataType *t) {
    Node *l = node_new(an->arena, NK_Literal, -1, -1);
    l->type = t;
    l->u.lit.v.type = t;
    l->u.lit.v.is_null = true;
    l->flags |= NF_NULLABLE;
    return node_finish(l);
}

/* constructAggregate: Expand + Aggregate. */
static Node *construct(Analysis *an, const Node *orig, const Analytics *ga, Node *const *aggs, uint32_t naggs,
                       Node *child) {
    Arena *a = an->arena;
    uint32_t n = ga->group.n;
    if (n > 64)
        return an_fail(an, error_make(a, "GROUPING_SIZE_LIMIT_EXCEEDED", orig, "maxSize", "64", NULL));
    AttrList in = plan_output(an, child);
    /* aliases of the group-by expressions, projected below the Expand */
    Node **aliases = ARENA_ARRAY(a, Node *, n + 1);
    Node **alias_attrs = ARENA_ARRAY(a, Node *, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        Node *g = ga->group.v[i];
        const char *name = g->kind == NK_AttributeReference || g->kind == NK_Alias ? g->u.attr.name : expr_to_string(a, g);
        Node *al = make_alias(an, g, name, false);
        if (g->kind == NK_AttributeReference && g->u.attr.qualifier.n) {
            al = node_copy(a, al);
            al->u.attr.qualifier = g->u.attr.qualifier;
            al = node_finish(al);
        }
        aliases[i] = al;
        alias_attrs[i] = to_attribute(an, al);
    }
    Node **pl = ARENA_ARRAY(a, Node *, in.n + n + 1);
    MEMCPY(pl, in.v, sizeof(Node *) * in.n);
    MEMCPY(pl + in.n, aliases, sizeof(Node *) * n);
    Node *proj = make_project(an, child, pl, in.n + n);

    /* membership of each group-by expression in each selected set */
    uint32_t ns = ga->selected.n;
    uint64_t *masks = ARENA_ARRAY(a, uint64_t, ns + 1);
    bool *nullable = ARENA_ARRAY(a, bool, n + 1);
    for (uint32_t s = 0; s < ns; s++) {
        uint64_t m = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
        bool *in_set = ARENA_ARRAY(a, bool, n + 1);
        for (uint32_t j = 0; j < ga->selected.v[s].n; j++) {
            int idx = index_of(&ga->group, ga->selected.v[s].v[j]);
            if (idx >= 0) {
                in_set[idx] = true;
                m &= ~((uint64_t)1 << (n - 1 - (uint32_t)idx));
            }
        }
        for (uint32_t i = 0; i < n; i++)
            if (!in_set[i]) nullable[i] = true;
        masks[s] = m;
    }
    bool dup = false;
    for (uint32_t s = 0; s < ns && !dup; s++)
        for (uint32_t t = s + 1; t < ns && !dup; t++)
            if (masks[s] == masks[t]) dup = true;
    for (uint32_t i = 0; i < n; i++)
        if (nullable[i]) alias_attrs[i] = attr_with_nullable(an, alias_attrs[i], true);

    Node *gid = attr_new(an, "spark_grouping_id", &TYPE_LONG, false, 0, (NameParts){0, NULL}, -1, -1);
    Node *gpos = dup ? attr_new(an, "_gen_grouping_pos", &TYPE_INT, false, 0, (NameParts){0, NULL}, -1, -1) : NULL;
    uint32_t width = in.n + n + 1 + (dup ? 1 : 0);
    Node **exprs = ARENA_ARRAY(a, Node *, width + ns + 1);
    MEMCPY(exprs, in.v, sizeof(Node *) * in.n);
    Node **group_attrs = exprs + in.n;
    for (uint32_t i = 0; i < n; i++)
        group_attrs[i] = attr_new(an, alias_attrs[i]->u.attr.name, alias_attrs[i]->type, expr_nullable(alias_attrs[i]),
                                  0, alias_attrs[i]->u.attr.qualifier, -1, -1);
    exprs[in.n + n] = gid;
    if (dup) exprs[in.n + n + 1] = gpos;
    for (uint32_t s = 0; s < ns; s++) {
        Node **row = ARENA_ARRAY(a, Node *, width + 1);
        MEMCPY(row, in.v, sizeof(Node *) * in.n);
        uint64_t m = masks[s];
        for (uint32_t i = 0; i < n; i++) {
            bool member = !(m & ((uint64_t)1 << (n - 1 - i)));
            row[in.n + i] = member ? alias_attrs[i] : null_literal(an, alias_attrs[i]->type);
        }
        row[in.n + n] = literal_long(an, (int64_t)m);
        if (dup) row[in.n + n + 1] = make_literal_int(an, s, NULL);
        exprs[width + s] = typed_list(an, row, width);
    }
    Node *expand = node_new(a, NK_Expand, orig->start, orig->stop);
    expand->u.expand.noutput = width;
    expand->u.expand.nprojections = ns;
    node_set_exprs(a, expand, exprs, width + ns);
    node_set_kids(a, expand, &proj, 1);
    expand = node_finish(expand);

    /* the aggregation over the expanded rows */
    Replace r = {an, &ga->group, gid};
    uint32_t ngroup = n + 1 + (dup ? 1 : 0);
    Node **all = ARENA_ARRAY(a, Node *, ngroup + naggs + 1);
    MEMCPY(all, group_attrs, sizeof(Node *) * ngroup);
    for (uint32_t i = 0; i < naggs; i++) {
        Node *e = transform(a, aggs[i], TX_PRE_ORDER, KIND_MASK(NK_Call), replace_grouping, &r);
        if (an_failed(an)) return NULL;
        all[ngroup + i] = replace_group_exprs(an, e, &ga->group, group_attrs);
    }
    Node *agg = node_new(a, NK_Aggregate, orig->start, orig->stop);
    agg->u.aggregate.ngroup = ngroup;
    node_set_exprs(a, agg, all, ngroup + naggs);
    node_set_kids(a, agg, &expand, 1);
    return node_finish(agg);
}

static bool aggs_resolved(const Node *agg) {
    for (uint32_t i = agg->u.aggregate.ngroup; i < agg->nexprs; i++)
        if (!node_resolved(agg->exprs[i])) return false;
    return true;
}

typedef struct IdMap {
    AttrList from, to;
} IdMap;

static Node *remap(Node *e, void *ctx) {
    IdMap *m = ctx;
    if (e->kind != NK_AttributeReference) return e;
    for (uint32_t i = 0; i < m->from.n && i < m->to.n; i++)
        if (m->from.v[i]->u.attr.id == e->u.attr.id) return m->to.v[i];
    return e;
}

/* tryResolveHavingCondition: resolve HAVING (or ORDER BY) against the
 * aggregation with plain grouping, then build the Expand/Aggregate and rewire
 * the condition. */
static Node *resolve_having(Analysis *an, Node *h, Node *agg, const Analytics *ga) {
    Arena *a = an->arena;
    uint32_t ng = agg->u.aggregate.ngroup;
    Node **all = ARENA_ARRAY(a, Node *, ga->group.n + agg->nexprs - ng + 1);
    MEMCPY(all, ga->group.v, sizeof(Node *) * ga->group.n);
    MEMCPY(all + ga->group.n, node_exprs_from(agg, ng), sizeof(Node *) * (agg->nexprs - ng));
    Node *plain = node_new(a, NK_Aggregate, agg->start, agg->stop);
    plain->u.aggregate.ngroup = ga->group.n;
    node_set_exprs(a, plain, all, ga->group.n + agg->nexprs - ng);
    node_set_kids(a, plain, agg->kids, 1);
    plain = node_finish(plain);
    Node *th = node_with_kid(a, h, 0, plain);
    Node *r = RULE_RESOLVE_AGGREGATE_FUNCTIONS.apply(an, th);
    if (an_failed(an) || !r) return h;
    Node *top = r->kind == NK_Project ? r : NULL;
    Node *f = top ? top->kids[0] : r;
    if ((f->kind != NK_Filter && f->kind != NK_Sort) || f->kids[0]->kind != NK_Aggregate) {
        /* not resolvable yet: keep what resolved, over the original aggregation */
        return r->kind == h->kind ? node_with_exprs(a, h, r->exprs, r->nexprs) : h;
    }
    for (uint32_t i = 0; i < f->nexprs; i++)
        if (!node_resolved(f->exprs[i])) return node_with_exprs(a, h, f->exprs, f->nexprs);
    Node *agg2 = f->kids[0];
    uint32_t ng2 = agg2->u.aggregate.ngroup;
    Node *nagg = construct(an, agg, ga, node_exprs_from(agg2, ng2), agg2->nexprs - ng2, agg->kids[0]);
    if (!nagg) return h;
    IdMap m = {plan_output(an, agg2), plan_output(an, nagg)};
    Node **ex = ARENA_ARRAY(a, Node *, f->nexprs + 1);
    for (uint32_t i = 0; i < f->nexprs; i++)
        ex[i] = transform(a, f->exprs[i], 0, KIND_MASK(NK_AttributeReference), remap, &m);
    Node *nf = node_copy(a, f);
    node_set_exprs(a, nf, ex, f->nexprs);
    node_set_kids(a, nf, &nagg, 1);
    nf = node_finish(nf);
    if (!top) return nf;
    Node **pl = ARENA_ARRAY(a, Node *, top->nexprs + 1);
    for (uint32_t i = 0; i < top->nexprs; i++) pl[i] = remap(top->exprs[i], &m);
    return make_project(an, nf, pl, top->nexprs);
}

static bool has_grouping_call(const Node *e) {
    if (!(e->flags & NF_GROUPING_CALL)) return false; /* the subtree holds none (tree pattern) */
    if (is_grouping_call(e, "grouping") || is_grouping_call(e, "grouping_id")) return true;
    if (e->kind == NK_ScalarSubquery || e->kind == NK_Exists || e->kind == NK_InSubquery || e->kind == NK_ListQuery)
        return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (has_grouping_call(e->kids[i])) return true;
    return false;
}


/* ---- grouping__id, GROUP BY aliases inside grouping sets, grouping() above the aggregation ---- */

static bool is_hive_gid(const Node *e) {
    return e->kind == NK_UnresolvedAttribute && e->u.un.name.n == 1 && !strcasecmp(e->u.un.name.v[0], "grouping__id");
}

static bool output_has(Analysis *an, AttrList l, const char *name) {
    for (uint32_t i = 0; i < l.n; i++)
        if (ident_eq(an, l.v[i]->u.attr.name, name)) return true;
    return false;
}

typedef struct HiveGid {
    Analysis *an;
    bool named; /* a select item: keep the name grouping__id */
} HiveGid;

static Node *hive_gid(Node *e, void *ctx) {
    HiveGid *h = ctx;
    if (!is_hive_gid(e)) return e;
    Node *c = make_call(h->an, "grouping_id", false, NULL, 0, e->start, e->stop);
    if (!c) return e;
    return h->named ? make_alias(h->an, c, "grouping__id", false) : c;
}

static WalkResult find_hive_gid(const Node *n, void *ctx) {
    if (!kind_mask_has(n->mask, NK_UnresolvedAttribute)) return WALK_PRUNE;
    if (is_hive_gid(n)) {
        *(bool *)ctx = true;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

/* Spark's literal function grouping__id: GroupingID(Nil), named grouping__id in a select list. */
static Node *substitute_hive_gid(Analysis *an, Node *p) {
    if (!p->nkids || !kind_mask_has(p->mask, NK_UnresolvedAttribute)) return p;
    bool found = false;
    for (uint32_t i = 0; i < p->nexprs && !found; i++) node_walk(p->exprs[i], 0, find_hive_gid, &found);
    if (!found) return p;
    if (p->kind != NK_Aggregate && p->kind != NK_Project && p->kind != NK_Sort && p->kind != NK_Filter &&
        p->kind != NK_UnresolvedHaving)
        return p;
    /* above an aggregation still being rewritten, its input decides */
    const Node *below = p;
    if ((p->kind == NK_UnresolvedHaving || p->kind == NK_Sort) && p->kids[0]->kind == NK_Aggregate &&
        !children_resolved(p))
        below = p->kids[0];
    if (!children_resolved(below)) return p;
    AttrList in = plan_input(an, below);
    if (output_has(an, in, "grouping__id")) return p;
    bool select = p->kind == NK_Aggregate || p->kind == NK_Project;
    uint32_t from = p->kind == NK_Aggregate ? p->u.aggregate.ngroup : 0;
    Node **ex = ARENA_ARRAY(an->arena, Node *, p->nexprs + 1);
    bool changed = false;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        Node *e = p->exprs[i];
        if (i >= from) {
            HiveGid h = {an, false};
            if (select && (e->kind == NK_UnresolvedAlias) && e->nkids && is_hive_gid(e->kids[0])) {
                h.named = true;
                e = node_with_kid(an->arena, e, 0, hive_gid(e->kids[0], &h));
            } else if (select && is_hive_gid(e)) {
                h.named = true;
                e = hive_gid(e, &h);
            } else {
                e = transform(an->arena, e, 0, KIND_MASK(NK_UnresolvedAttribute), hive_gid, &h);
            }
        }
        ex[i] = e;
        if (e != p->exprs[i]) changed = true;
    }
    return changed ? node_with_exprs(an->arena, p, ex, p->nexprs) : p;
}

/* ResolveAggAliasInGroupBy inside CUBE/ROLLUP/GROUPING SETS: a name the input
 * cannot resolve may be a select-list alias. */
typedef struct GroupAlias {
    Analysis *an;
    AttrList in;
    Node *const *aggs;
    uint32_t naggs;
} GroupAlias;

static Node *group_alias(Node *e, void *ctx) {
    GroupAlias *g = ctx;
    if (e->kind != NK_UnresolvedAttribute || e->u.un.name.n != 1) return e;
    if (output_has(g->an, g->in, e->u.un.name.v[0])) return e;
    for (uint32_t i = 0; i < g->naggs; i++) {
        Node *a = g->aggs[i];
        if (a->kind == NK_Alias && ident_eq(g->an, a->u.attr.name, e->u.un.name.v[0])) return a;
    }
    return e;
}

static Node *analytics_aliases(Analysis *an, Node *agg) {
    if (!an->conf->group_by_aliases) return agg;
    uint32_t ng = agg->u.aggregate.ngroup;
    GroupAlias g = {an, plan_input(an, agg), node_exprs_from(agg, ng), agg->nexprs - ng};
    Node **ex = ARENA_ARRAY(an->arena, Node *, agg->nexprs);
    MEMCPY(ex, agg->exprs, sizeof(Node *) * agg->nexprs);
    bool changed = false;
    for (uint32_t i = 0; i < ng; i++) {
        if (!is_analytics(ex[i]) || !kind_mask_has(ex[i]->mask, NK_UnresolvedAttribute)) continue;
        ex[i] = transform(an->arena, ex[i], 0, KIND_MASK(NK_UnresolvedAttribute), group_alias, &g);
        if (ex[i] != agg->exprs[i]) changed = true;
    }
    return changed ? node_with_exprs(an->arena, agg, ex, agg->nexprs) : agg;
}

/* grouping()/grouping_id() in a HAVING or ORDER BY directly above an
 * aggregation over grouping sets: computed from spark_grouping_id, which the
 * Aggregate then outputs too (a Project restores the output). */
static Node *grouping_above(Analysis *an, Node *p) {
    Node *agg = p->kids[0];
    if (agg->kind != NK_Aggregate) return p;
    uint32_t ng = agg->u.aggregate.ngroup;
    int gi = -1;
    for (uint32_t i = 0; i < ng; i++)
        if (agg->exprs[i]->kind == NK_AttributeReference && !strcmp(agg->exprs[i]->u.attr.name, "spark_grouping_id"))
            gi = (int)i;
    if (gi < 0) return p;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        const Node *e = p->exprs[i]->kind == NK_SortOrder && p->exprs[i]->nkids ? p->exprs[i]->kids[0] : p->exprs[i];
        if (!node_resolved(e)) return p;
    }
    Node *gid = agg->exprs[gi];
    ExprSet group = {agg->exprs, (uint32_t)gi};
    Replace r = {an, &group, gid};
    Node **ex = ARENA_ARRAY(an->arena, Node *, p->nexprs + 1);
    for (uint32_t i = 0; i < p->nexprs; i++) {
        ex[i] = transform(an->arena, p->exprs[i], TX_PRE_ORDER, KIND_MASK(NK_Call), replace_grouping, &r);
        if (an_failed(an)) return p;
    }
    AttrList out = plan_output(an, agg);
    bool have = false;
    for (uint32_t i = 0; i < out.n; i++)
        if (out.v[i]->u.attr.id == gid->u.attr.id) have = true;
    Node *nagg = agg;
    if (!have) {
        Node **all = ARENA_ARRAY(an->arena, Node *, agg->nexprs + 1);
        MEMCPY(all, agg->exprs, sizeof(Node *) * agg->nexprs);
        all[agg->nexprs] = gid;
        nagg = node_with_exprs(an->arena, agg, all, agg->nexprs + 1);
    }
    Node *np = node_copy(an->arena, p);
    node_set_exprs(an->arena, np, ex, p->nexprs);
    node_set_kids(an->arena, np, &nagg, 1);
    np = node_finish(np);
    return have ? np : make_project(an, np, out.v, out.n);
}

/* An ORDER BY over grouping sets goes through the plain aggregation only when
 * it names something the aggregation does not output (a grouping column that
 * is not selected); windows over the aggregation are extracted first. */
static bool sort_needs_input(Analysis *an, const Node *sort, const Node *agg) {
    for (uint32_t i = agg->u.aggregate.ngroup; i < agg->nexprs; i++)
        if (expr_has_kind(agg->exprs[i], KIND_MASK(NK_WindowExpression))) return false;
    AttrList out = plan_output(an, agg);
    for (uint32_t i = 0; i < sort->nexprs; i++) {
        Node *e = resolve_expr_refs(an, sort->exprs[i], out, NULL, 0);
        if (an_failed(an)) return false;
        if (kind_mask_has(e->mask, NK_UnresolvedAttribute) || !expr_refs_within(e, out)) return true;
    }
    return false;
}

/* The rule's pass state: aggregations whose HAVING / ORDER BY above could not
 * be resolved yet stay as they are (rewriting them first would make the
 * grouping columns ambiguous for that clause). */
typedef struct Pass {
    Analysis *an;
    const Node *held[16];
    uint32_t nheld;
} Pass;

static bool held(const Pass *ps, const Node *p) {
    for (uint32_t i = 0; i < ps->nheld; i++)
        if (ps->held[i] == p) return true;
    return false;
}

static Node *rewrite(Node *p, void *ctx) {
    Pass *ps = ctx;
    Analysis *an = ps->an;
    if (an_failed(an)) return p;
    p = substitute_hive_gid(an, p);
    if ((p->kind == NK_Filter || p->kind == NK_Sort) && p->nkids == 1) {
        bool any = false;
        for (uint32_t i = 0; i < p->nexprs; i++)
            if (has_grouping_call(p->exprs[i])) any = true;
        if (any) {
            Node *r = grouping_above(an, p);
            if (r != p || an_failed(an)) return r;
        }
    }
    if ((p->kind == NK_UnresolvedHaving || p->kind == NK_Sort) && p->nkids == 1 && p->kids[0]->kind == NK_Aggregate) {
        Node *agg = p->kids[0];
        Analytics ga;
        if (children_resolved(agg) && aggs_resolved(agg)) {
            Node *prepared = analytics_aliases(an, analytics_ordinals(an, agg));
            if (an_failed(an)) return p;
            if (analytics_of(an, prepared, &ga) &&
                (p->kind == NK_UnresolvedHaving || sort_needs_input(an, p, prepared))) {
                Node *r = resolve_having(an, node_with_kid(an->arena, p, 0, prepared), prepared, &ga);
                if (r->kind == p->kind && r->kids[0] == prepared) {
                    /* names resolved, typing pending: wait; an unknown name is reported as usual */
                    bool names_left = false;
                    for (uint32_t i = 0; i < r->nexprs; i++)
                        if (expr_has_kind(r->exprs[i], KIND_MASK(NK_UnresolvedAttribute))) names_left = true;
                    if (!names_left && ps->nheld < sizeof ps->held / sizeof ps->held[0])
                        ps->held[ps->nheld++] = prepared;
                }
                return r;
            }
        }
    }
    if (p->kind == NK_Aggregate && !held(ps, p)) {
        Analytics ga;
        p = analytics_ordinals(an, p);
        if (an_failed(an)) return p;
        if (!children_resolved(p) || !aggs_resolved(p)) return p;
        p = analytics_aliases(an, p);
        if (analytics_of(an, p, &ga)) {
            Node *r = construct(an, p, &ga, node_exprs_from(p, p->u.aggregate.ngroup), p->nexprs - p->u.aggregate.ngroup,
                                p->kids[0]);
            return r ? r : p;
        }
    }
    if ((p->kind == NK_Aggregate || p->kind == NK_Project || p->kind == NK_Filter || p->kind == NK_Sort) &&
        node_resolved(p)) {
        for (uint32_t i = 0; i < p->nexprs; i++)
            if (has_grouping_call(p->exprs[i]))
                return an_fail(an, error_make(an->arena, "UNSUPPORTED_GROUPING_EXPRESSION", p->exprs[i], NULL));
    }
    return p;
}

static Node *apply(Analysis *an, Node *plan) {
    KindMask kinds = KIND_MASK(NK_Rollup, NK_Cube, NK_GroupingSets, NK_Call, NK_UnresolvedAttribute);
    /* every rewrite needs a ROLLUP / CUBE / GROUPING SETS element, a resolved
       grouping() / grouping_id() call (its tree pattern: has_grouping_call
       finds no other) or an unresolved name (grouping__id): a plan with none
       is not walked (once resolved, most plans have none) */
    if (!(plan->flags & NF_GROUPING_CALL) &&
        !kind_mask_any(plan->mask, KIND_MASK(NK_Rollup, NK_Cube, NK_GroupingSets, NK_UnresolvedAttribute)))
        return plan;
    /* top-down: a HAVING or ORDER BY is resolved before the aggregation below it is rewritten */
    Pass ps = {.an = an, .nheld = 0};
    return transform(an->arena, plan, TX_PRE_ORDER, kinds, rewrite, &ps);
}

const Rule RULE_RESOLVE_GROUPING_ANALYTICS = {
    .name = "ResolveGroupingAnalytics",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveGroupingAnalytics",
    .kinds = {NK_Rollup, NK_Cube, NK_GroupingSets, NK_Call, NK_UnresolvedAttribute},
    .nkinds = 5,
    .apply = apply,
};
