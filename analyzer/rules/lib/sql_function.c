/* SQL functions: lookup and inlining (sql_function.h). The body is parsed
 * where it is called and analysed on its own, against a relation whose
 * columns are the parameters (qualified by the function's name, as Spark
 * qualifies them), so names in the body resolve to the parameters, and a
 * subquery in the body sees them as outer references one level up only. */
#include "sql_function.h"

#include <string.h>
#include <strings.h>

#include "core/output.h"
#include "parser/parser.h"
#include "rules/lib/builders.h"

const SqlFunction *sql_function_lookup(Analysis *an, NameParts n) {
    const SessionState *s = an->session;
    if (!s || !n.n) return NULL;
    const char *name = n.v[n.n - 1];
    if (n.n == 1) {
        const SqlFunction *f = state_find_func(s, NULL, name);
        if (f) return f;
        return state_find_func(s, an->view_ns ? an->view_ns : s->current_ns, name);
    }
    if (n.n == 2) return state_find_func(s, n.v[0], name);
    if (n.n == 3 && strcasecmp(n.v[0], "spark_catalog") == 0) return state_find_func(s, n.v[1], name);
    return NULL;
}

const char *sql_function_name(Analysis *an, const SqlFunction *f) {
    if (!f->ns) return f->name;
    return arena_printf(an->arena, "spark_catalog.%s.%s", f->ns, f->name);
}

/* SQLFunction.getExpressionAndQuery: a query that is one SELECT item with
 * no FROM is used as that expression; any other query is a scalar subquery. */
static Node *parse_body(Analysis *an, const SqlFunction *f) {
    ParserOptions po = {.max_depth = an->max_depth};
    ErrorInfo *err = NULL;
    size_t len = strlen(f->body);
    if (!f->body_is_query) {
        Node *e = parse_expression(an->arena, f->body, len, &po, &err);
        return e ? e : an_fail(an, err);
    }
    Node *q = parse_statement(an->arena, f->body, len, &po, &err);
    if (!q) return an_fail(an, err);
    if (q->kind == NK_Project && q->nexprs == 1 && q->nkids == 1 && q->kids[0]->kind == NK_OneRowRelation) {
        Node *e = q->exprs[0];
        if (e->kind == NK_UnresolvedAlias && e->nkids == 1) e = e->kids[0];
        return e;
    }
    Node *sq = node_new(an->arena, NK_ScalarSubquery, -1, -1);
    sq->u.subq.plan = q;
    return node_finish(sq);
}

static Node *param_attr(Analysis *an, const SqlFunction *f, int i, ExprId id) {
    Node *a = node_new(an->arena, NK_AttributeReference, -1, -1);
    a->u.attr.name = f->param_names[i];
    a->u.attr.id = id;
    const char **q = ARENA_ARRAY(an->arena, const char *, 1);
    q[0] = f->name;
    a->u.attr.qualifier = (NameParts){1, q};
    a->type = f->param_types[i];
    a->flags |= NF_NULLABLE;
    return node_finish(a);
}

Node *sql_function_inline(Analysis *an, const SqlFunction *f, Node *const *args, uint32_t nargs, const Node *at,
                          Node ***aliases_out) {
    (void)nargs;
    int np = f->nparams;
    Node **aliases = ARENA_ARRAY(an->arena, Node *, np + 1);
    Node **params = ARENA_ARRAY(an->arena, Node *, np + 1);
    for (int i = 0; i < np; i++) {
        ExprId id;
        if (args) {
            Node *c = node_new(an->arena, NK_Cast, args[i]->start, args[i]->stop);
            c->type = f->param_types[i];
            c->u.cast.ansi = an->conf->ansi;
            c->flags |= args[i]->flags & NF_NULLABLE;
            node_set_kids(an->arena, c, &args[i], 1);
            aliases[i] = make_alias(an, node_finish(c), f->param_names[i], false);
            id = aliases[i]->u.attr.id;
        } else {
            id = an_new_id(an);
        }
        params[i] = param_attr(an, f, i, id);
    }
    Node *body = parse_body(an, f);
    if (!body) return NULL;
    /* Project [body AS f] over the parameters */
    Node *rel = node_new(an->arena, NK_LocalRelation, -1, -1);
    node_set_exprs(an->arena, rel, params, (uint32_t)np);
    Node *item = node_new(an->arena, NK_Alias, -1, -1);
    item->u.attr.name = f->name;
    node_set_kids(an->arena, item, &body, 1);
    Node *top = node_new(an->arena, NK_Project, -1, -1);
    Node *it = node_finish(item), *r = node_finish(rel);
    node_set_exprs(an->arena, top, &it, 1);
    node_set_kids(an->arena, top, &r, 1);
    /* the body's own text positions must not leak into the caller's errors */
    const char *saved_sql = an->sql;
    size_t saved_len = an->sql_len;
    struct OuterScope *saved_outer = an->outer;
    an->sql = NULL;
    an->sql_len = 0;
    an->outer = NULL;
    Node *plan = an_analyze_nested(an, node_finish(top), NULL, "sql-function", f->name);
    an->sql = saved_sql;
    an->sql_len = saved_len;
    an->outer = saved_outer;
    if (!plan) {
        if (an->error && an->error->start < 0 && at) an->error->start = at->start, an->error->stop = at->stop;
        return NULL;
    }
    if (plan->kind != NK_Project || plan->nexprs != 1 || plan->exprs[0]->kind != NK_Alias) return NULL;
    Node *resolved = plan->exprs[0]->kids[0];
    if (f->ret_type && resolved->type && !type_equal(resolved->type, f->ret_type))
        resolved = make_cast(an, resolved, f->ret_type);
    Node *fn = node_new(an->arena, NK_SQLScalarFunction, at ? at->start : -1, at ? at->stop : -1);
    fn->u.sqlfn.fn = f;
    fn->u.sqlfn.name = sql_function_name(an, f);
    Node **kids = ARENA_ARRAY(an->arena, Node *, np + 2);
    for (int i = 0; i < np; i++) kids[i] = args ? to_attribute(an, aliases[i]) : params[i];
    kids[np] = resolved;
    node_set_kids(an->arena, fn, kids, (uint32_t)np + 1);
    fn->type = f->ret_type ? f->ret_type : resolved->type;
    fn->flags |= NF_NULLABLE;
    if (aliases_out) *aliases_out = aliases;
    return node_finish(fn);
}
