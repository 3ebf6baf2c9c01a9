/* A miniature analyzer for the function library's tests: parses a SELECT,
 * binds the columns of an inline VALUES table by name, resolves the select
 * list bottom-up with the library alone and prints the schema string. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "harness.h"
#include "catalog/conf.h"
#include "core/func_sig.h"
#include "functions/functions.h"
#include "functions/registry.h"
#include "parser/parser.h"
#include "print/printer.h"
#include "core/walk.h"

static bool kids_resolved(const Node *e) {
    for (uint32_t i = 0; i < e->nkids; i++) {
        const Node *k = e->kids[i];
        if (k->kind == NK_UnresolvedStar || k->kind == NK_LambdaFunction) continue;
        if (!node_resolved(k)) return false;
    }
    return true;
}

static Node *rewrite(Node *e, void *ctx) {
    Env *env = ctx;
    Analysis *an = env->an;
    if (an_failed(an)) return e;
    switch (e->kind) {
    case NK_UnresolvedAttribute:
        for (uint32_t i = 0; i < env->ncols; i++)
            if (e->u.un.name.n == 1 && strcasecmp(e->u.un.name.v[0], env->names[i]) == 0) {
                Node *r = node_new(an->arena, NK_AttributeReference, e->start, e->stop);
                r->u.attr.name = env->names[i];
                r->u.attr.id = an_new_id(an);
                r->type = env->types[i];
                r->flags |= NF_NULLABLE;
                return node_finish(r);
            }
        return e;
    case NK_UnresolvedFunction: {
        if (!kids_resolved(e)) return e;
        const FuncDef *d = func_lookup_builtin(e->u.un.name.v[e->u.un.name.n - 1]);
        if (!d) {
            an_fail(an, error_make(an->arena, "UNRESOLVED_ROUTINE", e, NULL));
            return e;
        }
        Node *r = func_resolve_call(an, e, d);
        return r ? r : e;
    }
    case NK_UnresolvedAlias:
        return e->nkids && node_resolved(e->kids[0]) ? e->kids[0] : e;
    case NK_Alias: {
        if (!e->nkids || !node_resolved(e->kids[0])) return e;
        Node *c = node_copy(an->arena, e);
        c->type = e->kids[0]->type;
        return node_finish(c);
    }
    case NK_Cast: case NK_CaseWhen: case NK_In: case NK_UnresolvedExtractValue: case NK_SortOrder: case NK_NamedArgument:
        if (e->type && e->kind != NK_Cast) return e;
        if (!kids_resolved(e)) return e;
        {
            Node *r = expr_resolve_typed(an, e);
            return r ? r : e;
        }
    case NK_WindowSpecDefinition:
        if (e->type || !kids_resolved(e)) return e;
        {
            Node *c = node_copy(an->arena, e);
            c->type = &TYPE_NULL;
            return node_finish(c);
        }
    case NK_WindowExpression: {
        if (e->nkids < 2 || !node_resolved(e->kids[0]) || !node_resolved(e->kids[1])) return e;
        Node *spec = e->kids[1];
        if (!spec->u.wspec.has_frame) {
            Node *fn = e->kids[0];
            Node *f = func_window_frame(an, fn);
            if (!f) f = func_default_window_frame(an, spec->u.wspec.norder > 0);
            /* as ResolveWindowFrame does: Lag keeps the negated offset */
            if (fn->kind == NK_Call && !strcasecmp(fn->u.call.name, "lag") && fn->nkids > 1 &&
                f->kids[0]->kind == NK_Literal)
                fn = node_with_kid(an->arena, fn, 1, f->kids[0]);
            Node **k = ARENA_ARRAY(an->arena, Node *, spec->nkids + 1);
            memcpy(k, spec->kids, sizeof(Node *) * spec->nkids);
            k[spec->nkids] = f;
            Node *ns = node_copy(an->arena, spec);
            node_set_kids(an->arena, ns, k, spec->nkids + 1);
            ns->u.wspec.has_frame = true;
            node_finish(ns);
            Node *ne = node_copy(an->arena, e);
            Node *kk[2] = {fn, ns};
            node_set_kids(an->arena, ne, kk, 2);
            e = node_finish(ne);
        }
        Node *r = expr_resolve_typed(an, e);
        return r ? r : e;
    }
    default: return e;
    }
}

Node *harness_resolve(Env *env, Node *e) { return transform(env->an->arena, e, 0, KIND_MASK_ALL, rewrite, env); }

/* Binds the columns of `FROM VALUES (...) AS t(c...)` (types widened over the rows). */
static bool bind_inline_table(Env *env, const Node *plan) {
    const Node *t = plan;
    while (t && t->kind != NK_UnresolvedInlineTable) t = t->nkids ? t->kids[0] : NULL;
    if (!t) return plan->kind == NK_OneRowRelation;
    Arena *a = env->an->arena;
    uint32_t nc = t->u.cols.ncols;
    env->ncols = nc;
    env->names = t->u.cols.cols;
    env->types = ARENA_ARRAY(a, const DataType *, nc + 1);
    for (uint32_t c = 0; c < nc; c++) env->types[c] = &TYPE_NULL;
    for (uint32_t r = 0; r < t->nexprs; r++) {
        const Node *row = t->exprs[r];
        for (uint32_t c = 0; c < nc && c < row->nkids; c++) {
            Node *v = harness_resolve(env, row->kids[c]);
            if (!v || !node_resolved(v)) return false;
            const DataType *w = coerce_wider_type(a, env->types[c], v->type);
            if (!w) return false;
            env->types[c] = w;
        }
    }
    return true;
}

/* The schema string of the select list, or an explanation of why not. */
const char *harness_schema(Arena *a, const char *sql, bool *ok) {
    *ok = false;
    ErrorInfo *err = NULL;
    ParserOptions po = {0};
    Node *plan = parse_statement(a, sql, strlen(sql), &po, &err);
    if (!plan) return arena_printf(a, "parse error: %s", err ? err->message : "?");
    while (plan->kind == NK_Sort || plan->kind == NK_GlobalLimit || plan->kind == NK_LocalLimit) plan = plan->kids[0];
    if (plan->kind != NK_Project && plan->kind != NK_Aggregate)
        return arena_printf(a, "harness: top node %s", node_kind_name(plan->kind));
    uint32_t first = plan->kind == NK_Aggregate ? plan->u.aggregate.ngroup : 0;
    Conf conf = {.ansi = true};
    Analysis an = {.arena = a, .sql = sql, .sql_len = strlen(sql), .conf = &conf};
    Env env = {.an = &an};
    if (!bind_inline_table(&env, plan->kids[0])) return "harness: FROM clause not supported";
    StrBuf sb;
    sb_init(&sb, a, 128);
    sb_puts(&sb, "struct<");
    for (uint32_t i = first; i < plan->nexprs; i++) {
        Node *e = harness_resolve(&env, plan->exprs[i]);
        if (an.error) return arena_printf(a, "error %s: %s", an.error->error_class, an.error->message);
        if (!node_resolved(e)) return arena_printf(a, "unresolved: %s", expr_to_string(a, e));
        if (i > first) sb_putc(&sb, ',');
        if (e->kind == NK_Call && e->u.call.def && func_kind(e->u.call.def) == FK_GENERATOR && e->type->id == T_STRUCT) {
            for (int f = 0; f < e->type->nfields; f++) {
                if (f) sb_putc(&sb, ',');
                sb_printf(&sb, "%s:", e->type->fields[f].name);
                type_print_catalog(&sb, e->type->fields[f].type);
            }
            continue;
        }
        const char *name = e->kind == NK_Alias ? e->u.attr.name : expr_auto_name(a, e);
        sb_printf(&sb, "%s:", name);
        type_print_catalog(&sb, e->type);
    }
    sb_putc(&sb, '>');
    *ok = true;
    return sb_str(&sb);
}


Node *harness_expr(Analysis *an, const char *text) {
    ErrorInfo *err = NULL;
    ParserOptions po = {0};
    Node *e = parse_expression(an->arena, text, strlen(text), &po, &err);
    if (!e) return NULL;
    Env env = {.an = an};
    return harness_resolve(&env, e);
}
