/* The CTE definitions in scope at a point of a query (lib/cte_scope.h). */
#include "cte_scope.h"

#include "scope.h"

const CteScope *cte_scope_lookup(const Analysis *an, const CteScope *s, const char *name) {
    for (; s; s = s->next)
        if (ident_eq(an, s->name, name)) return s;
    return NULL;
}

Node *cte_scope_make_ref(Analysis *an, const Node *at, const char *name, const CteScope *d) {
    if (d->inline_body) return d->inline_body;
    Node *r = node_new(an->arena, NK_CTERelationRef, at->start, at->stop);
    r->u.cte.id = d->id;
    r->u.cte.name = d->name;
    r->flags |= NF_PENDING;
    r = node_finish(r);
    /* Spark adds SubqueryAlias(name) so the reference is qualified by the name used */
    Node *sa = node_new(an->arena, NK_SubqueryAlias, at->start, at->stop);
    sa->u.alias.name = name_parts1(an->arena, name);
    node_set_kids(an->arena, sa, &r, 1);
    return node_finish(sa);
}
