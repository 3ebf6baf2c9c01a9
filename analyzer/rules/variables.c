#include "variables.h"

#include <strings.h>

#include "session.h"

Node *resolve_variable(Analysis *an, const Node *u) {
    if (!an->session) return NULL;
    NameParts n = u->u.un.name;
    const char *name = NULL;
    if (n.n == 1) name = n.v[0];
    else if (n.n == 2 && strcasecmp(n.v[0], "session") == 0) name = n.v[1];
    else if (n.n == 3 && strcasecmp(n.v[0], "system") == 0 && strcasecmp(n.v[1], "session") == 0) name = n.v[2];
    if (!name) return NULL;
    const Variable *v = state_find_var(an->session, name);
    if (!v) return NULL;
    Node *r = node_new(an->arena, NK_VariableReference, u->start, u->stop);
    r->u.attr.name = v->name;
    static const char *const sys_session[] = {"system", "session"};
    r->u.attr.qualifier = (NameParts){2, (const char **)sys_session};
    Value *val = ARENA_NEW(an->arena, Value);
    *val = value_copy(an->arena, &v->value);
    r->u.attr.value = val;
    r->type = v->type;
    r->flags |= NF_NULLABLE;
    return node_finish(r);
}
