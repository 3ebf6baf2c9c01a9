/* Session variable statements and the statements that compute their
 * target: DECLARE [OR REPLACE] VARIABLE, SET VAR, DROP TEMPORARY VARIABLE,
 * EXECUTE IMMEDIATE, and any statement whose name is an IDENTIFIER(...)
 * clause. Values are computed with the constant evaluator when the
 * statement runs, as Spark's CreateVariableExec / SetVariableExec do, so
 * their runtime errors (DIVIDE_BY_ZERO, CAST_INVALID_INPUT,
 * ROW_SUBQUERY_TOO_MANY_ROWS, ...) surface here. Changes go to the pending
 * session state, published only if the statement succeeds. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "statements.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "eval/consteval.h"
#include "functions/functions.h"
#include "parser/parser.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/identifier.h"
#include "rules/lib/variables.h"
#include "core/walk.h"

/* ---- helpers ---- */

static Node *one_row(Analysis *an) { return node_finish(node_new(an->arena, NK_OneRowRelation, -1, -1)); }

/* e resolved on its own (literals, functions, variables, subqueries):
 * analysed as `SELECT e` and taken back out. NULL on error. */
static Node *resolve_standalone(Analysis *an, Node *e) {
    Node *item = e;
    if (e->kind != NK_Alias) {
        item = node_new(an->arena, NK_Alias, e->start, e->stop);
        item->u.attr.name = "value";
        node_set_kids(an->arena, item, &e, 1);
        item = node_finish(item);
    }
    Node *p = make_project(an, one_row(an), &item, 1);
    Node *r = an_analyze_query(an, p);
    if (!r) return NULL;
    while (r->kind != NK_Project && r->nkids == 1) r = r->kids[0];
    if (r->kind != NK_Project || r->nexprs != 1) return NULL;
    Node *x = r->exprs[0];
    return x->kind == NK_Alias ? x->kids[0] : x;
}

static ParserOptions parser_options(const Analysis *an) {
    ParserOptions po = {.double_quoted_identifiers = an->conf->double_quoted_identifiers,
                        .enforce_reserved_keywords = an->conf->enforce_reserved_keywords,
                        .having_without_group_by_as_where = an->conf->having_without_group_by_as_where,
                        .legacy_setops_precedence = an->conf->legacy_setops_precedence,
                        .timestamp_ntz = an->conf->timestamp_type_ntz != 0,
                        .time_zone = an->session ? conf_session_time_zone(an->arena, an->session) : NULL,
                        .max_depth = an->max_depth};
    return po;
}

static const char *lower_dup(Arena *a, const char *s) {
    char *c = arena_strdup(a, s);
    for (char *p = c; *p; p++) *p = (char)tolower((unsigned char)*p);
    return c;
}

static bool has_subquery(const Node *e) {
    return expr_has_kind(e, KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_InSubquery, NK_ListQuery, NK_LateralSubquery));
}

/* The variables named by targets (UnresolvedAttribute), checked: each
 * exists (UNRESOLVED_VARIABLE) and none repeats (DUPLICATE_ASSIGNMENTS). */
static const Variable **resolve_targets(Analysis *an, SessionState *st, Node *const *targets, uint32_t n) {
    const Variable **vars = ARENA_ARRAY(an->arena, const Variable *, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        NameParts np = targets[i]->u.un.name;
        const char *name = variable_target_name(np);
        vars[i] = name ? state_find_var(st, name) : NULL;
        if (!vars[i]) return variable_unresolved(an, targets[i], np, true), NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < i; j++)
            if (strcasecmp(vars[i]->name, vars[j]->name) == 0)
                return an_fail(an, error_make(an->arena, "DUPLICATE_ASSIGNMENTS", targets[i], "nameList",
                                              sql_ident(an->arena, vars[i]->name), NULL)),
                       NULL;
    return vars;
}

/* Assigns the single row of an analysed query to vars (cast to their
 * types): no row → NULLs, more than one → ROW_SUBQUERY_TOO_MANY_ROWS.
 * Values of a query that is not constant (it reads a table) are unknown
 * here: the variables are marked so (Value.unknown), and what needs their
 * value later fails with CATALYZER_UNEVALUATED_VALUE rather than taking
 * them for NULL. */
static bool assign_row(Analysis *an, SessionState *st, const Variable **vars, uint32_t n, const Node *plan,
                       const Node *at) {
    Value *rows = NULL;
    uint32_t ncols = 0;
    int nr = const_eval_rows(an, plan, 1, &rows, &ncols);
    if (an_failed(an)) return false;
    if (nr > 1) {
        ErrorInfo *e = error_make(an->arena, "ROW_SUBQUERY_TOO_MANY_ROWS", at, NULL);
        e->phase = "execution";
        an_fail(an, e);
        return false;
    }
    /* copy the names first: state_put_var may move the variable array */
    const char **names = ARENA_ARRAY(an->arena, const char *, n + 1);
    const DataType **types = ARENA_ARRAY(an->arena, const DataType *, n + 1);
    const char **defaults = ARENA_ARRAY(an->arena, const char *, n + 1);
    Value *vals = ARENA_ARRAY(an->arena, Value, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        names[i] = vars[i]->name;
        types[i] = vars[i]->type;
        defaults[i] = vars[i]->default_sql;
        Value v = {.type = types[i], .is_null = true, .unknown = nr < 0};
        if (nr == 1 && i < ncols) {
            if (!const_cast_value(an, &rows[i], types[i], at, &v)) {
                if (an_failed(an)) return false;
                v = (Value){.type = types[i], .is_null = true, .unknown = true}; /* a cast not evaluated here */
            }
        }
        vals[i] = v;
    }
    for (uint32_t i = 0; i < n; i++) state_put_var(st, names[i], types[i], &vals[i], defaults[i]);
    return true;
}

/* The analysed form Spark shows: SetVariable [variable references (values
 * before the assignment)] over the analysed source query. */
static Node *resolved_set_variable(Analysis *an, const Node *at, Node *const *targets, uint32_t n, Node *plan) {
    Node **refs = ARENA_ARRAY(an->arena, Node *, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        refs[i] = resolve_variable(an, targets[i]);
        if (!refs[i]) refs[i] = targets[i];
    }
    Node *r = node_new(an->arena, NK_SetVariable, at->start, at->stop);
    node_set_exprs(an->arena, r, refs, n);
    node_set_kids(an->arena, r, &plan, 1);
    return node_finish(r);
}

/* An ANSI cast of e to t, type-checked as CheckAnalysis would
 * (DATATYPE_MISMATCH.CAST_*); NULL with the error recorded. */
static Node *checked_cast(Analysis *an, Node *e, const DataType *t) {
    Node *c = node_new(an->arena, NK_Cast, e->start, e->stop);
    c->type = t;
    c->u.cast.ansi = true;
    c->flags |= NF_IMPLICIT;
    node_set_kids(an->arena, c, &e, 1);
    c = node_finish(c);
    Node *r = expr_resolve_typed(an, c);
    return an_failed(an) ? NULL : (r ? r : c);
}

/* Spark's ResolveSetVariable: a column whose type is not its variable's is
 * cast to it (named after the variable) in a Project over the source. */
static Node *cast_to_variables(Analysis *an, Node *plan, const Variable **vars, uint32_t n) {
    AttrList out = plan_output(an, plan);
    if (out.n != n) return plan;
    bool any = false;
    Node **ex = ARENA_ARRAY(an->arena, Node *, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        ex[i] = out.v[i];
        if (!type_same(out.v[i]->type, vars[i]->type)) {
            Node *c = checked_cast(an, out.v[i], type_copy(an->arena, vars[i]->type));
            if (!c) return NULL;
            ex[i] = make_alias(an, c, arena_strdup(an->arena, vars[i]->name), false);
            any = true;
        }
    }
    return any ? make_project(an, plan, ex, n) : plan;
}

/* ---- DECLARE ---- */

static Node *declare_variable(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    NameParts np = stmt->u.ddl.name;
    const char *name = variable_target_name(np);
    if (!name) return variable_unresolved(an, stmt, np, false);
    name = lower_dup(an->arena, name);
    const DataType *declared = stmt->u.ddl.col_types ? stmt->u.ddl.col_types[0] : NULL;
    Node *def = stmt->nexprs ? stmt->exprs[0] : NULL;
    const DataType *type = declared;
    Value v = {.type = declared ? declared : &TYPE_NULL, .is_null = true};
    const char *default_sql = NULL;
    Node *shown = NULL;
    if (def) {
        if (def->start >= 0 && def->stop >= def->start && an->sql && (size_t)def->stop < an->sql_len)
            default_sql = arena_strndup(an->arena, an->sql + def->start, (size_t)(def->stop - def->start + 1));
        const char *stmt_text = arena_printf(an->arena, "DECLARE VARIABLE");
        if (expr_has_kind(def, KIND_MASK(NK_ScalarSubquery, NK_Exists, NK_InSubquery, NK_ListQuery)))
            return an_fail(an, error_make(an->arena, "INVALID_DEFAULT_VALUE.SUBQUERY_EXPRESSION", def, "statement",
                                          stmt_text, "colName", variable_sql_name(an, name), "defaultValue",
                                          default_sql ? default_sql : "", NULL));
        Node *e = resolve_standalone(an, def);
        if (!e) return NULL;
        if (has_subquery(e))
            return an_fail(an, error_make(an->arena, "INVALID_DEFAULT_VALUE.SUBQUERY_EXPRESSION", def, "statement",
                                          stmt_text, "colName", variable_sql_name(an, name), "defaultValue",
                                          default_sql ? default_sql : "", NULL));
        if (!type) type = e->type ? e->type : &TYPE_NULL;
        shown = declared ? checked_cast(an, e, declared) : e;
        if (!shown) return NULL;
        Value raw;
        if (const_eval(an, e, &raw)) {
            if (!const_cast_value(an, &raw, type, def, &v)) {
                if (an_failed(an)) return NULL;
                v = (Value){.type = type, .is_null = true, .unknown = true};
            }
        } else if (an_failed(an)) return NULL;
        else v = (Value){.type = type, .is_null = true, .unknown = true}; /* not computed here: not NULL either */
    }
    SessionState *st = pending_state(s, pend);
    if (state_find_var(st, name) && !stmt->u.ddl.or_replace)
        return an_fail(an, error_make(an->arena, "VARIABLE_ALREADY_EXISTS", stmt, "variableName",
                                      variable_sql_name(an, name), NULL));
    v.type = type;
    state_put_var(st, name, type, &v, default_sql);
    if (!shown) return stmt;
    /* the analysed form shows the default cast to the declared type */
    Node *r = node_copy(an->arena, stmt);
    node_set_exprs(an->arena, r, &shown, 1);
    return node_finish(r);
}

/* ---- SET VAR ---- */

static bool is_default_ref(const Node *e) {
    return e->kind == NK_UnresolvedAttribute && e->u.un.name.n == 1 && strcasecmp(e->u.un.name.v[0], "default") == 0;
}

static WalkResult find_default(const Node *e, void *ctx) {
    if (is_default_ref(e)) {
        *(bool *)ctx = true;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

static bool mentions_default(const Node *e) {
    bool found = false;
    node_walk(e, 0, find_default, &found);
    return found;
}

/* The expression DEFAULT stands for: the variable's DEFAULT text parsed
 * again (Spark re-evaluates it), or NULL. */
static Node *default_expr(Analysis *an, const Variable *v, const Node *at) {
    Node *e = NULL;
    if (v->default_sql) {
        ParserOptions po = parser_options(an);
        ErrorInfo *err = NULL;
        e = parse_expression(an->arena, v->default_sql, strlen(v->default_sql), &po, &err);
    }
    if (!e) {
        e = node_new(an->arena, NK_Literal, at->start, at->stop);
        e->u.lit.v = (Value){.type = &TYPE_NULL, .is_null = true};
        e->type = &TYPE_NULL;
        e->flags |= NF_NULLABLE;
        e = node_finish(e);
    }
    Node *a = node_new(an->arena, NK_Alias, at->start, at->stop);
    a->u.attr.name = "DEFAULT";
    node_set_kids(an->arena, a, &e, 1);
    return node_finish(a);
}

/* Whether the select list's input (child) has a column called default:
 * a column wins over the DEFAULT keyword. */
static bool child_has_default_column(Analysis *an, Node *child) {
    if (child->kind == NK_OneRowRelation) return false;
    ErrorInfo *saved = an->error;
    Node *r = an_analyze_query(an, child);
    an->error = saved;
    if (!r) return false;
    AttrList out = plan_output(an, r);
    for (uint32_t i = 0; i < out.n; i++)
        if (strcasecmp(out.v[i]->u.attr.name, "default") == 0) return true;
    return false;
}

/* Replaces DEFAULT in the top select list (through limits / CTEs) or VALUES
 * rows of a SET VAR source by the targets' default expressions. */
static Node *substitute_defaults(Analysis *an, Node *q, const Variable **vars, uint32_t n) {
    switch (q->kind) {
    case NK_GlobalLimit:
    case NK_LocalLimit:
    case NK_Offset:
    case NK_Sort:
    case NK_Distinct:
    case NK_SubqueryAlias:
    case NK_UnresolvedWith: {
        Node *k = substitute_defaults(an, q->kids[0], vars, n);
        return k ? node_with_kid(an->arena, q, 0, k) : NULL;
    }
    case NK_Project: {
        bool any = false;
        for (uint32_t i = 0; i < q->nexprs; i++)
            if (mentions_default(q->exprs[i])) any = true;
        if (!any || child_has_default_column(an, q->kids[0])) return q;
        Node **ex = ARENA_ARRAY(an->arena, Node *, q->nexprs + 1);
        for (uint32_t i = 0; i < q->nexprs; i++) {
            Node *e = q->exprs[i];
            const Node *inner = e->kind == NK_Alias ? e->kids[0] : e;
            if (is_default_ref(inner) && i < n) ex[i] = default_expr(an, vars[i], inner);
            else if (mentions_default(e))
                return an_fail(an, error_make(an->arena, "DEFAULT_PLACEMENT_INVALID", e, NULL));
            else ex[i] = e;
        }
        return node_with_exprs(an->arena, q, ex, q->nexprs);
    }
    case NK_UnresolvedInlineTable: {
        Node **rows = ARENA_ARRAY(an->arena, Node *, q->nexprs + 1);
        bool changed = false;
        for (uint32_t r = 0; r < q->nexprs; r++) {
            Node *row = q->exprs[r];
            Node **vals = ARENA_ARRAY(an->arena, Node *, row->nkids + 1);
            for (uint32_t c = 0; c < row->nkids; c++) {
                Node *e = row->kids[c];
                if (is_default_ref(e) && c < n) {
                    vals[c] = default_expr(an, vars[c], e)->kids[0];
                    changed = true;
                } else if (mentions_default(e))
                    return an_fail(an, error_make(an->arena, "DEFAULT_PLACEMENT_INVALID", e, NULL));
                else vals[c] = e;
            }
            rows[r] = node_with_kids(an->arena, row, vals, row->nkids);
        }
        return changed ? node_with_exprs(an->arena, q, rows, q->nexprs) : q;
    }
    default: return q;
    }
}

static Node *set_variable(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    SessionState *st = pending_state(s, pend);
    uint32_t n = stmt->nexprs;
    const Variable **vars = resolve_targets(an, st, stmt->exprs, n);
    if (!vars) return NULL;
    Node *src = substitute_defaults(an, stmt->kids[0], vars, n);
    if (!src) return NULL;
    Node *plan = an_analyze_query(an, src);
    if (!plan) return NULL;
    AttrList out = plan_output(an, plan);
    if (out.n != n)
        return an_fail(an, error_make(an->arena, "ASSIGNMENT_ARITY_MISMATCH", stmt, "numTarget",
                                      arena_printf(an->arena, "%u", n), "numExpr", arena_printf(an->arena, "%u", out.n),
                                      NULL));
    plan = cast_to_variables(an, plan, vars, n);
    if (!plan || !assign_row(an, st, vars, n, plan, stmt)) return NULL;
    return resolved_set_variable(an, stmt, stmt->exprs, n, plan);
}

/* ---- DROP TEMPORARY VARIABLE ---- */

static Node *drop_variable(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    NameParts np = stmt->u.ddl.name;
    const char *name = variable_target_name(np);
    if (!name) return variable_unresolved(an, stmt, np, false);
    SessionState *st = pending_state(s, pend);
    if (!state_drop_var(st, name) && !stmt->u.ddl.if_exists)
        return an_fail(an, error_make(an->arena, "VARIABLE_NOT_FOUND", stmt, "variableName", variable_sql_name(an, name),
                                      NULL));
    return stmt;
}

/* ---- IDENTIFIER(...) as a statement's name ---- */

static Node *identifier_statement(Analysis *an, CzSession *s, Node *w, PendingChanges *pend) {
    Node *e = resolve_standalone(an, w->exprs[0]);
    if (!e) return NULL;
    NameParts parts;
    if (!identifier_name_parts(an, e, &parts)) return NULL;
    Node *stmt = node_copy(an->arena, w->kids[0]);
    stmt->u.ddl.name = parts;
    stmt = node_finish(stmt);
    return run_statement(an, s, stmt, pend);
}

/* ---- EXECUTE IMMEDIATE ---- */

typedef struct Params {
    Analysis *an;
    uint32_t n;
    const char **names;  /* NULL entries: positional */
    Node **values;
    uint32_t pos_base;   /* positional marker k binds values[pos_base + k] */
    bool named, positional; /* markers seen in the statement */
    const Node *unbound;
} Params;

static Node *bind_plan(Params *pa, Node *p);

static Node *bind_expr(Params *pa, Node *e) {
    if (pa->unbound) return e;
    if (e->kind == NK_NamedParameter || e->kind == NK_PosParameter) {
        Node *v = NULL;
        if (e->kind == NK_NamedParameter) {
            pa->named = true;
            for (uint32_t i = 0; i < pa->n && !v; i++)
                if (pa->names[i] && strcasecmp(pa->names[i], e->u.named.name) == 0) v = pa->values[i];
        } else {
            pa->positional = true;
            int32_t k = e->u.pos.index;
            if (k >= 0 && pa->pos_base + (uint32_t)k < pa->n) v = pa->values[pa->pos_base + (uint32_t)k];
        }
        if (!v) {
            pa->unbound = e;
            return e;
        }
        return v;
    }
    Node *n = e;
    if (e->nkids) {
        Node **kids = ARENA_ARRAY(pa->an->arena, Node *, e->nkids + 1);
        bool changed = false;
        for (uint32_t i = 0; i < e->nkids; i++) {
            kids[i] = bind_expr(pa, e->kids[i]);
            if (kids[i] != e->kids[i]) changed = true;
        }
        if (changed) n = node_with_kids(pa->an->arena, n, kids, e->nkids);
    }
    if ((n->kind == NK_ScalarSubquery || n->kind == NK_Exists || n->kind == NK_ListQuery || n->kind == NK_InSubquery ||
         n->kind == NK_LateralSubquery) &&
        n->u.subq.plan) {
        Node *p = bind_plan(pa, n->u.subq.plan);
        if (p != n->u.subq.plan) {
            n = node_copy(pa->an->arena, n);
            n->u.subq.plan = p;
            n = node_finish(n);
        }
    }
    return n;
}

static Node *bind_plan(Params *pa, Node *p) {
    Node *n = p;
    if (p->nexprs) {
        Node **ex = ARENA_ARRAY(pa->an->arena, Node *, p->nexprs + 1);
        bool changed = false;
        for (uint32_t i = 0; i < p->nexprs; i++) {
            ex[i] = bind_expr(pa, p->exprs[i]);
            if (ex[i] != p->exprs[i]) changed = true;
        }
        if (changed) n = node_with_exprs(pa->an->arena, n, ex, p->nexprs);
    }
    if (n->kind == NK_UnresolvedInlineTable || n->kind == NK_LocalRelation) {
        /* rows are ExprLists in exprs: handled above */
    }
    if (n->nkids) {
        Node **kids = ARENA_ARRAY(pa->an->arena, Node *, n->nkids + 1);
        bool changed = false;
        for (uint32_t i = 0; i < n->nkids; i++) {
            kids[i] = bind_plan(pa, n->kids[i]);
            if (kids[i] != n->kids[i]) changed = true;
        }
        if (changed) n = node_with_kids(pa->an->arena, n, kids, n->nkids);
    }
    return n;
}

static const char *upper_text(Arena *a, const char *s, uint32_t n) {
    char *c = arena_strndup(a, s, n);
    for (char *p = c; *p; p++) *p = (char)toupper((unsigned char)*p);
    return c;
}

static bool is_query_kind(NodeKind k) { return !node_kind_is_command(k) && k != NK_UnresolvedIdentifierPlan; }

/* What a statement that needs an unknown value (Value.unknown) fails with:
 * the analyzer cannot say what Spark would do with it. */
static ErrorInfo *unevaluated_value(Analysis *an, const Node *at) {
    return error_make(an->arena, "CATALYZER_UNEVALUATED_VALUE", at, "expr", expr_sql_quoted(an->arena, at), NULL);
}

static Node *execute_immediate(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    uint32_t nusing = stmt->u.ddl.nusing;
    Node *qe = stmt->exprs[0];
    Node *const *using = node_exprs_from(stmt, 1);
    Node *const *into = node_exprs_from(stmt, 1 + nusing);
    uint32_t ninto = stmt->nexprs - 1 - nusing;

    /* the statement text: a string literal or a STRING variable */
    const char *text;
    uint32_t tlen;
    if (qe->kind == NK_Literal) {
        if (!qe->type || !type_is_string(qe->type) || qe->u.lit.v.is_null)
            return an_fail(an, error_make(an->arena, "INVALID_VARIABLE_TYPE_FOR_QUERY_EXECUTE_IMMEDIATE", qe, "varType",
                                          sql_type_quoted(an->arena, qe->type ? qe->type : &TYPE_NULL), NULL));
        text = qe->u.lit.v.u.s.p;
        tlen = qe->u.lit.v.u.s.len;
    } else if (qe->kind == NK_UnresolvedAttribute) {
        Node *v = resolve_variable(an, qe);
        if (!v) return variable_unresolved(an, qe, qe->u.un.name, false);
        if (!type_is_string(v->type))
            return an_fail(an, error_make(an->arena, "INVALID_VARIABLE_TYPE_FOR_QUERY_EXECUTE_IMMEDIATE", qe, "varType",
                                          sql_type_quoted(an->arena, v->type), NULL));
        if (v->u.attr.value->unknown) return an_fail(an, unevaluated_value(an, qe));
        if (v->u.attr.value->is_null)
            return an_fail(an, error_make(an->arena, "NULL_QUERY_STRING_EXECUTE_IMMEDIATE", qe, "varName",
                                          sql_id_parts(an->arena, qe->u.un.name), NULL));
        text = v->u.attr.value->u.s.p;
        tlen = v->u.attr.value->u.s.len;
    } else {
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_EXPR_FOR_PARAMETER", qe, "invalidExprSql",
                                      expr_sql_quoted(an->arena, qe), NULL));
    }

    /* USING (a, b): a parenthesised list is the arguments themselves */
    if (nusing == 1 && using[0]->kind == NK_UnresolvedFunction && using[0]->u.un.name.n == 1 &&
        !strcmp(using[0]->u.un.name.v[0], "struct") && using[0]->start >= 0 && an->sql &&
        (size_t)using[0]->start < an->sql_len && an->sql[using[0]->start] == '(') {
        nusing = using[0]->nkids;
        using = using[0]->kids;
    }

    /* USING arguments: literals or variables, named all or none */
    Params pa = {.an = an, .n = nusing};
    pa.names = ARENA_ARRAY(an->arena, const char *, nusing + 1);
    pa.values = ARENA_ARRAY(an->arena, Node *, nusing + 1);
    uint32_t nnamed = 0;
    for (uint32_t i = 0; i < nusing; i++) {
        Node *u = using[i];
        if (u->kind == NK_Alias) {
            pa.names[i] = u->u.attr.name;
            nnamed++;
            u = u->kids[0];
        } else if (u->kind == NK_UnresolvedAttribute && u->u.un.name.n == 1) {
            /* a variable passed without AS names the parameter after itself */
            pa.names[i] = u->u.un.name.v[0];
            nnamed++;
        }
        for (uint32_t j = 0; j < i; j++)
            if (using[i]->kind == NK_Alias && using[j]->kind == NK_Alias && pa.names[j] &&
                strcasecmp(pa.names[i], pa.names[j]) == 0)
                return an_fail(an, error_make(an->arena, "EXEC_IMMEDIATE_DUPLICATE_ARGUMENT_ALIASES", using[i], "aliases",
                                              sql_ident(an->arena, pa.names[i]), NULL));
        Node *v;
        if (u->kind == NK_Literal) v = u;
        else if (u->kind == NK_UnresolvedAttribute) {
            v = resolve_variable(an, u);
            if (!v) return variable_unresolved(an, u, u->u.un.name, false);
        } else if (u->kind == NK_UnresolvedFunction && u->u.un.is_operator && u->nkids == 1 && u->kids[0]->kind == NK_Literal) {
            v = u; /* a negative number */
        } else {
            Node *r = resolve_standalone(an, u);
            if (!r) return NULL;
            if (r->kind != NK_Literal && r->kind != NK_VariableReference &&
                !(r->kind == NK_Call && expr_is_constant(r) && !has_subquery(r) && u->kind != NK_UnresolvedFunction))
                return an_fail(an, error_make(an->arena, "UNSUPPORTED_EXPR_FOR_PARAMETER", u, "invalidExprSql",
                                              expr_sql_quoted(an->arena, r), NULL));
            v = r;
        }
        pa.values[i] = v;
    }

    /* parse the statement */
    const char *sql = arena_strndup(an->arena, text, tlen);
    ParserOptions po = parser_options(an);
    ErrorInfo *err = NULL;
    Node *inner = parse_statement(an->arena, sql, tlen, &po, &err);
    if (!inner) {
        if (err) {
            err->start = stmt->start;
            err->stop = stmt->stop;
        }
        return an_fail(an, err ? err : error_make(an->arena, "PARSE_SYNTAX_ERROR", stmt, "error", "''", "hint", "", NULL));
    }
    if (inner->kind == NK_ExecuteImmediate)
        return an_fail(an, error_make(an->arena, "NESTED_EXECUTE_IMMEDIATE", stmt, "sqlString",
                                      upper_text(an->arena, sql, tlen), NULL));
    if (ninto && !is_query_kind(inner->kind))
        return an_fail(an, error_make(an->arena, "INVALID_STATEMENT_FOR_EXECUTE_INTO", stmt, "sqlString",
                                      upper_text(an->arena, sql, tlen), NULL));

    /* bind the parameter markers */
    Node *bound = bind_plan(&pa, inner);
    if (pa.named && pa.positional)
        return an_fail(an, error_make(an->arena, "INVALID_QUERY_MIXED_QUERY_PARAMETERS", stmt, NULL));
    inner = bound;
    if (pa.named && nnamed < nusing) {
        for (uint32_t i = 0; i < nusing; i++)
            if (!pa.names[i])
                return an_fail(an, error_make(an->arena, "ALL_PARAMETERS_MUST_BE_NAMED", using[i], "exprs",
                                              expr_sql_quoted(an->arena, pa.values[i]), NULL));
    }
    if (pa.unbound) {
        const char *pname = pa.unbound->kind == NK_NamedParameter
                                ? pa.unbound->u.named.name
                                : arena_printf(an->arena, "_%d", pa.unbound->start);
        return an_fail(an, error_make(an->arena, "UNBOUND_SQL_PARAMETER", stmt, "name", pname, NULL));
    }

    /* run it: the inner statement's text is what its nodes point into */
    const char *saved_sql = an->sql;
    size_t saved_len = an->sql_len;
    an->sql = sql;
    an->sql_len = tlen;
    Node *r;
    if (!ninto) {
        r = run_statement(an, s, inner, pend);
    } else {
        SessionState *st = pending_state(s, pend);
        const Variable **vars = resolve_targets(an, st, into, ninto);
        r = NULL;
        if (vars) {
            Node *plan = an_analyze_query(an, inner);
            if (plan) {
                AttrList out = plan_output(an, plan);
                if (out.n != ninto)
                    an_fail(an, error_make(an->arena, "ASSIGNMENT_ARITY_MISMATCH", stmt, "numTarget",
                                           arena_printf(an->arena, "%u", ninto), "numExpr",
                                           arena_printf(an->arena, "%u", out.n), NULL));
                else if ((plan = cast_to_variables(an, plan, vars, ninto)) &&
                         assign_row(an, st, vars, ninto, plan, stmt))
                    r = resolved_set_variable(an, stmt, into, ninto, plan);
            }
        }
    }
    an->sql = saved_sql;
    an->sql_len = saved_len;
    if (an->error) {
        /* positions were in the inner text: Spark reports the whole statement */
        an->error->start = stmt->start;
        an->error->stop = stmt->stop;
    }
    return r;
}

/* A statement's parameter markers bound to values (named or positional),
 * or Spark's error when they cannot be: UNBOUND_SQL_PARAMETER,
 * INVALID_QUERY_MIXED_QUERY_PARAMETERS. NULL on error (recorded). */
static Node *bind_markers(Analysis *an, Node *stmt, Params *pa) {
    Node *r = bind_plan(pa, stmt);
    if (pa->named && pa->positional)
        return an_fail(an, error_make(an->arena, "INVALID_QUERY_MIXED_QUERY_PARAMETERS", stmt, NULL));
    if (pa->unbound) {
        const char *pname = pa->unbound->kind == NK_NamedParameter
                                ? pa->unbound->u.named.name
                                : arena_printf(an->arena, "_%d", pa->unbound->start); /* Spark: `_` + the marker's offset */
        return an_fail(an, error_make(an->arena, "UNBOUND_SQL_PARAMETER", pa->unbound, "name", pname, NULL));
    }
    return r;
}

Node *bind_run_parameters(Analysis *an, Node *stmt, const CzRunOptions *o) {
    if (!kind_mask_any(stmt->mask, KIND_MASK(NK_NamedParameter, NK_PosParameter))) return stmt;
    uint32_t nn = o ? (uint32_t)o->nnamed_params : 0, np = o ? (uint32_t)o->npos_params : 0;
    Params pa = {.an = an, .n = nn + np};
    pa.names = ARENA_ARRAY(an->arena, const char *, pa.n + 1);
    pa.values = ARENA_ARRAY(an->arena, Node *, pa.n + 1);
    ParserOptions po = parser_options(an);
    for (uint32_t i = 0; i < pa.n; i++) {
        const char *text = i < nn ? o->param_values_sql[i] : o->pos_params_sql[i - nn];
        ErrorInfo *err = NULL;
        Node *v = parse_expression(an->arena, text, strlen(text), &po, &err);
        if (!v) return an_fail(an, err ? err : error_make(an->arena, "PARSE_SYNTAX_ERROR", NULL, NULL));
        pa.names[i] = i < nn ? o->param_names[i] : NULL;
        pa.values[i] = v;
    }
    pa.pos_base = nn; /* positional values follow the named ones */
    return bind_markers(an, stmt, &pa);
}

Node *run_variable_command(Analysis *an, CzSession *s, Node *stmt, PendingChanges *pend) {
    switch (stmt->kind) {
    case NK_DeclareVariable: return declare_variable(an, s, stmt, pend);
    case NK_SetVariable: return set_variable(an, s, stmt, pend);
    case NK_DropVariable: return drop_variable(an, s, stmt, pend);
    case NK_ExecuteImmediate: return execute_immediate(an, s, stmt, pend);
    case NK_UnresolvedIdentifierPlan: return identifier_statement(an, s, stmt, pend);
    default:
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_FEATURE", stmt, NULL));
    }
}
