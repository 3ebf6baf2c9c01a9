/* Parser plumbing: entry points, token helpers, errors, identifiers, data
 * types and node builders. Syntax errors longjmp to the entry point (every
 * allocation is in the arena, so nothing leaks); semantic errors that Spark's
 * AstBuilder raises are deferred so a later syntax error still wins, as in
 * Spark where the whole statement is parsed before the tree is built. */
#include "parser_int.h"
#include "core/collation.h"

#include <stdarg.h>
#include <string.h>
#include <strings.h>

/* ---- tokens ---- */

void ps_expect_kw(Parser *p, Keyword k) {
    if (!ps_accept_kw(p, k)) ps_syntax_error(p, "");
}

void ps_expect_op(Parser *p, OpKind o) {
    if (!ps_accept_op(p, o)) ps_syntax_error(p, "");
}

/* Most tokens are shorter than 16 bytes: then one 16-byte copy from the
 * source (when it has 16 bytes left) into the 16 bytes the arena would round
 * the allocation to anyway, instead of arena_strndup's call of memcpy. */
const char *ps_tok_text(Parser *p, const Token *t) {
    size_t n = (size_t)(t->end - t->start);
    const char *src = p->sql + t->start;
    if (n < 16 && (size_t)t->start + 16 <= p->len) {
        char *out = arena_alloc(p->a, 16);
        __builtin_memcpy(out, src, 16);
        out[n] = 0;
        return out;
    }
    return arena_strndup(p->a, src, n);
}

/* ---- errors ---- */

ErrorInfo *ps_perr(Parser *p, const char *cls, int32_t start, int32_t stop, ...) {
    const char *names[16], *values[16];
    int n = 0;
    va_list ap;
    va_start(ap, stop);
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (!k) break;
        const char *v = va_arg(ap, const char *);
        if (n < 16) {
            names[n] = k;
            values[n] = v;
            n++;
        }
    }
    va_end(ap);
    ErrorInfo *e = error_make_v(p->a, cls, start, stop, n, names, values);
    e->phase = "parse";
    return e;
}

_Noreturn void ps_fail(Parser *p, ErrorInfo *e) {
    p->err = e;
    longjmp(*p->jb, 1);
}

void ps_defer_error(Parser *p, ErrorInfo *e) {
    if (!p->deferred) p->deferred = e;
}

_Noreturn void ps_syntax_error_at(Parser *p, const Token *t, const char *hint) {
    const char *what;
    int32_t start, stop;
    if (t->kind == TK_EOF) {
        what = "end of input";
        start = stop = p->len ? (int32_t)p->len - 1 : 0;
    } else {
        what = arena_printf(p->a, "'%s'", ps_tok_text(p, t));
        start = t->start;
        stop = t->end - 1;
    }
    ps_fail(p, ps_perr(p, "PARSE_SYNTAX_ERROR", start, stop, "error", what, "hint", hint ? hint : "", NULL));
}

_Noreturn void ps_syntax_error(Parser *p, const char *hint) { ps_syntax_error_at(p, tk(p), hint); }

_Noreturn void ps_too_complex(Parser *p) {
    ps_fail(p, ps_perr(p, "FAILED_TO_PARSE_TOO_COMPLEX", cur_start(p), cur_start(p), NULL));
}

Node *ps_check_height(Parser *p, Node *n) {
    if (n && n->height > p->opts.max_depth)
        ps_fail(p, ps_perr(p, "FAILED_TO_PARSE_TOO_COMPLEX", n->start, n->start, NULL));
    return n;
}

Node *ps_try(Parser *p, PsFn fn, void *ctx) {
    int32_t pos = p->pos, nparams = p->npos_params;
    uint32_t depth = p->depth, named_depth = p->named_expr_depth;
    ErrorInfo *deferred = p->deferred;
    jmp_buf jb, *outer = p->jb;
    p->jb = &jb;
    if (!setjmp(jb)) {
        Node *n = fn(p, ctx);
        p->jb = outer;
        return n;
    }
    p->jb = outer;
    if (p->err && strcmp(p->err->error_class, "FAILED_TO_PARSE_TOO_COMPLEX") == 0) ps_fail(p, p->err);
    p->pos = pos;
    p->npos_params = nparams;
    p->depth = depth;
    p->named_expr_depth = named_depth;
    p->deferred = deferred;
    p->err = NULL;
    return NULL;
}

/* ---- identifiers ---- */

static const char *ident_value(Parser *p, const Token *t) {
    if (t->kind == TK_QIDENT || (t->kind == TK_STRING && t->suffix == '"')) {
        char q = p->sql[t->start];
        const char *s = p->sql + t->start + 1;
        size_t n = (size_t)(t->end - t->start - 2);
        char *out = arena_alloc(p->a, n + 1);
        size_t j = 0;
        for (size_t i = 0; i < n; i++) {
            out[j++] = s[i];
            if (s[i] == q && i + 1 < n && s[i + 1] == q) i++;
        }
        out[j] = 0;
        return out;
    }
    return ps_tok_text(p, t);
}

const char *ps_parse_identifier(Parser *p) {
    if (!ps_at_identifier(p)) ps_syntax_error(p, "");
    const char *s = ident_value(p, tk(p));
    advance(p);
    return s;
}

void ps_nb_push_slow(Parser *p, NameBuf *b, const char *part) {
    if (b->n == NAMEBUF_INLINE) /* the parts so far move to the vector */
        for (uint32_t i = 0; i < b->n; i++) ps_pv_push(p, &b->spill, b->v[i]);
    ps_pv_push(p, &b->spill, part);
    b->n++;
}

NameParts ps_nb_finish(Parser *p, NameBuf *b) {
    if (b->n > NAMEBUF_INLINE) return (NameParts){b->spill.n, (const char **)b->spill.v};
    const char **v = arena_alloc(p->a, sizeof(char *) * b->n); /* n >= 1: a name has a part */
    for (uint32_t i = 0; i < b->n; i++) v[i] = b->v[i];
    return (NameParts){b->n, v};
}

NameParts ps_parse_multipart(Parser *p) {
    NameBuf b;
    b.n = 0;
    ps_nb_push(p, &b, ps_parse_identifier(p));
    while (is_op(p, OP_DOT) && (tk_at(p, 1)->kind == TK_WORD || tk_at(p, 1)->kind == TK_QIDENT)) {
        advance(p);
        ps_nb_push(p, &b, ps_parse_identifier(p));
    }
    return ps_nb_finish(p, &b);
}

uint32_t ps_parse_ident_list(Parser *p, const char ***out) {
    PtrVec v = {0};
    ps_expect_op(p, OP_LPAREN);
    do ps_pv_push(p, &v, ps_parse_identifier(p));
    while (ps_accept_op(p, OP_COMMA));
    ps_expect_op(p, OP_RPAREN);
    *out = (const char **)v.v;
    return v.n;
}

bool ps_is_clause_keyword(const Token *t) {
    if (t->kind != TK_WORD) return false;
    switch (t->kw) {
    case KW_FROM: case KW_WHERE: case KW_GROUP: case KW_HAVING: case KW_ORDER: case KW_LIMIT:
    case KW_OFFSET: case KW_UNION: case KW_EXCEPT: case KW_INTERSECT: case KW_MINUS: case KW_WINDOW:
    case KW_SORT: case KW_CLUSTER: case KW_DISTRIBUTE: case KW_LATERAL: case KW_JOIN: case KW_INNER:
    case KW_LEFT: case KW_RIGHT: case KW_FULL: case KW_CROSS: case KW_NATURAL: case KW_SEMI: case KW_ANTI:
    case KW_ON: case KW_USING: case KW_INTO: case KW_PIVOT: case KW_UNPIVOT: case KW_TABLESAMPLE:
    case KW_AS: case KW_WHEN: case KW_THEN: case KW_ELSE: case KW_END: case KW_AND: case KW_OR:
    case KW_FOR: case KW_SELECT: case KW_VALUES: case KW_OVER: case KW_WITHIN:
    case KW_IS: case KW_IN: case KW_NOT: case KW_BETWEEN: case KW_LIKE: case KW_ILIKE: case KW_RLIKE:
    case KW_REGEXP: case KW_WITH: case KW_OPTIONS: case KW_COLLATE: case KW_DIV:
        return true;
    default:
        return false;
    }
}

bool ps_is_strict_nonreserved(const Token *t) {
    if (t->kind != TK_WORD) return false;
    switch (t->kw) {
    case KW_ANTI: case KW_CROSS: case KW_EXCEPT: case KW_FULL: case KW_INNER: case KW_INTERSECT:
    case KW_JOIN: case KW_LATERAL: case KW_LEFT: case KW_MINUS: case KW_NATURAL: case KW_ON:
    case KW_RIGHT: case KW_SEMI: case KW_UNION: case KW_USING:
        return true;
    default:
        return false;
    }
}

/* ---- data types ---- */

/* The type's text runs to the matching close of its brackets; type_parse
 * (types.c) does the work, we only find where the type ends. */
const DataType *ps_parse_type(Parser *p) {
    const Token *first = tk(p);
    if (!ps_at_identifier(p)) ps_syntax_error(p, "");
    int depth = 0;
    int32_t start = first->start, end = first->end;
    advance(p);
    /* INTERVAL qualifiers and CHARACTER VARYING-like multi-word types */
    if (tok_kw(first, KW_INTERVAL)) {
        static const Keyword units[] = {KW_YEAR, KW_MONTH, KW_DAY, KW_HOUR, KW_MINUTE, KW_SECOND};
        for (int round = 0; round < 2; round++) {
            bool got = false;
            for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
                if (is_kw(p, units[i])) got = true;
            if (!got) break;
            end = tk(p)->end;
            advance(p);
            if (round == 0 && is_kw(p, KW_TO)) {
                advance(p);
            } else break;
        }
    }
    /* only ARRAY/MAP/STRUCT take <...> and only DECIMAL/CHAR/VARCHAR-like
     * types take (...): `a::int < 5` is a comparison */
    size_t fl = (size_t)(first->end - first->start);
    const char *fw = p->sql + first->start;
#define FW(s) (fl == sizeof(s) - 1 && strncasecmp(fw, s, fl) == 0)
    bool angle = FW("ARRAY") || FW("MAP") || FW("STRUCT");
    bool paren = FW("DECIMAL") || FW("DEC") || FW("NUMERIC") || FW("CHAR") || FW("CHARACTER") || FW("VARCHAR") ||
                 first->kind == TK_QIDENT || !(FW("INT") || FW("INTEGER") || FW("BIGINT") || FW("LONG") ||
                                               FW("SMALLINT") || FW("SHORT") || FW("TINYINT") || FW("BYTE") ||
                                               FW("STRING") || FW("BOOLEAN") || FW("DOUBLE") || FW("FLOAT") ||
                                               FW("REAL") || FW("DATE") || FW("TIMESTAMP") || FW("TIMESTAMP_NTZ") ||
                                               FW("TIMESTAMP_LTZ") || FW("BINARY") || FW("VOID") || FW("INTERVAL") ||
                                               FW("VARIANT"));
    /* STRING COLLATE name (AstBuilder's primitiveDataType with a collateClause) */
    if (FW("STRING") && first->kind != TK_QIDENT && is_kw(p, KW_COLLATE)) {
#undef FW
        advance(p);
        const Token *nt = tk(p);
        if (!ps_at_identifier(p)) ps_syntax_error(p, "");
        const char *cname = ps_parse_identifier(p);
        int32_t id;
        if (!collation_from_name(cname, &id)) {
            ps_defer_error(p, ps_perr(p, "COLLATION_INVALID_NAME", nt->start, nt->end - 1, "collationName", cname,
                                      "proposals", collation_suggestions(p->a, cname), NULL));
            return &TYPE_STRING;
        }
        return type_string_explicit(p->a, id);
    }
#undef FW
    while ((angle && is_op(p, OP_LT)) || (paren && is_op(p, OP_LPAREN)) || depth > 0) {
        const Token *t = tk(p);
        if (t->kind == TK_EOF) ps_syntax_error(p, "");
        if (tok_op(t, OP_LT) || tok_op(t, OP_LPAREN)) depth++;
        else if (tok_op(t, OP_SHR)) depth -= 2;
        else if (tok_op(t, OP_SHRU)) depth -= 3;
        else if (tok_op(t, OP_GT) || tok_op(t, OP_RPAREN)) depth--;
        else if (tok_op(t, OP_GE)) depth--; /* `>=` never closes a type; treat as `>` */
        end = t->end;
        advance(p);
        if (depth <= 0) break;
    }
    /* `>>` arrives as two `>` tokens; nothing else to do. */
    const char *msg = NULL;
    const DataType *dt = type_parse(p->a, p->sql + start, (size_t)(end - start), NULL, &msg);
    if (!dt) {
        /* toSQLType(text): the type as written, upper-cased, in double quotes */
        char *name = arena_strndup(p->a, p->sql + start, (size_t)(end - start));
        for (char *c = name; *c; c++)
            if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 32);
        ps_defer_error(p, ps_perr(p, "UNSUPPORTED_DATATYPE", start, end - 1, "typeName",
                                  arena_printf(p->a, "\"%s\"", name), NULL));
        return &TYPE_STRING;
    }
    return dt;
}

/* ---- nodes ---- */

Node *ps_mk(Parser *p, NodeKind k, int32_t start) { return ps_new(p, k, start, prev_stop(p)); }

Node *ps_mk_fnv(Parser *p, const char *name, bool is_op, int32_t start, int32_t stop, int nargs, Node **args) {
    Node *f = ps_new(p, NK_UnresolvedFunction, start, stop);
    f->u.un.name = ps_name1(p, name);
    f->u.un.is_operator = is_op;
    f->u.un.nargs = (uint32_t)nargs;
    ps_set_kids(p, f, args, (uint32_t)nargs);
    return node_finish(f);
}

Node *ps_mk_fn(Parser *p, const char *name, bool is_op, int32_t start, int32_t stop, int nargs, ...) {
    Node *args[8];
    va_list ap;
    va_start(ap, nargs);
    for (int i = 0; i < nargs && i < 8; i++) args[i] = va_arg(ap, Node *);
    va_end(ap);
    return ps_mk_fnv(p, name, is_op, start, stop, nargs, args);
}

Node *ps_mk_attr(Parser *p, NameParts name, int32_t start, int32_t stop) {
    Node *n = ps_new(p, NK_UnresolvedAttribute, start, stop);
    n->u.un.name = name;
    return node_finish(n);
}

static Node *mk_lit(Parser *p, const DataType *t, int32_t start, int32_t stop) {
    Node *n = ps_new(p, NK_Literal, start, stop);
    n->type = t;
    n->u.lit.v.type = t;
    return n;
}

Node *ps_mk_lit_string(Parser *p, const char *s, int32_t start, int32_t stop) {
    Node *n = mk_lit(p, &TYPE_STRING, start, stop);
    n->u.lit.v.u.s.p = s;
    n->u.lit.v.u.s.len = (uint32_t)strlen(s);
    return node_finish(n);
}

Node *ps_mk_lit_int(Parser *p, int64_t v, int32_t start, int32_t stop) {
    Node *n = mk_lit(p, &TYPE_INT, start, stop);
    n->u.lit.v.u.i = v;
    return node_finish(n);
}

Node *ps_mk_lit_null(Parser *p, int32_t start, int32_t stop) {
    Node *n = mk_lit(p, &TYPE_NULL, start, stop);
    n->u.lit.v.is_null = true;
    n->flags |= NF_NULLABLE;
    return node_finish(n);
}

Node *ps_mk_lit_bool(Parser *p, bool v, int32_t start, int32_t stop) {
    Node *n = mk_lit(p, &TYPE_BOOLEAN, start, stop);
    n->u.lit.v.u.b = v;
    return node_finish(n);
}

Node *ps_mk_cast(Parser *p, Node *e, const DataType *t, bool try_, int32_t start, int32_t stop) {
    Node *c = ps_new(p, NK_Cast, start, stop);
    c->type = t;
    c->u.cast.try_ = try_;
    c->u.cast.ansi = true;
    c->flags |= NF_PENDING; /* the analyzer checks the cast once its child is typed */
    ps_set_kids(p, c, &e, 1);
    return node_finish(c);
}

void ps_nv_push(Parser *p, NodeVec *nv, Node *n) {
    if (nv->n == nv->cap) {
        uint32_t nc = nv->cap ? nv->cap * 2 : 8;
        Node **v = arena_alloc(p->a, sizeof(Node *) * nc);
        if (nv->n) memcpy(v, nv->v, sizeof(Node *) * nv->n);
        nv->v = v;
        nv->cap = nc;
    }
    nv->v[nv->n++] = n;
}

void ps_pv_push(Parser *p, PtrVec *pv, const void *x) {
    if (pv->n == pv->cap) {
        uint32_t nc = pv->cap ? pv->cap * 2 : 8;
        const void **v = arena_alloc(p->a, sizeof(void *) * nc);
        if (pv->n) memcpy(v, pv->v, sizeof(void *) * pv->n);
        pv->v = v;
        pv->cap = nc;
    }
    pv->v[pv->n++] = x;
}

/* ---- entry points ---- */

static bool init(Parser *p, Arena *a, const char *sql, size_t len, const ParserOptions *opts, ErrorInfo **err) {
    memset(p, 0, sizeof *p);
    p->a = a;
    p->sql = sql;
    p->len = len;
    if (opts) p->opts = *opts;
    if (!p->opts.max_depth) p->opts.max_depth = 1000;
    LexResult lr;
    ps_lex_sql(a, sql, len, &lr);
    if (lr.error_class) {
        ErrorInfo *e;
        if (strcmp(lr.error_class, "PARSE_SYNTAX_ERROR") == 0)
            e = ps_perr(p, lr.error_class, lr.err_start, lr.err_stop, "error", arena_printf(a, "'%s'", lr.err_text), "hint",
                     "", NULL);
        else e = ps_perr(p, lr.error_class, lr.err_start, lr.err_stop, NULL);
        *err = e;
        return false;
    }
    p->t = lr.toks;
    p->n = lr.ntoks;
    return true;
}

static bool only_semicolons(Parser *p) {
    while (is_op(p, OP_SEMI)) advance(p);
    return at_eof(p);
}

Node *parse_statement(Arena *a, const char *sql, size_t len, const ParserOptions *opts, ErrorInfo **err) {
    Parser p;
    *err = NULL;
    if (!init(&p, a, sql, len, opts, err)) return NULL;
    if (only_semicolons(&p)) {
        *err = ps_perr(&p, "PARSE_EMPTY_STATEMENT", -1, -1, NULL);
        return NULL;
    }
    p.pos = 0;
    jmp_buf jb;
    p.jb = &jb;
    if (setjmp(jb)) {
        *err = p.err;
        return NULL;
    }
    Node *n = ps_check_height(&p, ps_parse_statement_body(&p));
    while (ps_accept_op(&p, OP_SEMI)) {
    }
    if (!at_eof(&p)) {
        /* one stray token before the end: ANTLR's "extraneous input" */
        int32_t k = 1;
        while (tok_op(tk_at(&p, k), OP_SEMI)) k++;
        if (tk_at(&p, k)->kind == TK_EOF)
            ps_syntax_error(&p, arena_printf(a, ": extra input '%s'", ps_tok_text(&p, tk(&p))));
        ps_syntax_error(&p, "");
    }
    if (p.deferred) {
        *err = p.deferred;
        return NULL;
    }
    return n;
}

Node *parse_expression(Arena *a, const char *sql, size_t len, const ParserOptions *opts, ErrorInfo **err) {
    Parser p;
    *err = NULL;
    if (!init(&p, a, sql, len, opts, err)) return NULL;
    if (at_eof(&p)) {
        *err = ps_perr(&p, "PARSE_EMPTY_STATEMENT", -1, -1, NULL);
        return NULL;
    }
    jmp_buf jb;
    p.jb = &jb;
    if (setjmp(jb)) {
        *err = p.err;
        return NULL;
    }
    Node *n = ps_check_height(&p, ps_parse_expr(&p));
    if (!at_eof(&p)) ps_syntax_error(&p, "");
    if (p.deferred) {
        *err = p.deferred;
        return NULL;
    }
    return n;
}

bool parse_multipart_identifier(Arena *a, const char *s, size_t len, NameParts *out, ErrorInfo **err) {
    Parser p;
    *err = NULL;
    if (!init(&p, a, s, len, NULL, err)) return false;
    if (at_eof(&p)) {
        *err = ps_perr(&p, "PARSE_EMPTY_STATEMENT", -1, -1, NULL);
        return false;
    }
    jmp_buf jb;
    p.jb = &jb;
    if (setjmp(jb)) {
        *err = p.err;
        return false;
    }
    PtrVec parts = {0};
    ps_pv_push(&p, &parts, ps_parse_identifier(&p));
    while (ps_accept_op(&p, OP_DOT)) ps_pv_push(&p, &parts, ps_parse_identifier(&p));
    if (!at_eof(&p))
        ps_syntax_error(&p, arena_printf(a, ": extra input '%s'", ps_tok_text(&p, tk(&p))));
    *out = (NameParts){parts.n, (const char **)parts.v};
    return true;
}

const DataType *parse_data_type(Arena *a, const char *s, size_t len, ErrorInfo **err) {
    Parser p;
    *err = NULL;
    if (!init(&p, a, s, len, NULL, err)) return NULL;
    jmp_buf jb;
    p.jb = &jb;
    if (setjmp(jb)) {
        *err = p.err;
        return NULL;
    }
    const DataType *t = ps_parse_type(&p);
    if (!at_eof(&p)) ps_syntax_error(&p, "");
    if (p.deferred) {
        *err = p.deferred;
        return NULL;
    }
    return t;
}
