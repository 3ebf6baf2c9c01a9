/* ResolveAliases — Spark's Analyzer.ResolveAliases: a select item without a
 * name gets Spark's automatic name (toPrettySQL), and user aliases get their
 * expression id and type once their child is resolved.
 *
 *   Project [unresolvedalias((a#1 + 1))]    =>    Project [(a#1 + 1) AS (a + 1)#2]
 */
#include "rule.h"
#include "rules.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "core/walk.h"

static Node *resolve_alias(Node *e, void *ctx) {
    Analysis *an = ctx;
    if (e->kind == NK_UnresolvedAlias) {
        Node *c = e->kids[0];
        if (!node_resolved(c)) return e;
        /* a named expression keeps its name */
        if (c->kind == NK_AttributeReference || c->kind == NK_Alias) return c;
        Node *a = make_alias(an, c, expr_auto_name(an->arena, c), true);
        Node *p = node_copy(an->arena, a);
        p->start = e->start;
        p->stop = e->stop;
        return node_finish(p);
    }
    if (e->kind == NK_Alias && !e->type && node_resolved(e->kids[0])) {
        Node *a = node_copy(an->arena, e);
        if (!a->u.attr.id) a->u.attr.id = an_new_id(an);
        a->type = e->kids[0]->type;
        a->flags = (a->flags & ~(uint32_t)NF_NULLABLE) | (e->kids[0]->flags & NF_NULLABLE);
        return node_finish(a);
    }
    return e;
}

/* A user alias (`expr AS name`) is Spark's Alias, resolved the moment its
 * child is; ResolveReferences calls this so the operator above sees it. */
static Node *resolve_user_alias(Node *e, void *ctx) {
    return e->kind == NK_Alias ? resolve_alias(e, ctx) : e;
}

Node *resolve_user_aliases(Analysis *an, Node *p) {
    if (an_failed(an)) return p;
    return transform(an->arena, p, TX_NODE_EXPRS | TX_SKIP_RESOLVED, KIND_MASK(NK_Alias), resolve_user_alias, an);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    return transform(an->arena, p, TX_NODE_EXPRS | TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedAlias, NK_Alias), resolve_alias, an);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedAlias, NK_Alias), rewrite, an);
}

const Rule RULE_RESOLVE_ALIASES = {
    .name = "ResolveAliases",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveAliases",
    .kinds = {NK_UnresolvedAlias, NK_Alias},
    .nkinds = 2,
    .apply = apply,
};
