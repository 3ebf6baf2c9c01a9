/* Validity checks for subquery expressions — Spark's
 * CheckAnalysis.checkSubqueryExpression and checkCorrelationsInSubquery,
 * run by CheckAnalysis (check.c) once the subquery's own plan is checked: where
 * outer references may appear inside the subquery (Filter, Project and Join
 * host them; Aggregate, Window, Sort ... may not), which join sides may be on
 * a correlation path, aggregates mixing outer and local columns, and the
 * LATERAL-specific rules (non-deterministic subqueries and join conditions).
 * Spark's defaults are assumed: the DecorrelateInnerQuery framework on, set
 * operations, LIMIT and OFFSET decorrelation on.
 *
 *   Aggregate [(c1#2 - outer(c1#1))], ...   =>  UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY
 *                                               .CORRELATED_REFERENCE
 */
#include <string.h>
#include <strings.h>

#include "subquery_checks.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/outer_refs.h"
#include "rules/lib/plan_inputs.h"

static bool contains_outer(const Node *e) { return expr_has_kind(e, KIND_MASK(NK_OuterReference)); }

static bool plan_has_outer(const Node *p) {
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (contains_outer(p->exprs[i])) return true;
    return false;
}

/* Whether e references a local attribute (one not under an OuterReference). */
static bool has_local_ref(const Node *e) {
    if (e->kind == NK_OuterReference) return false;
    if (e->kind == NK_AttributeReference) return true;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (has_local_ref(e->kids[i])) return true;
    return false;
}

static bool check_mixed(Analysis *an, const Node *e) {
    if (!kind_mask_has(e->mask, NK_OuterReference)) return true;
    if (e->kind == NK_AggregateExpression && contains_outer(e) && has_local_ref(e)) {
        an_fail(an, error_make(an->arena, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.AGGREGATE_FUNCTION_MIXED_OUTER_LOCAL_REFERENCES",
                               e, "function", expr_sql_quoted(an->arena, e), NULL));
        return false;
    }
    for (uint32_t i = 0; i < e->nkids; i++)
        if (!check_mixed(an, e->kids[i])) return false;
    return true;
}

static bool can_host_outer(const Node *p) {
    return p->kind == NK_Filter || p->kind == NK_Project || p->kind == NK_Join;
}

static bool fail_on_invalid_outer(Analysis *an, const Node *p) {
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (!check_mixed(an, p->exprs[i])) return false;
    if (can_host_outer(p) || !plan_has_outer(p)) return true;
    StrBuf sb;
    sb_init(&sb, an->arena, 64);
    for (uint32_t i = 0; i < p->nexprs; i++) {
        if (!contains_outer(p->exprs[i])) continue;
        if (sb.len) sb_putc(&sb, ',');
        sb_puts(&sb, expr_sql_quoted(an->arena, strip_outer_references(an, p->exprs[i])));
    }
    an_fail(an, error_make(an->arena, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.CORRELATED_REFERENCE", p, "sqlExprs",
                           sb_str(&sb), NULL));
    return false;
}

static bool check_plan(Analysis *an, const Node *p, bool lateral, bool can_contain) {
    if (!can_contain && plan_has_outer(p)) {
        an_fail(an, error_make(an->arena, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.ACCESSING_OUTER_QUERY_COLUMN_IS_NOT_ALLOWED",
                               p, "treeNode", plan_tree_string(an->arena, p), NULL));
        return false;
    }
    switch (p->kind) {
    case NK_SubqueryAlias:
    case NK_OneRowRelation:
    case NK_LocalRelation:
    case NK_Relation:
    case NK_Range:
    case NK_View:
    case NK_CTERelationRef:
    case NK_Union:
    case NK_Intersect:
    case NK_Except:
    case NK_WithCTE:
    case NK_CTERelationDef:
    case NK_Distinct:
        for (uint32_t i = 0; i < p->nkids; i++)
            if (!check_plan(an, p->kids[i], lateral, can_contain)) return false;
        return true;
    case NK_Project:
    case NK_Sort:
    case NK_RepartitionByExpression:
    case NK_LateralJoin:
    case NK_Filter:
    case NK_Aggregate:
    case NK_Window:
    case NK_GlobalLimit:
    case NK_LocalLimit:
    case NK_Offset:
        if (!fail_on_invalid_outer(an, p)) return false;
        return p->nkids ? check_plan(an, p->kids[0], lateral, can_contain) : true;
    case NK_Generate:
        /* a generator keeping child columns (LATERAL VIEW) may not host outer
           references; one over a row of nothing (FROM explode(...), SELECT
           explode(...)) is Spark's category 4: it may, its children may not */
        if (plan_output(an, p->kids[0]).n) {
            if (!fail_on_invalid_outer(an, p)) return false;
            return check_plan(an, p->kids[0], lateral, can_contain);
        }
        return check_plan(an, p->kids[0], lateral, false);
    case NK_Join: {
        if (!fail_on_invalid_outer(an, p)) return false;
        bool lc = can_contain, rc = can_contain;
        switch (p->u.join.type) {
        case JOIN_INNER:
        case JOIN_CROSS: break;
        case JOIN_LEFT_OUTER:
        case JOIN_LEFT_SEMI:
        case JOIN_LEFT_ANTI: rc = false; break;
        case JOIN_RIGHT_OUTER: lc = false; break;
        default: lc = rc = false; break;
        }
        return check_plan(an, p->kids[0], lateral, lc) && check_plan(an, p->kids[1], lateral, rc);
    }
    default:
        for (uint32_t i = 0; i < p->nkids; i++)
            if (!check_plan(an, p->kids[i], lateral, false)) return false;
        return true;
    }
}

bool check_subquery_correlations(Analysis *an, const Node *sub, bool lateral) {
    return check_plan(an, sub, lateral, true);
}

/* ---- LATERAL ---- */

static bool plan_nondeterministic(const Node *p) {
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (p->exprs[i]->flags & NF_NONDETERMINISTIC) return true;
    for (uint32_t i = 0; i < p->nkids; i++)
        if (plan_nondeterministic(p->kids[i])) return true;
    return false;
}

/* Spark's maxRows, where it is known; -1 otherwise. */
static int64_t max_rows(const Node *p) {
    switch (p->kind) {
    case NK_OneRowRelation: return 1;
    case NK_LocalRelation: return p->u.local.nrows;
    case NK_Range: {
        int64_t st = p->u.range.step, a = p->u.range.start, b = p->u.range.end;
        if (st == 0) return -1;
        /* Spark's numElements is a BigInt: maxRows only when it fits a long */
        __int128 d = st > 0 ? (__int128)b - a : (__int128)a - b, k = st > 0 ? st : -(__int128)st;
        __int128 n = d > 0 ? (d + k - 1) / k : 0;
        return n > INT64_MAX ? -1 : (int64_t)n;
    }
    case NK_WithCTE: return max_rows(p->kids[p->nkids - 1]);
    case NK_Aggregate: return p->u.aggregate.ngroup == 0 ? 1 : max_rows(p->kids[0]);
    case NK_Project:
    case NK_Filter:
    case NK_SubqueryAlias:
    case NK_View:
    case NK_Sort:
    case NK_Distinct: return max_rows(p->kids[0]);
    case NK_GlobalLimit:
    case NK_LocalLimit: {
        const Node *n = p->exprs[0];
        if (n->kind == NK_Literal && !n->u.lit.v.is_null) {
            int64_t c = max_rows(p->kids[0]);
            return c >= 0 && c < n->u.lit.v.u.i ? c : n->u.lit.v.u.i;
        }
        return max_rows(p->kids[0]);
    }
    default: return -1;
    }
}

bool check_lateral_join(Analysis *an, const Node *join) {
    const Node *sub = join->exprs[0];
    if (plan_nondeterministic(sub->u.subq.plan)) {
        int64_t m = max_rows(join->kids[0]);
        if (m < 0 || m > 1) {
            an_fail(an, error_make(an->arena, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_DETERMINISTIC_LATERAL_SUBQUERIES",
                                   sub, "treeNode", plan_tree_string(an->arena, join), NULL));
            return false;
        }
    }
    if (join->nexprs > 1 && (join->exprs[1]->flags & NF_NONDETERMINISTIC)) {
        an_fail(an, error_make(an->arena, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.LATERAL_JOIN_CONDITION_NON_DETERMINISTIC",
                               join->exprs[1], "condition", expr_sql_quoted(an->arena, join->exprs[1]), NULL));
        return false;
    }
    return check_subquery_correlations(an, sub->u.subq.plan, true);
}

/* ---- where a subquery expression may be (Spark's checkSubqueryExpression) ---- */

static const Node *clean_scalar_query(const Node *p) {
    while (p->kind == NK_SubqueryAlias || p->kind == NK_Project || p->kind == NK_WithCTE) p = p->kids[p->nkids - 1];
    return p;
}

/* The outer attributes of a subquery expression must come from the host
 * operator's input (Spark's MISSING_ATTRIBUTES check, e.g. a HAVING
 * subquery naming a column that is not grouped). */
static bool check_outer_attrs_in_input(Analysis *an, const Node *e, const Node *host) {
    uint32_t first = e->kind == NK_InSubquery ? e->u.subq.nvalues : 0;
    if (first >= e->nkids) return true;
    AttrList in = plan_input(an, host);
    for (uint32_t k = first; k < e->nkids; k++) {
        const Node *a = e->kids[k];
        if (a->kind != NK_AttributeReference) continue;
        bool found = false;
        for (uint32_t i = 0; i < in.n && !found; i++)
            if (in.v[i]->u.attr.id == a->u.attr.id) found = true;
        if (found) continue;
        StrBuf sb;
        sb_init(&sb, an->arena, 64);
        for (uint32_t i = 0; i < in.n; i++) {
            if (i) sb_puts(&sb, ", ");
            sb_printf(&sb, "\"%s\"", in.v[i]->u.attr.name);
        }
        an_fail(an, error_make(an->arena, "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT", host,
                               "missingAttributes", arena_printf(an->arena, "\"%s\"", a->u.attr.name), "input",
                               sb_str(&sb), "operator", expr_to_string(an->arena, e), NULL));
        return false;
    }
    return true;
}

/* Every inner column of a correlated conjunct (Spark's legacy check under
 * spark.sql.legacy.scalarSubqueryAllowGroupByNonEqualityCorrelatedPredicate). */
static void inner_cols_of(const Node *e, AttrList *out, uint32_t cap) {
    if (e->kind == NK_OuterReference) return;
    if (e->kind == NK_AttributeReference) {
        if (out->n < cap) out->v[out->n++] = (Node *)e;
        return;
    }
    for (uint32_t i = 0; i < e->nkids; i++) inner_cols_of(e->kids[i], out, cap);
}

/* Inner columns equated to an outer reference by a correlated equality
 * (Spark's getCorrelatedEquivalentInnerColumns, simplified to Filters);
 * with legacy, the inner columns of any correlated conjunct. */
static void correlated_inner_cols(const Node *p, AttrList *out, uint32_t cap, bool legacy) {
    if (p->kind == NK_Filter) {
        const Node *stack[64];
        int sp = 0;
        stack[sp++] = p->exprs[0];
        while (sp) {
            const Node *c = stack[--sp];
            if (c->kind == NK_Call && c->nkids == 2 && c->u.call.def) {
                const char *fn = func_name(c->u.call.def);
                if (!strcmp(fn, "and") && sp < 62) {
                    stack[sp++] = c->kids[0];
                    stack[sp++] = c->kids[1];
                    continue;
                }
                if (legacy) {
                    if (contains_outer(c)) inner_cols_of(c, out, cap);
                    continue;
                }
                if (!strcmp(fn, "=") || !strcmp(fn, "<=>") || !strcmp(fn, "==")) {
                    for (int side = 0; side < 2; side++) {
                        const Node *l = c->kids[side], *r = c->kids[1 - side];
                        while (l->kind == NK_Cast) l = l->kids[0];
                        if (l->kind == NK_AttributeReference && contains_outer(r) && out->n < cap)
                            out->v[out->n++] = (Node *)l;
                    }
                }
            }
        }
    }
    for (uint32_t i = 0; i < p->nkids; i++) correlated_inner_cols(p->kids[i], out, cap, legacy);
}

/* A boolean session setting (default when unset). */
static bool conf_flag(const Analysis *an, const char *key, bool dflt) {
    const Conf *c = an->conf;
    for (int i = 0; i < c->nentries; i++)
        if (!strcasecmp(c->keys[i], key)) return strcasecmp(c->values[i], "false") != 0;
    return dflt;
}

static bool has_aggregate_fn(const Node *agg) {
    for (uint32_t i = 0; i < agg->nexprs; i++)
        if (expr_has_kind(agg->exprs[i], KIND_MASK(NK_AggregateExpression))) return true;
    return false;
}

/* GROUP BY columns of a correlated scalar subquery must be correlated. */
static bool check_scalar_aggregate(Analysis *an, const Node *e, const Node *plan, const Node *agg) {
    if (!has_aggregate_fn(agg)) {
        an_fail(an, error_make(an->arena, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.MUST_AGGREGATE_CORRELATED_SCALAR_SUBQUERY",
                               e, NULL));
        return false;
    }
    AttrList eq = {0, ARENA_ARRAY(an->arena, Node *, 64)};
    correlated_inner_cols(plan, &eq, 64,
                          conf_flag(an, "spark.sql.legacy.scalarSubqueryAllowGroupByNonEqualityCorrelatedPredicate", false));
    StrBuf bad;
    sb_init(&bad, an->arena, 32);
    for (uint32_t g = 0; g < agg->u.aggregate.ngroup; g++) {
        AttrList refs = {0, ARENA_ARRAY(an->arena, Node *, 32)};
        const Node *stack[64];
        int sp = 0;
        stack[sp++] = agg->exprs[g];
        while (sp) {
            const Node *n = stack[--sp];
            if (n->kind == NK_OuterReference) continue;
            if (n->kind == NK_AttributeReference) {
                if (refs.n < 32) refs.v[refs.n++] = (Node *)n;
                continue;
            }
            for (uint32_t k = 0; k < n->nkids && sp < 64; k++) stack[sp++] = n->kids[k];
        }
        for (uint32_t r = 0; r < refs.n; r++) {
            bool ok = false;
            for (uint32_t k = 0; k < eq.n && !ok; k++) ok = eq.v[k]->u.attr.id == refs.v[r]->u.attr.id;
            if (ok) continue;
            if (bad.len) sb_putc(&bad, ',');
            sb_puts(&bad, refs.v[r]->u.attr.name);
        }
    }
    if (!bad.len) return true;
    an_fail(an, error_make(an->arena, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_CORRELATED_COLUMNS_IN_GROUP_BY", e,
                           "value", sb_str(&bad), NULL));
    return false;
}

static bool lambda_has_subquery(const Node *e) {
    if (e->kind == NK_LambdaFunction)
        return expr_has_kind(e, KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_InSubquery, NK_ListQuery));
    for (uint32_t i = 0; i < e->nkids; i++)
        if (lambda_has_subquery(e->kids[i])) return true;
    return false;
}

/* spark.sql.optimizer.scalarSubqueryUseSingleJoin (true by default in Spark 4):
 * a correlated scalar subquery that may return several rows is executed
 * with a single-row join, so the aggregation checks below only apply when
 * it is turned off. */
static bool scalar_single_join(const Analysis *an) {
    return conf_flag(an, "spark.sql.optimizer.scalarSubqueryUseSingleJoin", true);
}

bool check_subquery_host(Analysis *an, const Node *e, const Node *host) {
    if (!check_outer_attrs_in_input(an, e, host)) return false;
    for (uint32_t i = 0; i < host->nexprs; i++)
        if (kind_mask_has(host->exprs[i]->mask, NK_LambdaFunction) && lambda_has_subquery(host->exprs[i])) {
            an_fail(an, error_make(an->arena, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.HIGHER_ORDER_FUNCTION", e, NULL));
            return false;
        }
    switch (e->kind) {
    case NK_LateralSubquery: return host->kind != NK_LateralJoin || check_lateral_join(an, host);
    case NK_ScalarSubquery: {
        uint32_t nouter = e->nkids;
        if (!nouter) return check_subquery_correlations(an, e->u.subq.plan, false);
        const Node *plan = e->u.subq.plan;
        int64_t m = max_rows(plan);
        /* a CTE reference's row count is the definition's: not known here */
        if ((m < 0 || m > 1) && !kind_mask_has(plan->mask, NK_CTERelationRef) && !scalar_single_join(an)) {
            const Node *q = clean_scalar_query(plan);
            if (q->kind == NK_Filter && q->kids[0]->kind == NK_Aggregate) q = q->kids[0];
            int64_t qm = max_rows(q);
            if (q->kind == NK_Aggregate && !check_scalar_aggregate(an, e, plan, q)) return false;
            if (q->kind != NK_Aggregate && !(qm >= 0 && qm <= 1)) {
                an_fail(an, error_make(an->arena,
                                       "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.MUST_AGGREGATE_CORRELATED_SCALAR_SUBQUERY",
                                       e, NULL));
                return false;
            }
        }
        if (host->kind != NK_Filter && host->kind != NK_Aggregate && host->kind != NK_Project) {
            an_fail(an, error_make(an->arena,
                                   "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_CORRELATED_SCALAR_SUBQUERY", e,
                                   "treeNode", plan_tree_string(an->arena, host), NULL));
            return false;
        }
        return check_subquery_correlations(an, plan, false);
    }
    case NK_Exists:
    case NK_InSubquery:
    case NK_ListQuery:
        if (host->kind == NK_Filter || host->kind == NK_Join || host->kind == NK_Project ||
            host->kind == NK_Aggregate || host->kind == NK_Window)
            return check_subquery_correlations(an, e->u.subq.plan, false);
        an_fail(an, error_make(an->arena, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_IN_EXISTS_SUBQUERY", e,
                               "treeNode", plan_tree_string(an->arena, host), NULL));
        return false;
    default: return true;
    }
}
