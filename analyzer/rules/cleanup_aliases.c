/* CleanupAliases — Spark's CleanupAliases: an alias means something only at
 * the top of a select list (it names an output column). Anywhere else — inside
 * an expression, in GROUP BY, PARTITION BY / ORDER BY of a window, in a filter
 * or a join condition — it is removed once analysis is done.
 *
 *   Project [(a#1 AS x#2 + 1) AS y#3]           Project [(a#1 + 1) AS y#3]
 *   +- Filter (b#4 AS c#5 > 0)           =>     +- Filter (b#4 > 0)
 */
#include "rule.h"
#include "rules.h"
#include "core/walk.h"

static Node *strip_alias(Node *e, void *ctx) {
    (void)ctx;
    return e->kind == NK_Alias ? e->kids[0] : e;
}

/* All aliases in e removed (Spark's trimAliases). */
static Node *trim_aliases(Analysis *an, Node *e) {
    /* bottom-up: an alias over an alias collapses too */
    return transform(an->arena, e, 0, KIND_MASK(NK_Alias), strip_alias, NULL);
}

/* Aliases below the top of e removed (Spark's trimNonTopLevelAliases). */
static Node *trim_non_top_level(Analysis *an, Node *e) {
    if (e->kind != NK_Alias) return trim_aliases(an, e);
    Node *k = trim_aliases(an, e->kids[0]);
    return node_with_kid(an->arena, e, 0, k);
}

static Node *cleanup(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (!p->nexprs || node_kind_is_command(p->kind) || p->kind == NK_UnresolvedIdentifierPlan) return p;
    uint32_t top_from = 0, top_to = 0; /* the exprs whose top-level alias names an output */
    switch (p->kind) {
    case NK_Project: top_to = p->nexprs; break;
    case NK_Aggregate: top_from = p->u.aggregate.ngroup, top_to = p->nexprs; break;
    case NK_Window: top_to = p->u.window.nwindow; break;
    case NK_Expand:
    case NK_Generate:
    case NK_Relation:
    case NK_LocalRelation:
    case NK_Range:
    case NK_CTERelationRef:
    case NK_View: return p; /* attributes and generators only */
    default: break;
    }
    Node *stack[16];
    Node **out = p->nexprs <= 16 ? stack : ARENA_ARRAY(an->arena, Node *, p->nexprs);
    for (uint32_t i = 0; i < p->nexprs; i++) {
        Node *e = p->exprs[i];
        if (!kind_mask_has(e->mask, NK_Alias)) out[i] = e;
        else if (i >= top_from && i < top_to) out[i] = trim_non_top_level(an, e);
        else out[i] = trim_aliases(an, e);
    }
    return node_with_exprs(an->arena, p, out, p->nexprs);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_Alias), cleanup, an);
}

const Rule RULE_CLEANUP_ALIASES = {
    .name = "CleanupAliases",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.CleanupAliases",
    .kinds = {NK_Alias},
    .nkinds = 1,
    .apply = apply,
};
