/* ResolveLateralColumnAlias — Spark's ResolveLateralColumnAliasReference
 * (phase 2) together with ColumnResolutionHelper.resolveLateralColumnAlias
 * (phase 1). A select item may name an alias defined by an earlier item of
 * the same SELECT list; a column of the child always wins (ResolveReferences
 * resolved those already), and a lateral alias wins over outer references
 * and session variables (ResolveReferences leaves such names alone).
 *
 * Phase 1 wraps each such name as LateralColumnAliasReference (kids[0] = the
 * alias's attribute, or a field of it). Phase 2 runs once the operator is
 * otherwise resolved (or only a window expression keeps it unresolved):
 *
 *   Project [age AS a, (lca(a) + 1) AS b]     Project [a#1, (a#1 + 1) AS b#2]
 *   +- Child                            =>    +- Project [child output, age AS a#1]
 *                                                +- Child
 *
 * and an Aggregate keeps only grouping expressions and aggregate functions,
 * with a Project above restoring its output; that Project is resolved the
 * same way in a later iteration (windows go up with it):
 *
 *   Aggregate [dept], [dept AS a#1, (lca(a) + 1) AS c#2]
 *   =>  Project [dept AS a#1, (lca(a) + 1) AS c#2]
 *       +- Aggregate [dept], [dept]
 *
 * Off when spark.sql.lateralColumnAlias.enableImplicitResolution is false.
 * Runs right after ResolveReferences, as in Spark.
 */
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "core/func_sig.h"
#include "core/output.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/lateral_alias.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"
#include "core/walk.h"

/* ---- phase 1: wrap ---- */

typedef struct AliasSeen {
    const char *name;
    Node *alias; /* NULL when the name is defined more than once */
    int count;
} AliasSeen;

typedef struct WrapCtx {
    Analysis *an;
    AliasSeen *seen;
    uint32_t nseen;
} WrapCtx;

static bool alias_child_resolved(const Node *a) { return a->nkids == 1 && node_resolved(a->kids[0]); }

/* The attribute an Alias produces, typed from its child (the Alias itself may
 * not have been typed by ResolveAliases yet). */
static Node *alias_attribute(Analysis *an, const Node *a) {
    const Node *c = a->kids[0];
    return attr_new(an, a->u.attr.name, c->type, expr_nullable(c), a->u.attr.id, (NameParts){0, NULL}, a->start,
                    a->stop);
}

static Node *make_lca(Analysis *an, Node *resolved, const Node *at, NameParts name) {
    Node *l = node_new(an->arena, NK_LateralColumnAliasReference, at->start, at->stop);
    l->u.lca.name = name;
    l->type = resolved->type;
    l->flags |= resolved->flags & NF_NULLABLE;
    node_set_kids(an->arena, l, &resolved, 1);
    return node_finish(l);
}

static Node *wrap_attr(Node *e, void *ctx) {
    WrapCtx *w = ctx;
    Analysis *an = w->an;
    if (an_failed(an)) return e;
    if (e->kind == NK_WindowExpression && kind_mask_has(e->mask, NK_LateralColumnAliasReference) &&
        expr_has_kind(e, KIND_MASK(NK_LateralColumnAliasReference))) {
        const Node *l = NULL;
        /* the first reference, for the message */
        const Node *stack[64];
        int sp = 0;
        stack[sp++] = e;
        while (sp && !l) {
            const Node *n = stack[--sp];
            if (n->kind == NK_LateralColumnAliasReference) l = n;
            for (uint32_t i = 0; i < n->nkids && sp < 64; i++) stack[sp++] = n->kids[i];
        }
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_WINDOW", e, "lca",
                                      l ? sql_id_parts(an->arena, l->u.lca.name) : "", "windowExpr",
                                      expr_sql_quoted(an->arena, e), NULL));
    }
    if (e->kind != NK_UnresolvedAttribute) return e;
    const char *first = e->u.un.name.v[0];
    for (uint32_t i = 0; i < w->nseen; i++) {
        AliasSeen *s = &w->seen[i];
        if (strcasecmp(s->name, first) != 0) continue; /* Spark compares lower-cased names */
        if (s->count > 1)
            return an_fail(an, error_make(an->arena, "AMBIGUOUS_LATERAL_COLUMN_ALIAS", e, "name",
                                          sql_id_parts(an->arena, e->u.un.name), "n",
                                          arena_printf(an->arena, "%d", s->count), NULL));
        if (!alias_child_resolved(s->alias)) return e; /* wait: still not an outer reference */
        Node *attr = alias_attribute(an, s->alias);
        Node *found = NULL;
        AttrList one = {1, &attr};
        ResolveStatus st = resolve_name(an, e, e->u.un.name, one, &found);
        if (st != RS_FOUND) return an_failed(an) ? NULL : e;
        return make_lca(an, found, e, e->u.un.name);
    }
    return e;
}

static void note_alias(WrapCtx *w, Node *item) {
    if (item->kind != NK_Alias) return;
    for (uint32_t i = 0; i < w->nseen; i++)
        if (strcasecmp(w->seen[i].name, item->u.attr.name) == 0) {
            w->seen[i].count++;
            w->seen[i].alias = NULL;
            return;
        }
    w->seen[w->nseen++] = (AliasSeen){item->u.attr.name, item, 1};
}

/* Wraps the lateral alias references of select list [from, from+n) of p. */
static Node *wrap_list(Analysis *an, Node *p, uint32_t from) {
    uint32_t n = p->nexprs - from;
    WrapCtx w = {an, ARENA_ARRAY(an->arena, AliasSeen, n + 1), 0};
    Node **out = NULL;
    for (uint32_t i = 0; i < n; i++) {
        Node *item = p->exprs[from + i];
        Node *r = item;
        if (w.nseen && kind_mask_any(item->mask, KIND_MASK(NK_UnresolvedAttribute, NK_LateralColumnAliasReference)))
            r = transform(an->arena, item, 0, KIND_MASK(NK_UnresolvedAttribute, NK_LateralColumnAliasReference), wrap_attr, &w);
        if (an_failed(an)) return p;
        if (r->kind == NK_Alias && !r->u.attr.id) {
            /* references are bound by id: give the alias its id now */
            Node *c = node_copy(an->arena, r);
            c->u.attr.id = an_new_id(an);
            r = node_finish(c);
        }
        if (r != item && !out) {
            out = ARENA_ARRAY(an->arena, Node *, p->nexprs);
            if (p->nexprs) mem_copy(out, p->exprs, sizeof(Node *) * p->nexprs);
        }
        if (out) out[from + i] = r;
        note_alias(&w, r);
    }
    return out ? node_with_exprs(an->arena, p, out, p->nexprs) : p;
}

/* ---- phase 2: unwrap ---- */

static bool has_window(Node *const *list, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (expr_has_kind(list[i], KIND_MASK(NK_WindowExpression))) return true;
    return false;
}

static bool exprs_resolved(const Node *p) {
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (!node_resolved(p->exprs[i])) return false;
    return true;
}

/* Spark's ruleApplicableOnOperator. */
static bool applicable(const Node *p, uint32_t from) {
    if (!exprs_resolved(p) || !children_resolved(p)) return false;
    return plan_is_resolved(p) || has_window(node_exprs_from(p, from), p->nexprs - from);
}

static bool list_has_lca(const Node *p, uint32_t from) {
    for (uint32_t i = from; i < p->nexprs; i++)
        if (expr_has_kind(p->exprs[i], KIND_MASK(NK_LateralColumnAliasReference))) return true;
    return false;
}

/* The alias attribute a LateralColumnAliasReference stands for: the base
 * attribute of its (possibly field-extracting) resolved expression. */
static ExprId lca_alias_id(const Node *l) {
    const Node *e = l->kids[0];
    if (e->kind == NK_Alias) e = e->kids[0];
    while (e->kind == NK_GetStructField) e = e->kids[0];
    return e->kind == NK_AttributeReference ? e->u.attr.id : 0;
}

typedef struct Entry {
    Node *alias; /* the original item */
    uint32_t idx;
    bool referenced;
} Entry;

typedef struct UnwrapCtx {
    Analysis *an;
    Entry *entries;
    uint32_t n;
    uint32_t *order; /* referenced entries in first-reference order */
    uint32_t norder;
} UnwrapCtx;

static Node *unwrap(Node *e, void *ctx) {
    UnwrapCtx *u = ctx;
    if (e->kind != NK_LateralColumnAliasReference) return e;
    ExprId id = lca_alias_id(e);
    for (uint32_t i = 0; i < u->n; i++) {
        Entry *en = &u->entries[i];
        if (en->alias->u.attr.id != id) continue;
        /* chained references wait until the alias they go through is unwrapped */
        if (kind_mask_has(en->alias->mask, NK_LateralColumnAliasReference) &&
            expr_has_kind(en->alias, KIND_MASK(NK_LateralColumnAliasReference)))
            return e;
        if (!en->referenced) {
            en->referenced = true;
            u->order[u->norder++] = i;
        }
        Node *inner = e->kids[0];
        return inner;
    }
    return e;
}

static Node *unwrap_project(Analysis *an, Node *p) {
    uint32_t n = p->nexprs;
    UnwrapCtx u = {an, ARENA_ARRAY(an->arena, Entry, n + 1), 0, ARENA_ARRAY(an->arena, uint32_t, n + 1), 0};
    Node **list = ARENA_ARRAY(an->arena, Node *, n);
    for (uint32_t i = 0; i < n; i++) {
        Node *item = p->exprs[i];
        list[i] = transform(an->arena, item, 0, KIND_MASK(NK_LateralColumnAliasReference), unwrap, &u);
        if (item->kind == NK_Alias) u.entries[u.n++] = (Entry){item, i, false};
    }
    if (!u.norder) return p;
    Node *child = p->kids[0];
    AttrList cout = plan_output(an, child);
    Node **inner = ARENA_ARRAY(an->arena, Node *, cout.n + u.norder);
    if (cout.n) mem_copy(inner, cout.v, sizeof(Node *) * cout.n);
    for (uint32_t k = 0; k < u.norder; k++) {
        Entry *en = &u.entries[u.order[k]];
        list[en->idx] = to_attribute(an, en->alias);
        inner[cout.n + k] = en->alias;
    }
    Node *below = make_project(an, child, inner, cout.n + u.norder);
    Node *c = node_copy(an->arena, p);
    node_set_exprs(an->arena, c, list, n);
    node_set_kids(an->arena, c, &below, 1);
    return node_finish(c);
}

/* Grouping by an alias that references a lateral alias (directly, or through
 * GROUP BY ALL) is not supported. */
static bool check_group_by(Analysis *an, const Node *agg) {
    for (uint32_t i = 0; i < agg->u.aggregate.ngroup; i++)
        if (expr_has_kind(agg->exprs[i], KIND_MASK(NK_LateralColumnAliasReference))) {
            an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_GROUP_BY", agg->exprs[i],
                                   NULL));
            return false;
        }
    return true;
}

static bool is_generator(const Node *e) {
    return e->kind == NK_Call && e->u.call.def && func_kind(e->u.call.def) == FK_GENERATOR;
}

static bool has_generator(const Node *e) {
    if (is_generator(e)) return true;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (has_generator(e->kids[i])) return true;
    return false;
}

/* A select list with a generator cannot also use lateral aliases (Spark's
 * LATERAL_COLUMN_ALIAS_IN_GENERATOR, SPARK-49349). */
static bool check_generator(Analysis *an, const Node *p, uint32_t from) {
    bool gen = false;
    for (uint32_t i = from; i < p->nexprs && !gen; i++) gen = has_generator(p->exprs[i]);
    if (!gen) return true;
    for (uint32_t i = from; i < p->nexprs; i++) {
        const Node *l = lca_first(p->exprs[i]);
        if (!l) continue;
        an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_GENERATOR", p->exprs[i], "lca",
                               sql_id_parts(an->arena, l->u.lca.name), "generatorExpr",
                               expr_sql_quoted(an->arena, p->exprs[i]), NULL));
        return false;
    }
    return true;
}

/* ---- the rule: a hand-written bottom-up traversal, as Spark's apply0 ---- */

static Node *apply0(Analysis *an, Node *p, const Node *parent);

static Node *map_children(Analysis *an, Node *p) {
    if (!p->nkids) return p;
    Node **kids = ARENA_ARRAY(an->arena, Node *, p->nkids);
    for (uint32_t i = 0; i < p->nkids; i++) kids[i] = apply0(an, p->kids[i], p);
    return node_with_kids(an->arena, p, kids, p->nkids);
}

static bool maybe_lca(const Node *p) {
    return kind_mask_any(p->mask, KIND_MASK(NK_UnresolvedAttribute, NK_LateralColumnAliasReference));
}

/* Whether the operator above an Aggregate still needs the Sort/Filter -
 * Aggregate shape for ResolveAggregateFunctions: it is unresolved, or uses
 * aggregates or columns the Aggregate does not output yet (Spark keeps the
 * shape while a TempResolvedColumn is in the plan). */
static bool parent_pending(Analysis *an, const Node *parent, const Node *agg) {
    if (!parent || (parent->kind != NK_Sort && parent->kind != NK_Filter && parent->kind != NK_UnresolvedHaving))
        return false;
    if (parent->kind == NK_UnresolvedHaving || !node_resolved(parent)) return true;
    AttrList out = plan_output(an, agg);
    for (uint32_t i = 0; i < parent->nexprs; i++)
        if (expr_has_kind(parent->exprs[i], KIND_MASK(NK_AggregateExpression)) ||
            !expr_refs_within(parent->exprs[i], out))
            return true;
    return false;
}

static Node *apply0(Analysis *an, Node *p, const Node *parent) {
    bool under_having = parent && parent->kind == NK_UnresolvedHaving;
    if (an_failed(an) || !maybe_lca(p)) return p;
    p = map_children(an, p);
    if (an_failed(an)) return p;
    uint32_t from;
    if (p->kind == NK_Project) from = 0;
    else if (p->kind == NK_Aggregate) from = p->u.aggregate.ngroup;
    else return p;
    if (!children_resolved(p)) return p;
    /* phase 1 */
    p = wrap_list(an, p, from);
    if (an_failed(an)) return p;
    if (p->kind == NK_Aggregate && !check_group_by(an, p)) return p;
    if (!list_has_lca(p, from)) return p;
    if (!check_generator(an, p, from)) return p;
    if (!applicable(p, from)) return p;
    /* phase 2 */
    if (p->kind == NK_Project) return unwrap_project(an, p);
    if (under_having) {
        /* keep UnresolvedHaving - Aggregate for ResolveAggregateFunctions;
           with a window the Aggregate never resolves there */
        if (has_window(node_exprs_from(p, from), p->nexprs - from)) {
            const Node *l = NULL;
            for (uint32_t i = from; i < p->nexprs && !l; i++) l = lca_first(p->exprs[i]);
            an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_AGGREGATE_WITH_WINDOW_AND_HAVING",
                                   p, "lca", l ? sql_id_parts(an->arena, l->u.lca.name) : "", NULL));
        }
        return p;
    }
    if (parent_pending(an, parent, p)) return p;
    return lca_lift_aggregate(an, p, false);
}

static Node *apply(Analysis *an, Node *plan) {
    if (!an->conf->lateral_alias) return plan;
    return apply0(an, plan, NULL);
}

const Rule RULE_RESOLVE_LATERAL_COLUMN_ALIAS = {
    .name = "ResolveLateralColumnAliasReference",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.ResolveLateralColumnAliasReference",
    .kinds = {NK_UnresolvedAttribute, NK_LateralColumnAliasReference},
    .nkinds = 2,
    .apply = apply,
};
