/* ResolveReferences — Spark's Analyzer.ResolveReferences (with the column
 * resolution order of ColumnResolutionHelper): once an operator's children
 * are resolved, bind its column references to their output attributes by
 * expression id, expand stars, and fall back, in Spark's order, to lateral
 * column aliases (left for ResolveLateralColumnAlias), outer references
 * (inside subqueries) and session variables.
 *
 *   'Project ['a, ('b + 1) AS c]          Project [a#1, (b#2 + 1) AS c#3]
 *   +- Relation t[a#1,b#2]          =>    +- Relation t[a#1,b#2]
 */
#include <string.h>
#include <strings.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "functions/functions.h"
#include "rules/lib/builders.h"
#include "rules/lib/column_refs.h"
#include "rules/lib/dataframe_columns.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"
#include "rules/lib/variables.h"
#include "core/walk.h"

/* Expands the stars of a select list; returns the new list in *out. */
static bool expand_list(Analysis *an, const Node *p, Node *const *in, uint32_t n, AttrList input, Node ***out,
                        uint32_t *nout) {
    bool any = false;
    for (uint32_t i = 0; i < n; i++)
        if (in[i]->kind == NK_UnresolvedStar) any = true;
    if (!any) return false;
    uint32_t cap = n + input.n * 2 + 8, m = 0;
    Node **v = ARENA_ARRAY(an->arena, Node *, cap);
    for (uint32_t i = 0; i < n; i++) {
        if (in[i]->kind != NK_UnresolvedStar) {
            if (m == cap) break;
            v[m++] = in[i];
            continue;
        }
        AttrList exp;
        if (in[i]->plan_id >= 0) {
            /* df["*"]: the output of the node with that plan id */
            if (!expand_dataframe_star(an, in[i], p->kids, p->nkids, &exp)) return false;
        } else if (!expand_star(an, in[i], input, &exp)) {
            /* `t.*` naming the enclosing query's relation (a LATERAL subquery):
               expanded to outer references, as Spark does (SPARK-35618) */
            if (!an->outer || !in[i]->u.un.name.n) return false;
            ErrorInfo *local = an->error;
            an->error = NULL;
            if (!expand_star(an, in[i], an->outer->attrs, &exp)) {
                an->error = local;
                return false;
            }
            for (uint32_t k = 0; k < exp.n; k++)
                if (exp.v[k]->kind == NK_AttributeReference)
                    exp.v[k] = make_outer_reference(an, exp.v[k]);
        }
        if (m + exp.n > cap) {
            uint32_t ncap = (m + exp.n) * 2;
            Node **nv = ARENA_ARRAY(an->arena, Node *, ncap);
            mem_copy(nv, v, sizeof(Node *) * m);
            v = nv;
            cap = ncap;
        }
        for (uint32_t k = 0; k < exp.n; k++) v[m++] = exp.v[k];
    }
    *out = v;
    *nout = m;
    return true;
}

/* Resolves a select list (Project / Aggregate aggregates). */
static Node **resolve_select_list(Analysis *an, const Node *p, Node *const *list, uint32_t n, AttrList input,
                                  uint32_t *nout, bool *changed) {
    Node **exp = NULL;
    uint32_t m = n;
    if (expand_list(an, p, list, n, input, &exp, &m)) *changed = true;
    else exp = (Node **)list;
    if (an_failed(an)) return NULL;
    Node **out = ARENA_ARRAY(an->arena, Node *, m + 1);
    for (uint32_t i = 0; i < m; i++) {
        out[i] = resolve_expr_refs(an, exp[i], input, out, i);
        /* `s.f AS x`: the field's own alias is not top-level, Spark trims it */
        if (out[i]->kind == NK_Alias && out[i]->nkids == 1 && out[i]->kids[0]->kind == NK_Alias &&
            out[i]->kids[0]->nkids == 1 && out[i]->kids[0]->kids[0]->kind == NK_GetStructField)
            out[i] = node_with_kid(an->arena, out[i], 0, out[i]->kids[0]->kids[0]);
        if (out[i] != exp[i]) *changed = true;
    }
    /* a select item that is a session variable is named as written (Spark
       aliases it); only now, so it is no lateral alias for later items */
    for (uint32_t i = 0; i < m; i++)
        if (out[i]->kind == NK_VariableReference && exp[i]->kind == NK_UnresolvedAttribute)
            out[i] = make_alias(an, out[i], exp[i]->u.un.name.v[exp[i]->u.un.name.n - 1], false);
    *nout = m;
    return out;
}

static Node *resolve_group_alias(Analysis *an, Node *g, Node *const *aggs, uint32_t naggs) {
    if (g->kind != NK_UnresolvedAttribute || g->u.un.name.n != 1) return g;
    for (uint32_t i = 0; i < naggs; i++) {
        const Node *a = aggs[i];
        if (a->kind == NK_Alias && ident_eq(an, a->u.attr.name, g->u.un.name.v[0]) && node_resolved(a->kids[0]))
            return a->kids[0];
    }
    return g;
}

/* A global `ORDER BY all` whose name resolved to something other than a
 * column of the input (an outer reference, a variable). */
static bool sort_by_all_not_local(const Node *p, Node *const *out) {
    if (p->kind != NK_Sort || !p->u.sort.global || p->nexprs != 1) return false;
    const Node *o = p->exprs[0], *r = out[0];
    if (o->kind != NK_SortOrder || !o->nkids || r->kind != NK_SortOrder || !r->nkids) return false;
    const Node *g = o->kids[0];
    return g->kind == NK_UnresolvedAttribute && g->u.un.name.n == 1 && strcasecmp(g->u.un.name.v[0], "all") == 0 &&
           r->kids[0]->kind != NK_AttributeReference;
}

/* p with its DataFrame column references resolved (p itself when it has none). */
static Node *resolve_dataframe_exprs(Analysis *an, Node *p) {
    Node **out = NULL;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        Node *e = p->exprs[i];
        Node *r = e->kind == NK_UnresolvedStar ? e : resolve_dataframe_columns(an, e, p->kids, p->nkids);
        if (an_failed(an)) return p;
        if (r != e && !out) {
            out = ARENA_ARRAY(an->arena, Node *, p->nexprs);
            mem_copy(out, p->exprs, sizeof(Node *) * i);
        }
        if (out) out[i] = r;
    }
    return out ? node_with_exprs(an->arena, p, out, p->nexprs) : p;
}

static Node *resolve_node_refs(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || node_resolved(p) || !children_resolved(p)) return p;
    if (p->kind == NK_LateralJoin) return p; /* its condition sees both sides: ResolveSubquery resolves it */
    KindMask want = KIND_MASK(NK_UnresolvedAttribute, NK_UnresolvedStar);
    bool needs = false;
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (kind_mask_any(p->exprs[i]->mask, want)) needs = true;
    if (!needs) return p;
    /* DataFrame columns (df("a") from a Connect client) first, against the
       nodes of their plan ids (Spark's tryResolveDataFrameColumns) */
    Node *df = resolve_dataframe_exprs(an, p);
    if (an_failed(an)) return p;
    p = df;
    AttrList input = plan_input(an, p);
    switch (p->kind) {
    case NK_Project: {
        bool changed = false;
        uint32_t n;
        Node **list = resolve_select_list(an, p, p->exprs, p->nexprs, input, &n, &changed);
        if (!list || !changed) return p;
        return node_with_exprs(an->arena, p, list, n);
    }
    case NK_Aggregate: {
        uint32_t ng = p->u.aggregate.ngroup;
        bool changed = false;
        /* a star cannot be expanded when the grouping names positions in it */
        if (an->conf->group_by_ordinal)
            for (uint32_t i = 0; i < ng; i++)
                if (p->exprs[i]->kind == NK_Literal && p->exprs[i]->type && p->exprs[i]->type->id == T_INT)
                    for (uint32_t k = ng; k < p->nexprs; k++)
                        if (p->exprs[k]->kind == NK_UnresolvedStar)
                            return an_fail(an, error_make(an->arena, "STAR_GROUP_BY_POS", p->exprs[i], NULL));
        uint32_t na;
        Node **aggs = resolve_select_list(an, p, node_exprs_from(p, ng), p->nexprs - ng, input, &na, &changed);
        if (!aggs) return p;
        Node **all = ARENA_ARRAY(an->arena, Node *, ng + na + 1);
        for (uint32_t i = 0; i < ng; i++) {
            Node *g = p->exprs[i];
            /* GROUP BY ALL is left to ResolveGroupByAll unless a column is named all */
            Node *r = resolve_expr_refs(an, g, input, NULL, 0);
            /* a nested field groups by the extraction itself (Spark's trimTopLevelGetStructFieldAlias) */
            if (r->kind == NK_Alias && r->nkids == 1 && r->kids[0]->kind == NK_GetStructField) r = r->kids[0];
            /* GROUP BY ALL wins over an outer column or a variable named `all` */
            if (r != g && g->kind == NK_UnresolvedAttribute && g->u.un.name.n == 1 &&
                strcasecmp(g->u.un.name.v[0], "all") == 0 && r->kind != NK_AttributeReference)
                r = g;
            if (an->conf->group_by_aliases && r->kind == NK_UnresolvedAttribute) r = resolve_group_alias(an, r, aggs, na);
            all[i] = r;
            if (r != g) changed = true;
        }
        mem_copy(all + ng, aggs, sizeof(Node *) * na);
        if (!changed) return p;
        Node *c = node_copy(an->arena, p);
        node_set_exprs(an->arena, c, all, ng + na);
        return node_finish(c);
    }
    case NK_UnresolvedHaving:
    case NK_Sort:
        /* the aggregate and missing-reference rules resolve these against more than the input */
        if (p->kids[0]->kind == NK_Aggregate) return p; /* HAVING and ORDER BY over an aggregation: ResolveAggregateFunctions */
        /* fall through */
    default: {
        Node **out = ARENA_ARRAY(an->arena, Node *, p->nexprs + 1);
        bool changed = false;
        for (uint32_t i = 0; i < p->nexprs; i++) {
            out[i] = resolve_expr_refs(an, p->exprs[i], input, NULL, 0);
            if (out[i] != p->exprs[i]) changed = true;
        }
        /* ORDER BY ALL wins over an outer column or a variable named `all` (ResolveOrderByAll) */
        if (changed && sort_by_all_not_local(p, out)) return p;
        return changed ? node_with_exprs(an->arena, p, out, p->nexprs) : p;
    }
    }
}

/* An operator whose references were just resolved also gets its operator
 * calls and user aliases typed (Spark's a > 0 and a + 0 AS a are resolved as
 * soon as a is), so the operator above sees a resolved child in the same
 * bottom-up pass: a chain of N pipe WHERE or SELECT operators would otherwise
 * take N iterations and overrun maxIterations. */
static Node *apply_node(Node *p, void *ctx) {
    Node *r = resolve_node_refs(p, ctx);
    if (!r || r == p) return r; /* NULL: it failed */
    if (r->kind != NK_Filter && r->kind != NK_Project) return r;
    r = resolve_operator_calls(ctx, r);
    return r->kind == NK_Project ? resolve_user_aliases(ctx, r) : r;
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedAttribute, NK_UnresolvedStar), apply_node, an);
}

const Rule RULE_RESOLVE_REFERENCES = {
    .name = "ResolveReferences",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveReferences",
    .kinds = {NK_UnresolvedAttribute, NK_UnresolvedStar},
    .nkinds = 2,
    .apply = apply,
};
