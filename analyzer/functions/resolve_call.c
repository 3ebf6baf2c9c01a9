/* func_resolve_call: an UnresolvedFunction whose arguments are resolved →
 * a typed Call (aggregates wrapped in an AggregateExpression), or Spark's
 * error. The steps are the same for every function: arity, default
 * arguments, implicit casts from the argument spec, the typing helper,
 * then the node. Function-specific knowledge stays in the registry rows. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"
#include "catalog/conf.h"
#include "core/func_sig.h"
#include "core/suggest.h"
#include "print/printer.h"
#include "core/walk.h"

const FuncDef *func_lookup_arity(const char *name, int nargs);

/* ---- node helpers ---- */

Node *fn_mk_literal(Arena *a, const DataType *t, bool is_null) {
    Node *n = node_new(a, NK_Literal, -1, -1);
    n->u.lit.v.type = t;
    n->u.lit.v.is_null = is_null;
    n->type = t;
    if (is_null) n->flags |= NF_NULLABLE;
    return n;
}

Node *fn_mk_int_lit(Arena *a, int64_t v, const DataType *t) {
    Node *n = fn_mk_literal(a, t, false);
    n->u.lit.v.u.i = v;
    return node_finish(n);
}

Node *fn_mk_str_lit(Arena *a, const char *s) {
    Node *n = fn_mk_literal(a, &TYPE_STRING, false);
    n->u.lit.v.u.s.p = arena_strdup(a, s);
    n->u.lit.v.u.s.len = (uint32_t)strlen(s);
    return node_finish(n);
}

bool fn_is_null_lit(const Node *n) { return n->kind == NK_Literal && n->u.lit.v.is_null; }

const char *fn_lit_string(const Node *n) {
    if (n && n->kind == NK_Cast && (n->flags & NF_IMPLICIT) && n->nkids) n = n->kids[0];
    if (!n || n->kind != NK_Literal || n->u.lit.v.is_null || !type_is_string(n->type)) return NULL;
    return n->u.lit.v.u.s.p ? n->u.lit.v.u.s.p : "";
}

/* A constant string argument: a string literal, or a session variable's
 * value (a constant for the statement). Copied into the arena. */
const char *fn_const_string(Arena *a, const Node *n) {
    const char *s = fn_lit_string(n);
    if (s) return s;
    if (n && n->kind == NK_Cast && (n->flags & NF_IMPLICIT) && n->nkids) n = n->kids[0];
    if (n && n->kind == NK_VariableReference && n->u.attr.value) {
        const Value *v = n->u.attr.value;
        if (v->is_null || v->unknown || !type_is_string(v->type)) return NULL;
        return arena_strndup(a, v->u.s.p ? v->u.s.p : "", v->u.s.len);
    }
    return NULL;
}

bool fn_is_foldable(const Node *n) {
    switch (n->kind) {
    case NK_Literal: return true;
    case NK_VariableReference: return true; /* a session variable is a constant of the statement (VariableReference.foldable) */
    case NK_Cast: case NK_Call: case NK_CaseWhen:
        if (n->kind == NK_Call && n->u.call.def && ((n->u.call.def->flags & FD_NONDET) || n->u.call.def->kind != FK_SCALAR))
            return false;
        for (uint32_t i = 0; i < n->nkids; i++)
            if (!fn_is_foldable(n->kids[i])) return false;
        return true;
    default: return false;
    }
}

bool fn_expr_nullable(const Node *n) {
    if (n->kind == NK_Literal) return n->u.lit.v.is_null;
    return (n->flags & NF_NULLABLE) != 0;
}

Node *fn_mk_cast(Analysis *an, Node *e, const DataType *t) {
    if (type_equal(e->type, t)) return e;
    Node *c = node_new(an->arena, NK_Cast, e->start, e->stop);
    node_set_kids(an->arena, c, &e, 1);
    c->type = t;
    c->u.cast.ansi = an->conf ? an->conf->ansi : true;
    c->flags |= NF_IMPLICIT | (fn_expr_nullable(e) ? NF_NULLABLE : 0);
    return node_finish(c);
}

Node *coerce_cast(Analysis *an, Node *e, const DataType *t) { return fn_mk_cast(an, e, t); }

Node *fn_mk_call(Analysis *an, const FuncDef *def, const char *name, Node *const *args, int nargs, const DataType *t,
              const Node *pos) {
    Node *n = node_new(an->arena, NK_Call, pos ? pos->start : -1, pos ? pos->stop : -1);
    node_set_kids(an->arena, n, args, (uint32_t)nargs);
    n->u.call.def = def;
    n->u.call.name = name ? name : def->name;
    n->u.call.tz = an->time_zone ? an->time_zone : "UTC";
    n->u.call.ansi = an->conf->ansi;
    n->type = t;
    bool nullable;
    if (def->flags & FD_NOT_NULL) nullable = false;
    else if (def->flags & FD_NULLABLE) nullable = true;
    else {
        nullable = false;
        for (int i = 0; i < nargs; i++) nullable = nullable || fn_expr_nullable(args[i]);
    }
    if (nullable) n->flags |= NF_NULLABLE;
    if (def->flags & FD_NONDET) n->flags |= NF_NONDETERMINISTIC;
    return node_finish(n);
}

/* ---- errors ---- */

static const char *ordinal_word(Arena *a, int i) {
    static const char *const W[] = {"first", "second", "third", "fourth", "fifth",
                                    "sixth", "seventh", "eighth", "ninth", "tenth"};
    if (i < 10) return W[i];
    return arena_printf(a, "%dth", i + 1);
}

const char *fn_call_sql_quoted(TypeCtx *c) {
    Node *tmp = node_new(c->an->arena, NK_Call, -1, -1);
    node_set_kids(c->an->arena, tmp, c->args, (uint32_t)c->nargs);
    tmp->u.call.def = c->def;
    tmp->u.call.name = c->def->name;
    tmp->type = &TYPE_NULL;
    node_finish(tmp);
    return expr_sql_quoted(c->an->arena, tmp);
}

Node *fn_typer_error(TypeCtx *c, int argi, char code) {
    Arena *a = c->an->arena;
    Node *arg = c->args[argi];
    return an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                     fn_call_sql_quoted(c), "paramIndex", ordinal_word(a, argi), "inputSql",
                                     expr_sql_quoted(a, arg), "inputType", sql_type_quoted(a, arg->type),
                                     "requiredType", fn_spec_required_type(a, code), NULL));
}

/* UNEXPECTED_INPUT_TYPE with a concrete required type */
Node *fn_typer_error_type(TypeCtx *c, int argi, const DataType *required) {
    Arena *a = c->an->arena;
    Node *arg = c->args[argi];
    return an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", c->orig, "sqlExpr",
                                     fn_call_sql_quoted(c), "paramIndex", ordinal_word(a, argi), "inputSql",
                                     expr_sql_quoted(a, arg), "inputType", sql_type_quoted(a, arg->type),
                                     "requiredType", sql_type_quoted(a, required), NULL));
}

Node *fn_fail_binary_diff(TypeCtx *c, const DataType *l, const DataType *r) {
    Arena *a = c->an->arena;
    return an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES", c->orig, "sqlExpr",
                                     fn_call_sql_quoted(c), "left", sql_type_quoted(a, l), "right",
                                     sql_type_quoted(a, r), NULL));
}

static const char *expected_num(Arena *a, const FuncDef *d) {
    if (d->expected_num) return d->expected_num;
    if (d->max_args == d->min_args) return arena_printf(a, "%d", d->min_args);
    if (d->max_args < 0) return arena_printf(a, "> %d", d->min_args - 1);
    StrBuf sb;
    sb_init(&sb, a, 16);
    sb_putc(&sb, '[');
    for (int i = d->min_args; i <= d->max_args; i++) sb_printf(&sb, "%s%d", i > d->min_args ? ", " : "", i);
    sb_putc(&sb, ']');
    return sb_str(&sb);
}

static Node *fail_arity(Analysis *an, const Node *u, const FuncDef *d, const char *called, int n) {
    Arena *a = an->arena;
    return an_fail(an, error_make(a, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", u, "functionName", sql_ident(a, called),
                                  "expectedNum", expected_num(a, d), "actualNum", arena_printf(a, "%d", n),
                                  "docroot", "https://spark.apache.org/docs/latest", NULL));
}

/* ---- default arguments ---- */

static Node *default_arg(Analysis *an, const char *tok, size_t len, const Node *pos) {
    Arena *a = an->arena;
    char *s = arena_strndup(a, tok + 1, len ? len - 1 : 0);
    switch (tok[0]) {
    case 'i': return fn_mk_int_lit(a, strtoll(s, NULL, 10), &TYPE_INT);
    case 'l': return fn_mk_int_lit(a, strtoll(s, NULL, 10), &TYPE_LONG);
    case 's': return fn_mk_str_lit(a, s);
    case 'b': {
        Node *n = fn_mk_literal(a, &TYPE_BOOLEAN, false);
        n->u.lit.v.u.b = s[0] == '1' || s[0] == 't';
        return node_finish(n);
    }
    case 'd': {
        Node *n = fn_mk_literal(a, &TYPE_DOUBLE, false);
        n->u.lit.v.u.d = strtod(s, NULL);
        return node_finish(n);
    }
    case 'n': return node_finish(fn_mk_literal(a, &TYPE_NULL, true));
    case 'm': { /* a decimal zero with the scale written: m0.000000 → decimal(18,6) */
        const char *dot = strchr(s, '.');
        int scale = dot ? (int)strlen(dot + 1) : 0;
        Node *n = fn_mk_literal(a, type_decimal(a, 18, scale), false);
        n->u.lit.v.u.dec = 0;
        return node_finish(n);
    }
    case '@': return fn_call_builtin(an, s, NULL, 0, pos);
    default: return node_finish(fn_mk_literal(a, &TYPE_NULL, true));
    }
}

/* Appends the defaults for positions nargs..max-1 (they cover the last
 * count(defaults) positions). */
static int fill_defaults(Analysis *an, const FuncDef *d, Node **args, int nargs, const Node *pos) {
    if (!d->defaults || d->max_args < 0) return nargs;
    const char *toks[16];
    size_t lens[16];
    int nt = 0;
    for (const char *p = d->defaults; nt < 16;) {
        const char *e = strchr(p, '|');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        toks[nt] = p;
        lens[nt++] = l;
        if (!e) break;
        p = e + 1;
    }
    int first = d->max_args - nt;
    for (int i = nargs; i < d->max_args; i++) {
        if (i < first) continue;
        args[i] = default_arg(an, toks[i - first], lens[i - first], pos);
        if (!args[i]) return -1;
        nargs = i + 1;
    }
    return nargs;
}

bool fn_conf_true(const Analysis *an, const char *key) { return conf_get_bool(an->conf, key, false); }

/* ---- the generic path ---- */

static bool apply_arg_specs(TypeCtx *c) {
    const char *in = c->def->in;
    if (!in || !*in) return true;
    size_t len = strlen(in);
    for (int i = 0; i < c->nargs; i++) {
        char code = in[(size_t)i < len ? (size_t)i : len - 1];
        if (!fn_collation_arg_supported(c->def->name, i, c->args[i]->type)) {
            fn_typer_error(c, i, code);
            return false;
        }
        if (code == '?' || code == 'C' || code == 'L' || c->args[i]->kind == NK_SortOrder) continue;
        if (c->def->flags & FD_EXPECTS_INPUT) {
            /* ExpectsInputTypes: the type as it is, or a NULL typed as expected */
            const DataType *t = c->args[i]->type;
            if (fn_spec_accepts(code, t)) continue;
            const DataType *nt = t->id == T_NULL ? fn_spec_concrete(c->an->arena, code) : NULL;
            if (!nt) {
                fn_typer_error(c, i, code);
                return false;
            }
            Node *lit = fn_mk_literal(c->an->arena, nt, true);
            lit->start = c->args[i]->start;
            lit->stop = c->args[i]->stop;
            c->args[i] = node_finish(lit);
            continue;
        }
        const DataType *t = fn_implicit_cast_type(c->an->arena, c->args[i]->type, code);
        if (!t && !c->an->conf->ansi) t = fn_legacy_implicit_cast_type(c->an->arena, c->args[i]->type, code);
        if (!t) {
            fn_typer_error(c, i, code);
            return false;
        }
        c->args[i] = fn_mk_cast(c->an, c->args[i], t);
    }
    return true;
}

typedef struct FindKind {
    NodeKind kind;
    const Node *found;
} FindKind;

static WalkResult find_kind(const Node *n, void *ctx) {
    FindKind *f = ctx;
    if (n->kind == f->kind) {
        f->found = n;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

static const Node *first_of_kind(const Node *e, NodeKind k) {
    FindKind f = {k, NULL};
    if (kind_mask_has(e->mask, k)) node_walk(e, 0, find_kind, &f);
    return f.found;
}

/* Spark's checks of an aggregate's FILTER (WHERE ...), made when the
 * aggregate is built (FunctionResolution), in Spark's order. A window
 * function left in a FILTER would otherwise be extracted again and again
 * by ExtractWindowExpressions. */
static bool check_filter(Analysis *an, Node *f) {
    Arena *a = an->arena;
    if (!f->type) return true;
    if (f->flags & NF_NONDETERMINISTIC) {
        an_fail(an, error_make(a, "INVALID_AGGREGATE_FILTER.NON_DETERMINISTIC", f, "filterExpr",
                               expr_sql_quoted(a, f), NULL));
        return false;
    }
    if (f->type->id != T_BOOLEAN) {
        an_fail(an, error_make(a, "INVALID_AGGREGATE_FILTER.NOT_BOOLEAN", f, "filterExpr", expr_sql_quoted(a, f), NULL));
        return false;
    }
    const Node *agg = first_of_kind(f, NK_AggregateExpression);
    if (agg) {
        an_fail(an, error_make(a, "INVALID_AGGREGATE_FILTER.CONTAINS_AGGREGATE", f, "filterExpr",
                               expr_sql_quoted(a, f), "aggExpr", expr_sql_quoted(a, agg), NULL));
        return false;
    }
    const Node *win = first_of_kind(f, NK_WindowExpression);
    if (win) {
        an_fail(an, error_make(a, "INVALID_AGGREGATE_FILTER.CONTAINS_WINDOW_FUNCTION", f, "filterExpr",
                               expr_sql_quoted(a, f), "windowExpr", expr_sql_quoted(a, win), NULL));
        return false;
    }
    return true;
}

static Node *resolve_with(Analysis *an, Node *u, const FuncDef *def, Node **args, int nargs, const char *called) {
    Arena *a = an->arena;
    TypeCtx c = {.an = an, .def = def, .orig = u, .args = args, .nargs = nargs, .nullable = -1};
    Node **written = NULL;
    if (def->flags & FD_INHERIT_ANALYSIS) {
        written = ARENA_ARRAY(a, Node *, nargs + 1);
        for (int i = 0; i < nargs; i++) written[i] = args[i];
    }
    /* CollationTypeCasts comes before the implicit casts, and again over
       the arguments the typer cast to string (the rule runs to a fixed point) */
    if (!fn_collation_coerce_call(an, def->name, c.args, c.nargs, u)) return NULL;
    if (!apply_arg_specs(&c)) return NULL;
    if (def->typer && !def->typer(&c)) return NULL;
    if (an_failed(an) && !c.replacement && !c.result) return NULL;
    if (c.replacement) return c.replacement;
    if (c.def == def && !fn_collation_coerce_call(an, def->name, c.args, c.nargs, u)) return NULL;
    if (c.def == def) c.result = fn_collation_result_type(an, def->name, c.args, c.nargs, c.result);
    /* InheritAnalysisRules: the parameters print as written; the coercion
       is the replacement's (ReplaceExpressions), not the call's */
    if (written && c.def == def)
        for (int i = 0; i < nargs && i < c.nargs; i++) c.args[i] = written[i];
    def = c.def;
    const DataType *t = c.result ? c.result : &TYPE_NULL;
    Node *call = fn_mk_call(an, def, def->name, c.args, c.nargs, t, u);
    if (c.extra) call->u.call.extra = c.extra;
    if (def->conf_flag && fn_conf_true(an, def->conf_flag)) call->u.call.extra = "true";
    if (c.nullable >= 0) {
        call->flags = (call->flags & ~(uint32_t)NF_NULLABLE) | (c.nullable ? NF_NULLABLE : 0);
    }
    (void)called;
    if (def->kind == FK_AGGREGATE && u) {
        Node *kids[2] = {call, NULL};
        uint32_t nk = 1;
        uint32_t fl = 0;
        if (u->kind == NK_UnresolvedFunction && (u->flags & NF_HAS_FILTER) && u->nkids > u->u.un.nargs) {
            Node *f = u->kids[u->u.un.nargs];
            if (!check_filter(an, f)) return NULL;
            kids[nk++] = f;
            fl |= NF_HAS_FILTER;
        }
        if (u->flags & NF_DISTINCT) fl |= NF_DISTINCT;
        Node *ag = node_new(a, NK_AggregateExpression, u->start, u->stop);
        node_set_kids(a, ag, kids, nk);
        ag->type = t;
        ag->flags |= fl | (call->flags & NF_NULLABLE);
        return node_finish(ag);
    }
    return call;
}

Node *fn_call_builtin(Analysis *an, const char *name, Node *const *args, int nargs, const Node *pos) {
    const FuncDef *d = func_lookup_arity(name, nargs);
    if (!d) return NULL;
    Node **v = ARENA_ARRAY(an->arena, Node *, (d->max_args > nargs ? d->max_args : nargs) + 2);
    for (int i = 0; i < nargs; i++) v[i] = args[i];
    int n = fill_defaults(an, d, v, nargs, pos);
    if (n < 0) return NULL;
    return resolve_with(an, (Node *)pos, d, v, n, d->name);
}

/* ---- named arguments (name => value) ---- */

static int param_index(const char *params, const char *name, int *count) {
    int idx = 0, found = -1;
    for (const char *p = params; p && *p;) {
        const char *e = strchr(p, '|');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (strlen(name) == l && strncasecmp(p, name, l) == 0) found = idx;
        idx++;
        if (!e) break;
        p = e + 1;
    }
    *count = idx;
    return found;
}

static const char *param_name(Arena *a, const char *params, int i) {
    const char *p = params;
    for (int k = 0; k < i && p; k++) {
        p = strchr(p, '|');
        if (p) p++;
    }
    if (!p) return "";
    const char *e = strchr(p, '|');
    return arena_strndup(a, p, e ? (size_t)(e - p) : strlen(p));
}

/* Puts named arguments in their parameter positions; the gaps get the
 * defaults later. Returns the argument count, or -1 after an error. */
static int place_named_args(Analysis *an, const Node *u, const FuncDef *def, Node **args, int nargs, bool *gaps) {
    Arena *a = an->arena;
    const char *rn = sql_ident(a, def->name);
    if (!def->params)
        return an_fail(an, error_make(a, "NAMED_PARAMETERS_NOT_SUPPORTED", u, "functionName", rn, NULL)), -1;
    int np;
    param_index(def->params, "", &np);
    Node **placed = ARENA_ARRAY(a, Node *, np + 1);
    int npos = 0;
    bool seen_named = false;
    const char *last_named = NULL;
    for (int i = 0; i < nargs; i++) {
        Node *x = args[i];
        if (x->kind != NK_NamedArgument) {
            if (seen_named)
                return an_fail(an, error_make(a, "UNEXPECTED_POSITIONAL_ARGUMENT", x, "routineName", rn,
                                              "parameterName", sql_ident(a, last_named), NULL)), -1;
            if (npos < np) placed[npos] = x;
            npos++;
            continue;
        }
        seen_named = true;
        last_named = x->u.named.name;
        int cnt, k = param_index(def->params, x->u.named.name, &cnt);
        if (k < 0) {
            /* QueryCompilationErrors.unrecognizedParameterName: the three
               nearest parameter names, space-separated */
            const char **names = ARENA_ARRAY(a, const char *, np + 1);
            for (int j = 0; j < np; j++) names[j] = param_name(a, def->params, j);
            return an_fail(an, error_make(a, "UNRECOGNIZED_PARAMETER_NAME", x, "routineName", rn, "argumentName",
                                          sql_ident(a, x->u.named.name), "proposal",
                                          suggest_names(a, x->u.named.name, names, (uint32_t)np, 3, " "), NULL)), -1;
        }
        if (placed[k])
            return an_fail(an, error_make(a,
                                          k < npos ? "DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.BOTH_POSITIONAL_AND_NAMED"
                                                   : "DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.DOUBLE_NAMED_ARGUMENT_REFERENCE",
                                          x, "routineName", rn, "parameterName", sql_ident(a, x->u.named.name), NULL)), -1;
        placed[k] = x->nkids ? x->kids[0] : x;
    }
    int n = 0;
    for (int k = 0; k < np; k++)
        if (placed[k]) n = k + 1;
    for (int k = 0; k < n; k++) {
        if (!placed[k] && k < def->min_args)
            return an_fail(an, error_make(a, "REQUIRED_PARAMETER_NOT_FOUND", u, "routineName", rn, "parameterName",
                                          sql_ident(a, param_name(a, def->params, k)), "index",
                                          arena_printf(a, "%d", k), NULL)), -1;
        args[k] = placed[k];
        if (!placed[k]) *gaps = true;
    }
    return n;
}

/* LIKE ANY/ALL with a pattern that is not a string literal (or is NULL)
 * becomes a chain of LIKEs joined by OR (ANY) or AND (ALL), as Spark's
 * parser does; NOT variants negate each LIKE. */
static Node *expand_multi_like(Analysis *an, const FuncDef *def, Node **args, int nargs, const Node *pos) {
    bool all_lit = true;
    for (int i = 1; i < nargs; i++) all_lit = all_lit && fn_lit_string(args[i]) != NULL;
    if (all_lit) return NULL;
    const char *n = def->name;
    bool neg = !strncasecmp(n, "not ", 4);
    bool il = strstr(n, "ilike") != NULL;
    bool all = strstr(n, " all") != NULL;
    Node *acc = NULL;
    for (int i = 1; i < nargs; i++) {
        Node *pair[2] = {args[0], args[i]};
        Node *one = fn_call_builtin(an, il ? "ilike" : "like", pair, 2, pos);
        if (!one) return NULL;
        if (neg) one = fn_call_builtin(an, "not", &one, 1, pos);
        if (!one) return NULL;
        if (acc) {
            Node *both[2] = {acc, one};
            acc = fn_call_builtin(an, all ? "and" : "or", both, 2, pos);
            if (!acc) return NULL;
        } else {
            acc = one;
        }
    }
    return acc;
}

static bool is_star(const Node *n) { return n->kind == NK_UnresolvedStar || n->kind == NK_Star; }

static Node *resolve_call_impl(Analysis *an, Node *u, const FuncDef *def);

/* A generator among the arguments: Spark's ExtractGenerator reports nested
 * or misplaced generators (UNSUPPORTED_GENERATOR.*) during resolution, and
 * type mismatches only later, in CheckAnalysis; so a type error around a
 * generator is not ours to report — the call stays unresolved and the
 * generator rule speaks. */
bool fn_has_generator(const Node *e) {
    if (!e) return false;
    if (e->kind == NK_Call && e->u.call.def && func_kind(e->u.call.def) == FK_GENERATOR) return true;
    if (e->kind == NK_ScalarSubquery || e->kind == NK_Exists || e->kind == NK_InSubquery || e->kind == NK_ListQuery ||
        e->kind == NK_LateralSubquery)
        return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (fn_has_generator(e->kids[i])) return true;
    return false;
}

Node *fn_defer_type_error_around_generator(Analysis *an, Node *e, Node *r, ErrorInfo *before) {
    if (r || !an->error || an->error == before || !an->error->error_class) return r;
    if (strncmp(an->error->error_class, "DATATYPE_MISMATCH", 17) != 0 &&
        strncmp(an->error->error_class, "UNEXPECTED_INPUT_TYPE", 21) != 0)
        return r;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (fn_has_generator(e->kids[i])) {
            an->error = before;
            return NULL;
        }
    return r;
}

Node *func_resolve_call(Analysis *an, Node *u, const FuncDef *def) {
    ErrorInfo *before = an->error;
    Node *r = resolve_call_impl(an, u, def);
    return fn_defer_type_error_around_generator(an, u, r, before);
}

/* array_sort(arr) is ArraySort(arr, defaultComparator): the comparator
 * lambda (nulls last, then < / >) shows in both printed forms. */
static Node *default_comparator(Analysis *an, const DataType *elem, const Node *pos) {
    Arena *a = an->arena;
    const char *names[2] = {"left", "right"};
    Node *v[2];
    for (int k = 0; k < 2; k++) {
        Node *x = node_new(a, NK_NamedLambdaVariable, -1, -1);
        x->u.attr.name = names[k];
        x->u.attr.id = an_new_id(an);
        x->type = elem;
        x->flags |= NF_NULLABLE;
        v[k] = node_finish(x);
    }
    Node *zero = fn_mk_int_lit(a, 0, &TYPE_INT), *one = fn_mk_int_lit(a, 1, &TYPE_INT);
    Node *minus = fn_mk_int_lit(a, -1, &TYPE_INT);
    Node *nl = fn_call_builtin(an, "isnull", &v[0], 1, pos), *nr = fn_call_builtin(an, "isnull", &v[1], 1, pos);
    Node *lt = fn_call_builtin(an, "<", v, 2, pos), *gt = fn_call_builtin(an, ">", v, 2, pos);
    if (!nl || !nr || !lt || !gt) return NULL;
    Node *both_args[2] = {nl, nr};
    Node *both = fn_call_builtin(an, "and", both_args, 2, pos);
    Node *i5[3] = {gt, one, zero};
    Node *e = fn_call_builtin(an, "if", i5, 3, pos);
    Node *i4[3] = {lt, minus, e};
    e = e ? fn_call_builtin(an, "if", i4, 3, pos) : NULL;
    Node *i3[3] = {nr, minus, e};
    e = e ? fn_call_builtin(an, "if", i3, 3, pos) : NULL;
    Node *i2[3] = {nl, one, e};
    e = e ? fn_call_builtin(an, "if", i2, 3, pos) : NULL;
    Node *i1[3] = {both, zero, e};
    e = e && both ? fn_call_builtin(an, "if", i1, 3, pos) : NULL;
    if (!e) return NULL;
    Node *kids[3] = {e, v[0], v[1]};
    Node *l = node_new(a, NK_LambdaFunction, -1, -1);
    node_set_kids(a, l, kids, 3);
    l->type = e->type;
    return node_finish(l);
}

/* Does the call's text have a FROM at its own parenthesis level? */
static bool has_from_clause(const Analysis *an, const Node *u) {
    if (!an->sql || u->start < 0 || u->stop < u->start || (size_t)u->stop >= an->sql_len) return false;
    const char *s = an->sql + u->start, *e = an->sql + u->stop + 1;
    int depth = 0;
    char quote = 0;
    for (const char *p = s; p < e; p++) {
        if (quote) {
            if (*p == '\\' && p + 1 < e) p++;
            else if (*p == quote) quote = 0;
            continue;
        }
        if (*p == '\'' || *p == '"' || *p == '`') quote = *p;
        else if (*p == '(') depth++;
        else if (*p == ')') depth--;
        else if (depth == 1 && p + 4 <= e && !strncasecmp(p, "from", 4) && p > s && !isalnum((unsigned char)p[-1]) &&
                 p[-1] != '_' && (p + 4 == e || (!isalnum((unsigned char)p[4]) && p[4] != '_')))
            return true;
    }
    return false;
}

/* Is argument i of a higher-order function a function slot ('L')? */
static bool lambda_slot(const FuncDef *def, int i) {
    size_t n = def->in ? strlen(def->in) : 0;
    return n && def->in[(size_t)i < n ? (size_t)i : n - 1] == 'L';
}

/* A plain expression where a function goes (`transform(a, 0)`): Spark's
 * ResolveLambdaVariables wraps it in a hidden lambda whose variables
 * (col0, ...) nothing refers to; transform and filter then bind only the
 * element. */
static Node *hidden_lambda(Analysis *an, const FuncDef *def, Node **args, int n, int i) {
    Arena *a = an->arena;
    const DataType *types[8];
    int nt = func_lambda_arg_types(an, def, args, n, i, types, 8);
    if (nt < 1) return args[i];
    if (nt > 8) nt = 8;
    if (fn_name_is(def->name, "transform") || fn_name_is(def->name, "filter")) nt = 1;
    Node **kids = ARENA_ARRAY(a, Node *, (size_t)nt + 1);
    kids[0] = args[i];
    for (int k = 0; k < nt; k++) {
        Node *v = node_new(a, NK_NamedLambdaVariable, -1, -1);
        v->u.attr.name = arena_printf(a, "col%d", k);
        v->u.attr.id = an_new_id(an);
        v->type = types[k] ? types[k] : &TYPE_NULL;
        v->flags |= NF_NULLABLE;
        kids[k + 1] = node_finish(v);
    }
    Node *l = node_new(a, NK_LambdaFunction, args[i]->start, args[i]->stop);
    node_set_kids(a, l, kids, (uint32_t)nt + 1);
    l->flags |= NF_IMPLICIT; /* hidden = true (LambdaFunction's toString flag) */
    return node_finish(l);
}

static Node *resolve_call_impl(Analysis *an, Node *u, const FuncDef *def) {
    Arena *a = an->arena;
    int nargs = (int)u->u.un.nargs;
    const char *called = u->u.un.name.n ? u->u.un.name.v[u->u.un.name.n - 1] : def->name;
    /* SUBSTR(s FROM p [FOR l]) is built as `substring` (AstBuilder.visitSubstring) */
    if (fn_name_is(def->name, "substr") && has_from_clause(an, u)) {
        called = "substring";
        def = func_lookup_builtin("substring");
    }
    /* name => value arguments go to their parameter positions */
    bool named = false, gaps = false;
    for (int i = 0; i < nargs; i++) named = named || u->kids[i]->kind == NK_NamedArgument;
    Node **named_args = NULL;
    if (named) {
        named_args = ARENA_ARRAY(a, Node *, nargs + 8);
        for (int i = 0; i < nargs; i++) named_args[i] = u->kids[i];
        nargs = place_named_args(an, u, def, named_args, nargs, &gaps);
        if (nargs < 0) return NULL;
    }
    /* TRIM(BOTH t FROM s) is StringTrim even if it reaches us named btrim */
    if (fn_name_is(def->name, "btrim") && nargs >= 1 && (u->flags & NF_IMPLICIT)) def = func_lookup_builtin("trim");
    /* lag/lead(input, offset, default, ignoreNulls): the flag is IGNORE NULLS, not an argument */
    if (nargs == 4 && (fn_name_is(def->name, "lag") || fn_name_is(def->name, "lead"))) {
        const Node *flag = named_args ? named_args[3] : u->kids[3];
        if (flag->kind == NK_Literal && flag->type && flag->type->id == T_BOOLEAN && !flag->u.lit.v.is_null) {
            Node *c = node_copy(a, u);
            c->u.un.nargs = 3;
            c->u.un.ignore_nulls = flag->u.lit.v.u.b;
            Node **kids = ARENA_ARRAY(a, Node *, u->nkids);
            for (uint32_t i = 0, k = 0; i < u->nkids; i++)
                if (i != 3) kids[k++] = u->kids[i];
            node_set_kids(a, c, kids, u->nkids - 1);
            u = node_finish(c);
            nargs = 3;
        }
    }
    if (nargs < def->min_args || (def->max_args >= 0 && nargs > def->max_args)) {
        const FuncDef *alt = func_lookup_arity(def->name, nargs);
        if (!alt) return fail_arity(an, u, def, called, nargs);
        def = alt;
    }
    /* clauses only some functions take (FunctionResolution) */
    const char *bad = NULL;
    if ((u->flags & NF_DISTINCT) && def->kind != FK_AGGREGATE) bad = "DISTINCT";
    else if ((u->flags & NF_HAS_FILTER) && def->kind != FK_AGGREGATE) bad = "FILTER CLAUSE";
    else if (u->u.un.ignore_nulls && def->print != CS_IGNORE_NULLS && !fn_name_is(def->name, "lag") &&
             !fn_name_is(def->name, "lead"))
        bad = "IGNORE NULLS";
    else if (u->u.un.norder && def->print != CS_WITHIN_GROUP)
        bad = "WITHIN GROUP (ORDER BY ...)";
    if (bad)
        return an_fail(an, error_make(a, "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX", u, "prettyName",
                                      sql_ident(a, def->pname ? def->pname : def->name), "syntax", bad, NULL));
    int cap = (def->max_args > nargs ? def->max_args : nargs) + (int)u->u.un.norder + 2;
    Node **args = ARENA_ARRAY(a, Node *, cap);
    for (int i = 0; i < nargs; i++) args[i] = named_args ? named_args[i] : u->kids[i];
    if (gaps) {
        /* gaps left by named arguments take the defaults of their positions */
        Node **full = ARENA_ARRAY(a, Node *, cap);
        int nfull = fill_defaults(an, def, full, 0, u);
        for (int i = 0; i < nargs; i++)
            if (!args[i] && i < nfull) args[i] = full[i];
        for (int i = 0; i < nargs; i++)
            if (!args[i]) args[i] = node_finish(fn_mk_literal(a, &TYPE_NULL, true));
    }
    /* the functions trim/ltrim/rtrim(trimStr, str) take the trim string first
       (StringTrim's two-argument constructor); the syntax form comes as (str, trimStr) */
    if (nargs == 2 && !(u->flags & NF_IMPLICIT) &&
        (fn_name_is(def->name, "trim") || fn_name_is(def->name, "ltrim") || fn_name_is(def->name, "rtrim"))) {
        Node *t = args[0];
        args[0] = args[1];
        args[1] = t;
    }
    /* log(x) is Logarithm(EulerNumber(), x): LOG(E(), x) */
    if (nargs == 1 && fn_name_is(def->name, "log") && args[0]->type) {
        Node *e = fn_call_builtin(an, "e", NULL, 0, u);
        if (!e) return NULL;
        args[1] = args[0];
        args[0] = e;
        nargs = 2;
    }
    /* convert_timezone(target, ts) is ConvertTimezone(CurrentTimeZone(), target, ts) */
    if (nargs == 2 && fn_name_is(def->name, "convert_timezone") && args[0]->type && args[1]->type) {
        Node *tz = fn_call_builtin(an, "current_timezone", NULL, 0, u);
        if (!tz) return NULL;
        args[2] = args[1];
        args[1] = args[0];
        args[0] = tz;
        nargs = 3;
    }
    /* count(*) is count(1) */
    if (nargs == 1 && is_star(args[0]) && fn_name_is(def->name, "count"))
        args[0] = fn_mk_int_lit(a, 1, &TYPE_INT);
    for (int i = 0; i < nargs; i++) {
        if (is_star(args[i]))
            return an_fail(an, error_make(a, "INVALID_USAGE_OF_STAR_OR_REGEX", args[i], "elem", "'*'", "prettyName",
                                          def->pname ? def->pname : def->name, NULL));
        if (!args[i]->type && args[i]->kind != NK_LambdaFunction) return NULL; /* not resolved yet */
    }
    int n = fill_defaults(an, def, args, nargs, u);
    if (n < 0) return NULL;
    /* IGNORE NULLS sets the ignoreNulls argument of first/last/nth_value */
    if (u->u.un.ignore_nulls && def->print == CS_IGNORE_NULLS && n >= 2 && nargs < n) {
        Node *t = fn_mk_literal(a, &TYPE_BOOLEAN, false);
        t->u.lit.v.u.b = true;
        args[n - 1] = node_finish(t);
        /* Spark copies the function for IGNORE NULLS, dropping the name it
           was called by: first_value / last_value print as first / last */
        const FuncDef *copy = fn_name_is(def->name, "first_value") ? func_lookup_builtin("first")
                              : fn_name_is(def->name, "last_value") ? func_lookup_builtin("last")
                                                                      : NULL;
        if (copy) def = copy;
    }
    /* WITHIN GROUP (ORDER BY x): the orderings are the last kids (within_group.c) */
    n = fn_within_group_prepare(an, u, &def, args, n, nargs);
    if (n < 0) return NULL;
    for (int i = 0; i < n; i++)
        if (args[i]->kind == NK_LambdaFunction && !(def->flags & FD_LAMBDA)) {
            /* a lambda handed to an ordinary function */
            char cls[96];
            size_t k = 0;
            bool up = true;
            for (const char *p = def->name; *p && k + 1 < sizeof cls; p++) {
                if (*p == '_') {
                    up = true;
                    continue;
                }
                cls[k++] = up ? (char)toupper((unsigned char)*p) : *p;
                up = false;
            }
            cls[k] = 0;
            return an_fail(an, error_make(a, "INVALID_LAMBDA_FUNCTION_CALL.NON_HIGHER_ORDER_FUNCTION", u, "class",
                                          arena_printf(a, "org.apache.spark.sql.catalyst.expressions.%s", cls), NULL));
        }
    if (def->print == CS_LIKE_MULTI && n > 1) {
        Node *x = expand_multi_like(an, def, args, n, u);
        if (x || an_failed(an)) return x;
        const char *il = strstr(def->name, "ilike");
        if (il) {
            /* ILIKE ANY/ALL with literal patterns: LikeAny(lower(x), lower-cased patterns) */
            char nm[32];
            snprintf(nm, sizeof nm, "%.*s%s", (int)(il - def->name), def->name, il + 1);
            const FuncDef *like = func_lookup_builtin(nm);
            Node *low = fn_call_builtin(an, "lower", &args[0], 1, u);
            if (!like || !low) return NULL;
            args[0] = low;
            for (int i = 1; i < n; i++) {
                char *p = arena_strdup(a, fn_lit_string(args[i]));
                for (char *q = p; *q; q++) *q = (char)tolower((unsigned char)*q);
                args[i] = fn_mk_str_lit(a, p);
            }
            def = like;
        }
    }
    if (fn_name_is(def->name, "array_sort") && n == 1 && args[0]->type && args[0]->type->id == T_ARRAY &&
        fn_type_orderable(args[0]->type->elem)) {
        ErrorInfo *before = an->error;
        Node *cmp = default_comparator(an, args[0]->type->elem, u);
        an->error = before; /* no comparator: array_sort keeps its one argument */
        if (cmp) {
            Node **v = ARENA_ARRAY(a, Node *, 2);
            v[0] = args[0];
            v[1] = cmp;
            args = v;
            n = 2;
        }
    }
    if (def->flags & FD_LAMBDA)
        for (int i = 0; i < n; i++) {
            if (args[i]->kind != NK_LambdaFunction && args[i]->type && lambda_slot(def, i))
                args[i] = hidden_lambda(an, def, args, n, i);
            if (args[i]->kind == NK_LambdaFunction) {
                args[i] = fn_resolve_lambda(an, def, args, n, i);
                if (!args[i] || !node_resolved(args[i])) return NULL;
            }
        }
    Node *r = resolve_with(an, u, def, args, n, called);
    if (r && r->kind == NK_AggregateExpression && r->nkids && !fn_within_group_check_distinct(an, u, r->kids[0]))
        return NULL;
    return r;
}
