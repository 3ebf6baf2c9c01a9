/* Session variables as names: resolution of references in queries and the
 * qualification rules the variable statements share (Spark's
 * ColumnResolutionHelper.resolveVariable and the FakeSystemCatalog
 * `system.session` namespace). */
#include "variables.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/session.h"
#include "core/walk.h"

const char *variable_target_name(NameParts n) {
    if (n.n == 1) return n.v[0];
    if (n.n == 2 && strcasecmp(n.v[0], "session") == 0) return n.v[1];
    if (n.n == 3 && strcasecmp(n.v[0], "system") == 0 && strcasecmp(n.v[1], "session") == 0) return n.v[2];
    return NULL;
}

const char *variable_sql_name(Analysis *an, const char *name) {
    const char *parts[3] = {"system", "session", name};
    return sql_id_parts(an->arena, (NameParts){3, parts});
}

Node *variable_unresolved(Analysis *an, const Node *at, NameParts name, bool upper_path) {
    return an_fail(an, error_make(an->arena, "UNRESOLVED_VARIABLE", at, "variableName", sql_id_parts(an->arena, name),
                                  "searchPath", upper_path ? "`SYSTEM`.`SESSION`" : "`system`.`session`", NULL));
}

bool variable_is_config_key(const SessionState *s, const char *key) {
    const char *parts[3];
    uint32_t n = 0;
    char buf[256];
    size_t len = strlen(key);
    if (len >= sizeof buf) return false;
    mem_copy(buf, key, len + 1);
    char *p = buf;
    while (n < 3) {
        parts[n++] = p;
        char *dot = strchr(p, '.');
        if (!dot) break;
        *dot = 0;
        p = dot + 1;
        if (n == 3) return false; /* four or more parts */
    }
    const char *name = variable_target_name((NameParts){n, parts});
    return name && state_find_var(s, name) != NULL;
}

Node *resolve_variable(Analysis *an, const Node *u) {
    if (!an->session) return NULL;
    const char *name = variable_target_name(u->u.un.name);
    if (!name) return NULL;
    const Variable *v = state_find_var(an->session, name);
    if (!v) return NULL;
    Node *r = node_new(an->arena, NK_VariableReference, u->start, u->stop);
    /* copies: the session state may be replaced (and freed) by this very
       statement (SET VAR) before its plan is printed */
    r->u.attr.name = arena_strdup(an->arena, v->name);
    static const char *const sys_session[] = {"system", "session"};
    r->u.attr.qualifier = (NameParts){2, (const char **)sys_session};
    Value *val = ARENA_NEW(an->arena, Value);
    *val = value_copy(an->arena, &v->value);
    r->u.attr.value = val;
    r->type = val->type;
    r->flags |= NF_NULLABLE;
    return node_finish(r);
}

static WalkResult find_var(const Node *n, void *ctx) {
    if (n->kind == NK_VariableReference) {
        *(const Node **)ctx = n;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

const Node *plan_find_variable(const Node *plan) {
    const Node *found = NULL;
    node_walk(plan, WALK_EXPRS | WALK_SUBQUERIES, find_var, &found);
    return found;
}

const char *variable_key_sql(Analysis *an, const char *key) {
    const char *parts[8];
    uint32_t n = 0;
    const char *p = key;
    while (n < 8) {
        const char *dot = strchr(p, '.');
        parts[n++] = dot ? arena_strndup(an->arena, p, (size_t)(dot - p)) : p;
        if (!dot) break;
        p = dot + 1;
    }
    return sql_id_parts(an->arena, (NameParts){n, parts});
}
