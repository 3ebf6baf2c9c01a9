/* Small IR builders for the printer tests (nodes by hand, as a parser or the
 * analyzer would make them). */
#ifndef CZ_TEST_PRINT_NODES_H
#define CZ_TEST_PRINT_NODES_H

#include <string.h>

#include "core/ir.h"

extern Arena *A;

static inline Node *fin(Node *n) { return node_finish(n); }

static inline Node *with_kids(Node *n, int k, Node **kids) {
    node_set_kids(A, n, kids, (uint32_t)k);
    return n;
}
static inline Node *with_exprs(Node *n, int k, Node **exprs) {
    node_set_exprs(A, n, exprs, (uint32_t)k);
    return n;
}
#define KIDS(...) (int)(sizeof((Node *[]){__VA_ARGS__}) / sizeof(Node *)), (Node *[]){__VA_ARGS__}

static inline Node *ua(const char *name) {
    Node *n = node_new(A, NK_UnresolvedAttribute, -1, -1);
    n->u.un.name = name_parts1(A, name);
    return fin(n);
}
static inline Node *ua2(const char *q, const char *name) {
    Node *n = node_new(A, NK_UnresolvedAttribute, -1, -1);
    const char *p[] = {q, name};
    n->u.un.name = name_parts(A, 2, p);
    return fin(n);
}
static inline Node *attr(const char *name, ExprId id, const DataType *t) {
    Node *n = node_new(A, NK_AttributeReference, -1, -1);
    n->u.attr.name = name;
    n->u.attr.id = id;
    n->type = t;
    return fin(n);
}
static inline Node *qattr(const char *name, ExprId id, const DataType *t, int nq, const char **q) {
    Node *n = node_new(A, NK_AttributeReference, -1, -1);
    n->u.attr.name = name;
    n->u.attr.id = id;
    n->u.attr.qualifier = name_parts(A, (uint32_t)nq, q);
    n->type = t;
    return fin(n);
}
static inline Node *lit_int(int64_t v) {
    Node *n = node_new(A, NK_Literal, -1, -1);
    n->u.lit.v.type = &TYPE_INT;
    n->u.lit.v.u.i = v;
    n->type = &TYPE_INT;
    return fin(n);
}
static inline Node *lit_typed(Value v) {
    Node *n = node_new(A, NK_Literal, -1, -1);
    n->u.lit.v = v;
    n->type = v.type;
    return fin(n);
}
static inline Node *lit_str(const char *s) {
    Value v = {.type = &TYPE_STRING};
    v.u.s.p = s;
    v.u.s.len = (uint32_t)strlen(s);
    return lit_typed(v);
}
static inline Node *lit_null(const DataType *t) {
    Value v = {.type = t, .is_null = true};
    return lit_typed(v);
}
static inline Node *ufn(const char *name, bool op, int k, Node **args) {
    Node *n = node_new(A, NK_UnresolvedFunction, -1, -1);
    n->u.un.name = name_parts1(A, name);
    n->u.un.is_operator = op;
    n->u.un.nargs = (uint32_t)k;
    return fin(with_kids(n, k, args));
}
static inline Node *alias(Node *child, const char *name, ExprId id) {
    Node *n = node_new(A, NK_Alias, -1, -1);
    n->u.attr.name = name;
    n->u.attr.id = id;
    n->type = child->type;
    return fin(with_kids(n, KIDS(child)));
}
static inline Node *unary(NodeKind k, Node *child) {
    Node *n = node_new(A, k, -1, -1);
    n->type = child->type;
    return fin(with_kids(n, KIDS(child)));
}

static inline Node *urel(const char *name) {
    Node *n = node_new(A, NK_UnresolvedRelation, -1, -1);
    n->u.un.name = name_parts1(A, name);
    return fin(n);
}
static inline Node *plan1(NodeKind k, Node *child, int ne, Node **exprs) {
    Node *n = node_new(A, k, -1, -1);
    with_exprs(n, ne, exprs);
    if (child) with_kids(n, KIDS(child));
    return fin(n);
}
static inline Node *sq_alias(Node *child, const char *name) {
    Node *n = node_new(A, NK_SubqueryAlias, -1, -1);
    n->u.alias.name = name_parts1(A, name);
    return fin(with_kids(n, KIDS(child)));
}
static inline Node *one_row(void) { return fin(node_new(A, NK_OneRowRelation, -1, -1)); }

#endif
