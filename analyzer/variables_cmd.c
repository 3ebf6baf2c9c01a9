/* DECLARE / SET VAR / DROP TEMPORARY VARIABLE / EXECUTE IMMEDIATE and
 * statements whose target is an IDENTIFIER(...) clause. IN PROGRESS: only
 * DECLARE with a constant default and DROP work so far. */
#include <string.h>

#include "commands.h"
#include "consteval.h"
#include "output.h"

Node *run_variable_command(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    switch (stmt->kind) {
    case NK_DeclareVariable: {
        const char *name = stmt->u.ddl.name.v[stmt->u.ddl.name.n - 1];
        SessionState *st = pending_state(s, pend);
        if (state_find_var(st, name) && !stmt->u.ddl.or_replace)
            return an_fail(an, error_make(an->arena, "VARIABLE_ALREADY_EXISTS", stmt, "variableName",
                                          arena_printf(an->arena, "`system`.`session`.`%s`", name), NULL));
        Value v = {.type = stmt->u.ddl.col_types && stmt->u.ddl.col_types[0] ? stmt->u.ddl.col_types[0] : &TYPE_NULL,
                   .is_null = true};
        if (stmt->nexprs && stmt->exprs[0]->kind == NK_Literal) {
            v = stmt->exprs[0]->u.lit.v;
            if (!stmt->u.ddl.col_types || !stmt->u.ddl.col_types[0]) {
            } else v.type = stmt->u.ddl.col_types[0];
        }
        state_put_var(st, name, v.type, &v, NULL);
        return stmt;
    }
    case NK_DropVariable: {
        const char *name = stmt->u.ddl.name.v[stmt->u.ddl.name.n - 1];
        SessionState *st = pending_state(s, pend);
        if (!state_drop_var(st, name) && !stmt->u.ddl.if_exists)
            return an_fail(an, error_make(an->arena, "VARIABLE_NOT_FOUND", stmt, "variableName",
                                          arena_printf(an->arena, "`system`.`session`.`%s`", name), NULL));
        return stmt;
    }
    default:
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE", stmt, NULL));
    }
}
