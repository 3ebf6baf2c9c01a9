/* Binding and typing the lambdas of a higher-order call (Spark's
 * ResolveLambdaVariables): each parameter becomes a NamedLambdaVariable of
 * the type func_lambda_arg_types gives, references to it in the body are
 * replaced, and the body is resolved bottom-up with the library (calls,
 * casts, CASE, IN, field access). A body that still refers to something
 * unresolved (an outer column not yet bound) is left for a later pass. */
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"
#include "core/walk.h"

typedef struct Binding {
    Analysis *an;
    int n;
    const char *names[8];
    Node *vars[8];
} Binding;

static bool kids_ready(const Node *e) {
    for (uint32_t i = 0; i < e->nkids; i++) {
        const Node *k = e->kids[i];
        if (k->kind == NK_UnresolvedStar || k->kind == NK_LambdaFunction) continue;
        if (!node_resolved(k)) return false;
    }
    return true;
}

static Node *bind_and_type(Node *e, void *ctx) {
    Binding *b = ctx;
    Analysis *an = b->an;
    if (an_failed(an)) return e;
    switch (e->kind) {
    case NK_UnresolvedAttribute:
    case NK_UnresolvedNamedLambdaVariable:
        /* `acc` or `acc.sum`: a parameter, then struct fields (ExtractValue) */
        for (int i = 0; e->u.un.name.n >= 1 && i < b->n; i++) {
            if (strcasecmp(e->u.un.name.v[0], b->names[i]) != 0) continue;
            Node *r = b->vars[i];
            for (uint32_t k = 1; k < e->u.un.name.n && r; k++) {
                Node *x = node_new(an->arena, NK_UnresolvedExtractValue, e->start, e->stop);
                x->u.extract.is_field = true;
                Node *kk[2] = {r, fn_mk_str_lit(an->arena, e->u.un.name.v[k])};
                node_set_kids(an->arena, x, kk, 2);
                r = expr_resolve_typed(an, node_finish(x));
            }
            return r ? r : e;
        }
        return e;
    case NK_AttributeReference:
        /* Spark's parser makes every name in a lambda body a lambda variable
           first, so a parameter shadows a column of the same name: a column
           resolved from the bare parameter name is the parameter */
        if (an->sql && e->start >= 0 && e->stop >= e->start && (size_t)e->stop < an->sql_len) {
            const char *t = an->sql + e->start;
            size_t len = (size_t)(e->stop - e->start) + 1;
            if (len > 2 && t[0] == '`' && t[len - 1] == '`') {
                t++;
                len -= 2;
            }
            for (int i = 0; i < b->n; i++)
                if (strlen(b->names[i]) == len && strncasecmp(t, b->names[i], len) == 0) return b->vars[i];
        }
        return e;
    case NK_UnresolvedFunction: {
        if (!kids_ready(e)) return e;
        const FuncDef *d = func_lookup_builtin(e->u.un.name.v[e->u.un.name.n - 1]);
        if (!d) return e;
        Node *r = func_resolve_call(an, e, d);
        return r ? r : e;
    }
    case NK_Cast: case NK_CaseWhen: case NK_In: case NK_UnresolvedExtractValue:
        if (e->type && e->kind != NK_Cast) return e;
        if (!kids_ready(e)) return e;
        {
            Node *r = expr_resolve_typed(an, e);
            return r ? r : e;
        }
    default: return e;
    }
}

/* Resolves argument i (a LambdaFunction) of a call to def; returns the typed
 * lambda, the same node when it cannot be typed yet, or NULL on error. */
Node *fn_resolve_lambda(Analysis *an, const FuncDef *def, Node **args, int nargs, int i) {
    Arena *a = an->arena;
    Node *l = args[i];
    if (node_resolved(l) && l->type) return l;
    if (!strcasecmp(def->name, "map_zip_with") && i == 2) fn_map_zip_with_coerce(an, args, nargs);
    int np = (int)l->nkids - 1;
    const DataType *types[8];
    int nt = func_lambda_arg_types(an, def, args, nargs, i, types, 8);
    if (nt < 0 || np > nt || np < 1 || np > 8) {
        return an_fail(an, error_make(a, "INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH", l, "expectedNumArgs",
                                      arena_printf(a, "%d", nt < 0 ? 0 : nt), "actualNumArgs",
                                      arena_printf(a, "%d", np), NULL));
    }
    Binding b = {.an = an, .n = np};
    Node **kids = ARENA_ARRAY(a, Node *, (size_t)np + 1);
    for (int k = 0; k < np; k++) {
        Node *p = l->kids[k + 1];
        if (p->kind == NK_NamedLambdaVariable) {
            b.vars[k] = p;
            b.names[k] = p->u.attr.name;
        } else {
            const char *name = p->u.un.name.n ? p->u.un.name.v[p->u.un.name.n - 1] : "x";
            Node *v = node_new(a, NK_NamedLambdaVariable, p->start, p->stop);
            v->u.attr.name = name;
            v->u.attr.id = an_new_id(an);
            v->type = types[k] ? types[k] : &TYPE_NULL;
            v->flags |= NF_NULLABLE;
            b.vars[k] = node_finish(v);
            b.names[k] = name;
        }
        kids[k + 1] = b.vars[k];
    }
    Node *body = transform(a, l->kids[0], 0, KIND_MASK_ALL, bind_and_type, &b);
    if (an_failed(an)) return NULL;
    if (!node_resolved(body) || !body->type) return l;
    kids[0] = body;
    Node *r = node_copy(a, l);
    node_set_kids(a, r, kids, (uint32_t)np + 1);
    r->type = body->type;
    r->flags = (r->flags & ~(uint32_t)NF_NULLABLE) | (fn_expr_nullable(body) ? NF_NULLABLE : 0);
    return node_finish(r);
}
