/* Internals shared by the parser's files: the parser state, token helpers,
 * error reporting and node builders. Not part of the public API. */
#ifndef CZ_PARSER_INT_H
#define CZ_PARSER_INT_H

#include <setjmp.h>
#include <string.h>

#include "lexer.h"
#include "parser.h"

typedef struct Parser {
    Arena *a;
    const char *sql;
    size_t len;
    Token *t;
    int32_t n, pos;
    ParserOptions opts;
    uint32_t depth;
    jmp_buf *jb;           /* syntax errors longjmp here (all memory is in the arena) */
    ErrorInfo *err;        /* the error being raised */
    ErrorInfo *deferred;   /* first semantic error: reported if the syntax is fine */
    int32_t npos_params;   /* `?` markers seen */
    bool last_primary_lateral_ok; /* the last relation primary was `(query)` or a TVF */
    uint32_t named_expr_depth; /* inside a select item (Spark's NamedExpressionContext): canApplyRegex */
    bool dml_after_with;   /* the query being parsed is a statement: WITH ... INSERT is allowed */
} Parser;

/* ---- tokens ---- */
static inline const Token *tk(const Parser *p) { return &p->t[p->pos]; }
static inline const Token *tk_at(const Parser *p, int k) {
    int32_t i = p->pos + k;
    return &p->t[i < p->n ? i : p->n - 1];
}
static inline bool tok_kw(const Token *t, Keyword k) { return t->kind == TK_WORD && t->kw == k; }
static inline bool tok_op(const Token *t, OpKind o) { return t->kind == TK_OP && t->op == o; }
static inline bool is_kw(const Parser *p, Keyword k) { return tok_kw(tk(p), k); }
static inline bool is_kw_at(const Parser *p, int off, Keyword k) { return tok_kw(tk_at(p, off), k); }
static inline bool is_op(const Parser *p, OpKind o) { return tok_op(tk(p), o); }
static inline bool is_op_at(const Parser *p, int off, OpKind o) { return tok_op(tk_at(p, off), o); }
static inline bool at_eof(const Parser *p) { return tk(p)->kind == TK_EOF; }
static inline void advance(Parser *p) {
    if (p->pos < p->n - 1) p->pos++;
}
/* inline: the parser asks these of nearly every token, most often in vain */
static inline bool ps_accept_kw(Parser *p, Keyword k) {
    if (!is_kw(p, k)) return false;
    advance(p);
    return true;
}
static inline bool ps_accept_op(Parser *p, OpKind o) {
    if (!is_op(p, o)) return false;
    advance(p);
    return true;
}
void ps_expect_kw(Parser *p, Keyword k);
void ps_expect_op(Parser *p, OpKind o);
/* Start offset of the current token; stop (inclusive) of the previous one. */
static inline int32_t cur_start(const Parser *p) { return tk(p)->start; }
static inline int32_t prev_stop(const Parser *p) { return p->pos > 0 ? p->t[p->pos - 1].end - 1 : 0; }
const char *ps_tok_text(Parser *p, const Token *t); /* raw text, arena copy */

/* ---- errors ---- */
_Noreturn void ps_fail(Parser *p, ErrorInfo *e);
/* PARSE_SYNTAX_ERROR at the current token (hint may be "" or NULL). */
_Noreturn void ps_syntax_error(Parser *p, const char *hint);
_Noreturn void ps_syntax_error_at(Parser *p, const Token *t, const char *hint);
/* Builds a parse-phase error (NULL-terminated name/value pairs). */
ErrorInfo *ps_perr(Parser *p, const char *cls, int32_t start, int32_t stop, ...) __attribute__((sentinel));
/* Records a semantic error to report once the whole statement has parsed. */
void ps_defer_error(Parser *p, ErrorInfo *e);
_Noreturn void ps_too_complex(Parser *p); /* FAILED_TO_PARSE_TOO_COMPLEX at the current token */
static inline void ps_enter(Parser *p) { /* depth check */
    if (++p->depth > p->opts.max_depth) ps_too_complex(p);
}
/* The nesting limit on what loops build (`1 + 1 + ...`, `UNION ALL` chains,
 * joins, pipe operators): they do not recurse, but the tree they make is as
 * deep as it is long, and everything after the parser walks it recursively.
 * Returns n, or fails FAILED_TO_PARSE_TOO_COMPLEX when its height passes
 * max_depth. */
Node *ps_check_height(Parser *p, Node *n);
/* INSERT INTO|OVERWRITE ... (the current token is INSERT), parse_stmt.c. */
Node *ps_parse_insert(Parser *p, int32_t start);
/* Backtracking: runs fn; on a syntax error restores the parser's position
 * (and deferred errors) and returns NULL. Depth-limit errors still fail. */
typedef Node *(*PsFn)(Parser *p, void *ctx);
Node *ps_try(Parser *p, PsFn fn, void *ctx);
static inline void leave(Parser *p) { p->depth--; }

/* ---- identifiers and names ---- */
/* A word or backquoted identifier (any keyword is allowed: Spark's keywords
 * are non-reserved by default). */
static inline bool ps_at_identifier(const Parser *p) {
    const Token *t = tk(p);
    if (t->kind == TK_WORD || t->kind == TK_QIDENT) return true;
    return p->opts.double_quoted_identifiers && t->kind == TK_STRING && t->suffix == '"';
}
const char *ps_parse_identifier(Parser *p);
NameParts ps_parse_multipart(Parser *p);
/* (a, b, c) */
uint32_t ps_parse_ident_list(Parser *p, const char ***out);
/* Keywords that end a clause and so cannot be an implicit alias. */
bool ps_is_clause_keyword(const Token *t);
/* Keywords Spark reserves against table aliases (strictNonReserved). */
bool ps_is_strict_nonreserved(const Token *t);

/* ---- types ---- */
const DataType *ps_parse_type(Parser *p);

/* ---- nodes ---- */
/* node_new / node_set_kids inlined: a bump allocation and a clear of known
 * size, where the calls cost two calls and a libc memset per node (the
 * parser builds a node per few bytes of SQL). Same fields as node_new. */
typedef long long PsZero16 __attribute__((vector_size(16), may_alias));
_Static_assert(sizeof(Node) % 16 == 0, "ps_new clears a Node 16 bytes at a time");
static inline Node *ps_new(Parser *p, NodeKind k, int32_t start, int32_t stop) {
    Node *n = arena_alloc(p->a, sizeof(Node)); /* 16-byte aligned */
    /* sixteen-byte stores: a memset of this size becomes `rep stos`, one
     * instruction per 8 bytes and a slow start; the empty asm keeps the
     * compiler from turning the (fully unrolled) loop back into one */
    for (size_t i = 0; i < sizeof(Node) / 16; i++) {
        ((PsZero16 *)n)[i] = (PsZero16){0, 0};
        __asm__("" : : "r"(n));
    }
    n->kind = k;
    n->start = start;
    n->stop = stop;
    n->plan_id = -1;
    return n;
}
/* an arena copy of `count` node pointers (NULL for none) */
static inline Node **ps_node_array(Parser *p, Node *const *nodes, uint32_t count) {
    if (!count) return NULL;
    Node **out = arena_alloc(p->a, sizeof(Node *) * count);
    for (uint32_t i = 0; i < count; i++) out[i] = nodes[i];
    return out;
}
static inline void ps_set_kids(Parser *p, Node *n, Node *const *kids, uint32_t nkids) {
    n->nkids = nkids;
    n->kids = ps_node_array(p, kids, nkids);
}
static inline void ps_set_exprs(Parser *p, Node *n, Node *const *exprs, uint32_t nexprs) {
    n->nexprs = nexprs;
    n->exprs = ps_node_array(p, exprs, nexprs);
}
Node *ps_mk(Parser *p, NodeKind k, int32_t start);  /* stop = previous token */
Node *ps_mk_fn(Parser *p, const char *name, bool is_op, int32_t start, int32_t stop, int nargs, ...);
Node *ps_mk_fnv(Parser *p, const char *name, bool is_op, int32_t start, int32_t stop, int nargs, Node **args);
Node *ps_mk_attr(Parser *p, NameParts name, int32_t start, int32_t stop);
Node *ps_mk_lit_string(Parser *p, const char *s, int32_t start, int32_t stop);
Node *ps_mk_lit_int(Parser *p, int64_t v, int32_t start, int32_t stop);
Node *ps_mk_lit_null(Parser *p, int32_t start, int32_t stop);
Node *ps_mk_lit_bool(Parser *p, bool v, int32_t start, int32_t stop);
Node *ps_mk_cast(Parser *p, Node *e, const DataType *t, bool try_, int32_t start, int32_t stop);

/* Small growable node vector in the arena. */
typedef struct NodeVec {
    Node **v;
    uint32_t n, cap;
} NodeVec;
void ps_nv_push(Parser *p, NodeVec *nv, Node *n);
/* Same for other pointers (names, types). */
typedef struct PtrVec {
    const void **v;
    uint32_t n, cap;
} PtrVec;
void ps_pv_push(Parser *p, PtrVec *pv, const void *x);

/* name_parts1 without its memcpy call */
static inline NameParts ps_name1(Parser *p, const char *part) {
    const char **v = arena_alloc(p->a, sizeof(char *));
    v[0] = part;
    return (NameParts){1, v};
}

/* A multi-part name being parsed: parts on the stack, copied to the arena
 * once at the exact count (names are one to three parts; a vector of eight
 * per name cost a call per part). Set n = 0 to start. */
enum { NAMEBUF_INLINE = 8 };
typedef struct NameBuf {
    const char *v[NAMEBUF_INLINE];
    uint32_t n;
    PtrVec spill; /* all the parts once there are more than NAMEBUF_INLINE */
} NameBuf;
void ps_nb_push_slow(Parser *p, NameBuf *b, const char *part);
static inline void ps_nb_push(Parser *p, NameBuf *b, const char *part) {
    if (b->n < NAMEBUF_INLINE) b->v[b->n++] = part;
    else {
        if (b->n == NAMEBUF_INLINE) b->spill = (PtrVec){0};
        ps_nb_push_slow(p, b, part);
    }
}
NameParts ps_nb_finish(Parser *p, NameBuf *b);

/* ---- literals (parse_literal.c) ---- */
bool ps_at_string(const Parser *p);
/* One or more adjacent string literals, unescaped and concatenated. */
const char *ps_parse_string_lit(Parser *p, size_t *len);
const char *ps_unescape_string(Parser *p, const Token *t, size_t *len);
Node *ps_parse_number(Parser *p, bool negative, int32_t start);
Node *ps_parse_typed_literal(Parser *p, Keyword kind, int32_t start); /* DATE 'x', ... (current token is the string) */
Node *ps_parse_interval(Parser *p, int32_t start);                    /* after INTERVAL */
/* INTERVAL 'str' (typed literal); NULL if str is not an interval (caller reports). */
Node *ps_interval_from_string(Parser *p, const char *s, size_t n, int32_t start);
Node *ps_literal_node(Parser *p, const DataType *t, int32_t start); /* unfinished Literal ending at prev token */

/* ---- expressions (parse_expr.c) ---- */
Node *ps_parse_expr(Parser *p);
Node *ps_parse_value_expr(Parser *p); /* no boolean operators / predicates */
Node *ps_parse_primary(Parser *p);
uint32_t ps_parse_expr_list(Parser *p, NodeVec *out); /* e1, e2, ... */
Node *ps_parse_sort_item(Parser *p);
void ps_parse_sort_list(Parser *p, NodeVec *out);
Node *ps_parse_window_spec(Parser *p); /* after OVER: name or (...) */
bool ps_is_foldable(const Node *e);
/* IDENTIFIER(expr) with a constant string: its parts (false if not constant). */
/* span: the IDENTIFIER(...) clause, where an error is reported */
bool ps_fold_identifier(Parser *p, const Node *e, NameParts *out, int32_t start, int32_t stop);
Node *ps_parse_identifier_clause(Parser *p); /* IDENTIFIER ( expr ): returns expr */

/* ---- queries (parse_query.c) ---- */
Node *ps_parse_query(Parser *p);            /* [WITH ...] queryTerm organization */
Node *ps_parse_query_no_with(Parser *p);
bool ps_at_query_start(const Parser *p);    /* SELECT, WITH, VALUES, TABLE, FROM, ( query */
bool ps_at_query_start_at(const Parser *p, int off);
Node *ps_parse_relation_primary(Parser *p); /* for DML targets */

/* ---- statements (parse_stmt.c) ---- */
Node *ps_parse_statement_body(Parser *p);
bool ps_word_is(const Parser *p, int off, const char *w); /* the token at off is the word w (any case) */
bool ps_accept_word(Parser *p, const char *w);
/* A statement's target: IDENTIFIER(expr) or a multi-part name. */
typedef struct Target {
    NameParts name;
    Node *ident;     /* IDENTIFIER's expression, or NULL */
    bool folded;     /* ident was a constant string: name holds its parts */
    int32_t start, stop;
} Target;
Target ps_parse_target(Parser *p);
/* The statement's spec (u.ddl.spec), allocated on first use. */
StmtSpec *ps_spec(Parser *p, Node *s);
/* Finishes statement s naming t (NULL: none); an IDENTIFIER(expr) target
 * wraps it in UnresolvedIdentifierPlan. */
Node *ps_stmt_finish(Parser *p, Node *s, const Target *t);
bool ps_parse_if_not_exists(Parser *p);
bool ps_parse_if_exists(Parser *p);
void ps_skip_balanced(Parser *p);  /* one token, or a balanced ( ... ) */
void ps_skip_rest(Parser *p);      /* up to `;` or the end */
const char *ps_text_between(Parser *p, int32_t start, int32_t stop);
/* ---- the other statements (parse_command.c): DESCRIBE, SHOW, ALTER, CACHE, ... ---- */
Node *ps_parse_command(Parser *p, int32_t start);
/* (k [=] v, ...) into the statement's spec; keys_only: (k, ...). */
void ps_parse_props(Parser *p, Node *s, bool keys_only);
Node *ps_parse_alter(Parser *p, int32_t start);

#endif
