#include "consteval.h"

#include "output.h"

bool const_eval(Analysis *an, const Node *e, Value *out) {
    (void)an;
    switch (e->kind) {
    case NK_Literal: *out = e->u.lit.v; return true;
    case NK_VariableReference: *out = *e->u.attr.value; return true;
    case NK_Alias: return const_eval(an, e->kids[0], out);
    default: return false;
    }
}

int const_eval_rows(Analysis *an, const Node *plan, int max_rows, Value **rows, uint32_t *ncols) {
    if (plan->kind == NK_Project && plan->kids[0]->kind == NK_OneRowRelation) {
        Value *v = ARENA_ARRAY(an->arena, Value, plan->nexprs + 1);
        for (uint32_t i = 0; i < plan->nexprs; i++)
            if (!const_eval(an, plan->exprs[i], &v[i])) return -1;
        *rows = v;
        *ncols = plan->nexprs;
        return max_rows > 0 ? 1 : 0;
    }
    return -1;
}
