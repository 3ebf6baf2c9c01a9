/* ResolveNaturalAndUsingJoin — Spark's Analyzer.ResolveNaturalAndUsingJoin:
 * `JOIN ... USING (k)` and NATURAL JOIN become a join on equality of the key
 * columns with a Project giving Spark's column order: the keys (from the
 * left, the right for a right join, coalesced for a full join), then the
 * other left columns, then the other right columns. The other side's keys
 * stay reachable by qualified name as the Project's hidden output
 * (AddMetadataColumns adds them to the list where they are used).
 *
 *   Join UsingJoin(Inner, [k])          Project [k#1, v1#2, v2#4]
 *   :- Relation l[k#1,v1#2]      =>     +- Join Inner, (k#1 = k#3)
 *   +- Relation r[k#3,v2#4]                :- Relation l[k#1,v1#2]
 *                                          +- Relation r[k#3,v2#4]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "rules/lib/builders.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/scope.h"
#include "core/walk.h"

/* The first visible column called name: the hidden (qualified-access-only)
 * key columns an earlier USING/NATURAL join left are not part of a side's
 * output in Spark, so they are never join keys. */
static Node *find(Analysis *an, AttrList l, const char *name) {
    for (uint32_t i = 0; i < l.n; i++)
        if (!l.v[i]->u.attr.metadata_col && ident_eq(an, l.v[i]->u.attr.name, name)) return l.v[i];
    return NULL;
}

static bool contains(Node *const *v, uint32_t n, const Node *a) {
    for (uint32_t i = 0; i < n; i++)
        if (v[i]->u.attr.id == a->u.attr.id) return true;
    return false;
}

static Node *equality(Analysis *an, Node *l, Node *r) {
    Node *args[2] = {l, r};
    return make_unresolved_call(an, name_parts1(an->arena, "="), true, args, 2, -1, -1);
}

static Node *and_join(Analysis *an, Node *a, Node *b) {
    if (!a) return b;
    Node *args[2] = {a, b};
    return make_unresolved_call(an, name_parts1(an->arena, "and"), true, args, 2, -1, -1);
}

static Node *hidden(Analysis *an, Node *a, bool nullable) {
    Node *c = node_copy(an->arena, attr_with_nullable(an, a, nullable || expr_nullable(a)));
    c->u.attr.metadata_col = true;
    return node_finish(c);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind != NK_Join || (!p->u.join.natural && !p->u.join.nusing)) return p;
    if (!children_resolved(p)) return p;
    AttrList lo = plan_output(an, p->kids[0]), ro = plan_output(an, p->kids[1]);
    uint32_t nk = 0;
    Node **lk = ARENA_ARRAY(an->arena, Node *, lo.n + 1), **rk = ARENA_ARRAY(an->arena, Node *, lo.n + 1);
    if (p->u.join.natural) {
        /* the names both sides have, once each, in the left's order (Spark's
           left.output.map(_.name).intersect(right.output.map(_.name))) */
        for (uint32_t i = 0; i < lo.n; i++) {
            if (lo.v[i]->u.attr.metadata_col || find(an, (AttrList){nk, lk, NULL}, lo.v[i]->u.attr.name)) continue;
            Node *r = find(an, ro, lo.v[i]->u.attr.name);
            if (r) {
                lk[nk] = lo.v[i];
                rk[nk++] = r;
            }
        }
    } else {
        lk = ARENA_ARRAY(an->arena, Node *, p->u.join.nusing + 1);
        rk = ARENA_ARRAY(an->arena, Node *, p->u.join.nusing + 1);
        for (uint32_t i = 0; i < p->u.join.nusing; i++) {
            const char *c = p->u.join.using_cols[i];
            Node *l = find(an, lo, c), *r = find(an, ro, c);
            if (!l || !r) {
                AttrList side = l ? ro : lo;
                StrBuf sb;
                sb_init(&sb, an->arena, 64);
                for (uint32_t k = 0; k < side.n; k++) {
                    if (k) sb_puts(&sb, ", ");
                    sb_put_quoted_ident(&sb, side.v[k]->u.attr.name);
                }
                return an_fail(an, error_make(an->arena, "UNRESOLVED_USING_COLUMN_FOR_JOIN", p, "colName",
                                              sql_ident(an->arena, c), "side", l ? "right" : "left", "suggestion",
                                              sb_str(&sb), NULL));
            }
            lk[nk] = l;
            rk[nk++] = r;
        }
    }
    Node *cond = NULL;
    for (uint32_t i = 0; i < nk; i++) cond = and_join(an, cond, equality(an, lk[i], rk[i]));
    if (p->nexprs) cond = and_join(an, cond, p->exprs[0]);
    Node *j = node_copy(an->arena, p);
    j->u.join.natural = false;
    j->u.join.nusing = 0;
    j->u.join.using_cols = NULL;
    if (j->u.join.type == JOIN_CROSS) j->u.join.type = JOIN_INNER;
    node_set_exprs(an->arena, j, &cond, cond ? 1 : 0);
    j = node_finish(j);
    JoinType t = p->u.join.type;
    bool lnull = t == JOIN_RIGHT_OUTER || t == JOIN_FULL_OUTER, rnull = t == JOIN_LEFT_OUTER || t == JOIN_FULL_OUTER;
    uint32_t cap = lo.n + ro.n + 1, n = 0;
    Node **items = ARENA_ARRAY(an->arena, Node *, cap);
    for (uint32_t i = 0; i < nk; i++) {
        if (t == JOIN_RIGHT_OUTER) items[n++] = rk[i];
        else if (t == JOIN_FULL_OUTER) {
            Node *args[2] = {lk[i], rk[i]};
            Node *fc = make_unresolved_call(an, name_parts1(an->arena, "coalesce"), false, args, 2, -1, -1);
            Node *al = node_new(an->arena, NK_Alias, -1, -1);
            al->u.attr.name = lk[i]->u.attr.name;
            node_set_kids(an->arena, al, &fc, 1);
            items[n++] = node_finish(al);
        } else items[n++] = lk[i];
    }
    for (uint32_t i = 0; i < lo.n; i++)
        if (!contains(lk, nk, lo.v[i])) items[n++] = lnull ? attr_with_nullable(an, lo.v[i], true) : lo.v[i];
    if (t != JOIN_LEFT_SEMI && t != JOIN_LEFT_ANTI)
        for (uint32_t i = 0; i < ro.n; i++)
            if (!contains(rk, nk, ro.v[i])) items[n++] = rnull ? attr_with_nullable(an, ro.v[i], true) : ro.v[i];
    /* the keys the Project drops stay reachable by qualified name only: its
       hidden output (Spark's Project.hiddenOutputTag), with the hidden keys
       of the joins below */
    AttrList below = plan_metadata_output(an, j);
    Node **hid = ARENA_ARRAY(an->arena, Node *, 2 * nk + below.n + 1);
    uint32_t nh = 0;
    for (uint32_t i = 0; i < nk; i++) {
        if (t == JOIN_RIGHT_OUTER) hid[nh++] = hidden(an, lk[i], true);
        else if (t == JOIN_FULL_OUTER) {
            hid[nh++] = hidden(an, lk[i], true);
            hid[nh++] = hidden(an, rk[i], true);
        } else if (t != JOIN_LEFT_SEMI && t != JOIN_LEFT_ANTI) hid[nh++] = hidden(an, rk[i], rnull);
    }
    for (uint32_t i = 0; i < below.n; i++)
        if (below.v[i]->u.attr.metadata_col) hid[nh++] = below.v[i];
    Node *proj = node_copy(an->arena, make_project(an, j, items, n));
    proj->u.project.has_hidden = true;
    proj->u.project.nhidden = nh;
    proj->u.project.hidden = hid;
    return node_finish(proj);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, 0, KIND_MASK(NK_Join), rewrite, an);
}

const Rule RULE_RESOLVE_USING_JOIN = {
    .name = "ResolveNaturalAndUsingJoin",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveNaturalAndUsingJoin",
    .kinds = {NK_Join},
    .nkinds = 1,
    .apply = apply,
};
