/* Spark's treeString: one line per plan node, children under `+- ` (last)
 * and `:- ` (others) with `   ` / `:  ` continuations, and a node's
 * innerChildren (the plans of its subquery expressions; a command's query)
 * printed under it, before its children, two levels deep.
 *
 * The prefix is one growing buffer of 3-byte segments, one per ancestor
 * level, appended on the way down and truncated on the way up, so printing
 * costs O(output) whatever the depth. */
#include <string.h>

#include "print_internal.h"
#include "printer.h"

typedef struct TreeCtx {
    StrBuf *out;
    StrBuf prefix;  /* one 3-char segment per level: "   " (ancestor was last) or ":  " */
    const char *sql; /* statement text (for commands that echo it), may be NULL */
    size_t sql_len;
    KindMask subquery_kinds;
} TreeCtx;

static void push(TreeCtx *c, bool last) { pr_putn(&c->prefix, last ? "   " : ":  ", 3); }
static void pop(TreeCtx *c, size_t n) { sb_truncate(&c->prefix, c->prefix.len - 3 * n); }

/* Subquery plans of one expression tree, in pre-order (Spark's `subqueries`). */
/* A finished node's mask (its own kind's bit set) lists the kinds below it:
   with no subquery kind there, there is nothing to find. */
static inline bool may_hold_subquery(const Node *e, KindMask subquery_kinds) {
    return !kind_mask_has(e->mask, e->kind) || kind_mask_any(e->mask, subquery_kinds);
}

static void collect_subqueries(const Node *e, KindMask subquery_kinds, const Node ***v, uint32_t *n, uint32_t *cap,
                               Arena *a) {
    if (!e || !may_hold_subquery(e, subquery_kinds) || node_is_plan(e)) return;
    switch (e->kind) {
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_ListQuery:
    case NK_InSubquery:
    case NK_LateralSubquery:
        if (e->u.subq.plan) {
            if (*n == *cap) {
                uint32_t nc = *cap ? *cap * 2 : 4;
                const Node **nv = arena_alloc(a, sizeof(Node *) * nc);
                if (*n) memcpy(nv, *v, sizeof(Node *) * *n);
                *v = nv;
                *cap = nc;
            }
            (*v)[(*n)++] = e->u.subq.plan;
        }
        break;
    default: break;
    }
    for (uint32_t i = 0; i < e->nkids; i++) collect_subqueries(e->kids[i], subquery_kinds, v, n, cap, a);
}

static void print_node(TreeCtx *c, const Node *n, int depth);

static void print_line_prefix(TreeCtx *c, int depth) {
    if (depth == 0) return;
    /* all segments but the last are continuations; the last becomes the branch */
    size_t plen = c->prefix.len;
    pr_putn(c->out, c->prefix.data, plen - 3);
    pr_putn(c->out, c->prefix.data[plen - 3] == ' ' ? "+- " : ":- ", 3);
}

static void print_children(TreeCtx *c, Node *const *kids, uint32_t n, int depth) {
    for (uint32_t i = 0; i < n; i++) {
        push(c, i + 1 == n);
        print_node(c, kids[i], depth + 1);
        pop(c, 1);
    }
}

static void print_inner(TreeCtx *c, const Node *const *inner, uint32_t n, bool has_children, int depth) {
    for (uint32_t i = 0; i < n; i++) {
        push(c, !has_children);
        push(c, i + 1 == n);
        print_node(c, inner[i], depth + 2);
        pop(c, 2);
    }
}

static void print_node(TreeCtx *c, const Node *n, int depth) {
    print_line_prefix(c, depth);
    if (!n) {
        pr_puts(c->out, "null\n");
        return;
    }
    if (!node_is_plan(n)) {
        /* an expression where a plan was expected: print it on its own line */
        expr_print(c->out, n);
        pr_putc(c->out, '\n');
        return;
    }
    plan_node_line_sql(c->out, n, c->sql, c->sql_len);
    pr_putc(c->out, '\n');

    /* the node's own children and inner children, per kind */
    Node *const *kids = n->kids;
    uint32_t nkids = n->nkids;
    const Node **inner = NULL;
    uint32_t ninner = 0, cap = 0;

    if (n->kind == NK_UnresolvedWith) {
        /* kids [plan, SubqueryAlias per CTE]: the CTEs are innerChildren */
        inner = (const Node **)(nkids > 1 ? kids + 1 : NULL);
        ninner = nkids > 1 ? nkids - 1 : 0;
        nkids = nkids ? 1 : 0;
    } else if (n->kind == NK_Explain) {
        nkids = 0; /* ExplainCommand prints its statement in its own line */
    } else if (plan_kids_are_inner(n)) {
        inner = (const Node **)kids;
        ninner = nkids;
        nkids = 0;
    } else if (may_hold_subquery(n, c->subquery_kinds)) {
        for (uint32_t i = 0; i < n->nexprs; i++)
            collect_subqueries(n->exprs[i], c->subquery_kinds, &inner, &ninner, &cap, c->prefix.arena);
    }
    const char *synthetic = plan_synthetic_child(c->prefix.arena, n, c->sql, c->sql_len);
    if (ninner) print_inner(c, inner, ninner, nkids > 0 || synthetic, depth);
    print_children(c, kids, nkids, depth);
    if (synthetic) {
        push(c, true);
        print_line_prefix(c, depth + 1);
        pr_puts(c->out, synthetic);
        pr_putc(c->out, '\n');
        pop(c, 1);
    }
}

void plan_tree_print_sql(StrBuf *sb, const Node *plan, const char *sql, size_t sql_len) {
    TreeCtx c = {.out = sb,
                 .sql = sql,
                 .sql_len = sql_len,
                 .subquery_kinds = KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_ListQuery, NK_InSubquery, NK_LateralSubquery)};
    sb_init(&c.prefix, sb->arena, 96);
    print_node(&c, plan, 0);
}

void plan_tree_print(StrBuf *sb, const Node *plan) { plan_tree_print_sql(sb, plan, NULL, 0); }

const char *plan_tree_string(Arena *a, const Node *plan) {
    StrBuf sb;
    sb_init(&sb, a, 256);
    plan_tree_print(&sb, plan);
    return sb_str(&sb);
}

const char *plan_tree_string_sql(Arena *a, const Node *plan, const char *sql, size_t sql_len) {
    StrBuf sb;
    sb_init(&sb, a, 256);
    plan_tree_print_sql(&sb, plan, sql, sql_len);
    return sb_str(&sb);
}
