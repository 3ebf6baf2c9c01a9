/* Expressions, following Spark's grammar precedence:
 *   OR < AND < NOT < predicate (BETWEEN, IN, LIKE, IS ...) < comparison
 *   < | < ^ < & < (<< >> >>>) < (+ - ||) < (* / % DIV) < unary (- + ~)
 *   < postfix ([i], .f, ::t)
 * and AstBuilder's mapping to expressions (see README.md). */
#include <string.h>
#include <strings.h>

#include "parser_int.h"

static Node *parse_or(Parser *p);
static Node *parse_and(Parser *p);
static Node *parse_not(Parser *p);
static Node *parse_predicate(Parser *p);

Node *ps_parse_expr(Parser *p) {
    ps_enter(p);
    Node *e = parse_or(p);
    leave(p);
    return e;
}

static Node *unop(Parser *p, const char *name, Node *e, int32_t start) {
    return ps_mk_fn(p, name, true, start, prev_stop(p), 1, e);
}
static Node *binop(Parser *p, const char *name, Node *l, Node *r) {
    return ps_mk_fn(p, name, true, l->start, prev_stop(p), 2, l, r);
}

static Node *subquery_expr(Parser *p, NodeKind k, Node *plan, int32_t start) {
    Node *n = ps_new(p, k, start, prev_stop(p));
    n->u.subq.plan = plan;
    return node_finish(n);
}

/* ---- boolean level ---- */

/* A chain `a AND b AND c ...` (or OR) becomes a balanced tree, as Spark's
 * visitLogicalBinary builds it ((a AND b) AND (c AND d)); every node spans
 * the whole chain (Spark creates them all under the chain's origin). */
static Node *balanced(Parser *p, const char *name, Node *const *v, uint32_t low, uint32_t high, int32_t start,
                      int32_t stop) {
    if (low == high) return v[low];
    if (high - low == 1) return ps_mk_fn(p, name, true, start, stop, 2, v[low], v[high]);
    uint32_t mid = low + (high - low) / 2;
    Node *l = balanced(p, name, v, low, mid, start, stop);
    Node *r = balanced(p, name, v, mid + 1, high, start, stop);
    return ps_mk_fn(p, name, true, start, stop, 2, l, r);
}

/* inline: operand is then a direct call */
static inline __attribute__((always_inline)) Node *parse_chain(Parser *p, Keyword kw, const char *name,
                                                               Node *(*operand)(Parser *)) {
    Node *first = operand(p);
    if (!is_kw(p, kw)) return first;
    NodeVec v = {0};
    ps_nv_push(p, &v, first);
    while (is_kw(p, kw)) {
        advance(p);
        ps_nv_push(p, &v, operand(p));
    }
    return balanced(p, name, v.v, 0, v.n - 1, first->start, prev_stop(p));
}

static Node *parse_or(Parser *p) { return parse_chain(p, KW_OR, "or", parse_and); }

static Node *parse_and(Parser *p) { return parse_chain(p, KW_AND, "and", parse_not); }

static Node *parse_not(Parser *p) {
    int32_t start = cur_start(p);
    if (is_kw(p, KW_NOT) || is_op(p, OP_BANG)) {
        advance(p);
        ps_enter(p);
        Node *e = parse_not(p);
        leave(p);
        return unop(p, "not", e, start);
    }
    if (is_kw(p, KW_EXISTS) && is_op_at(p, 1, OP_LPAREN)) {
        int save = p->pos;
        advance(p);
        advance(p);
        if (ps_at_query_start(p)) {
            Node *q = ps_parse_query(p);
            ps_expect_op(p, OP_RPAREN);
            return subquery_expr(p, NK_Exists, q, start);
        }
        p->pos = save;
    }
    return parse_predicate(p);
}

/* ---- predicates ---- */

static bool is_predicate_node(const Node *e) {
    if (e->kind == NK_In || e->kind == NK_InSubquery || e->kind == NK_Exists) return true;
    if (e->kind != NK_UnresolvedFunction || e->u.un.name.n != 1) return false;
    static const char *const preds[] = {"=", "<=>", "<", "<=", ">", ">=", "and", "or", "not", "isnull", "isnotnull",
                                        "like", "rlike", "ilike", "like any", "like all", "not like any",
                                        "not like all", "ilike any", "ilike all", "not ilike any", "not ilike all"};
    if (!e->u.un.is_operator && strcmp(e->u.un.name.v[0], "like") != 0 && strcmp(e->u.un.name.v[0], "between") != 0)
        return false;
    for (size_t i = 0; i < sizeof preds / sizeof preds[0]; i++)
        if (strcmp(e->u.un.name.v[0], preds[i]) == 0) return true;
    return strcmp(e->u.un.name.v[0], "between") == 0;
}

/* Spark wraps a non-predicate HAVING condition in a cast to boolean. */
Node *ps_as_predicate(Parser *p, Node *e);
Node *ps_as_predicate(Parser *p, Node *e) {
    if (is_predicate_node(e)) return e;
    return ps_mk_cast(p, e, &TYPE_BOOLEAN, false, e->start, e->stop);
}

/* A row constructor `(a, b)` is built as struct(a, b); it is told apart from
 * a call of struct() by its opening parenthesis. */
static bool is_row_constructor(Parser *p, const Node *e) {
    return e->kind == NK_UnresolvedFunction && !e->u.un.is_operator && e->start >= 0 && p->sql[e->start] == '(';
}

static Node *finish_in_subquery(Parser *p, Node *value, Node *q, int32_t start) {
    Node *n = ps_new(p, NK_InSubquery, start, prev_stop(p));
    n->u.subq.plan = q;
    if (is_row_constructor(p, value)) {
        ps_set_kids(p, n, value->kids, value->u.un.nargs);
        n->u.subq.nvalues = value->u.un.nargs;
    } else {
        ps_set_kids(p, n, &value, 1);
        n->u.subq.nvalues = 1;
    }
    return node_finish(n);
}

static Node *parse_predicate(Parser *p) {
    Node *e = ps_parse_value_expr(p);
    for (;;) {
        if (tk(p)->kind != TK_WORD) break; /* every predicate below starts with a keyword */
        int32_t start = e->start;
        int save = p->pos;
        bool neg = false;
        if (is_kw(p, KW_NOT) &&
            (is_kw_at(p, 1, KW_BETWEEN) || is_kw_at(p, 1, KW_IN) || is_kw_at(p, 1, KW_LIKE) || is_kw_at(p, 1, KW_ILIKE) ||
             is_kw_at(p, 1, KW_RLIKE) || is_kw_at(p, 1, KW_REGEXP))) {
            neg = true;
            advance(p);
        }
        if (ps_accept_kw(p, KW_BETWEEN)) {
            Node *lo = ps_parse_value_expr(p);
            ps_expect_kw(p, KW_AND);
            Node *hi = ps_parse_value_expr(p);
            Node *b = ps_mk_fn(p, "between", false, start, prev_stop(p), 3, e, lo, hi);
            e = neg ? unop(p, "not", b, start) : b;
            continue;
        }
        if (ps_accept_kw(p, KW_IN)) {
            ps_expect_op(p, OP_LPAREN);
            Node *r;
            if (ps_at_query_start(p)) {
                Node *q = ps_parse_query(p);
                ps_expect_op(p, OP_RPAREN);
                r = finish_in_subquery(p, e, q, start);
            } else {
                NodeVec v = {0};
                ps_nv_push(p, &v, e);
                ps_parse_expr_list(p, &v);
                ps_expect_op(p, OP_RPAREN);
                r = ps_new(p, NK_In, start, prev_stop(p));
                ps_set_kids(p, r, v.v, v.n);
                r = node_finish(r);
            }
            e = neg ? unop(p, "not", r, start) : r;
            continue;
        }
        if (is_kw(p, KW_RLIKE) || is_kw(p, KW_REGEXP)) {
            advance(p);
            Node *pat = ps_parse_value_expr(p);
            Node *r = ps_mk_fn(p, "rlike", true, start, prev_stop(p), 2, e, pat);
            e = neg ? unop(p, "not", r, start) : r;
            continue;
        }
        if (is_kw(p, KW_LIKE) || is_kw(p, KW_ILIKE)) {
            bool il = is_kw(p, KW_ILIKE);
            advance(p);
            if ((is_kw(p, KW_ANY) || is_kw(p, KW_SOME) || is_kw(p, KW_ALL)) && is_op_at(p, 1, OP_LPAREN)) {
                bool all = is_kw(p, KW_ALL);
                advance(p);
                advance(p);
                NodeVec v = {0};
                ps_nv_push(p, &v, e);
                bool empty = is_op(p, OP_RPAREN);
                if (!empty) ps_parse_expr_list(p, &v);
                ps_expect_op(p, OP_RPAREN);
                /* AstBuilder's validate: LIKE ANY|SOME|ALL () has no pattern */
                if (empty)
                    ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0064", start, prev_stop(p), "msg",
                                              "Expected something between '(' and ')'.", NULL));
                const char *name = arena_printf(p->a, "%s%s %s", neg ? "not " : "", il ? "ilike" : "like", all ? "all" : "any");
                e = ps_mk_fnv(p, name, true, start, prev_stop(p), (int)v.n, v.v);
                continue;
            }
            Node *pat = ps_parse_value_expr(p);
            Node *args[3] = {e, pat, NULL};
            int n = 2;
            if (ps_accept_kw(p, KW_ESCAPE)) {
                int32_t es = cur_start(p);
                size_t len;
                const char *s = ps_parse_string_lit(p, &len);
                if (len != 1)
                    ps_defer_error(p, ps_perr(p, "INVALID_ESC", es, prev_stop(p), "invalidEscape",
                                        arena_printf(p->a, "'%s'", s), NULL));
                args[n++] = ps_mk_lit_string(p, s, es, prev_stop(p));
            }
            Node *r = ps_mk_fnv(p, il ? "ilike" : "like", true, start, prev_stop(p), n, args);
            e = neg ? unop(p, "not", r, start) : r;
            continue;
        }
        if (neg) {
            p->pos = save;
            break;
        }
        if (is_kw(p, KW_IS)) {
            advance(p);
            bool isnot = ps_accept_kw(p, KW_NOT);
            if (ps_accept_kw(p, KW_NULL)) {
                e = unop(p, isnot ? "isnotnull" : "isnull", e, start);
            } else if (is_kw(p, KW_TRUE) || is_kw(p, KW_FALSE)) {
                bool v = is_kw(p, KW_TRUE);
                Node *l = ps_mk_lit_bool(p, v, cur_start(p), tk(p)->end - 1);
                advance(p);
                Node *r = ps_mk_fn(p, "<=>", true, start, prev_stop(p), 2, e, l);
                e = isnot ? unop(p, "not", r, start) : r;
            } else if (ps_accept_kw(p, KW_UNKNOWN)) {
                e = unop(p, isnot ? "isnotnull" : "isnull", e, start);
            } else if (ps_accept_kw(p, KW_DISTINCT)) {
                ps_expect_kw(p, KW_FROM);
                Node *r = ps_parse_value_expr(p);
                Node *eq = ps_mk_fn(p, "<=>", true, start, prev_stop(p), 2, e, r);
                e = isnot ? eq : unop(p, "not", eq, start);
            } else ps_syntax_error(p, "");
            continue;
        }
        break;
    }
    return e;
}

/* ---- value expressions (precedence climbing) ---- */

static int binop_prec(const Parser *p, const char **name) {
    const Token *t = tk(p);
    if (t->kind == TK_WORD) {
        if (t->kw == KW_DIV) {
            *name = "div";
            return 7;
        }
        return 0;
    }
    if (t->kind != TK_OP) return 0;
    switch (t->op) {
    case OP_STAR: *name = "*"; return 7;
    case OP_SLASH: *name = "/"; return 7;
    case OP_PERCENT: *name = "%"; return 7;
    case OP_PLUS: *name = "+"; return 6;
    case OP_MINUS: *name = "-"; return 6;
    case OP_CONCAT: *name = "||"; return 6;
    case OP_SHL: *name = "shiftleft"; return 5;
    case OP_SHR: *name = "shiftright"; return 5;
    case OP_SHRU: *name = "shiftrightunsigned"; return 5;
    case OP_AMP: *name = "&"; return 4;
    case OP_CARET: *name = "^"; return 3;
    case OP_PIPE: *name = "|"; return 2;
    case OP_EQ: case OP_EQEQ: *name = "="; return 1;
    case OP_NSEQ: *name = "<=>"; return 1;
    case OP_NEQ: case OP_NEQJ: *name = "<>"; return 1;
    case OP_LT: *name = "<"; return 1;
    case OP_LE: *name = "<="; return 1;
    case OP_GT: *name = ">"; return 1;
    case OP_GE: *name = ">="; return 1;
    default: return 0;
    }
}

static Node *parse_unary(Parser *p);

static Node *parse_binary(Parser *p, int minprec) {
    Node *l = parse_unary(p);
    for (;;) {
        const char *name = NULL;
        int prec = binop_prec(p, &name);
        if (!prec || prec < minprec) break;
        advance(p);
        ps_enter(p);
        Node *r = parse_binary(p, prec + 1);
        leave(p);
        if (strcmp(name, "||") == 0) l = ps_mk_fn(p, "concat", false, l->start, prev_stop(p), 2, l, r);
        else if (strncmp(name, "shift", 5) == 0) l = ps_mk_fn(p, name, false, l->start, prev_stop(p), 2, l, r);
        else if (strcmp(name, "<>") == 0) l = unop(p, "not", binop(p, "=", l, r), l->start);
        else l = binop(p, name, l, r);
        ps_check_height(p, l);
    }
    return l;
}

Node *ps_parse_value_expr(Parser *p) {
    ps_enter(p);
    Node *e = parse_binary(p, 1);
    leave(p);
    return e;
}

static bool at_number(const Parser *p, int off) {
    TokKind k = (TokKind)tk_at(p, off)->kind;
    return k == TK_INT || k == TK_DECIMAL || k == TK_EXP || k == TK_TYPEDNUM;
}

static inline Node *parse_postfix(Parser *p, Node *e);

static Node *parse_unary(Parser *p) {
    int32_t start = cur_start(p);
    if (is_op(p, OP_MINUS) && at_number(p, 1)) {
        /* `-1` is a literal in Spark's grammar (number: MINUS? INTEGER_VALUE ...) */
        advance(p);
        Node *n = ps_parse_number(p, true, start);
        return parse_postfix(p, n);
    }
    if (is_op(p, OP_MINUS) || is_op(p, OP_PLUS) || is_op(p, OP_TILDE)) {
        const char *name = is_op(p, OP_MINUS) ? "-" : is_op(p, OP_PLUS) ? "+" : "~";
        advance(p);
        ps_enter(p);
        Node *e = parse_unary(p);
        leave(p);
        return unop(p, name, e, start);
    }
    return ps_parse_primary(p);
}

/* ---- primary expressions ---- */

uint32_t ps_parse_expr_list(Parser *p, NodeVec *out) {
    uint32_t n = 0;
    do {
        ps_nv_push(p, out, ps_parse_expr(p));
        n++;
    } while (ps_accept_op(p, OP_COMMA));
    return n;
}

Node *ps_parse_sort_item(Parser *p) {
    int32_t start = cur_start(p);
    Node *e = ps_parse_expr(p);
    bool desc = false;
    if (ps_accept_kw(p, KW_DESC)) desc = true;
    else ps_accept_kw(p, KW_ASC);
    bool nulls_first = !desc;
    if (ps_accept_kw(p, KW_NULLS)) {
        if (ps_accept_kw(p, KW_FIRST)) nulls_first = true;
        else if (ps_accept_kw(p, KW_LAST)) nulls_first = false;
        else ps_syntax_error(p, "");
    }
    Node *s = ps_new(p, NK_SortOrder, start, prev_stop(p));
    s->u.sort_order.descending = desc;
    s->u.sort_order.nulls_first = nulls_first;
    ps_set_kids(p, s, &e, 1);
    return node_finish(s);
}

void ps_parse_sort_list(Parser *p, NodeVec *out) {
    do ps_nv_push(p, out, ps_parse_sort_item(p));
    while (ps_accept_op(p, OP_COMMA));
}

bool ps_is_foldable(const Node *e) {
    switch (e->kind) {
    case NK_Literal: return true;
    case NK_Cast: return ps_is_foldable(e->kids[0]);
    case NK_UnresolvedFunction:
        if (!e->u.un.is_operator) return false;
        for (uint32_t i = 0; i < e->nkids; i++)
            if (!ps_is_foldable(e->kids[i])) return false;
        return true;
    default: return false;
    }
}

static Node *parse_frame_bound(Parser *p) {
    int32_t start = cur_start(p);
    if (is_kw(p, KW_UNBOUNDED)) {
        advance(p);
        Node *b = ps_new(p, NK_FrameBoundary, start, 0);
        if (ps_accept_kw(p, KW_PRECEDING)) b->u.bound.type = BOUND_UNBOUNDED_PRECEDING;
        else if (ps_accept_kw(p, KW_FOLLOWING)) b->u.bound.type = BOUND_UNBOUNDED_FOLLOWING;
        else ps_syntax_error(p, "");
        b->stop = prev_stop(p);
        return node_finish(b);
    }
    if (is_kw(p, KW_CURRENT) && is_kw_at(p, 1, KW_ROW)) {
        advance(p);
        advance(p);
        Node *b = ps_new(p, NK_FrameBoundary, start, prev_stop(p));
        b->u.bound.type = BOUND_CURRENT_ROW;
        return node_finish(b);
    }
    Node *e = ps_parse_expr(p);
    bool prec;
    if (ps_accept_kw(p, KW_PRECEDING)) prec = true;
    else if (ps_accept_kw(p, KW_FOLLOWING)) prec = false;
    else ps_syntax_error(p, "");
    if (!ps_is_foldable(e))
        ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0064", start, prev_stop(p), "msg",
                            "Frame bound value must be a literal.", NULL));
    return prec ? unop(p, "-", e, start) : e;
}

Node *ps_parse_window_spec(Parser *p) {
    int32_t start = cur_start(p);
    if (is_kw(p, KW_IDENTIFIER) && is_op_at(p, 1, OP_LPAREN)) ps_syntax_error_at(p, tk_at(p, 2), "");
    if (ps_at_identifier(p)) {
        Node *w = ps_new(p, NK_UnresolvedWindowExpression, start, 0);
        w->u.un.name = ps_name1(p, ps_parse_identifier(p));
        return w; /* caller sets the kid and finishes */
    }
    ps_expect_op(p, OP_LPAREN);
    Node *spec = ps_new(p, NK_WindowSpecDefinition, start, 0);
    NodeVec kids = {0};
    if (ps_at_identifier(p) && is_op_at(p, 1, OP_RPAREN) && !is_kw(p, KW_PARTITION) && !is_kw(p, KW_ORDER)) {
        spec->u.wspec.ref_name = ps_parse_identifier(p);
        ps_expect_op(p, OP_RPAREN);
        Node *w = ps_new(p, NK_UnresolvedWindowExpression, start, prev_stop(p));
        w->u.un.name = ps_name1(p, spec->u.wspec.ref_name);
        return w;
    }
    if (is_kw(p, KW_CLUSTER) && is_kw_at(p, 1, KW_BY)) {
        advance(p);
        advance(p);
        spec->u.wspec.npartition = ps_parse_expr_list(p, &kids);
    } else {
        if ((is_kw(p, KW_PARTITION) || is_kw(p, KW_DISTRIBUTE)) && is_kw_at(p, 1, KW_BY)) {
            advance(p);
            advance(p);
            spec->u.wspec.npartition = ps_parse_expr_list(p, &kids);
        }
        if ((is_kw(p, KW_ORDER) || is_kw(p, KW_SORT)) && is_kw_at(p, 1, KW_BY)) {
            advance(p);
            advance(p);
            uint32_t before = kids.n;
            ps_parse_sort_list(p, &kids);
            spec->u.wspec.norder = kids.n - before;
        }
    }
    if (is_kw(p, KW_ROWS) || is_kw(p, KW_RANGE)) {
        int32_t fs = cur_start(p);
        Node *f = ps_new(p, NK_SpecifiedWindowFrame, fs, 0);
        f->u.frame.type = is_kw(p, KW_ROWS) ? FRAME_ROWS : FRAME_RANGE;
        advance(p);
        Node *lo, *hi;
        if (ps_accept_kw(p, KW_BETWEEN)) {
            lo = parse_frame_bound(p);
            ps_expect_kw(p, KW_AND);
            hi = parse_frame_bound(p);
        } else {
            lo = parse_frame_bound(p);
            hi = ps_new(p, NK_FrameBoundary, -1, -1);
            hi->u.bound.type = BOUND_CURRENT_ROW;
            hi = node_finish(hi);
        }
        Node *fk[2] = {lo, hi};
        ps_set_kids(p, f, fk, 2);
        f->stop = prev_stop(p);
        ps_nv_push(p, &kids, node_finish(f));
        spec->u.wspec.has_frame = true;
    }
    ps_expect_op(p, OP_RPAREN);
    spec->stop = prev_stop(p);
    ps_set_kids(p, spec, kids.v, kids.n);
    return node_finish(spec);
}

/* f(...) OVER spec */
static Node *with_over(Parser *p, Node *f) {
    if (!is_kw(p, KW_OVER)) return f;
    advance(p);
    Node *w = ps_parse_window_spec(p);
    f->stop = prev_stop(p); /* the call's origin covers its OVER clause, as in Spark */
    if (w->kind == NK_UnresolvedWindowExpression) {
        Node *c = node_copy(p->a, w);
        ps_set_kids(p, c, &f, 1);
        c->start = f->start;
        c->stop = prev_stop(p);
        return node_finish(c);
    }
    Node *we = ps_new(p, NK_WindowExpression, f->start, prev_stop(p));
    Node *k[2] = {f, w};
    ps_set_kids(p, we, k, 2);
    return node_finish(we);
}

static bool is_func_arg_start_named(const Parser *p) {
    return ps_at_identifier(p) && is_op_at(p, 1, OP_FATARROW);
}

/* namedExpression inside struct(...) and row constructors: expr [AS] name */
static Node *parse_named_item(Parser *p) {
    int32_t start = cur_start(p);
    Node *e = ps_parse_expr(p);
    const char *alias = NULL;
    if (is_kw(p, KW_AS) && !is_op_at(p, 1, OP_LPAREN)) {
        advance(p);
        alias = ps_parse_identifier(p);
    } else if (ps_at_identifier(p) && !ps_is_clause_keyword(tk(p)) && (is_op_at(p, 1, OP_COMMA) || is_op_at(p, 1, OP_RPAREN))) {
        alias = ps_parse_identifier(p);
    }
    if (!alias) return e;
    Node *a = ps_new(p, NK_Alias, start, prev_stop(p));
    a->u.attr.name = alias;
    ps_set_kids(p, a, &e, 1);
    return node_finish(a);
}

/* After `name (` : arguments, `)`, WITHIN GROUP, FILTER, NULLS, OVER. */
static Node *parse_call(Parser *p, NameParts name, int32_t start) {
    NodeVec args = {0};
    bool distinct = false;
    bool ignore = false, respect = false;
    const char *lname = name.n == 1 ? name.v[0] : "";
    bool named_items = name.n == 1 && strcasecmp(lname, "struct") == 0;
    if (!is_op(p, OP_RPAREN)) {
        if (is_kw(p, KW_DISTINCT)) {
            advance(p);
            distinct = true;
        } else if (is_kw(p, KW_ALL) && !is_op_at(p, 1, OP_RPAREN) && !is_op_at(p, 1, OP_COMMA)) {
            advance(p);
        }
        do {
            int32_t as = cur_start(p);
            if (is_op(p, OP_STAR) && (is_op_at(p, 1, OP_RPAREN) || is_op_at(p, 1, OP_COMMA))) {
                advance(p);
                Node *s = ps_new(p, NK_UnresolvedStar, as, prev_stop(p));
                ps_nv_push(p, &args, node_finish(s));
            } else if (is_func_arg_start_named(p)) {
                const char *an = ps_parse_identifier(p);
                advance(p); /* => */
                Node *v = ps_parse_expr(p);
                Node *na = ps_new(p, NK_NamedArgument, as, prev_stop(p));
                na->u.named.name = an;
                ps_set_kids(p, na, &v, 1);
                ps_nv_push(p, &args, node_finish(na));
            } else if (named_items) {
                ps_nv_push(p, &args, parse_named_item(p));
            } else {
                ps_nv_push(p, &args, ps_parse_expr(p));
            }
        } while (ps_accept_op(p, OP_COMMA));
        /* first(x IGNORE NULLS) / last(...) / any_value(...) */
        if ((is_kw(p, KW_IGNORE) || is_kw(p, KW_RESPECT)) && is_kw_at(p, 1, KW_NULLS)) {
            if (is_kw(p, KW_IGNORE)) ignore = true;
            else respect = true;
            advance(p);
            advance(p);
        }
    }
    (void)lname;
    ps_expect_op(p, OP_RPAREN);
    uint32_t nargs = args.n;
    NodeVec order = {0};
    Node *filter = NULL;
    if (is_kw(p, KW_WITHIN) && is_kw_at(p, 1, KW_GROUP)) {
        advance(p);
        advance(p);
        ps_expect_op(p, OP_LPAREN);
        ps_expect_kw(p, KW_ORDER);
        ps_expect_kw(p, KW_BY);
        ps_parse_sort_list(p, &order);
        ps_expect_op(p, OP_RPAREN);
    }
    if (is_kw(p, KW_FILTER) && is_op_at(p, 1, OP_LPAREN) && is_kw_at(p, 2, KW_WHERE)) {
        advance(p);
        advance(p);
        advance(p);
        filter = ps_parse_expr(p);
        ps_expect_op(p, OP_RPAREN);
    }
    if ((is_kw(p, KW_IGNORE) || is_kw(p, KW_RESPECT)) && is_kw_at(p, 1, KW_NULLS)) {
        if (is_kw(p, KW_IGNORE)) ignore = true;
        else respect = true;
        advance(p);
        advance(p);
    }
    if (filter) ps_nv_push(p, &args, filter);
    for (uint32_t i = 0; i < order.n; i++) ps_nv_push(p, &args, order.v[i]);
    Node *f = ps_new(p, NK_UnresolvedFunction, start, prev_stop(p));
    f->u.un.name = name;
    f->u.un.nargs = nargs;
    f->u.un.norder = order.n;
    f->u.un.ignore_nulls = ignore;
    f->u.un.respect_nulls = respect;
    if (distinct) f->flags |= NF_DISTINCT;
    if (filter) f->flags |= NF_HAS_FILTER;
    ps_set_kids(p, f, args.v, args.n);
    return with_over(p, node_finish(f));
}

/* IDENTIFIER ( expr ): the current token is IDENTIFIER. */
Node *ps_parse_identifier_clause(Parser *p) {
    int32_t start = cur_start(p);
    advance(p);
    ps_expect_op(p, OP_LPAREN);
    Node *e = ps_parse_expr(p);
    ps_expect_op(p, OP_RPAREN);
    NameParts np;
    ps_fold_identifier(p, e, &np, start, prev_stop(p));
    return e;
}

static bool const_string(const Node *e, StrBuf *sb) {
    if (e->kind == NK_Literal && e->type && e->type->id == T_STRING && !e->u.lit.v.is_null) {
        sb_putn(sb, e->u.lit.v.u.s.p, e->u.lit.v.u.s.len);
        return true;
    }
    if (e->kind == NK_UnresolvedFunction && !e->u.un.is_operator && e->u.un.name.n == 1 &&
        strcmp(e->u.un.name.v[0], "concat") == 0 && e->u.un.nargs == 2 && e->start >= 0) {
        return const_string(e->kids[0], sb) && const_string(e->kids[1], sb);
    }
    return false;
}

bool ps_fold_identifier(Parser *p, const Node *e, NameParts *out, int32_t start, int32_t stop) {
    StrBuf sb;
    sb_init(&sb, p->a, 32);
    if (!const_string(e, &sb)) return false;
    ErrorInfo *err = NULL;
    if (!parse_multipart_identifier(p->a, sb.data, sb.len, out, &err)) {
        /* Spark reports the inner parse's error at the IDENTIFIER clause */
        err->start = start;
        err->stop = stop;
        ps_defer_error(p, err);
        return false;
    }
    return true;
}

/* `x -> body` / `(x, y) -> body` */
static Node *parse_lambda(Parser *p, int32_t start) {
    NodeVec vars = {0};
    bool paren = ps_accept_op(p, OP_LPAREN);
    do {
        int32_t vs = cur_start(p);
        const char *s = ps_parse_identifier(p);
        Node *v = ps_new(p, NK_UnresolvedNamedLambdaVariable, vs, prev_stop(p));
        v->u.un.name = ps_name1(p, s);
        ps_nv_push(p, &vars, node_finish(v));
    } while (paren && ps_accept_op(p, OP_COMMA));
    if (paren) ps_expect_op(p, OP_RPAREN);
    ps_expect_op(p, OP_ARROW);
    NodeVec kids = {0};
    ps_nv_push(p, &kids, ps_parse_expr(p));
    for (uint32_t i = 0; i < vars.n; i++) ps_nv_push(p, &kids, vars.v[i]);
    Node *l = ps_new(p, NK_LambdaFunction, start, prev_stop(p));
    ps_set_kids(p, l, kids.v, kids.n);
    return node_finish(l);
}

static bool at_lambda_params(const Parser *p) {
    /* ( a , b ) -> */
    if (!is_op(p, OP_LPAREN)) return false;
    int i = 1;
    for (;;) {
        const Token *t = tk_at(p, i);
        if (t->kind != TK_WORD && t->kind != TK_QIDENT) return false;
        i++;
        if (tok_op(tk_at(p, i), OP_COMMA)) {
            i++;
            continue;
        }
        return tok_op(tk_at(p, i), OP_RPAREN) && tok_op(tk_at(p, i + 1), OP_ARROW);
    }
}

static Node *parse_case(Parser *p, int32_t start) {
    NodeVec kids = {0};
    Node *operand = NULL;
    if (!is_kw(p, KW_WHEN)) operand = ps_parse_expr(p);
    if (!is_kw(p, KW_WHEN)) ps_syntax_error(p, "");
    while (ps_accept_kw(p, KW_WHEN)) {
        Node *c = ps_parse_expr(p);
        ps_expect_kw(p, KW_THEN);
        Node *v = ps_parse_expr(p);
        if (operand) c = ps_mk_fn(p, "=", true, operand->start, c->stop, 2, operand, c);
        ps_nv_push(p, &kids, c);
        ps_nv_push(p, &kids, v);
    }
    bool has_else = false;
    if (ps_accept_kw(p, KW_ELSE)) {
        ps_nv_push(p, &kids, ps_parse_expr(p));
        has_else = true;
    }
    ps_expect_kw(p, KW_END);
    Node *cw = ps_new(p, NK_CaseWhen, start, prev_stop(p));
    cw->u.casew.has_else = has_else;
    ps_set_kids(p, cw, kids.v, kids.n);
    return node_finish(cw);
}

static Node *star(Parser *p, NameParts target, int32_t start) {
    Node *s = ps_new(p, NK_UnresolvedStar, start, prev_stop(p));
    s->u.un.name = target;
    if (is_kw(p, KW_EXCEPT) && is_op_at(p, 1, OP_LPAREN) && !ps_at_query_start_at(p, 1)) {
        advance(p);
        advance(p);
        NodeVec ex = {0};
        do {
            int32_t es = cur_start(p);
            NameParts np = ps_parse_multipart(p);
            ps_nv_push(p, &ex, ps_mk_attr(p, np, es, prev_stop(p)));
        } while (ps_accept_op(p, OP_COMMA));
        ps_expect_op(p, OP_RPAREN);
        ps_set_kids(p, s, ex.v, ex.n);
        s->stop = prev_stop(p);
    }
    return node_finish(s);
}

static Node *parse_primary_inner(Parser *p);

/* AstBuilder.visitColumnReference / visitDereference: a backquoted name that
 * is a regex (isRegex: any character but letters, digits and `_`) inside a
 * select item (canApplyRegex) is an UnresolvedRegex when
 * spark.sql.parser.quotedRegexColumnNames is on. */
static bool quoted_regex(const Parser *p, const char *name) {
    if (!p->opts.quoted_regex_column_names || !p->named_expr_depth) return false;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
              *c >= 0x80))
            return true;
    return false;
}

/* UnresolvedRegex(pattern, table): a star that keeps the pattern */
static Node *regex_star(Parser *p, NameParts table, const char *pattern, int32_t start) {
    Node *s = ps_new(p, NK_UnresolvedStar, start, prev_stop(p));
    s->u.un.name = table;
    s->u.un.regex = pattern;
    s->u.un.regex_case_sensitive = p->opts.case_sensitive;
    return node_finish(s);
}

/* `( query )` — tried first where an expression could also start with `(` */
static Node *paren_query(Parser *p, void *ctx) {
    (void)ctx;
    ps_expect_op(p, OP_LPAREN);
    Node *q = ps_parse_query(p);
    ps_expect_op(p, OP_RPAREN);
    return q;
}

Node *ps_parse_primary(Parser *p) {
    ps_enter(p);
    Node *e = parse_primary_inner(p);
    e = parse_postfix(p, e);
    leave(p);
    return e;
}

static Node *parse_postfix_ops(Parser *p, Node *e);

/* Most primaries have no postfix operator: tell so without a call. */
static inline Node *parse_postfix(Parser *p, Node *e) {
    const Token *t = tk(p);
    if (t->kind == TK_OP ? (t->op == OP_LBRACKET || t->op == OP_DOT || t->op == OP_DCOLON)
                         : (t->kind == TK_WORD && t->kw == KW_COLLATE))
        return parse_postfix_ops(p, e);
    return e;
}

static Node *parse_postfix_ops(Parser *p, Node *e) {
    for (;;) {
        int32_t start = e->start;
        if (is_op(p, OP_LBRACKET)) {
            advance(p);
            Node *i = ps_parse_expr(p);
            ps_expect_op(p, OP_RBRACKET);
            Node *x = ps_new(p, NK_UnresolvedExtractValue, start, prev_stop(p));
            Node *k[2] = {e, i};
            ps_set_kids(p, x, k, 2);
            e = node_finish(x);
            continue;
        }
        if (is_op(p, OP_DOT) && (tk_at(p, 1)->kind == TK_WORD || tk_at(p, 1)->kind == TK_QIDENT)) {
            advance(p);
            if (is_kw(p, KW_IDENTIFIER) && is_op_at(p, 1, OP_LPAREN)) ps_syntax_error_at(p, tk_at(p, 2), "");
            int32_t fs = cur_start(p);
            const char *f = ps_parse_identifier(p);
            if (e->kind == NK_UnresolvedAttribute) {
                const char **v = ARENA_ARRAY(p->a, const char *, e->u.un.name.n + 1);
                memcpy(v, e->u.un.name.v, sizeof(char *) * e->u.un.name.n);
                v[e->u.un.name.n] = f;
                e = ps_mk_attr(p, name_parts(p->a, e->u.un.name.n + 1, v), start, prev_stop(p));
                continue;
            }
            Node *x = ps_new(p, NK_UnresolvedExtractValue, start, prev_stop(p));
            x->u.extract.is_field = true;
            Node *k[2] = {e, ps_mk_lit_string(p, f, fs, prev_stop(p))};
            ps_set_kids(p, x, k, 2);
            e = node_finish(x);
            continue;
        }
        if (is_op(p, OP_DOT) && is_op_at(p, 1, OP_STAR) && e->kind == NK_UnresolvedAttribute) {
            advance(p);
            advance(p);
            e = star(p, e->u.un.name, start);
            continue;
        }
        if (is_op(p, OP_DCOLON)) {
            advance(p);
            const DataType *t = ps_parse_type(p);
            e = ps_mk_cast(p, e, t, false, start, prev_stop(p));
            continue;
        }
        if (is_kw(p, KW_COLLATE)) {
            advance(p);
            int32_t cs = cur_start(p);
            NameParts np = ps_parse_multipart(p);
            StrBuf sb;
            sb_init(&sb, p->a, 16);
            for (uint32_t i = 0; i < np.n; i++) {
                if (i) sb_putc(&sb, '.');
                sb_puts(&sb, np.v[i]);
            }
            e = ps_mk_fn(p, "collate", false, start, prev_stop(p), 2, e, ps_mk_lit_string(p, sb.data, cs, prev_stop(p)));
            continue;
        }
        break;
    }
    return e;
}

static bool next_is_lparen(const Parser *p) { return is_op_at(p, 1, OP_LPAREN); }

static bool word_eq(const Parser *p, const Token *t, const char *w) {
    size_t n = strlen(w);
    return t->kind == TK_WORD && (size_t)(t->end - t->start) == n && strncasecmp(p->sql + t->start, w, n) == 0;
}

static bool is_datetime_unit(const Parser *p, const Token *t) {
    static const char *const units[] = {"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "DAYOFYEAR", "HOUR", "MINUTE",
                                        "SECOND", "MILLISECOND", "MICROSECOND"};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (word_eq(p, t, units[i])) return true;
    return false;
}

static bool is_unit_function(const Parser *p, const Token *t) {
    static const char *const names[] = {"TIMESTAMPADD", "DATEADD", "DATE_ADD", "TIMESTAMPDIFF", "DATEDIFF", "DATE_DIFF",
                                        "TIMEDIFF"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (word_eq(p, t, names[i])) return true;
    return false;
}

/* The number of arguments of the call whose '(' is k tokens ahead (commas at its level). */
static int call_arg_count(const Parser *p, int k) {
    int depth = 0, n = 1;
    for (int i = k;; i++) {
        const Token *t = tk_at(p, i);
        if (t->kind == TK_EOF) return -1;
        if (tok_op(t, OP_LPAREN)) depth++;
        else if (tok_op(t, OP_RPAREN) && --depth == 0) return n;
        else if (depth == 1 && tok_op(t, OP_COMMA)) n++;
    }
}

static Node *parse_primary_inner(Parser *p) {
    const Token *t = tk(p);
    int32_t start = t->start;
    switch ((TokKind)t->kind) {
    case TK_INT: case TK_DECIMAL: case TK_EXP: case TK_TYPEDNUM:
        return ps_parse_number(p, false, start);
    case TK_STRING:
        if (ps_at_string(p)) {
            size_t n;
            const char *s = ps_parse_string_lit(p, &n);
            Node *l = ps_mk_lit_string(p, s, start, prev_stop(p));
            l->u.lit.v.u.s.len = (uint32_t)n;
            return l;
        }
        break; /* double-quoted identifier */
    case TK_QPARAM: {
        advance(p);
        Node *n = ps_new(p, NK_PosParameter, start, prev_stop(p));
        n->u.pos.index = p->npos_params++;
        return node_finish(n);
    }
    case TK_NPARAM: {
        advance(p);
        Node *n = ps_new(p, NK_NamedParameter, start, prev_stop(p));
        n->u.named.name = arena_strndup(p->a, p->sql + t->start + 1, (size_t)(t->end - t->start - 1));
        return node_finish(n);
    }
    case TK_OP:
        if (t->op == OP_STAR) {
            advance(p);
            return star(p, (NameParts){0, NULL}, start);
        }
        if (t->op == OP_LPAREN) {
            if (at_lambda_params(p)) return parse_lambda(p, start);
            if (ps_at_query_start(p)) {
                /* `(SELECT ...)` is a subquery; `((SELECT 1) + 1)` needs a try */
                Node *q = is_op_at(p, 1, OP_LPAREN) ? ps_try(p, paren_query, NULL) : paren_query(p, NULL);
                if (q) return subquery_expr(p, NK_ScalarSubquery, q, start);
            }
            advance(p);
            NodeVec v = {0};
            do ps_nv_push(p, &v, parse_named_item(p));
            while (ps_accept_op(p, OP_COMMA));
            ps_expect_op(p, OP_RPAREN);
            if (v.n == 1 && v.v[0]->kind == NK_Alias) ps_syntax_error_at(p, &p->t[p->pos - 1], "");
            if (v.n == 1) return v.v[0];
            return ps_mk_fnv(p, "struct", false, start, prev_stop(p), (int)v.n, v.v);
        }
        ps_syntax_error(p, "");
    case TK_EOF:
        ps_syntax_error(p, "");
    default:
        break;
    }
    if (!ps_at_identifier(p)) ps_syntax_error(p, "");
    /* words: special forms first */
    if (t->kind == TK_WORD) {
        const Token *nx = tk_at(p, 1);
        if (tok_op(nx, OP_ARROW)) return parse_lambda(p, start);
        switch (t->kw) {
        case KW_NULL:
            advance(p);
            return ps_mk_lit_null(p, start, prev_stop(p));
        case KW_TRUE: case KW_FALSE:
            advance(p);
            return ps_mk_lit_bool(p, t->kw == KW_TRUE, start, prev_stop(p));
        case KW_CASE:
            advance(p);
            return parse_case(p, start);
        case KW_CAST: case KW_TRY_CAST:
            if (next_is_lparen(p)) {
                bool try_ = t->kw == KW_TRY_CAST;
                advance(p);
                advance(p);
                Node *e = ps_parse_expr(p);
                ps_expect_kw(p, KW_AS);
                const DataType *ty = ps_parse_type(p);
                ps_expect_op(p, OP_RPAREN);
                return ps_mk_cast(p, e, ty, try_, start, prev_stop(p));
            }
            break;
        case KW_EXTRACT:
            if (next_is_lparen(p) && (tk_at(p, 2)->kind == TK_WORD || tk_at(p, 2)->kind == TK_QIDENT) &&
                is_kw_at(p, 3, KW_FROM)) {
                advance(p);
                advance(p);
                int32_t fs = cur_start(p);
                const char *field = ps_parse_identifier(p);
                Node *fl = ps_mk_lit_string(p, field, fs, prev_stop(p));
                ps_expect_kw(p, KW_FROM);
                Node *src = ps_parse_expr(p);
                ps_expect_op(p, OP_RPAREN);
                return ps_mk_fn(p, "extract", false, start, prev_stop(p), 2, fl, src);
            }
            break;
        case KW_SUBSTRING: case KW_SUBSTR:
            if (next_is_lparen(p)) {
                int save = p->pos;
                const char *name = ps_tok_text(p, t);
                advance(p);
                advance(p);
                Node *s = ps_parse_value_expr(p);
                if (ps_accept_kw(p, KW_FROM)) {
                    Node *pos = ps_parse_value_expr(p);
                    Node *len = NULL;
                    if (ps_accept_kw(p, KW_FOR) || ps_accept_op(p, OP_COMMA)) len = ps_parse_value_expr(p);
                    ps_expect_op(p, OP_RPAREN);
                    return len ? ps_mk_fn(p, name, false, start, prev_stop(p), 3, s, pos, len)
                               : ps_mk_fn(p, name, false, start, prev_stop(p), 2, s, pos);
                }
                p->pos = save;
            }
            break;
        case KW_POSITION:
            if (next_is_lparen(p)) {
                int save = p->pos;
                advance(p);
                advance(p);
                Node *sub = ps_parse_value_expr(p);
                if (ps_accept_kw(p, KW_IN)) {
                    Node *str = ps_parse_value_expr(p);
                    ps_expect_op(p, OP_RPAREN);
                    return ps_mk_fn(p, "locate", false, start, prev_stop(p), 2, sub, str);
                }
                p->pos = save;
            }
            break;
        case KW_TRIM:
            if (next_is_lparen(p)) {
                int save = p->pos;
                advance(p);
                advance(p);
                const char *fname = "btrim";
                bool opt = false;
                if (is_kw(p, KW_BOTH) || is_kw(p, KW_LEADING) || is_kw(p, KW_TRAILING)) {
                    fname = is_kw(p, KW_BOTH) ? "btrim" : is_kw(p, KW_LEADING) ? "ltrim" : "rtrim";
                    advance(p);
                    opt = true;
                }
                Node *trim_str = NULL;
                if (!is_kw(p, KW_FROM)) trim_str = ps_parse_value_expr(p);
                if (ps_accept_kw(p, KW_FROM)) {
                    Node *src = ps_parse_value_expr(p);
                    ps_expect_op(p, OP_RPAREN);
                    Node *f = trim_str ? ps_mk_fn(p, fname, false, start, prev_stop(p), 2, src, trim_str)
                                       : ps_mk_fn(p, fname, false, start, prev_stop(p), 1, src);
                    f->flags |= NF_IMPLICIT; /* the syntax form: (source, trim string) */
                    return f;
                }
                if (opt) ps_syntax_error(p, "");
                p->pos = save;
            }
            break;
        case KW_OVERLAY:
            if (next_is_lparen(p)) {
                int save = p->pos;
                advance(p);
                advance(p);
                Node *in = ps_parse_value_expr(p);
                if (ps_accept_kw(p, KW_PLACING)) {
                    Node *rep = ps_parse_value_expr(p);
                    ps_expect_kw(p, KW_FROM);
                    Node *pos = ps_parse_value_expr(p);
                    Node *len = NULL;
                    if (ps_accept_kw(p, KW_FOR)) len = ps_parse_value_expr(p);
                    ps_expect_op(p, OP_RPAREN);
                    return len ? ps_mk_fn(p, "overlay", false, start, prev_stop(p), 4, in, rep, pos, len)
                               : ps_mk_fn(p, "overlay", false, start, prev_stop(p), 3, in, rep, pos);
                }
                p->pos = save;
            }
            break;
        case KW_INTERVAL:
            if (at_number(p, 1) || tk_at(p, 1)->kind == TK_STRING || tok_op(nx, OP_MINUS) || tok_op(nx, OP_PLUS)) {
                advance(p);
                return ps_parse_interval(p, start);
            }
            break;
        case KW_DATE: case KW_TIMESTAMP: case KW_TIMESTAMP_NTZ: case KW_TIMESTAMP_LTZ: case KW_X:
            if (nx->kind == TK_STRING && !(p->opts.double_quoted_identifiers && nx->suffix == '"')) {
                advance(p);
                return ps_parse_typed_literal(p, (Keyword)t->kw, start);
            }
            break;
        case KW_EXISTS:
            if (next_is_lparen(p)) {
                int save = p->pos;
                advance(p);
                advance(p);
                if (ps_at_query_start(p)) {
                    Node *q = ps_parse_query(p);
                    ps_expect_op(p, OP_RPAREN);
                    return subquery_expr(p, NK_Exists, q, start);
                }
                p->pos = save;
            }
            break;
        case KW_IDENTIFIER:
            if (next_is_lparen(p)) {
                Node *idx = ps_parse_identifier_clause(p);
                if (is_op(p, OP_LPAREN)) {
                    /* IDENTIFIER(expr)(args) */
                    advance(p);
                    Node *call = parse_call(p, (NameParts){0, NULL}, start);
                    Node *f = call->kind == NK_UnresolvedFunction ? call : call->kids[0];
                    Node *ie = ps_new(p, NK_UnresolvedIdentifierExpr, start, f->stop);
                    ie->u.idexpr.is_function = true;
                    ie->u.idexpr.distinct = (f->flags & NF_DISTINCT) != 0;
                    Node **k = ARENA_ARRAY(p->a, Node *, f->nkids + 1);
                    k[0] = idx;
                    for (uint32_t i = 0; i < f->nkids; i++) k[i + 1] = f->kids[i];
                    ps_set_kids(p, ie, k, f->nkids + 1);
                    ie = node_finish(ie);
                    if (call == f) return ie;
                    Node *c = node_copy(p->a, call);
                    Node *ck[2] = {ie, call->nkids > 1 ? call->kids[1] : NULL};
                    ps_set_kids(p, c, ck, call->nkids);
                    return node_finish(c);
                }
                Node *ie = ps_new(p, NK_UnresolvedIdentifierExpr, start, prev_stop(p));
                ps_set_kids(p, ie, &idx, 1);
                return node_finish(ie);
            }
            break;
        default:
            if (nx->kind == TK_STRING && !next_is_lparen(p) && !ps_is_clause_keyword(t) &&
                !(p->opts.double_quoted_identifiers && nx->suffix == '"') && t->kw != KW_NOT) {
                /* `identifier 'literal'`: a typed literal of an unsupported type */
                const char *ty = ps_tok_text(p, t);
                advance(p);
                size_t n;
                ps_parse_string_lit(p, &n);
                for (char *c = (char *)ty; *c; c++)
                    if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 32);
                ps_defer_error(p, ps_perr(p, "UNSUPPORTED_TYPED_LITERAL", start, prev_stop(p), "unsupportedType",
                                    arena_printf(p->a, "\"%s\"", ty), "supportedTypes",
                                    "\"DATE\", \"TIMESTAMP_NTZ\", \"TIMESTAMP_LTZ\", \"TIMESTAMP\", \"INTERVAL\", \"X\"", NULL));
                return ps_mk_lit_null(p, start, prev_stop(p));
            }
            break;
        }
    }
    /* CURRENT_DATE / CURRENT_TIMESTAMP / CURRENT_USER / SESSION_USER without
     * parentheses: with reserved keywords enforced, the functions; otherwise
     * names (Spark's visitCurrentLike), which the analyzer resolves to a
     * column of that name first and to the function only then */
    if (t->kind == TK_WORD && !next_is_lparen(p) && !is_op_at(p, 1, OP_DOT) && p->opts.enforce_reserved_keywords &&
        (t->kw == KW_CURRENT_DATE || t->kw == KW_CURRENT_TIMESTAMP || t->kw == KW_CURRENT_USER ||
         word_eq(p, t, "SESSION_USER"))) {
        char *fname = (char *)ps_tok_text(p, t);
        for (char *c = fname; *c; c++)
            if (*c >= 'A' && *c <= 'Z') *c = (char)(*c + 32);
        advance(p);
        return ps_mk_fnv(p, fname, false, start, prev_stop(p), 0, NULL);
    }
    /* ... and not a string: the grammar's invalidUnit=stringLit (AstBuilder's invalidDatetimeUnitError) */
    if (t->kind == TK_WORD && next_is_lparen(p) && tk_at(p, 2)->kind == TK_STRING && is_op_at(p, 3, OP_COMMA) &&
        is_unit_function(p, t) && call_arg_count(p, 1) == 3) {
        const Token *u = tk_at(p, 2);
        char *fname = (char *)ps_tok_text(p, t);
        for (char *c = fname; *c; c++)
            if (*c >= 'A' && *c <= 'Z') *c = (char)(*c + 32);
        ps_defer_error(p, ps_perr(p, "INVALID_PARAMETER_VALUE.DATETIME_UNIT", u->start, u->end - 1, "functionName",
                                  arena_printf(p->a, "`%s`", fname), "parameter", "`unit`", "invalidValue",
                                  ps_tok_text(p, u), NULL));
    }
    /* TIMESTAMPADD(unit, n, ts) / TIMESTAMPDIFF(unit, a, b) and their aliases take a unit keyword */
    if (t->kind == TK_WORD && next_is_lparen(p) && is_datetime_unit(p, tk_at(p, 2)) && is_op_at(p, 3, OP_COMMA) &&
        is_unit_function(p, t)) {
        const char *fname = ps_tok_text(p, t);
        advance(p);
        advance(p);
        const Token *u = tk(p);
        char *unit = (char *)ps_tok_text(p, u);
        for (char *c = unit; *c; c++)
            if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 32);
        Node *ul = ps_mk_lit_string(p, unit, u->start, u->end - 1);
        advance(p);
        ps_expect_op(p, OP_COMMA);
        Node *a1 = ps_parse_expr(p);
        ps_expect_op(p, OP_COMMA);
        Node *a2 = ps_parse_expr(p);
        ps_expect_op(p, OP_RPAREN);
        return ps_mk_fn(p, fname, false, start, prev_stop(p), 3, ul, a1, a2);
    }
    /* name: column reference or function call */
    NameBuf parts;
    parts.n = 0;
    bool last_quoted = tk(p)->kind == TK_QIDENT;
    ps_nb_push(p, &parts, ps_parse_identifier(p));
    while (is_op(p, OP_DOT) && (tk_at(p, 1)->kind == TK_WORD || tk_at(p, 1)->kind == TK_QIDENT) &&
           !(is_kw_at(p, 1, KW_IDENTIFIER) && is_op_at(p, 2, OP_LPAREN))) {
        /* a.b( ... ) is a qualified function name; a.b is a column path */
        advance(p);
        last_quoted = tk(p)->kind == TK_QIDENT;
        ps_nb_push(p, &parts, ps_parse_identifier(p));
    }
    NameParts np = ps_nb_finish(p, &parts);
    if (is_op(p, OP_LPAREN)) {
        advance(p);
        return parse_call(p, np, start);
    }
    if (np.n <= 2 && last_quoted && quoted_regex(p, np.v[np.n - 1]))
        return regex_star(p, (NameParts){np.n - 1, np.v}, np.v[np.n - 1], start);
    return ps_mk_attr(p, np, start, prev_stop(p));
}
