/* Small constructors for the nodes rules build (lib/builders.h). */
#include "builders.h"

#include "catalog/conf.h"
#include "functions/functions.h"

Node *make_alias(Analysis *an, Node *e, const char *name, bool generated) {
    Node *a = node_new(an->arena, NK_Alias, e->start, e->stop);
    a->u.attr.name = name;
    a->u.attr.id = an_new_id(an);
    a->type = e->type;
    a->flags |= (e->flags & NF_NULLABLE) | (generated ? NF_GENERATED_ALIAS : 0);
    node_set_kids(an->arena, a, &e, 1);
    return node_finish(a);
}

Node *make_project(Analysis *an, Node *child, Node *const *exprs, uint32_t n) {
    Node *p = node_new(an->arena, NK_Project, child->start, child->stop);
    node_set_exprs(an->arena, p, exprs, n);
    node_set_kids(an->arena, p, &child, 1);
    return node_finish(p);
}

Node *make_subquery_alias(Analysis *an, Node *child, NameParts name) {
    Node *p = node_new(an->arena, NK_SubqueryAlias, child->start, child->stop);
    p->u.alias.name = name;
    node_set_kids(an->arena, p, &child, 1);
    return node_finish(p);
}

Node *make_literal_int(Analysis *an, int64_t v, const Node *pos) {
    Node *l = node_new(an->arena, NK_Literal, pos ? pos->start : -1, pos ? pos->stop : -1);
    l->type = &TYPE_INT;
    l->u.lit.v.type = &TYPE_INT;
    l->u.lit.v.u.i = v;
    return node_finish(l);
}

Node *make_cast(Analysis *an, Node *e, const DataType *t) {
    Node *c = node_new(an->arena, NK_Cast, e->start, e->stop);
    c->type = t;
    c->u.cast.ansi = an->conf->ansi;
    c->flags |= NF_IMPLICIT | (e->flags & NF_NULLABLE);
    node_set_kids(an->arena, c, &e, 1);
    return node_finish(c);
}

Node *make_unresolved_call(Analysis *an, NameParts name, bool is_operator, Node *const *args, uint32_t nargs,
                           int32_t start, int32_t stop) {
    Node *f = node_new(an->arena, NK_UnresolvedFunction, start, stop);
    f->u.un.name = name;
    f->u.un.is_operator = is_operator;
    f->u.un.nargs = nargs;
    node_set_kids(an->arena, f, args, nargs);
    return node_finish(f);
}

Node *make_call(Analysis *an, const char *name, bool is_operator, Node *const *args, uint32_t nargs, int32_t start,
                int32_t stop) {
    const FuncDef *def = func_lookup_builtin(name);
    if (!def) return NULL;
    Node *u = make_unresolved_call(an, name_parts1(an->arena, name), is_operator, args, nargs, start, stop);
    return func_resolve_call(an, u, def);
}
