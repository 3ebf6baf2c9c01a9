/* Robustness: random trees of every node kind, with kind-specific counts that
 * disagree with the children (as a faulty decoder might send), print in every
 * style without crashing. Fixed seed, so failures reproduce
 * (PRINT_FUZZ_SEED picks another). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "nodes.h"
#include "print/printer.h"

Arena *A;
static void setup(void) { A = arena_new(0); }
static void teardown(void) { arena_free(A); }
TestSuite(fuzz, .init = setup, .fini = teardown);

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(uint32_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? (uint32_t)(rng % n) : 0;
}

static const DataType *rnd_type(void) {
    static const DataType *const t[] = {&TYPE_INT, &TYPE_LONG, &TYPE_STRING, &TYPE_DOUBLE, &TYPE_BOOLEAN, NULL};
    return t[rnd(6)];
}

static Node *rnd_node(int depth);

static void fill_kind_fields(Node *n, int depth) {
    switch (n->kind) {
    case NK_Literal:
        n->u.lit.v.type = rnd(2) ? &TYPE_INT : &TYPE_STRING;
        if (n->u.lit.v.type == &TYPE_STRING) {
            n->u.lit.v.u.s.p = "s";
            n->u.lit.v.u.s.len = 1;
        }
        n->u.lit.v.is_null = rnd(4) == 0;
        break;
    case NK_UnresolvedAttribute:
    case NK_UnresolvedStar:
    case NK_UnresolvedFunction:
    case NK_UnresolvedNamedLambdaVariable:
    case NK_UnresolvedWindowExpression:
    case NK_UnresolvedRelation:
    case NK_UnresolvedTableValuedFunction: {
        static const char *const names[] = {"+", "-", "not", "<>", "isnull", "like", "in", "count", "a", "and"};
        n->u.un.name = rnd(5) ? name_parts1(A, names[rnd(10)]) : (NameParts){0, NULL};
        n->u.un.nargs = rnd(4);
        n->u.un.norder = rnd(2);
        n->u.un.is_operator = rnd(2);
        break;
    }
    case NK_Alias:
    case NK_AttributeReference:
    case NK_NamedLambdaVariable:
    case NK_VariableReference: n->u.attr.name = rnd(4) ? "x" : NULL; break;
    case NK_LateralColumnAliasReference: n->u.lca.name = rnd(2) ? name_parts1(A, "l") : (NameParts){0, NULL}; break;
    case NK_CaseWhen: n->u.casew.has_else = rnd(2); break;
    case NK_InSubquery:
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_ListQuery:
    case NK_LateralSubquery:
        n->u.subq.nvalues = rnd(4);
        n->u.subq.plan = rnd(2) && depth < 4 ? rnd_node(depth + 1) : NULL;
        break;
    case NK_WindowSpecDefinition:
        n->u.wspec.npartition = rnd(3);
        n->u.wspec.norder = rnd(3);
        n->u.wspec.has_frame = rnd(2);
        break;
    case NK_Aggregate: n->u.aggregate.ngroup = rnd(4); break;
    case NK_Window:
        n->u.window.nwindow = rnd(3);
        n->u.window.npartition = rnd(3);
        n->u.window.norder = rnd(3);
        break;
    case NK_Expand:
        n->u.expand.noutput = rnd(4);
        n->u.expand.nprojections = rnd(4);
        break;
    case NK_SubqueryAlias: n->u.alias.name = name_parts1(A, "q"); break;
    case NK_LocalRelation: n->u.local.nrows = rnd(2); break;
    case NK_ExecuteImmediate: n->u.ddl.nusing = rnd(4); break;
    default: break;
    }
}

static Node *rnd_node(int depth) {
    NodeKind k = (NodeKind)rnd(NK_COUNT_);
    Node *n = node_new(A, k, -1, -1);
    fill_kind_fields(n, depth);
    n->type = rnd_type();
    if (depth < 4) {
        uint32_t nk = rnd(4), ne = rnd(4);
        Node *kids[4], *exprs[4];
        for (uint32_t i = 0; i < nk; i++) kids[i] = rnd_node(depth + 1);
        for (uint32_t i = 0; i < ne; i++) exprs[i] = rnd_node(depth + 1);
        node_set_kids(A, n, kids, nk);
        node_set_exprs(A, n, exprs, ne);
    }
    return node_finish(n);
}

Test(fuzz, random_trees_print) {
    /* PRINT_FUZZ_SEED=n explores other trees */
    const char *seed = getenv("PRINT_FUZZ_SEED");
    if (seed && *seed) rng = strtoull(seed, NULL, 10) | 1;
    for (int i = 0; i < 20000; i++) {
        Node *n = rnd_node(0);
        cr_assert(plan_tree_string(A, n) != NULL);
        cr_assert(expr_to_string(A, n) != NULL);
        cr_assert(expr_auto_name(A, n) != NULL);
        cr_assert(expr_sql_quoted(A, n) != NULL);
        Node *v[] = {n};
        cr_assert(schema_string(A, v, 1) != NULL);
        if (i % 200 == 0) {
            arena_free(A);
            A = arena_new(0);
        }
    }
}
