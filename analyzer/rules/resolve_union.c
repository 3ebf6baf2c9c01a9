/* ResolveUnion — Spark's Analyzer.ResolveUnion: a union by name
 * (Dataset.unionByName) becomes a positional union, each later side
 * projected into the first side's column order by name; with
 * allowMissingColumns a column one side lacks is a null there.
 *
 *   Union true, false                 Union false, false
 *   :- Project [id#1, a#2]            :- Project [id#1, a#2]
 *   +- Project [a#3, id#4]      =>    +- Project [id#4, a#3]
 *                                        +- Project [a#3, id#4]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "core/walk.h"
#include "rules/lib/builders.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"

static Node *null_of(Analysis *an, const DataType *t) {
    Node *n = node_new(an->arena, NK_Literal, -1, -1);
    n->u.lit.v.type = t;
    n->u.lit.v.is_null = true;
    n->type = t;
    n->flags |= NF_NULLABLE;
    return node_finish(n);
}

static Node *find(Analysis *an, AttrList l, const char *name) {
    for (uint32_t i = 0; i < l.n; i++)
        if (ident_eq(an, l.v[i]->u.attr.name, name)) return l.v[i];
    return NULL;
}

static const char *names_of(Analysis *an, AttrList l) {
    StrBuf sb;
    sb_init(&sb, an->arena, 64);
    for (uint32_t i = 0; i < l.n; i++) sb_printf(&sb, "%s%s", i ? ", " : "", l.v[i]->u.attr.name);
    return sb.data;
}

/* `right`'s columns in `left`'s order (compareAndAddFields); the ones left has no name for
   go last, for CheckAnalysis to report */
static Node *project_by_name(Analysis *an, Node *left, Node *right, bool allow_missing, const Node *at) {
    AttrList lo = plan_output(an, left), ro = plan_output(an, right);
    Node **items = ARENA_ARRAY(an->arena, Node *, lo.n + ro.n + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < lo.n; i++) {
        Node *r = find(an, ro, lo.v[i]->u.attr.name);
        if (r) items[n++] = r;
        else if (allow_missing) items[n++] = make_alias(an, null_of(an, lo.v[i]->type), lo.v[i]->u.attr.name, false);
        else
            return an_fail(an, error_make(an->arena, "_LEGACY_ERROR_TEMP_1201", at, "colName", lo.v[i]->u.attr.name,
                                          "fieldNames", names_of(an, ro), NULL));
    }
    /* with allowMissingColumns the left side gets these as nulls (below); without, CheckAnalysis
       reports the mismatch */
    for (uint32_t i = 0; i < ro.n; i++)
        if (!find(an, lo, ro.v[i]->u.attr.name)) items[n++] = ro.v[i];
    return make_project(an, right, items, n);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind != NK_Union || !p->u.setop.by_name || !children_resolved(p)) return p;
    bool allow = p->u.setop.allow_missing;
    Node *acc = p->kids[0];
    for (uint32_t k = 1; k < p->nkids; k++) {
        Node *right = project_by_name(an, acc, p->kids[k], allow, p);
        if (!right) return p;
        Node *left = acc;
        if (allow) {
            /* the left side gets the right side's extra columns as nulls */
            Node *l = project_by_name(an, right, acc, true, p);
            if (!l) return p;
            if (plan_output(an, l).n != plan_output(an, acc).n) left = l;
        }
        Node *u = node_new(an->arena, NK_Union, p->start, p->stop);
        u->u.setop = p->u.setop;
        u->u.setop.by_name = false;
        u->u.setop.allow_missing = false;
        Node *kids[2] = {left, right};
        node_set_kids(an->arena, u, kids, 2);
        acc = node_finish(u);
    }
    return acc;
}

static Node *apply(Analysis *an, Node *plan) {
    Node *r = transform(an->arena, plan, 0, KIND_MASK(NK_Union), rewrite, an);
    return r ? r : plan;
}

const Rule RULE_RESOLVE_UNION = {
    .name = "ResolveUnion",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.ResolveUnion",
    .kinds = {NK_Union},
    .nkinds = 1,
    .apply = apply,
};
