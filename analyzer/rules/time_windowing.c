/* TimeWindowing — Spark's TimeWindowing and SessionWindowing rules, for the
 * tumbling case: an operator using window(ts, '5 minutes') or
 * session_window(ts, gap) gets a Project below it that computes the window
 * struct<start: timestamp, end: timestamp> as a column named `window` /
 * `session_window` over the rows whose time is not null, and the call is
 * replaced by that column — so `window.start` and GROUP BY window(...) resolve.
 * (Spark computes the struct from the time column arithmetically and expands
 * rows for sliding windows; here the struct is the window call itself.)
 *
 *   Aggregate [a#1, window(b#2, 5 minutes)], [a#1, count(1) AS cnt#3L]
 *   +- R[a#1,b#2]
 *     =>
 *   Aggregate [a#1, window#4], [a#1, count(1) AS cnt#3L]
 *   +- Project [window(b#2, 5 minutes) AS window#4, a#1, b#2]
 *      +- Filter isnotnull(b#2)
 *         +- R[a#1,b#2]
 */
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "functions/functions.h"
#include "rules/lib/builders.h"
#include "rules/lib/plan_inputs.h"
#include "rules/lib/semantic_equal.h"
#include "core/walk.h"

static bool is_time_window(const Node *e) {
    if (e->kind != NK_Call || !e->u.call.def) return false;
    const char *n = func_name(e->u.call.def);
    return !strcasecmp(n, "window") || !strcasecmp(n, "session_window");
}

typedef struct Find {
    const Node *found;
    int distinct;
} Find;

static WalkResult find_window(const Node *n, void *ctx) {
    Find *f = ctx;
    if (!(n->flags & NF_TIME_WINDOW_CALL)) return WALK_PRUNE;
    if (!is_time_window(n)) return WALK_CONTINUE;
    if (!f->found) {
        f->found = n;
        f->distinct = 1;
    } else if (!expr_semantic_equal(f->found, n)) {
        f->distinct++;
    }
    return WALK_PRUNE;
}

typedef struct Swap {
    const Node *call;
    Node *attr;
} Swap;

static Node *swap(Node *e, void *ctx) {
    Swap *s = ctx;
    return is_time_window(e) && expr_semantic_equal(e, s->call) ? s->attr : e;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->nkids != 1 || !p->nexprs || !children_resolved(p)) return p;
    /* the Project this rule built computes the window: leave it */
    if (p->kind == NK_Project && p->exprs[0]->kind == NK_Alias && is_time_window(p->exprs[0]->kids[0])) return p;
    Find f = {NULL, 0};
    for (uint32_t i = 0; i < p->nexprs; i++) node_walk(p->exprs[i], 0, find_window, &f);
    if (!f.found || f.distinct != 1 || !node_resolved(f.found) || !f.found->nkids) return p;
    Node *call = (Node *)f.found;
    const char *name = !strcasecmp(func_name(call->u.call.def), "window") ? "window" : "session_window";
    Node *alias = make_alias(an, call, name, false);
    Node *attr = to_attribute(an, alias);
    /* rows without a time belong to no window */
    Node *cond = make_call(an, "isnotnull", false, &call->kids[0], 1, call->start, call->stop);
    if (!cond) return p;
    Node *child = p->kids[0];
    Node *filter = node_new(an->arena, NK_Filter, child->start, child->stop);
    node_set_exprs(an->arena, filter, &cond, 1);
    node_set_kids(an->arena, filter, &child, 1);
    filter = node_finish(filter);
    AttrList out = plan_output(an, child);
    Node **list = ARENA_ARRAY(an->arena, Node *, out.n + 1);
    list[0] = alias;
    for (uint32_t i = 0; i < out.n; i++) list[i + 1] = out.v[i];
    Node *proj = make_project(an, filter, list, out.n + 1);
    Swap s = {call, attr};
    Node *np = transform(an->arena, p, TX_NODE_EXPRS, KIND_MASK(NK_Call), swap, &s);
    return node_with_kid(an->arena, np, 0, proj);
}

static Node *apply(Analysis *an, Node *plan) {
    if (!(plan->flags & NF_TIME_WINDOW_CALL)) return plan; /* no window() call anywhere: nothing to do */
    return transform(an->arena, plan, 0, KIND_MASK(NK_Call), rewrite, an);
}

const Rule RULE_TIME_WINDOWING = {
    .name = "TimeWindowing",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.TimeWindowing",
    .kinds = {NK_Call},
    .nkinds = 1,
    .apply = apply,
};
