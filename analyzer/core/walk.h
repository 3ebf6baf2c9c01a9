/* Visiting and rewriting trees: one walker and one transform, each with
 * flags saying what they enter (PostgreSQL's expression_tree_walker /
 * query_tree_mutator with QTW_* flags are the model). Plans' children are
 * plans (kids), their expressions are `exprs`; an expression's children
 * are expressions; a subquery expression holds its plan in u.subq.plan. */
#ifndef CZ_CORE_WALK_H
#define CZ_CORE_WALK_H

#include <stdbool.h>

#include "ir.h"

/* ---- walking (read-only) ---- */

typedef enum WalkResult { WALK_CONTINUE, WALK_PRUNE, WALK_ABORT } WalkResult;
typedef WalkResult (*WalkFn)(const Node *n, void *ctx);

enum {
    WALK_EXPRS = 1u << 0,      /* on plan nodes, visit their exprs too */
    WALK_SUBQUERIES = 1u << 1, /* on subquery expressions, visit their plans too */
};

/* Pre-order walk. Returns false if a callback aborted. */
bool node_walk(const Node *n, unsigned flags, WalkFn fn, void *ctx);

/* ---- transforming (copy-on-write) ---- */

/* A rewrite of one node. Returns the node itself when it has nothing to do;
 * NULL means it failed (and recorded why): the node stays as it was. */
typedef Node *(*RewriteFn)(Node *n, void *ctx);

enum {
    /* fn sees a node before its children, and the children of what it
       returns are then transformed (Spark's transformDown); by default fn
       sees a node after its children were rewritten (transformUp) */
    TX_PRE_ORDER = 1u << 0,
    /* root is a plan node: rewrite each of its expressions (as expression
       trees) and not its children */
    TX_NODE_EXPRS = 1u << 1,
    /* plans: before a node is rewritten, rewrite the plans of the subquery
       expressions in its expressions with the same fn and flags */
    TX_SUBQUERIES = 1u << 2,
    /* plans: enter subtrees a nested analysis already finished
       (NF_ANALYZED), which are skipped by default as Spark's
       resolveOperators skips analysed plans */
    TX_INTO_ANALYZED = 1u << 3,
    /* skip subtrees that are already resolved (NF_RESOLVED): for rules that
       only ever act on something unresolved */
    TX_SKIP_RESOLVED = 1u << 4,
};

/* Rewrites the tree under root with fn. Subtrees whose kind mask has none
 * of `interest` are skipped (KIND_MASK_ALL: visit everything). A subtree
 * nothing changed in comes back as the same pointer; changed nodes are new
 * finished nodes in arena a. */
Node *transform(Arena *a, Node *root, unsigned flags, KindMask interest, RewriteFn fn, void *ctx);

#endif
