/* Queries: WITH, set operations, query specifications (SELECT ... FROM ...
 * WHERE ... GROUP BY ... HAVING ... WINDOW), result clauses (ORDER/SORT/
 * DISTRIBUTE/CLUSTER BY, LIMIT, OFFSET) and relations (tables, subqueries,
 * VALUES, table-valued functions, joins, LATERAL, LATERAL VIEW), built as
 * Spark's AstBuilder builds them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parser_int.h"

Node *ps_as_predicate(Parser *p, Node *e);

static const char AUTO_SUBQUERY_NAME[] = "__auto_generated_subquery_name";

static bool word_eq_tok(const Parser *p, const Token *t, const char *w) {
    size_t n = strlen(w);
    return t->kind == TK_WORD && (size_t)(t->end - t->start) == n && strncasecmp(p->sql + t->start, w, n) == 0;
}

static Node *plan1(Parser *p, NodeKind k, Node *child, int32_t start) {
    Node *n = ps_new(p, k, start, prev_stop(p));
    if (child) ps_set_kids(p, n, &child, 1);
    return n;
}

/* TABLESAMPLE ( x PERCENT | n ROWS | BUCKET x OUT OF y | bytes ) [REPEATABLE (seed)]
 * (Spark's withSample, applied over the aliased relation): a fraction is
 * Sample(0, fraction, false, seed), rows are a Limit; byte lengths, empty
 * clauses and fractions outside [0, 1] are Spark's parse errors. Without
 * REPEATABLE Spark draws a random seed; the analysis takes 0. */
typedef struct SampleSpec {
    bool present;
    Node *rows;      /* ROWS: the limit expression; else a fraction */
    double fraction;
    int64_t seed;
    int32_t start, stop;
} SampleSpec;

static double number_text(Parser *p) {
    const char *t = ps_tok_text(p, tk(p));
    advance(p);
    return strtod(t, NULL);
}

static SampleSpec parse_sample(Parser *p) {
    SampleSpec s = {0};
    if (!is_kw(p, KW_TABLESAMPLE)) return s;
    s.present = true;
    s.start = cur_start(p);
    advance(p);
    ps_expect_op(p, OP_LPAREN);
    bool ok = true;
    if (is_op(p, OP_RPAREN)) {
        ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0014", s.start, cur_start(p), NULL));
        ok = false;
    } else if ((is_op(p, OP_MINUS) && word_eq_tok(p, tk_at(p, 2), "PERCENT")) ||
               ((tk(p)->kind == TK_INT || tk(p)->kind == TK_DECIMAL) && word_eq_tok(p, tk_at(p, 1), "PERCENT"))) {
        double sign = ps_accept_op(p, OP_MINUS) ? -1 : 1;
        s.fraction = sign * number_text(p) / 100.0;
        advance(p); /* PERCENT */
    } else if (word_eq_tok(p, tk(p), "BUCKET") && tk_at(p, 1)->kind == TK_INT) {
        advance(p);
        double num = number_text(p);
        if (!word_eq_tok(p, tk(p), "OUT")) ps_syntax_error(p, "");
        advance(p);
        ps_expect_kw(p, KW_OF);
        if (tk(p)->kind != TK_INT) ps_syntax_error(p, "");
        double den = number_text(p);
        if (is_kw(p, KW_ON)) {
            advance(p);
            bool fn = false;
            ps_parse_multipart(p);
            if (ps_accept_op(p, OP_LPAREN)) {
                ps_expect_op(p, OP_RPAREN);
                fn = true;
            }
            ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0015", s.start, prev_stop(p), "msg",
                                      fn ? "BUCKET x OUT OF y ON function" : "BUCKET x OUT OF y ON colname", NULL));
            ok = false;
        }
        s.fraction = num / den;
    } else {
        int32_t es = cur_start(p);
        Node *e = ps_parse_expr(p);
        if (ps_accept_kw(p, KW_ROWS)) {
            s.rows = e;
        } else {
            /* sampleByBytes */
            const char *text = arena_strndup(p->a, p->sql + es, (size_t)(prev_stop(p) + 1 - es));
            size_t n = strlen(text), d = 0;
            while (d < n && text[d] >= '0' && text[d] <= '9') d++;
            bool byte_len = d > 0 && d + 1 == n && strchr("bBkKmMgG", text[d]);
            if (byte_len)
                ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0015", s.start, prev_stop(p), "msg", "byteLengthLiteral",
                                          NULL));
            else
                ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0016", s.start, prev_stop(p), "bytesStr", text, NULL));
            ok = false;
        }
    }
    ps_expect_op(p, OP_RPAREN);
    if (word_eq_tok(p, tk(p), "REPEATABLE")) {
        advance(p);
        ps_expect_op(p, OP_LPAREN);
        bool neg = ps_accept_op(p, OP_MINUS);
        if (tk(p)->kind != TK_INT) ps_syntax_error(p, "");
        s.seed = (int64_t)number_text(p) * (neg ? -1 : 1);
        ps_expect_op(p, OP_RPAREN);
    }
    s.stop = prev_stop(p);
    if (ok && !s.rows && !(s.fraction >= 0.0 - 1e-6 && s.fraction <= 1.0 + 1e-6)) {
        StrBuf sb;
        sb_init(&sb, p->a, 64);
        /* Java's Double.toString for the fractions a clause can spell */
        if (s.fraction == floor(s.fraction) && fabs(s.fraction) < 1e7)
            sb_printf(&sb, "Sampling fraction (%.1f) must be on interval [0, 1]", s.fraction);
        else
            sb_printf(&sb, "Sampling fraction (%.17g) must be on interval [0, 1]", s.fraction);
        ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0064", s.start, s.stop, "msg", sb_str(&sb), NULL));
    }
    return s;
}

static Node *apply_sample(Parser *p, const SampleSpec *s, Node *plan) {
    if (!s->present) return plan;
    if (s->rows) {
        Node *ll = ps_new(p, NK_LocalLimit, s->start, s->stop);
        ps_set_kids(p, ll, &plan, 1);
        ps_set_exprs(p, ll, (Node *const *)&s->rows, 1);
        ll = node_finish(ll);
        Node *gl = ps_new(p, NK_GlobalLimit, s->start, s->stop);
        ps_set_kids(p, gl, &ll, 1);
        ps_set_exprs(p, gl, (Node *const *)&s->rows, 1);
        return node_finish(gl);
    }
    Node *n = ps_new(p, NK_Sample, s->start, s->stop);
    n->u.sample.lower = 0.0;
    n->u.sample.upper = s->fraction;
    n->u.sample.seed = s->seed;
    ps_set_kids(p, n, &plan, 1);
    return node_finish(n);
}

static Node *subquery_alias(Parser *p, const char *name, Node *child, int32_t start) {
    Node *n = plan1(p, NK_SubqueryAlias, child, start);
    n->u.alias.name = ps_name1(p, name);
    return node_finish(n);
}

bool ps_at_query_start(const Parser *p) { return ps_at_query_start_at(p, 0); }

bool ps_at_query_start_at(const Parser *p, int off) {
    int i = off;
    while (tok_op(tk_at(p, i), OP_LPAREN)) i++;
    const Token *t = tk_at(p, i);
    if (t->kind != TK_WORD) return false;
    /* MAP exprs USING / REDUCE exprs USING (transformClause) */
    if ((word_eq_tok(p, t, "MAP") || word_eq_tok(p, t, "REDUCE")) && !tok_op(tk_at(p, i + 1), OP_LPAREN) &&
        tk_at(p, i + 1)->kind != TK_EOF && !tok_op(tk_at(p, i + 1), OP_SEMI))
        return true;
    switch (t->kw) {
    case KW_SELECT: case KW_WITH: case KW_VALUES: case KW_FROM: return true;
    case KW_TABLE: {
        const Token *n = tk_at(p, i + 1);
        return n->kind == TK_WORD || n->kind == TK_QIDENT;
    }
    default: return false;
    }
}

/* ---- table alias: [AS] name [(cols)] ---- */

typedef struct TableAlias {
    const char *name;
    uint32_t ncols;
    const char **cols;
} TableAlias;

static bool can_be_alias(const Parser *p) {
    const Token *t = tk(p);
    if (!ps_at_identifier(p)) return false;
    if (t->kind == TK_WORD && (ps_is_clause_keyword(t) || ps_is_strict_nonreserved(t))) return false;
    if (tok_kw(t, KW_ORDER) || tok_kw(t, KW_SORT) || tok_kw(t, KW_LIMIT) || tok_kw(t, KW_OFFSET)) return false;
    return true;
}

static TableAlias parse_table_alias(Parser *p) {
    TableAlias ta = {NULL, 0, NULL};
    if (is_kw(p, KW_AS)) {
        if (is_op_at(p, 1, OP_LPAREN)) {
            /* `AS (c)`: AS itself is the alias name, as Spark's grammar makes it */
            ta.name = ps_tok_text(p, tk(p));
            advance(p);
            ta.ncols = ps_parse_ident_list(p, &ta.cols);
            return ta;
        }
        advance(p);
        if (ps_is_strict_nonreserved(tk(p))) ps_syntax_error(p, "");
        ta.name = ps_parse_identifier(p);
    } else if (can_be_alias(p)) {
        ta.name = ps_parse_identifier(p);
    } else return ta;
    if (is_op(p, OP_LPAREN)) ta.ncols = ps_parse_ident_list(p, &ta.cols);
    return ta;
}

static Node *apply_alias(Parser *p, const TableAlias *ta, Node *plan, int32_t start) {
    if (!ta->name) return plan;
    if (ta->ncols) {
        Node *c = plan1(p, NK_UnresolvedSubqueryColumnAliases, plan, start);
        c->u.cols.ncols = ta->ncols;
        c->u.cols.cols = ta->cols;
        plan = node_finish(c);
    }
    return subquery_alias(p, ta->name, plan, start);
}

/* ---- VALUES ---- */

static bool is_row_ctor(Parser *p, const Node *e) {
    return e->kind == NK_UnresolvedFunction && !e->u.un.is_operator && e->start >= 0 && p->sql[e->start] == '(';
}

static Node *parse_inline_table(Parser *p, int32_t start) {
    ps_expect_kw(p, KW_VALUES);
    NodeVec rows = {0};
    uint32_t first = 0;
    do {
        int32_t rs = cur_start(p);
        Node *e = ps_parse_expr(p);
        Node *row = ps_new(p, NK_ExprList, rs, prev_stop(p));
        if (is_row_ctor(p, e)) ps_set_kids(p, row, e->kids, e->u.un.nargs);
        else ps_set_kids(p, row, &e, 1);
        if (!rows.n) first = row->nkids;
        ps_nv_push(p, &rows, node_finish(row));
    } while (ps_accept_op(p, OP_COMMA));
    TableAlias ta = parse_table_alias(p);
    Node *t = ps_new(p, NK_UnresolvedInlineTable, start, prev_stop(p));
    ps_set_exprs(p, t, rows.v, rows.n);
    if (ta.ncols) {
        t->u.cols.ncols = ta.ncols;
        t->u.cols.cols = ta.cols;
    } else {
        t->u.cols.ncols = first;
        t->u.cols.cols = ARENA_ARRAY(p->a, const char *, first ? first : 1);
        for (uint32_t i = 0; i < first; i++) t->u.cols.cols[i] = arena_printf(p->a, "col%u", i + 1);
    }
    for (uint32_t i = 0; i < rows.n; i++)
        if (rows.v[i]->nkids != t->u.cols.ncols) {
            ps_defer_error(p, ps_perr(p, "INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH", start, prev_stop(p), "expectedNumCols",
                                arena_printf(p->a, "%u", t->u.cols.ncols), "actualNumCols",
                                arena_printf(p->a, "%u", rows.v[i]->nkids), "rowIndex", arena_printf(p->a, "%u", i), NULL));
            break;
        }
    node_finish(t);
    if (!ta.name) return t;
    return subquery_alias(p, ta.name, t, start);
}

/* ---- relations ---- */

static Node *parse_relation(Parser *p, Node *left, NodeVec *commas);

static const char *join_sql(JoinType t) {
    switch (t) {
    case JOIN_INNER: return "INNER";
    case JOIN_LEFT_OUTER: return "LEFT OUTER";
    case JOIN_RIGHT_OUTER: return "RIGHT OUTER";
    case JOIN_FULL_OUTER: return "FULL OUTER";
    case JOIN_LEFT_SEMI: return "LEFT SEMI";
    case JOIN_LEFT_ANTI: return "LEFT ANTI";
    case JOIN_CROSS: return "CROSS";
    }
    return "INNER";
}

static Node *parse_tvf(Parser *p, NameParts name, int32_t start, Node *ident_expr) {
    ps_expect_op(p, OP_LPAREN);
    NodeVec args = {0};
    if (!is_op(p, OP_RPAREN)) {
        do {
            int32_t as = cur_start(p);
            if (is_kw(p, KW_TABLE)) {
                /* TABLE t / TABLE(query) table argument: kept as a scalar subquery of the relation */
                advance(p);
                Node *rel;
                if (ps_accept_op(p, OP_LPAREN)) {
                    rel = ps_parse_query(p);
                    ps_expect_op(p, OP_RPAREN);
                } else {
                    int32_t rs = cur_start(p);
                    NameParts np = ps_parse_multipart(p);
                    rel = ps_new(p, NK_UnresolvedRelation, rs, prev_stop(p));
                    rel->u.un.name = np;
                    rel = node_finish(rel);
                }
                Node *s = ps_new(p, NK_ScalarSubquery, as, prev_stop(p));
                s->u.subq.plan = rel;
                ps_nv_push(p, &args, node_finish(s));
            } else if (ps_at_identifier(p) && is_op_at(p, 1, OP_FATARROW)) {
                const char *an = ps_parse_identifier(p);
                advance(p);
                Node *v = ps_parse_expr(p);
                Node *na = ps_new(p, NK_NamedArgument, as, prev_stop(p));
                na->u.named.name = an;
                ps_set_kids(p, na, &v, 1);
                ps_nv_push(p, &args, node_finish(na));
            } else ps_nv_push(p, &args, ps_parse_expr(p));
        } while (ps_accept_op(p, OP_COMMA));
    }
    ps_expect_op(p, OP_RPAREN);
    Node *f = ps_new(p, NK_UnresolvedTableValuedFunction, start, prev_stop(p));
    f->u.un.name = name;
    ps_set_exprs(p, f, args.v, args.n);
    f = node_finish(f);
    if (ident_expr) {
        Node *w = ps_new(p, NK_UnresolvedIdentifierPlan, start, prev_stop(p));
        w->u.idplan.builds = NK_UnresolvedTableValuedFunction;
        ps_set_exprs(p, w, &ident_expr, 1);
        ps_set_kids(p, w, &f, 1);
        f = node_finish(w);
    }
    if (name.n > 1)
        ps_defer_error(p, ps_perr(p, "INVALID_SQL_SYNTAX.INVALID_TABLE_VALUED_FUNC_NAME", start, prev_stop(p), "funcName",
                            sql_id_parts(p->a, name), NULL));
    TableAlias ta = parse_table_alias(p);
    Node *r = apply_alias(p, &ta, f, start);
    p->last_primary_lateral_ok = true;
    return r;
}

static Node *paren_query_rel(Parser *p, void *ctx) {
    (void)ctx;
    ps_expect_op(p, OP_LPAREN);
    Node *q = ps_parse_query(p);
    ps_expect_op(p, OP_RPAREN);
    return q;
}

Node *ps_parse_relation_primary(Parser *p) {
    int32_t start = cur_start(p);
    p->last_primary_lateral_ok = false;
    if (is_op(p, OP_LPAREN)) {
        if (ps_at_query_start(p)) {
            /* ( query ) alias — but `((SELECT 1) a JOIN b)` is a relation */
            Node *q = is_op_at(p, 1, OP_LPAREN) ? ps_try(p, paren_query_rel, NULL) : paren_query_rel(p, NULL);
            if (q) {
                SampleSpec sample = parse_sample(p);
                TableAlias ta = parse_table_alias(p);
                p->last_primary_lateral_ok = true;
                if (!ta.name) return apply_sample(p, &sample, subquery_alias(p, AUTO_SUBQUERY_NAME, q, start));
                return apply_sample(p, &sample, apply_alias(p, &ta, q, start));
            }
        }
        advance(p);
        Node *r = parse_relation(p, NULL, NULL);
        ps_expect_op(p, OP_RPAREN);
        TableAlias ta = parse_table_alias(p);
        return apply_alias(p, &ta, r, start);
    }
    if (is_kw(p, KW_VALUES)) return parse_inline_table(p, start);
    if (is_kw(p, KW_IDENTIFIER) && is_op_at(p, 1, OP_LPAREN)) {
        Node *e = ps_parse_identifier_clause(p);
        if (is_op(p, OP_LPAREN)) return parse_tvf(p, (NameParts){0, NULL}, start, e);
        Node *w = ps_new(p, NK_UnresolvedIdentifierPlan, start, prev_stop(p));
        w->u.idplan.builds = NK_UnresolvedRelation;
        ps_set_exprs(p, w, &e, 1);
        w = node_finish(w);
        TableAlias ta = parse_table_alias(p);
        return apply_alias(p, &ta, w, start);
    }
    NameParts np = ps_parse_multipart(p);
    if (is_op(p, OP_LPAREN)) return parse_tvf(p, np, start, NULL);
    Node *r = ps_new(p, NK_UnresolvedRelation, start, prev_stop(p));
    r->u.un.name = np;
    r = node_finish(r);
    SampleSpec sample = parse_sample(p);
    TableAlias ta = parse_table_alias(p);
    return apply_sample(p, &sample, apply_alias(p, &ta, r, start));
}

static void lateral_relation_error(Parser *p, const Node *r) {
    ps_defer_error(p, ps_perr(p, "INVALID_SQL_SYNTAX.LATERAL_WITHOUT_SUBQUERY_OR_TABLE_VALUED_FUNC", r->start, r->stop,
                              NULL));
}

static Node *lateral_join(Parser *p, Node *left, Node *right, JoinType jt, Node *cond, int32_t start) {
    Node *ls = ps_new(p, NK_LateralSubquery, right->start, right->stop);
    ls->u.subq.plan = right;
    ls = node_finish(ls);
    Node *j = plan1(p, NK_LateralJoin, left, start);
    Node *ex[2] = {ls, cond};
    ps_set_exprs(p, j, ex, cond ? 2 : 1);
    j->u.join.type = jt;
    return node_finish(j);
}

static bool at_join(const Parser *p) {
    int i = 0;
    if (is_kw(p, KW_NATURAL)) i++;
    const Token *t = tk_at(p, i);
    if (tok_kw(t, KW_JOIN)) return true;
    if (tok_kw(t, KW_INNER) || tok_kw(t, KW_CROSS) || tok_kw(t, KW_SEMI) || tok_kw(t, KW_ANTI))
        return tok_kw(tk_at(p, i + 1), KW_JOIN);
    if (tok_kw(t, KW_LEFT) || tok_kw(t, KW_RIGHT) || tok_kw(t, KW_FULL)) {
        const Token *u = tk_at(p, i + 1);
        if (tok_kw(u, KW_OUTER) || tok_kw(u, KW_SEMI) || tok_kw(u, KW_ANTI)) u = tk_at(p, i + 2);
        return tok_kw(u, KW_JOIN);
    }
    return false;
}

/* A join's origin starts at its join keywords (Spark's joinRelation). */
static Node *parse_join(Parser *p, Node *left) {
    int32_t start = cur_start(p);
    const Token *jt_tok = tk(p);
    bool natural = ps_accept_kw(p, KW_NATURAL);
    JoinType jt = JOIN_INNER;
    if (ps_accept_kw(p, KW_INNER)) jt = JOIN_INNER;
    else if (ps_accept_kw(p, KW_CROSS)) jt = JOIN_CROSS;
    else if (ps_accept_kw(p, KW_SEMI)) jt = JOIN_LEFT_SEMI;
    else if (ps_accept_kw(p, KW_ANTI)) jt = JOIN_LEFT_ANTI;
    else if (ps_accept_kw(p, KW_LEFT)) {
        if (ps_accept_kw(p, KW_SEMI)) jt = JOIN_LEFT_SEMI;
        else if (ps_accept_kw(p, KW_ANTI)) jt = JOIN_LEFT_ANTI;
        else {
            ps_accept_kw(p, KW_OUTER);
            jt = JOIN_LEFT_OUTER;
        }
    } else if (ps_accept_kw(p, KW_RIGHT)) {
        ps_accept_kw(p, KW_OUTER);
        jt = JOIN_RIGHT_OUTER;
    } else if (ps_accept_kw(p, KW_FULL)) {
        ps_accept_kw(p, KW_OUTER);
        jt = JOIN_FULL_OUTER;
    }
    ps_expect_kw(p, KW_JOIN);
    bool lateral = ps_accept_kw(p, KW_LATERAL);
    Node *right = ps_parse_relation_primary(p);
    if (lateral && !p->last_primary_lateral_ok) lateral_relation_error(p, right);
    Node *cond = NULL;
    uint32_t nusing = 0;
    const char **using_cols = NULL;
    if (!natural && ps_accept_kw(p, KW_ON)) cond = ps_parse_expr(p);
    else if (!natural && is_kw(p, KW_USING)) {
        advance(p);
        nusing = ps_parse_ident_list(p, &using_cols);
    }
    (void)jt_tok;
    if (lateral && jt != JOIN_INNER && jt != JOIN_CROSS && jt != JOIN_LEFT_OUTER)
        ps_defer_error(p, ps_perr(p, "INVALID_LATERAL_JOIN_TYPE", start, prev_stop(p), "joinType", join_sql(jt), NULL));
    if (lateral && nusing) ps_defer_error(p, ps_perr(p, "UNSUPPORTED_FEATURE.LATERAL_JOIN_USING", start, prev_stop(p), NULL));
    if (natural && lateral)
        ps_defer_error(p, ps_perr(p, "INCOMPATIBLE_JOIN_TYPES", start, prev_stop(p), "joinType1", "LATERAL", "joinType2",
                            "NATURAL", NULL));
    if (natural && jt == JOIN_CROSS)
        ps_defer_error(p, ps_perr(p, "UNSUPPORTED_FEATURE.NATURAL_CROSS_JOIN", start, prev_stop(p), NULL));
    if (lateral) return lateral_join(p, left, right, jt, cond, start);
    Node *j = ps_new(p, NK_Join, start, prev_stop(p));
    Node *k[2] = {left, right};
    ps_set_kids(p, j, k, 2);
    if (cond) ps_set_exprs(p, j, &cond, 1);
    j->u.join.type = jt;
    j->u.join.natural = natural;
    j->u.join.nusing = nusing;
    j->u.join.using_cols = using_cols;
    return node_finish(j);
}

/* `expr [AS] name` → Alias, else the expression (Spark's namedExpression) */
static Node *pivot_named_expr(Parser *p) {
    int32_t start = cur_start(p);
    Node *e = ps_parse_expr(p);
    const char *alias = NULL;
    if (ps_accept_kw(p, KW_AS)) alias = ps_parse_identifier(p);
    else if (ps_at_identifier(p) && !ps_is_clause_keyword(tk(p)) && !is_kw(p, KW_FOR)) alias = ps_parse_identifier(p);
    if (!alias) return e;
    Node *a = ps_new(p, NK_Alias, start, prev_stop(p));
    a->u.attr.name = alias;
    ps_set_kids(p, a, &e, 1);
    return node_finish(a);
}

/* PIVOT ( aggregates FOR column | (c1, c2, ...) IN ( value [[AS] name], ... ) )
 * → Pivot (Spark's withPivot: several columns are one struct). The column
 * names carry the clause's position, as Spark's UnresolvedAttributes do. */
static Node *parse_pivot(Parser *p, Node *child) {
    int32_t start = cur_start(p);
    advance(p); /* PIVOT */
    ps_expect_op(p, OP_LPAREN);
    NodeVec aggs = {0}, vals = {0};
    do ps_nv_push(p, &aggs, pivot_named_expr(p));
    while (ps_accept_op(p, OP_COMMA));
    ps_expect_kw(p, KW_FOR);
    PtrVec cols = {0};
    if (ps_accept_op(p, OP_LPAREN)) {
        do ps_pv_push(p, &cols, ps_parse_identifier(p));
        while (ps_accept_op(p, OP_COMMA));
        ps_expect_op(p, OP_RPAREN);
    } else {
        ps_pv_push(p, &cols, ps_parse_identifier(p));
    }
    ps_expect_kw(p, KW_IN);
    ps_expect_op(p, OP_LPAREN);
    do ps_nv_push(p, &vals, pivot_named_expr(p));
    while (ps_accept_op(p, OP_COMMA));
    ps_expect_op(p, OP_RPAREN);
    ps_expect_op(p, OP_RPAREN);
    int32_t stop = prev_stop(p);
    Node *col;
    if (cols.n == 1) {
        col = ps_mk_attr(p, ps_name1(p, cols.v[0]), start, stop);
    } else {
        Node **args = ARENA_ARRAY(p->a, Node *, 2 * cols.n);
        for (uint32_t i = 0; i < cols.n; i++) {
            args[2 * i] = ps_mk_lit_string(p, cols.v[i], start, stop);
            args[2 * i + 1] = ps_mk_attr(p, ps_name1(p, cols.v[i]), start, stop);
        }
        col = ps_mk_fnv(p, "named_struct", false, start, stop, (int)(2 * cols.n), args);
    }
    Node *pv = ps_new(p, NK_Pivot, start, stop);
    Node **ex = ARENA_ARRAY(p->a, Node *, 1 + aggs.n + vals.n);
    ex[0] = col;
    mem_copy(ex + 1, aggs.v, sizeof(Node *) * aggs.n);
    mem_copy(ex + 1 + aggs.n, vals.v, sizeof(Node *) * vals.n);
    ps_set_exprs(p, pv, ex, 1 + aggs.n + vals.n);
    pv->u.pivot.nagg = aggs.n;
    pv->u.pivot.nvalues = vals.n;
    ps_set_kids(p, pv, &child, 1);
    return node_finish(pv);
}

static bool at_pivot(const Parser *p) { return is_kw(p, KW_PIVOT) && is_op_at(p, 1, OP_LPAREN); }

static bool at_unpivot(const Parser *p) {
    return is_kw(p, KW_UNPIVOT) &&
           (is_op_at(p, 1, OP_LPAREN) || ((is_kw_at(p, 1, KW_INCLUDE) || is_kw_at(p, 1, KW_EXCLUDE)) && is_kw_at(p, 2, KW_NULLS)));
}

/* `[AS] name` after an UNPIVOT column or column set */
static const char *unpivot_alias(Parser *p) {
    if (ps_accept_kw(p, KW_AS)) return ps_parse_identifier(p);
    if (ps_at_identifier(p) && !is_op(p, OP_COMMA) && !is_op(p, OP_RPAREN)) return ps_parse_identifier(p);
    return NULL;
}

static Node *unpivot_col(Parser *p) {
    int32_t s = cur_start(p);
    NameParts np = ps_parse_multipart(p);
    return ps_mk_attr(p, np, s, prev_stop(p));
}

/* UNPIVOT [INCLUDE | EXCLUDE NULLS] ( v FOR name IN (c [[AS] a], ...) |
 * (v1, v2) FOR name IN ((c1, c2) [[AS] a], ...) ) [[AS] alias] → Unpivot,
 * under Filter(isnotnull(coalesce(v...))) unless INCLUDE NULLS, under
 * SubqueryAlias when aliased (Spark's withUnpivot). */
static Node *parse_unpivot(Parser *p, Node *child) {
    int32_t start = cur_start(p);
    advance(p); /* UNPIVOT */
    bool include_nulls = false;
    if (ps_accept_kw(p, KW_INCLUDE)) {
        include_nulls = true;
        ps_expect_kw(p, KW_NULLS);
    } else if (ps_accept_kw(p, KW_EXCLUDE)) {
        ps_expect_kw(p, KW_NULLS);
    }
    ps_expect_op(p, OP_LPAREN);
    PtrVec vcols = {0};
    bool multi = ps_accept_op(p, OP_LPAREN);
    if (multi) {
        do ps_pv_push(p, &vcols, ps_parse_identifier(p));
        while (ps_accept_op(p, OP_COMMA));
        ps_expect_op(p, OP_RPAREN);
    } else {
        ps_pv_push(p, &vcols, ps_parse_identifier(p));
    }
    ps_expect_kw(p, KW_FOR);
    const char *var = ps_parse_identifier(p);
    ps_expect_kw(p, KW_IN);
    ps_expect_op(p, OP_LPAREN);
    NodeVec sets = {0};
    PtrVec aliases = {0};
    do {
        int32_t ss = cur_start(p);
        NodeVec cols = {0};
        if (multi) {
            ps_expect_op(p, OP_LPAREN);
            do ps_nv_push(p, &cols, unpivot_col(p));
            while (ps_accept_op(p, OP_COMMA));
            ps_expect_op(p, OP_RPAREN);
        } else {
            ps_nv_push(p, &cols, unpivot_col(p));
        }
        Node *l = ps_new(p, NK_ExprList, ss, prev_stop(p));
        ps_set_kids(p, l, cols.v, cols.n);
        ps_nv_push(p, &sets, node_finish(l));
        ps_pv_push(p, &aliases, unpivot_alias(p));
    } while (ps_accept_op(p, OP_COMMA));
    ps_expect_op(p, OP_RPAREN);
    ps_expect_op(p, OP_RPAREN);
    Node *u = ps_new(p, NK_Unpivot, start, prev_stop(p));
    u->u.unpivot.var_name = var;
    u->u.unpivot.nvalue_cols = vcols.n;
    u->u.unpivot.value_cols = (const char **)vcols.v;
    u->u.unpivot.aliases = (const char **)aliases.v;
    ps_set_exprs(p, u, sets.v, sets.n);
    ps_set_kids(p, u, &child, 1);
    Node *r = node_finish(u);
    if (!include_nulls) {
        Node **vals = ARENA_ARRAY(p->a, Node *, vcols.n);
        for (uint32_t i = 0; i < vcols.n; i++) vals[i] = ps_mk_attr(p, ps_name1(p, vcols.v[i]), start, prev_stop(p));
        Node *co = ps_mk_fnv(p, "coalesce", false, start, prev_stop(p), (int)vcols.n, vals);
        Node *nn = ps_mk_fnv(p, "isnotnull", true, start, prev_stop(p), 1, &co);
        Node *f = plan1(p, NK_Filter, r, start);
        ps_set_exprs(p, f, &nn, 1);
        r = node_finish(f);
    }
    const char *alias = NULL;
    if (ps_accept_kw(p, KW_AS)) alias = ps_parse_identifier(p);
    else if (ps_at_identifier(p) && !ps_is_clause_keyword(tk(p))) alias = ps_parse_identifier(p);
    if (alias) r = subquery_alias(p, alias, r, start);
    return r;
}

/* One FROM item: [LATERAL] primary, joined to `left` by a comma, then its joins. */
static Node *parse_relation(Parser *p, Node *left, NodeVec *commas) {
    int32_t start = cur_start(p);
    bool lateral = false;
    if (is_kw(p, KW_LATERAL) && !is_kw_at(p, 1, KW_VIEW)) {
        advance(p);
        lateral = true;
    }
    Node *r = ps_parse_relation_primary(p);
    if (lateral && !p->last_primary_lateral_ok) lateral_relation_error(p, r);
    if (left) {
        if (lateral) r = lateral_join(p, left, r, JOIN_INNER, NULL, left->start);
        else {
            Node *j = ps_new(p, NK_Join, left->start, prev_stop(p));
            Node *k[2] = {left, r};
            ps_set_kids(p, j, k, 2);
            j->u.join.type = JOIN_INNER;
            r = node_finish(j);
        }
        if (commas) ps_nv_push(p, commas, r);
    }
    (void)start;
    /* Spark's relationExtension: joins and PIVOT */
    for (;;) {
        if (at_join(p)) r = parse_join(p, r);
        else if (at_pivot(p)) r = parse_pivot(p, r);
        else if (at_unpivot(p)) r = parse_unpivot(p, r);
        else break;
        ps_check_height(p, r);
    }
    return r;
}

static Node *parse_lateral_view(Parser *p, Node *child) {
    int32_t start = cur_start(p);
    advance(p); /* LATERAL */
    advance(p); /* VIEW */
    bool outer = ps_accept_kw(p, KW_OUTER);
    int32_t fs = cur_start(p);
    NameParts fname = ps_parse_multipart(p);
    ps_expect_op(p, OP_LPAREN);
    NodeVec args = {0};
    if (!is_op(p, OP_RPAREN)) ps_parse_expr_list(p, &args);
    ps_expect_op(p, OP_RPAREN);
    Node *gen = ps_mk_fnv(p, "", false, fs, prev_stop(p), (int)args.n, args.v);
    gen = node_copy(p->a, gen);
    gen->u.un.name = fname;
    gen = node_finish(gen);
    const char *tbl = ps_parse_identifier(p);
    PtrVec cols = {0};
    if (ps_accept_kw(p, KW_AS) || (ps_at_identifier(p) && !ps_is_clause_keyword(tk(p)) && !is_kw(p, KW_LATERAL))) {
        do ps_pv_push(p, &cols, ps_parse_identifier(p));
        while (ps_accept_op(p, OP_COMMA));
    }
    Node *g = plan1(p, NK_UnresolvedGenerate, child, start);
    g->start = child->start;
    g->u.generate.outer = outer;
    g->u.generate.qualifier = ps_name1(p, tbl);
    g->u.generate.ncols = cols.n;
    g->u.generate.cols = (const char **)cols.v;
    ps_set_exprs(p, g, &gen, 1);
    return node_finish(g);
}

/* The joins a FROM list builds (`FROM a, b`, `FROM a, LATERAL (...)`) have
 * the FROM clause's origin, as in Spark's visitFromClause. */
static Node *parse_from_clause(Parser *p) {
    int32_t start = cur_start(p);
    ps_expect_kw(p, KW_FROM);
    NodeVec joins = {0};
    Node *r = parse_relation(p, NULL, NULL);
    while (ps_accept_op(p, OP_COMMA)) r = ps_check_height(p, parse_relation(p, r, &joins));
    while (is_kw(p, KW_LATERAL) && is_kw_at(p, 1, KW_VIEW)) r = ps_check_height(p, parse_lateral_view(p, r));
    if (at_pivot(p)) r = parse_pivot(p, r);
    if (at_unpivot(p)) r = parse_unpivot(p, r);
    for (uint32_t i = 0; i < joins.n; i++) {
        joins.v[i]->start = start;
        joins.v[i]->stop = prev_stop(p);
    }
    return r;
}

/* ---- query specification ---- */

static Node *multi_alias(Parser *p, Node *e, int32_t start) {
    const char **cols;
    uint32_t n = ps_parse_ident_list(p, &cols);
    Node *m = ps_new(p, NK_MultiAlias, start, prev_stop(p));
    m->u.cols.ncols = n;
    m->u.cols.cols = cols;
    ps_set_kids(p, m, &e, 1);
    return node_finish(m);
}

static Node *parse_select_item(Parser *p) {
    int32_t start = cur_start(p);
    p->named_expr_depth++;
    Node *e = ps_parse_expr(p);
    p->named_expr_depth--;
    const char *alias = NULL;
    if (is_kw(p, KW_AS)) {
        advance(p);
        if (is_op(p, OP_LPAREN)) return multi_alias(p, e, start);
        alias = ps_parse_identifier(p);
    } else if (is_op(p, OP_LPAREN)) {
        return multi_alias(p, e, start);
    } else if (ps_at_identifier(p) && !(tk(p)->kind == TK_WORD && ps_is_clause_keyword(tk(p)))) {
        alias = ps_parse_identifier(p);
    }
    if (alias) {
        Node *a = ps_new(p, NK_Alias, start, prev_stop(p));
        a->u.attr.name = alias;
        ps_set_kids(p, a, &e, 1);
        return node_finish(a);
    }
    if (e->kind == NK_UnresolvedAttribute || e->kind == NK_UnresolvedStar) return e;
    Node *u = ps_new(p, NK_UnresolvedAlias, e->start, e->stop);
    ps_set_kids(p, u, &e, 1);
    return node_finish(u);
}

/* A grouping set element: (a, b) or a → ExprList */
static Node *parse_grouping_set(Parser *p) {
    int32_t start = cur_start(p);
    NodeVec v = {0};
    if (is_op(p, OP_LPAREN)) {
        int save = p->pos;
        advance(p);
        if (ps_accept_op(p, OP_RPAREN)) {
        } else {
            p->pos = save;
            Node *e = ps_parse_expr(p);
            if (is_row_ctor(p, e))
                for (uint32_t i = 0; i < e->u.un.nargs; i++) ps_nv_push(p, &v, e->kids[i]);
            else ps_nv_push(p, &v, e);
        }
    } else ps_nv_push(p, &v, ps_parse_expr(p));
    Node *l = ps_new(p, NK_ExprList, start, prev_stop(p));
    ps_set_kids(p, l, v.v, v.n);
    return node_finish(l);
}

static Node *grouping_node(Parser *p, NodeKind k, int32_t start) {
    ps_expect_op(p, OP_LPAREN);
    NodeVec sets = {0};
    do {
        if (k == NK_GroupingSets && (is_kw(p, KW_ROLLUP) || is_kw(p, KW_CUBE)) && is_op_at(p, 1, OP_LPAREN)) {
            int32_t s = cur_start(p);
            NodeKind kk = is_kw(p, KW_ROLLUP) ? NK_Rollup : NK_Cube;
            advance(p);
            ps_nv_push(p, &sets, grouping_node(p, kk, s));
            continue;
        }
        ps_nv_push(p, &sets, parse_grouping_set(p));
    } while (ps_accept_op(p, OP_COMMA));
    ps_expect_op(p, OP_RPAREN);
    Node *g = ps_new(p, k, start, prev_stop(p));
    ps_set_kids(p, g, sets.v, sets.n);
    g->u.un.nargs = sets.n;
    return node_finish(g);
}

static uint32_t parse_group_by(Parser *p, NodeVec *out) {
    uint32_t before = out->n;
    do {
        int32_t s = cur_start(p);
        if ((is_kw(p, KW_ROLLUP) || is_kw(p, KW_CUBE)) && is_op_at(p, 1, OP_LPAREN)) {
            NodeKind k = is_kw(p, KW_ROLLUP) ? NK_Rollup : NK_Cube;
            advance(p);
            ps_nv_push(p, out, grouping_node(p, k, s));
        } else if (is_kw(p, KW_GROUPING) && is_kw_at(p, 1, KW_SETS)) {
            advance(p);
            advance(p);
            ps_nv_push(p, out, grouping_node(p, NK_GroupingSets, s));
        } else ps_nv_push(p, out, ps_parse_expr(p));
    } while (ps_accept_op(p, OP_COMMA));
    /* old syntax: GROUP BY a, b WITH ROLLUP | WITH CUBE | GROUPING SETS (...) */
    uint32_t n = out->n - before;
    if ((is_kw(p, KW_WITH) && (is_kw_at(p, 1, KW_ROLLUP) || is_kw_at(p, 1, KW_CUBE))) ||
        (is_kw(p, KW_GROUPING) && is_kw_at(p, 1, KW_SETS))) {
        int32_t s = cur_start(p);
        Node *g;
        if (is_kw(p, KW_WITH)) {
            advance(p);
            NodeKind k = is_kw(p, KW_ROLLUP) ? NK_Rollup : NK_Cube;
            advance(p);
            g = ps_new(p, k, s, prev_stop(p));
            Node **sets = ARENA_ARRAY(p->a, Node *, n);
            for (uint32_t i = 0; i < n; i++) {
                Node *l = ps_new(p, NK_ExprList, out->v[before + i]->start, out->v[before + i]->stop);
                ps_set_kids(p, l, &out->v[before + i], 1);
                sets[i] = node_finish(l);
            }
            ps_set_kids(p, g, sets, n);
            g->u.un.nargs = n;
        } else {
            advance(p);
            advance(p);
            Node *gs = grouping_node(p, NK_GroupingSets, s);
            /* kids: the sets (u.un.nargs of them), then the user's GROUP BY expressions */
            g = node_copy(p->a, gs);
            Node **k = ARENA_ARRAY(p->a, Node *, gs->nkids + n);
            memcpy(k, gs->kids, sizeof(Node *) * gs->nkids);
            memcpy(k + gs->nkids, out->v + before, sizeof(Node *) * n);
            ps_set_kids(p, g, k, gs->nkids + n);
        }
        out->n = before;
        ps_nv_push(p, out, node_finish(g));
    }
    return out->n - before;
}

static Node *parse_window_clause(Parser *p, Node *child) {
    const Token *wt = tk(p);
    advance(p); /* WINDOW */
    NodeVec defs = {0};
    PtrVec refs = {0}; /* `w2 AS w1`: the referenced name, else NULL */
    const char *repeated = NULL;
    do {
        if (!ps_at_identifier(p) || !is_kw_at(p, 1, KW_AS)) ps_syntax_error_at(p, wt, "");
        int32_t ns = cur_start(p);
        const char *name = ps_parse_identifier(p);
        ps_expect_kw(p, KW_AS);
        Node *spec = ps_parse_window_spec(p);
        (void)ns;
        for (uint32_t i = 0; i < defs.n; i++)
            if (!repeated && strcmp(defs.v[i]->u.wspec.ref_name, name) == 0) repeated = name;
        Node *s;
        const char *ref = NULL;
        if (spec->kind == NK_UnresolvedWindowExpression) {
            ref = spec->u.un.name.v[0];
            s = ps_new(p, NK_WindowSpecDefinition, spec->start, spec->stop);
        } else s = node_copy(p->a, spec);
        s->u.wspec.ref_name = name;
        ps_pv_push(p, &refs, ref);
        ps_nv_push(p, &defs, node_finish(s));
    } while (ps_accept_op(p, OP_COMMA));
    if (repeated)
        ps_defer_error(p, ps_perr(p, "INVALID_SQL_SYNTAX.REPETITIVE_WINDOW_DEFINITION", wt->start, prev_stop(p),
                                  "windowName", sql_ident(p->a, repeated), NULL));
    for (uint32_t i = 0; i < defs.n; i++) {
        const char *ref = refs.v[i];
        if (!ref) continue;
        Node *found = NULL;
        for (uint32_t j = 0; j < defs.n; j++)
            if (!refs.v[j] && strcmp(defs.v[j]->u.wspec.ref_name, ref) == 0) found = defs.v[j];
        if (!found) {
            ps_defer_error(p, ps_perr(p, "INVALID_SQL_SYNTAX.UNRESOLVED_WINDOW_REFERENCE", defs.v[i]->start,
                                defs.v[i]->stop, "windowName", sql_ident(p->a, ref), NULL));
            continue;
        }
        Node *c = node_copy(p->a, found);
        c->u.wspec.ref_name = defs.v[i]->u.wspec.ref_name;
        defs.v[i] = node_finish(c);
    }
    Node *w = plan1(p, NK_WithWindowDefinition, child, child->start);
    ps_set_exprs(p, w, defs.v, defs.n);
    return node_finish(w);
}

/* SELECT ... [FROM ...] ...; `from` is given for `FROM t SELECT ...`. */
/* Spark gives the nodes a query specification builds the origin of the whole
 * specification (the WHERE filter, the project, HAVING, DISTINCT, WINDOW):
 * their stop is set once the specification ends. */
static void set_stop(NodeVec *nodes, int32_t stop) {
    for (uint32_t i = 0; i < nodes->n; i++) nodes->v[i]->stop = stop;
}

/* SELECT ... [FROM ...] ...; `from` is given for `FROM t SELECT ...`. */
/* ---- SELECT TRANSFORM / MAP / REDUCE (Spark's transformClause) ---- */

typedef struct TransformSpec {
    Node *node; /* the ScriptTransformation, its input set later */
} TransformSpec;

static bool at_transform(const Parser *p) {
    if (is_kw(p, KW_SELECT)) {
        /* SELECT TRANSFORM (...) USING, not the function transform(array, lambda) */
        if (!word_eq_tok(p, tk_at(p, 1), "TRANSFORM") || !is_op_at(p, 2, OP_LPAREN)) return false;
        int depth = 0, i = 2;
        for (;; i++) {
            const Token *t = tk_at(p, i);
            if (t->kind == TK_EOF) return false;
            if (tok_op(t, OP_LPAREN)) depth++;
            if (tok_op(t, OP_RPAREN) && --depth == 0) break;
        }
        const Token *next = tk_at(p, i + 1);
        return (next->kind == TK_WORD && next->kw == KW_USING) || (next->kind == TK_WORD && next->kw == KW_ROW) ||
               word_eq_tok(p, next, "RECORDWRITER");
    }
    return (word_eq_tok(p, tk(p), "MAP") || word_eq_tok(p, tk(p), "REDUCE")) && !is_op_at(p, 1, OP_LPAREN) &&
           tk_at(p, 1)->kind != TK_EOF && !is_op_at(p, 1, OP_SEMI);
}

static const char *string_lit(Parser *p) {
    size_t n;
    const char *s = ps_parse_string_lit(p, &n);
    return arena_strndup(p->a, s, n);
}

/* ( ... ) balanced, skipped (serde properties) */
static void skip_balanced(Parser *p) {
    ps_expect_op(p, OP_LPAREN);
    for (int depth = 1; depth && !at_eof(p); advance(p)) {
        if (is_op(p, OP_LPAREN)) depth++;
        if (is_op(p, OP_RPAREN) && --depth == 0) break;
    }
    ps_expect_op(p, OP_RPAREN);
}

static bool accept_word(Parser *p, const char *w) {
    if (!word_eq_tok(p, tk(p), w)) return false;
    advance(p);
    return true;
}

static void expect_word(Parser *p, const char *w) {
    if (!accept_word(p, w)) ps_syntax_error(p, "");
}

/* ROW FORMAT DELIMITED ... as Spark's withScriptIOSchema lists it: fields,
 * collection items, map keys, null, lines (only '\n'); ROW FORMAT SERDE is
 * a Hive serde, which Spark without Hive cannot run. */
static uint32_t parse_row_format(Parser *p, const char ***out) {
    *out = NULL;
    if (!(is_kw(p, KW_ROW) && word_eq_tok(p, tk_at(p, 1), "FORMAT"))) return 0;
    int32_t start = cur_start(p);
    advance(p), advance(p);
    if (accept_word(p, "SERDE")) {
        string_lit(p);
        if (ps_accept_kw(p, KW_WITH)) {
            expect_word(p, "SERDEPROPERTIES");
            skip_balanced(p);
        }
        ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0035", start, prev_stop(p), "message",
                                  "TRANSFORM with serde is only supported in hive mode", NULL));
        return 0;
    }
    expect_word(p, "DELIMITED");
    const char *field = NULL, *items = NULL, *keys = NULL, *lines = NULL, *null_as = NULL;
    if (accept_word(p, "FIELDS")) {
        expect_word(p, "TERMINATED");
        ps_expect_kw(p, KW_BY);
        field = string_lit(p);
        if (accept_word(p, "ESCAPED")) {
            ps_expect_kw(p, KW_BY);
            string_lit(p);
        }
    }
    if (accept_word(p, "COLLECTION")) {
        expect_word(p, "ITEMS");
        expect_word(p, "TERMINATED");
        ps_expect_kw(p, KW_BY);
        items = string_lit(p);
    }
    if (word_eq_tok(p, tk(p), "MAP") && word_eq_tok(p, tk_at(p, 1), "KEYS")) {
        advance(p), advance(p);
        expect_word(p, "TERMINATED");
        ps_expect_kw(p, KW_BY);
        keys = string_lit(p);
    }
    if (accept_word(p, "LINES")) {
        expect_word(p, "TERMINATED");
        ps_expect_kw(p, KW_BY);
        int32_t ls = cur_start(p);
        lines = string_lit(p);
        if (strcmp(lines, "\n") != 0)
            ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0064", ls, prev_stop(p), "msg",
                                      arena_printf(p->a, "LINES TERMINATED BY only supports newline '\\n' right now: %s",
                                                   lines),
                                      NULL));
    }
    if (ps_accept_kw(p, KW_NULL)) {
        expect_word(p, "DEFINED");
        ps_expect_kw(p, KW_AS);
        null_as = string_lit(p);
    }
    const char **v = ARENA_ARRAY(p->a, const char *, 10);
    uint32_t n = 0;
#define ENTRY(k, x) if (x) v[2 * n] = k, v[2 * n + 1] = x, n++
    ENTRY("TOK_TABLEROWFORMATFIELD", field);
    ENTRY("TOK_TABLEROWFORMATCOLLITEMS", items);
    ENTRY("TOK_TABLEROWFORMATMAPKEYS", keys);
    ENTRY("TOK_TABLEROWFORMATNULL", null_as);
    ENTRY("TOK_TABLEROWFORMATLINES", lines);
#undef ENTRY
    *out = v;
    return n;
}

/* TRANSFORM (exprs) | MAP exprs | REDUCE exprs, then the row formats, USING
 * 'script' and the output columns; the expressions become the select list. */
static void parse_transform_head(Parser *p, TransformSpec *ts, NodeVec *items) {
    int32_t start = cur_start(p);
    bool paren = ps_accept_kw(p, KW_SELECT);
    advance(p); /* TRANSFORM, MAP or REDUCE */
    if (paren) ps_expect_op(p, OP_LPAREN);
    if (is_kw(p, KW_DISTINCT) || is_kw(p, KW_ALL)) {
        advance(p);
        ps_defer_error(p, ps_perr(p, "UNSUPPORTED_FEATURE.TRANSFORM_DISTINCT_ALL", start, prev_stop(p), NULL));
    }
    do {
        Node *e = ps_parse_expr(p);
        if (e->kind != NK_UnresolvedAttribute && e->kind != NK_UnresolvedStar) {
            Node *u = ps_new(p, NK_UnresolvedAlias, e->start, e->stop);
            ps_set_kids(p, u, &e, 1);
            e = node_finish(u);
        }
        ps_nv_push(p, items, e);
    } while (ps_accept_op(p, OP_COMMA));
    if (paren) ps_expect_op(p, OP_RPAREN);
    Node *st = ps_new(p, NK_ScriptTransformation, start, -1);
    st->flags |= NF_PENDING;
    st->u.script.nin = parse_row_format(p, &st->u.script.in_fmt);
    if (accept_word(p, "RECORDWRITER")) st->u.script.writer = string_lit(p);
    ps_expect_kw(p, KW_USING);
    st->u.script.script = string_lit(p);
    PtrVec names = {0}, types = {0};
    bool typed = false;
    if (ps_accept_kw(p, KW_AS)) {
        bool lp = ps_accept_op(p, OP_LPAREN);
        do {
            ps_pv_push(p, &names, ps_parse_identifier(p));
            const DataType *t = NULL;
            if (!is_op(p, OP_COMMA) && !is_op(p, OP_RPAREN) && !at_eof(p) && !is_kw(p, KW_FROM) &&
                !(is_kw(p, KW_ROW) && word_eq_tok(p, tk_at(p, 1), "FORMAT")) && !word_eq_tok(p, tk(p), "RECORDREADER") &&
                !is_kw(p, KW_WHERE) && !is_op(p, OP_SEMI) && !is_kw(p, KW_GROUP)) {
                t = ps_parse_type(p);
                typed = true;
                if (is_kw(p, KW_NOT)) {
                    advance(p);
                    ps_expect_kw(p, KW_NULL);
                }
                if (accept_word(p, "COMMENT")) string_lit(p);
            }
            ps_pv_push(p, &types, t);
        } while (ps_accept_op(p, OP_COMMA));
        if (lp) ps_expect_op(p, OP_RPAREN);
    } else {
        ps_pv_push(p, &names, "key");
        ps_pv_push(p, &names, "value");
        ps_pv_push(p, &types, NULL);
        ps_pv_push(p, &types, NULL);
        st->u.script.schema_less = true;
    }
    st->u.script.ncols = names.n;
    st->u.script.names = (const char **)names.v;
    st->u.script.types = typed ? (const DataType **)types.v : NULL;
    st->u.script.nout = parse_row_format(p, &st->u.script.out_fmt);
    if (accept_word(p, "RECORDREADER")) st->u.script.reader = string_lit(p);
    ts->node = st;
}

static Node *finish_transform(Parser *p, TransformSpec *ts, Node *input) {
    Node *st = ts->node;
    st->stop = prev_stop(p);
    ps_set_kids(p, st, &input, 1);
    return node_finish(st);
}

static Node *parse_query_spec(Parser *p, Node *from, int32_t start) {
    NodeVec spec_nodes = {0};
    bool distinct = false;
    TransformSpec ts = {NULL};
    NodeVec items = {0};
    if (at_transform(p)) {
        parse_transform_head(p, &ts, &items);
    } else {
        ps_expect_kw(p, KW_SELECT);
        if (ps_accept_kw(p, KW_DISTINCT)) distinct = true;
        else if (is_kw(p, KW_ALL) && !is_op_at(p, 1, OP_COMMA) && !is_kw_at(p, 1, KW_FROM) && !at_eof(p) &&
                 tk_at(p, 1)->kind != TK_EOF)
            advance(p);
        do ps_nv_push(p, &items, parse_select_item(p));
        while (ps_accept_op(p, OP_COMMA));
    }
    Node *rel = from;
    if (!rel && is_kw(p, KW_FROM)) rel = parse_from_clause(p);
    while (rel && is_kw(p, KW_LATERAL) && is_kw_at(p, 1, KW_VIEW)) rel = parse_lateral_view(p, rel);
    if (!rel) rel = node_finish(ps_new(p, NK_OneRowRelation, -1, -1));
    Node *cur = rel;
    if (ps_accept_kw(p, KW_WHERE)) {
        Node *c = ps_parse_expr(p);
        Node *f = plan1(p, NK_Filter, cur, start);
        ps_set_exprs(p, f, &c, 1);
        cur = node_finish(f);
        ps_nv_push(p, &spec_nodes, cur);
    }
    NodeVec groups = {0};
    bool has_group = false;
    int32_t group_start = -1, group_stop = -1;
    if (is_kw(p, KW_GROUP) && is_kw_at(p, 1, KW_BY)) {
        group_start = cur_start(p);
        advance(p);
        advance(p);
        parse_group_by(p, &groups);
        group_stop = prev_stop(p);
        has_group = true;
    }
    Node *having = NULL;
    if (ps_accept_kw(p, KW_HAVING)) having = ps_parse_expr(p);
    Node *out;
    if (has_group || (having && !p->opts.having_without_group_by_as_where)) {
        /* with GROUP BY the Aggregate's origin is the GROUP BY clause */
        Node *agg = ps_new(p, NK_Aggregate, has_group ? group_start : start, has_group ? group_stop : prev_stop(p));
        NodeVec all = {0};
        for (uint32_t i = 0; i < groups.n; i++) ps_nv_push(p, &all, groups.v[i]);
        for (uint32_t i = 0; i < items.n; i++) ps_nv_push(p, &all, items.v[i]);
        ps_set_exprs(p, agg, all.v, all.n);
        ps_set_kids(p, agg, &cur, 1);
        agg->u.aggregate.ngroup = groups.n;
        out = node_finish(agg);
        if (!has_group) ps_nv_push(p, &spec_nodes, out);
        if (having) {
            Node *h = plan1(p, NK_UnresolvedHaving, out, start);
            Node *c = ps_as_predicate(p, having);
            ps_set_exprs(p, h, &c, 1);
            out = node_finish(h);
            ps_nv_push(p, &spec_nodes, out);
        }
    } else {
        Node *proj = plan1(p, NK_Project, cur, start);
        ps_set_exprs(p, proj, items.v, items.n);
        out = node_finish(proj);
        ps_nv_push(p, &spec_nodes, out);
        if (having) {
            Node *f = plan1(p, NK_Filter, out, start);
            Node *c = ps_as_predicate(p, having);
            ps_set_exprs(p, f, &c, 1);
            out = node_finish(f);
            ps_nv_push(p, &spec_nodes, out);
        }
    }
    if (distinct) {
        out = node_finish(plan1(p, NK_Distinct, out, start));
        ps_nv_push(p, &spec_nodes, out);
    }
    if (is_kw(p, KW_WINDOW)) {
        out = parse_window_clause(p, out);
        out->start = start;
        ps_nv_push(p, &spec_nodes, out);
    }
    set_stop(&spec_nodes, prev_stop(p));
    if (ts.node) out = finish_transform(p, &ts, out);
    return out;
}

/* ---- set operations ---- */

static Node *parse_query_primary(Parser *p) {
    int32_t start = cur_start(p);
    ps_enter(p);
    Node *r;
    if (is_kw(p, KW_SELECT) || at_transform(p)) r = parse_query_spec(p, NULL, start);
    else if (is_kw(p, KW_VALUES)) r = parse_inline_table(p, start);
    else if (is_kw(p, KW_TABLE)) {
        advance(p);
        int32_t s = cur_start(p);
        NameParts np = ps_parse_multipart(p);
        r = ps_new(p, NK_UnresolvedRelation, s, prev_stop(p));
        r->u.un.name = np;
        r = node_finish(r);
    } else if (is_kw(p, KW_FROM)) {
        Node *from = parse_from_clause(p);
        /* `FROM t` alone is a query in Spark 4 (the start of a pipe chain) */
        if (!is_kw(p, KW_SELECT) && !at_transform(p)) r = from;
        else r = parse_query_spec(p, from, start);
    } else if (is_op(p, OP_LPAREN)) {
        advance(p);
        r = ps_parse_query(p);
        ps_expect_op(p, OP_RPAREN);
    } else ps_syntax_error(p, "");
    leave(p);
    return r;
}

static Node *setop(Parser *p, NodeKind k, Node *l, Node *r, bool all) {
    Node *n = ps_new(p, k, l->start, prev_stop(p));
    Node *kids[2] = {l, r};
    ps_set_kids(p, n, kids, 2);
    n->u.setop.is_all = all;
    return ps_check_height(p, node_finish(n));
}

static bool set_quantifier(Parser *p) {
    if (ps_accept_kw(p, KW_ALL)) return true;
    ps_accept_kw(p, KW_DISTINCT);
    return false;
}

static Node *parse_intersect_term(Parser *p) {
    Node *l = parse_query_primary(p);
    /* legacy: every set operator binds alike, left to right (parse_set_term) */
    if (p->opts.legacy_setops_precedence) return l;
    while (is_kw(p, KW_INTERSECT)) {
        advance(p);
        bool all = set_quantifier(p);
        Node *r = parse_query_primary(p);
        l = setop(p, NK_Intersect, l, r, all);
    }
    return l;
}

static Node *parse_set_term(Parser *p) {
    Node *l = parse_intersect_term(p);
    while (is_kw(p, KW_UNION) || is_kw(p, KW_EXCEPT) || is_kw(p, KW_MINUS) ||
           (p->opts.legacy_setops_precedence && is_kw(p, KW_INTERSECT))) {
        bool is_union = is_kw(p, KW_UNION), is_intersect = is_kw(p, KW_INTERSECT);
        advance(p);
        bool all = set_quantifier(p);
        Node *r = parse_intersect_term(p);
        if (is_intersect) l = setop(p, NK_Intersect, l, r, all);
        else if (is_union) {
            Node *u = setop(p, NK_Union, l, r, all);
            l = all ? u : node_finish(plan1(p, NK_Distinct, u, l->start));
        } else l = setop(p, NK_Except, l, r, all);
    }
    return l;
}

/* ORDER BY / CLUSTER BY / DISTRIBUTE BY / SORT BY / WINDOW / LIMIT / OFFSET */
static Node *parse_organization(Parser *p, Node *q, int32_t start) {
    NodeVec order = {0}, cluster = {0}, distribute = {0}, sort = {0};
    if (is_kw(p, KW_ORDER) && is_kw_at(p, 1, KW_BY)) {
        advance(p), advance(p);
        ps_parse_sort_list(p, &order);
    }
    if (is_kw(p, KW_CLUSTER) && is_kw_at(p, 1, KW_BY)) {
        advance(p), advance(p);
        ps_parse_expr_list(p, &cluster);
    }
    if (is_kw(p, KW_DISTRIBUTE) && is_kw_at(p, 1, KW_BY)) {
        advance(p), advance(p);
        ps_parse_expr_list(p, &distribute);
    }
    if (is_kw(p, KW_SORT) && is_kw_at(p, 1, KW_BY)) {
        advance(p), advance(p);
        ps_parse_sort_list(p, &sort);
    }
    Node *r = q;
    int kinds = (order.n > 0) + (cluster.n > 0) + (distribute.n > 0 || sort.n > 0);
    if (kinds > 1) {
        ps_defer_error(p, ps_perr(p, "UNSUPPORTED_FEATURE.COMBINATION_QUERY_RESULT_CLAUSES", start, prev_stop(p), NULL));
    } else if (order.n) {
        Node *s = plan1(p, NK_Sort, r, start);
        ps_set_exprs(p, s, order.v, order.n);
        s->u.sort.global = true;
        r = node_finish(s);
    } else if (cluster.n) {
        Node *rp = plan1(p, NK_RepartitionByExpression, r, start);
        ps_set_exprs(p, rp, cluster.v, cluster.n);
        r = node_finish(rp);
        Node **so = ARENA_ARRAY(p->a, Node *, cluster.n);
        for (uint32_t i = 0; i < cluster.n; i++) {
            Node *o = ps_new(p, NK_SortOrder, cluster.v[i]->start, cluster.v[i]->stop);
            o->u.sort_order.nulls_first = true;
            ps_set_kids(p, o, &cluster.v[i], 1);
            so[i] = node_finish(o);
        }
        Node *s = plan1(p, NK_Sort, r, start);
        ps_set_exprs(p, s, so, cluster.n);
        r = node_finish(s);
    } else {
        if (distribute.n) {
            Node *rp = plan1(p, NK_RepartitionByExpression, r, start);
            ps_set_exprs(p, rp, distribute.v, distribute.n);
            r = node_finish(rp);
        }
        if (sort.n) {
            Node *s = plan1(p, NK_Sort, r, start);
            ps_set_exprs(p, s, sort.v, sort.n);
            r = node_finish(s);
        }
    }
    if (is_kw(p, KW_WINDOW)) r = parse_window_clause(p, r);
    Node *limit = NULL;
    if (ps_accept_kw(p, KW_LIMIT) && !ps_accept_kw(p, KW_ALL)) limit = ps_parse_expr(p);
    /* LIMIT n OFFSET m: the limit applies to what the offset leaves (Spark's
       withQueryResultClauses puts Limit over Offset) */
    if (ps_accept_kw(p, KW_OFFSET)) {
        Node *n = ps_parse_expr(p);
        Node *o = plan1(p, NK_Offset, r, start);
        ps_set_exprs(p, o, &n, 1);
        r = node_finish(o);
    }
    if (limit) {
        Node *ll = plan1(p, NK_LocalLimit, r, start);
        ps_set_exprs(p, ll, &limit, 1);
        ll = node_finish(ll);
        Node *gl = plan1(p, NK_GlobalLimit, ll, start);
        ps_set_exprs(p, gl, &limit, 1);
        r = node_finish(gl);
    }
    return r;
}

/* ---- pipe syntax (Spark 4): query |> operator ... ---- */

static Node *named_item(Parser *p) {
    int32_t start = cur_start(p);
    p->named_expr_depth++;
    Node *e = ps_parse_expr(p);
    p->named_expr_depth--;
    const char *alias = NULL;
    if (ps_accept_kw(p, KW_AS)) alias = ps_parse_identifier(p);
    else if (ps_at_identifier(p) && !ps_is_clause_keyword(tk(p)) &&
             !(ps_word_is(p, 0, "GROUPING") && ps_word_is(p, 1, "SETS")))
        alias = ps_parse_identifier(p);
    if (alias) {
        Node *a = ps_new(p, NK_Alias, start, prev_stop(p));
        a->u.attr.name = alias;
        ps_set_kids(p, a, &e, 1);
        return node_finish(a);
    }
    if (e->kind == NK_UnresolvedAttribute || e->kind == NK_UnresolvedStar) return e;
    Node *u = ps_new(p, NK_UnresolvedAlias, e->start, e->stop);
    ps_set_kids(p, u, &e, 1);
    return node_finish(u);
}

static bool at_organization(const Parser *p) {
    return ((is_kw(p, KW_ORDER) || is_kw(p, KW_SORT) || is_kw(p, KW_CLUSTER) || is_kw(p, KW_DISTRIBUTE)) &&
            is_kw_at(p, 1, KW_BY)) ||
           is_kw(p, KW_LIMIT) || is_kw(p, KW_OFFSET);
}

/* Spark's PipeOperator: the input of a pipe WHERE or result clause */
static Node *pipe_boundary(Parser *p, Node *left) {
    Node *b = ps_new(p, NK_PipeOperator, left->start, left->stop);
    ps_set_kids(p, b, &left, 1);
    return node_finish(b);
}

static Node *project(Parser *p, Node *child, NodeVec *items, int32_t start) {
    Node *n = plan1(p, NK_Project, child, start);
    ps_set_exprs(p, n, items->v, items->n);
    return node_finish(n);
}

static Node *pipe_project(Parser *p, Node *child, NodeVec *items, int32_t start, const char *clause) {
    Node *n = plan1(p, NK_Project, child, start);
    ps_set_exprs(p, n, items->v, items->n);
    n->u.project.pipe_clause = clause;
    return node_finish(n);
}

/* Whether the token at off ends a pipe operator. */
static bool pipe_op_end_at(const Parser *p, int off) {
    const Token *t = tk_at(p, off);
    return t->kind == TK_EOF || tok_op(t, OP_PIPEGT) || tok_op(t, OP_SEMI) || tok_op(t, OP_RPAREN);
}

/* The case |> AGGREGATE refuses in e (Spark's visit in
 * visitOperatorPipeAggregate), or NULL: ROLLUP/CUBE in the grouping,
 * GROUPING/GROUPING_ID calls, window functions. */
static const char *pipe_agg_unsupported(const Node *e, bool grouping) {
    if (e->kind == NK_UnresolvedFunction && e->u.un.name.n == 1) {
        const char *n = e->u.un.name.v[0];
        if (grouping && strcasecmp(n, "rollup") == 0) return "GROUP BY ROLLUP";
        if (grouping && strcasecmp(n, "cube") == 0) return "GROUP BY CUBE";
        if (e->u.un.nargs == 1 && strcasecmp(n, "grouping") == 0) return "GROUPING";
        if (e->u.un.nargs == 1 && strcasecmp(n, "grouping_id") == 0) return "GROUPING_ID";
    }
    if (e->kind == NK_Rollup) return "GROUP BY ROLLUP";
    if (e->kind == NK_Cube) return "GROUP BY CUBE";
    if (e->kind == NK_GroupingSets) return "GROUPING SETS";
    if (e->kind == NK_WindowExpression || e->kind == NK_UnresolvedWindowExpression)
        return "window functions; please update the query to move the window functions to a subsequent |> SELECT "
               "operator instead";
    for (uint32_t i = 0; i < e->nkids; i++) {
        const char *r = pipe_agg_unsupported(e->kids[i], grouping);
        if (r) return r;
    }
    return NULL;
}

/* One `|> op`: SELECT, EXTEND, DROP, AS, WHERE, AGGREGATE, joins, set
 * operations, ORDER BY / LIMIT / OFFSET, TABLESAMPLE. */
static Node *parse_pipe_op(Parser *p, Node *left, int32_t start) {
    NodeVec items = {0};
    if (ps_accept_kw(p, KW_SELECT)) {
        bool distinct = ps_accept_kw(p, KW_DISTINCT);
        if (!distinct && is_kw(p, KW_ALL) && !is_op_at(p, 1, OP_COMMA) && tk_at(p, 1)->kind != TK_EOF) advance(p);
        do ps_nv_push(p, &items, named_item(p));
        while (ps_accept_op(p, OP_COMMA));
        Node *r = pipe_project(p, left, &items, start, "SELECT");
        if (distinct) r = node_finish(plan1(p, NK_Distinct, r, start));
        if (is_kw(p, KW_WINDOW)) {
            /* the operator's own WINDOW clause defines windows for this SELECT only */
            Node *w = node_copy(p->a, parse_window_clause(p, r));
            w->flags |= NF_IMPLICIT;
            r = node_finish(w);
        }
        /* a further WINDOW clause is the query's (queryOrganization) */
        while (is_kw(p, KW_WINDOW)) r = parse_window_clause(p, r);
        return r;
    }
    if (word_eq_tok(p, tk(p), "EXTEND")) {
        advance(p);
        Node *star = node_finish(ps_new(p, NK_UnresolvedStar, -1, -1));
        ps_nv_push(p, &items, star);
        do {
            Node *it = named_item(p);
            /* EXTEND adds expressions: a star is not one (PipeExpression) */
            if (it->kind == NK_UnresolvedStar)
                ps_defer_error(p, ps_perr(p, "INVALID_USAGE_OF_STAR_OR_REGEX", it->start, it->stop, "elem", "'*'",
                                          "prettyName", "expression `pipeexpression`", NULL));
            ps_nv_push(p, &items, it);
        } while (ps_accept_op(p, OP_COMMA));
        return pipe_project(p, left, &items, start, "EXTEND");
    }
    if (is_kw(p, KW_DROP)) {
        advance(p);
        Node *s = ps_new(p, NK_UnresolvedStar, start, 0);
        NodeVec ex = {0};
        do {
            /* identifierSeq: one-part names only */
            int32_t es = cur_start(p);
            NameParts np = ps_name1(p, ps_parse_identifier(p));
            ps_nv_push(p, &ex, ps_mk_attr(p, np, es, prev_stop(p)));
        } while (ps_accept_op(p, OP_COMMA));
        ps_set_kids(p, s, ex.v, ex.n);
        s->stop = prev_stop(p);
        ps_nv_push(p, &items, node_finish(s));
        return project(p, left, &items, start);
    }
    if (ps_accept_kw(p, KW_AS)) {
        /* errorCapturingIdentifier: `u-v` is one invalid identifier */
        int32_t is = cur_start(p);
        const char *name = ps_parse_identifier(p);
        if (is_op(p, OP_MINUS) && tk_at(p, 1)->kind == TK_WORD) {
            while (is_op(p, OP_MINUS) && tk_at(p, 1)->kind == TK_WORD) advance(p), advance(p);
            ps_defer_error(p, ps_perr(p, "INVALID_IDENTIFIER", is, prev_stop(p), "ident",
                                      arena_strndup(p->a, p->sql + is, (size_t)(prev_stop(p) + 1 - is)), NULL));
        }
        return subquery_alias(p, name, left, start);
    }
    if (ps_accept_kw(p, KW_SET)) {
        /* SET c = e, ...: one Project per assignment, replacing the column in place */
        Node *cur = left;
        do {
            int32_t ks = cur_start(p);
            NameParts key = ps_parse_multipart(p);
            int32_t ke = prev_stop(p);
            if (key.n > 1)
                ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0035", ks, ke, "message",
                                          "SQL pipe syntax |> SET operator with multi-part assignment key (only "
                                          "single-part keys are allowed)",
                                          NULL));
            ps_expect_op(p, OP_EQ);
            Node *e = ps_parse_expr(p);
            Node *al = ps_new(p, NK_Alias, ks, prev_stop(p));
            al->u.attr.name = key.v[key.n - 1];
            ps_set_kids(p, al, &e, 1);
            Node *kids[2] = {ps_mk_attr(p, key, ks, ke), node_finish(al)};
            Node *s = ps_new(p, NK_UnresolvedStar, ks, prev_stop(p));
            s->flags |= NF_IMPLICIT; /* replace, not except (scope.c) */
            ps_set_kids(p, s, kids, 2);
            NodeVec one = {0};
            ps_nv_push(p, &one, node_finish(s));
            cur = project(p, cur, &one, start);
        } while (ps_accept_op(p, OP_COMMA));
        return cur;
    }
    if (ps_accept_kw(p, KW_WHERE)) {
        Node *c = ps_parse_expr(p);
        /* a WHERE after an aggregation filters its output, not a HAVING: the
           PipeOperator boundary keeps the rules from looking below it */
        Node *f = plan1(p, NK_Filter, pipe_boundary(p, left), start);
        ps_set_exprs(p, f, &c, 1);
        if (is_kw(p, KW_WINDOW)) {
            int32_t ws = cur_start(p);
            parse_window_clause(p, f);
            ps_defer_error(p, ps_perr(p, "NOT_ALLOWED_IN_PIPE_OPERATOR_WHERE.WINDOW_CLAUSE", ws, prev_stop(p), NULL));
        }
        return node_finish(f);
    }
    if (word_eq_tok(p, tk(p), "AGGREGATE")) {
        int32_t op_start = cur_start(p);
        advance(p);
        NodeVec aggs = {0}, groups = {0};
        /* `GROUP BY` with nothing after it is a column `group` aliased `by` */
        bool group_clause = is_kw(p, KW_GROUP) && is_kw_at(p, 1, KW_BY) && !pipe_op_end_at(p, 2);
        if (!group_clause && !pipe_op_end_at(p, 0)) {
            do ps_nv_push(p, &aggs, named_item(p));
            while (ps_accept_op(p, OP_COMMA));
        }
        int32_t gs = cur_start(p);
        bool has_group = is_kw(p, KW_GROUP) && is_kw_at(p, 1, KW_BY);
        const char *unsupported = NULL;
        if (has_group) {
            advance(p), advance(p);
            do ps_nv_push(p, &groups, named_item(p));
            while (ps_accept_op(p, OP_COMMA));
            /* `... GROUPING SETS (...)`, `WITH ROLLUP|CUBE` */
            if (ps_word_is(p, 0, "GROUPING") && ps_word_is(p, 1, "SETS")) {
                unsupported = "GROUPING SETS";
                advance(p), advance(p);
                ps_skip_balanced(p);
            } else if (is_kw(p, KW_WITH) && (ps_word_is(p, 1, "ROLLUP") || ps_word_is(p, 1, "CUBE"))) {
                unsupported = ps_word_is(p, 1, "ROLLUP") ? "GROUP BY ROLLUP" : "GROUP BY CUBE";
                advance(p), advance(p);
            }
        }
        /* AstBuilder.visitOperatorPipeAggregate: what |> AGGREGATE does not support */
        if (!aggs.n && !has_group)
            ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0035", op_start, prev_stop(p), "message",
                                      "The AGGREGATE clause requires a list of aggregate expressions or a list of "
                                      "grouping expressions, or both",
                                      NULL));
        if (groups.n == 1 && groups.v[0]->kind == NK_UnresolvedAttribute && groups.v[0]->u.un.name.n == 1 &&
            strcasecmp(groups.v[0]->u.un.name.v[0], "ALL") == 0)
            unsupported = "GROUP BY ALL";
        for (uint32_t i = 0; i < groups.n && !unsupported; i++) unsupported = pipe_agg_unsupported(groups.v[i], true);
        for (uint32_t i = 0; i < aggs.n && !unsupported; i++) unsupported = pipe_agg_unsupported(aggs.v[i], false);
        if (unsupported)
            ps_defer_error(p, ps_perr(p, "UNSUPPORTED_FEATURE.PIPE_OPERATOR_AGGREGATE_UNSUPPORTED_CASE", gs,
                                      prev_stop(p), "case", unsupported, NULL));
        /* output: the grouping expressions, then the aggregates */
        NodeVec all = {0};
        for (uint32_t i = 0; i < groups.n; i++) {
            Node *g = groups.v[i];
            ps_nv_push(p, &all, g->kind == NK_Alias || g->kind == NK_UnresolvedAlias ? g->kids[0] : g);
        }
        for (uint32_t i = 0; i < groups.n; i++) ps_nv_push(p, &all, groups.v[i]);
        for (uint32_t i = 0; i < aggs.n; i++) ps_nv_push(p, &all, aggs.v[i]);
        Node *agg = plan1(p, NK_Aggregate, left, start);
        ps_set_exprs(p, agg, all.v, all.n);
        agg->u.aggregate.ngroup = groups.n;
        agg->u.aggregate.pipe = true;
        return node_finish(agg);
    }
    if (at_join(p)) return parse_join(p, left);
    if (is_kw(p, KW_UNION) || is_kw(p, KW_EXCEPT) || is_kw(p, KW_MINUS) || is_kw(p, KW_INTERSECT)) {
        Keyword k = (Keyword)tk(p)->kw;
        advance(p);
        bool all = set_quantifier(p);
        Node *r = parse_intersect_term(p);
        if (k == KW_UNION) {
            Node *u = setop(p, NK_Union, left, r, all);
            return all ? u : node_finish(plan1(p, NK_Distinct, u, start));
        }
        return setop(p, k == KW_INTERSECT ? NK_Intersect : NK_Except, left, r, all);
    }
    if (is_kw(p, KW_TABLESAMPLE)) {
        SampleSpec sample = parse_sample(p);
        return apply_sample(p, &sample, left);
    }
    /* pivotClause unpivotClause? | unpivotClause pivotClause?: both is refused */
    if (at_pivot(p) || at_unpivot(p)) {
        int32_t ps = cur_start(p);
        bool piv = at_pivot(p);
        Node *r = piv ? parse_pivot(p, left) : parse_unpivot(p, left);
        if (piv ? at_unpivot(p) : at_pivot(p)) {
            r = piv ? parse_unpivot(p, r) : parse_pivot(p, r);
            ps_defer_error(p, ps_perr(p, "NOT_ALLOWED_IN_FROM.UNPIVOT_WITH_PIVOT", ps, prev_stop(p), NULL));
        }
        return r;
    }
    if (at_organization(p)) {
        /* one result clause an operator (LIMIT with OFFSET counts as one) */
        const char *first = is_kw(p, KW_ORDER) ? "ORDER BY" : is_kw(p, KW_SORT) ? "SORT BY" : is_kw(p, KW_CLUSTER) ? "CLUSTER BY"
                            : is_kw(p, KW_DISTRIBUTE) ? "DISTRIBUTE BY" : NULL;
        int32_t os = cur_start(p);
        Node *r = parse_organization(p, pipe_boundary(p, left), start);
        if (first) {
            for (const Node *n = r; n->kind != NK_PipeOperator && n->nkids; n = n->kids[0])
                if (n->kind == NK_GlobalLimit || n->kind == NK_Offset) {
                    ps_defer_error(p, ps_perr(p, "MULTIPLE_QUERY_RESULT_CLAUSES_WITH_PIPE_OPERATORS", os, prev_stop(p),
                                              "clause1", first, "clause2", n->kind == NK_Offset ? "OFFSET" : "LIMIT",
                                              NULL));
                    break;
                }
        }
        return r;
    }
    ps_syntax_error(p, "");
}

Node *ps_parse_query_no_with(Parser *p) {
    int32_t start = cur_start(p);
    Node *t = parse_set_term(p);
    Node *q = parse_organization(p, t, start);
    bool piped = false;
    while (ps_accept_op(p, OP_PIPEGT)) {
        q = ps_check_height(p, parse_pipe_op(p, q, start));
        piped = true;
    }
    /* result clauses after the last operator belong to the whole query */
    if (piped && at_organization(p)) q = parse_organization(p, q, start);
    return q;
}

/* The INSERT statement s with its query q (s may be wrapped for IDENTIFIER). */
static Node *insert_with_query(Parser *p, Node *s, Node *q) {
    if (s->kind == NK_InsertInto) return node_with_kid(p->a, s, 0, q);
    if (s->nkids) return node_with_kid(p->a, s, 0, insert_with_query(p, s->kids[0], q));
    return s;
}

static Node *insert_query(Node *s) {
    if (s->kind == NK_InsertInto) return s->kids[0];
    return s->nkids ? insert_query(s->kids[0]) : s;
}

Node *ps_parse_query(Parser *p) {
    ps_enter(p);
    int32_t start = cur_start(p);
    bool dml = p->dml_after_with;
    p->dml_after_with = false;
    if (!is_kw(p, KW_WITH)) {
        Node *q = ps_parse_query_no_with(p);
        leave(p);
        return q;
    }
    advance(p);
    NodeVec ctes = {0};
    do {
        int32_t cs = cur_start(p);
        if (is_kw(p, KW_IDENTIFIER) && is_op_at(p, 1, OP_LPAREN)) ps_syntax_error_at(p, tk_at(p, 2), "");
        const char *name = ps_parse_identifier(p);
        const char **cols = NULL;
        uint32_t ncols = 0;
        if (is_op(p, OP_LPAREN)) ncols = ps_parse_ident_list(p, &cols);
        ps_accept_kw(p, KW_AS);
        ps_expect_op(p, OP_LPAREN);
        Node *q = ps_parse_query(p);
        ps_expect_op(p, OP_RPAREN);
        if (ncols) {
            Node *c = plan1(p, NK_UnresolvedSubqueryColumnAliases, q, cs);
            c->u.cols.ncols = ncols;
            c->u.cols.cols = cols;
            q = node_finish(c);
        }
        ps_nv_push(p, &ctes, subquery_alias(p, name, q, cs));
    } while (ps_accept_op(p, OP_COMMA));
    /* WITH ... INSERT INTO t query: the CTEs are the query's */
    Node *insert = dml && is_kw(p, KW_INSERT) ? ps_parse_insert(p, cur_start(p)) : NULL;
    Node *body = insert ? insert_query(insert) : ps_parse_query_no_with(p);
    /* duplicate names, in first-seen order; reported on the whole query */
    StrBuf dups;
    sb_init(&dups, p->a, 16);
    {
        /* counted in a hash table (linear in the number of CTEs), reported in first-seen order */
        uint32_t cap = 16;
        while (cap < ctes.n * 2) cap *= 2;
        int32_t *slot = arena_alloc(p->a, sizeof(int32_t) * cap); /* index of the first CTE with a name */
        uint32_t *count = arena_zalloc(p->a, sizeof(uint32_t) * (ctes.n ? ctes.n : 1));
        int32_t *first = arena_alloc(p->a, sizeof(int32_t) * (ctes.n ? ctes.n : 1));
        for (uint32_t h = 0; h < cap; h++) slot[h] = -1;
        for (uint32_t i = 0; i < ctes.n; i++) {
            const char *ni = ctes.v[i]->u.alias.name.v[0];
            uint32_t hash = 2166136261u;
            for (const unsigned char *c = (const unsigned char *)ni; *c; c++) hash = (hash ^ *c) * 16777619u;
            uint32_t h = hash & (cap - 1);
            while (slot[h] >= 0 && strcmp(ctes.v[slot[h]]->u.alias.name.v[0], ni) != 0) h = (h + 1) & (cap - 1);
            if (slot[h] < 0) slot[h] = (int32_t)i;
            first[i] = slot[h];
            count[slot[h]]++;
        }
        for (uint32_t i = 0; i < ctes.n; i++)
            if (first[i] == (int32_t)i && count[i] > 1) {
                if (dups.len) sb_puts(&dups, ", ");
                sb_put_quoted_ident(&dups, ctes.v[i]->u.alias.name.v[0]);
            }
    }
    if (dups.len)
        ps_defer_error(p, ps_perr(p, "DUPLICATED_CTE_NAMES", start, prev_stop(p), "duplicateNames", dups.data, NULL));
    Node *w = ps_new(p, NK_UnresolvedWith, start, prev_stop(p));
    NodeVec kids = {0};
    ps_nv_push(p, &kids, body);
    for (uint32_t i = 0; i < ctes.n; i++) ps_nv_push(p, &kids, ctes.v[i]);
    ps_set_kids(p, w, kids.v, kids.n);
    leave(p);
    if (insert) return insert_with_query(p, insert, node_finish(w));
    return node_finish(w);
}
