#include <criterion/criterion.h>
#include <string.h>

#include "core/func_sig.h"
#include "core/ir.h"
#include "core/walk.h"

static Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }
TestSuite(ir, .init = setup, .fini = teardown);

static Node *attr(const char *name, ExprId id) {
    Node *n = node_new(A, NK_AttributeReference, 0, 0);
    n->u.attr.name = name;
    n->u.attr.id = id;
    n->type = &TYPE_INT;
    return node_finish(n);
}

static Node *unresolved(const char *name) {
    Node *n = node_new(A, NK_UnresolvedAttribute, 0, 0);
    n->u.un.name = name_parts1(A, name);
    return node_finish(n);
}

static Node *project(Node *child, int n, Node **exprs) {
    Node *p = node_new(A, NK_Project, 0, 0);
    node_set_exprs(A, p, exprs, (uint32_t)n);
    node_set_kids(A, p, &child, 1);
    return node_finish(p);
}

Test(ir, kind_names_and_categories) {
    cr_expect_str_eq(node_kind_name(NK_Project), "Project");
    cr_expect(node_kind_is_plan(NK_Project));
    cr_expect(!node_kind_is_plan(NK_Alias));
    cr_expect(node_kind_is_unresolved(NK_UnresolvedRelation));
    cr_expect(node_kind_is_command(NK_CreateView));
}

Test(ir, resolved_and_mask) {
    Node *one = node_finish(node_new(A, NK_OneRowRelation, 0, 0));
    Node *a = attr("a", 1);
    Node *p = project(one, 1, &a);
    cr_expect(node_resolved(p));
    Node *u = unresolved("b");
    Node *q = project(p, 1, &u);
    cr_expect(!node_resolved(q));
    cr_expect(kind_mask_has(q->mask, NK_UnresolvedAttribute));
    cr_expect(kind_mask_has(q->mask, NK_OneRowRelation));
    cr_expect(!kind_mask_has(p->mask, NK_UnresolvedAttribute));
}

static Node *call_of(const FuncSig *sig, Node *arg) {
    Node *c = node_new(A, NK_Call, 0, 0);
    c->u.call.def = (const struct FuncDef *)(const void *)sig;
    c->type = &TYPE_INT;
    node_set_kids(A, c, &arg, 1);
    return node_finish(c);
}

/* The tree-pattern bits rules test before walking a plan: set by the call
 * itself, ORed up through expressions, plans and subquery plans. */
Test(ir, tree_patterns) {
    static const FuncSig WINDOW = {.name = "window", .kind = FK_SCALAR, .flags = FD_TIME_WINDOW};
    static const FuncSig EXPLODE = {.name = "explode", .kind = FK_GENERATOR};
    static const FuncSig ABS = {.name = "abs", .kind = FK_SCALAR};
    Node *one = node_finish(node_new(A, NK_OneRowRelation, 0, 0));
    Node *w = call_of(&WINDOW, attr("t", 1));
    cr_expect(w->flags & NF_TIME_WINDOW_CALL);
    cr_expect(!(w->flags & NF_GENERATOR_CALL));
    static const FuncSig GROUPING = {.name = "grouping", .kind = FK_SCALAR, .flags = FD_GROUPING};
    cr_expect(call_of(&GROUPING, attr("g", 4))->flags & NF_GROUPING_CALL);
    static const FuncSig LAG = {.name = "lag", .kind = FK_WINDOW};
    cr_expect(call_of(&LAG, attr("l", 5))->flags & NF_WINDOW_FN_CALL);
    Node *outer = call_of(&ABS, w);
    Node *p = project(one, 1, &outer);
    cr_expect(p->flags & NF_TIME_WINDOW_CALL);
    Node *plain = call_of(&ABS, attr("a", 2));
    Node *q = project(one, 1, &plain);
    cr_expect(!(q->flags & NF_PATTERNS));
    Node *g = call_of(&EXPLODE, attr("xs", 3));
    Node *sq = node_new(A, NK_ScalarSubquery, 0, 0);
    sq->u.subq.plan = project(one, 1, &g);
    sq->type = &TYPE_INT;
    sq = node_finish(sq);
    cr_expect(sq->flags & NF_GENERATOR_CALL);
    cr_expect(node_resolved(sq));
    /* a copy that drops the call drops the pattern */
    Node *c = node_copy(A, p);
    node_set_exprs(A, c, &plain, 1);
    cr_expect(!(node_finish(c)->flags & NF_PATTERNS));
}

static Node *resolve_b(Node *n, void *ctx) {
    (void)ctx;
    if (n->kind == NK_UnresolvedAttribute) return attr("b", 2);
    return n;
}

static int visits;
static Node *count_visits(Node *n, void *ctx) {
    (void)ctx;
    visits++;
    return n;
}

Test(ir, transform_is_copy_on_write) {
    Node *one = node_finish(node_new(A, NK_OneRowRelation, 0, 0));
    Node *a = attr("a", 1);
    Node *inner = project(one, 1, &a);
    Node *u = unresolved("b");
    Node *outer = project(inner, 1, &u);

    Node *r = transform(A, outer, TX_NODE_EXPRS, KIND_MASK(NK_UnresolvedAttribute), resolve_b, NULL);
    cr_expect_neq(r, outer);
    cr_expect_eq(r->kids[0], inner, "unchanged child is shared");
    cr_expect(node_resolved(r));
    cr_expect_eq(outer->exprs[0], u, "the original is untouched");

    /* a transform that changes nothing returns the same pointer */
    Node *same = transform(A, r, TX_NODE_EXPRS, KIND_MASK(NK_UnresolvedAttribute), resolve_b, NULL);
    cr_expect_eq(same, r);

    /* subtrees without the rule's kinds are not visited */
    visits = 0;
    transform(A, r, 0, KIND_MASK(NK_Filter), count_visits, NULL);
    cr_expect_eq(visits, 0);
    transform(A, r, 0, KIND_MASK(NK_OneRowRelation), count_visits, NULL);
    cr_expect_eq(visits, 3);
}

static WalkResult count_walk(const Node *n, void *ctx) {
    (void)n;
    (*(int *)ctx)++;
    return WALK_CONTINUE;
}

Test(ir, walker_visits_exprs_on_request) {
    Node *one = node_finish(node_new(A, NK_OneRowRelation, 0, 0));
    Node *es[2] = {attr("a", 1), attr("b", 2)};
    Node *p = project(one, 2, es);
    int n = 0;
    node_walk(p, 0, count_walk, &n);
    cr_expect_eq(n, 2);
    n = 0;
    node_walk(p, WALK_EXPRS, count_walk, &n);
    cr_expect_eq(n, 4);
}

Test(ir, arena_counts_and_budget) {
    Arena *b = arena_new(1024);
    for (int i = 0; i < 1000; i++) arena_alloc(b, 100);
    cr_expect_geq(arena_used(b), 100000);
    arena_reset(b);
    cr_expect_eq(arena_used(b), 0);
    arena_free(b);
}
