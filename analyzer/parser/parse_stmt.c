/* Statements: queries, CREATE/DROP VIEW and TABLE, namespaces, USE,
 * session variables (DECLARE / SET VAR / DROP TEMPORARY VARIABLE), SET and
 * RESET of configuration, SET CATALOG, EXECUTE IMMEDIATE, INSERT; the other
 * statements Spark has (DESCRIBE, SHOW, CACHE, ALTER, ...) are read by
 * parse_command.c, each into its own node kind. A target written
 * IDENTIFIER(expr) wraps the statement in UnresolvedIdentifierPlan with the
 * statement's name left empty. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "parser_int.h"
#include "core/collation.h"

bool ps_word_is(const Parser *p, int off, const char *w) {
    const Token *t = tk_at(p, off);
    size_t n = strlen(w);
    return t->kind == TK_WORD && (size_t)(t->end - t->start) == n && strncasecmp(p->sql + t->start, w, n) == 0;
}

bool ps_accept_word(Parser *p, const char *w) {
    if (ps_word_is(p, 0, w)) {
        advance(p);
        return true;
    }
    return false;
}

StmtSpec *ps_spec(Parser *p, Node *s) {
    if (!s->u.ddl.spec) s->u.ddl.spec = ARENA_NEW(p->a, StmtSpec);
    return (StmtSpec *)s->u.ddl.spec;
}

Target ps_parse_target(Parser *p) {
    Target t = {{0, NULL}, NULL, false, cur_start(p), 0};
    if (is_kw(p, KW_IDENTIFIER) && is_op_at(p, 1, OP_LPAREN)) {
        advance(p);
        advance(p);
        t.ident = ps_parse_expr(p);
        ps_expect_op(p, OP_RPAREN);
        t.folded = ps_fold_identifier(p, t.ident, &t.name, t.start, prev_stop(p));
    } else {
        t.name = ps_parse_multipart(p);
    }
    t.stop = prev_stop(p);
    return t;
}

Node *ps_stmt_finish(Parser *p, Node *s, const Target *t) {
    if (t && t->ident) {
        s->u.ddl.name = (NameParts){0, NULL};
        s = node_finish(s);
        Node *w = ps_new(p, NK_UnresolvedIdentifierPlan, s->start, s->stop);
        w->u.idplan.builds = s->kind;
        Node *e = t->ident;
        ps_set_exprs(p, w, &e, 1);
        ps_set_kids(p, w, &s, 1);
        return node_finish(w);
    }
    if (t) s->u.ddl.name = t->name;
    return node_finish(s);
}

bool ps_parse_if_not_exists(Parser *p) {
    if (is_kw(p, KW_IF) && is_kw_at(p, 1, KW_NOT) && is_kw_at(p, 2, KW_EXISTS)) {
        advance(p), advance(p), advance(p);
        return true;
    }
    return false;
}

bool ps_parse_if_exists(Parser *p) {
    if (is_kw(p, KW_IF) && is_kw_at(p, 1, KW_EXISTS)) {
        advance(p), advance(p);
        return true;
    }
    return false;
}

void ps_skip_balanced(Parser *p) {
    int depth = 0;
    do {
        if (at_eof(p)) ps_syntax_error(p, "");
        if (is_op(p, OP_LPAREN)) depth++;
        else if (is_op(p, OP_RPAREN)) depth--;
        advance(p);
    } while (depth > 0);
}

void ps_skip_rest(Parser *p) {
    int depth = 0;
    while (!at_eof(p) && !(depth == 0 && is_op(p, OP_SEMI))) {
        if (is_op(p, OP_LPAREN)) depth++;
        else if (is_op(p, OP_RPAREN)) depth--;
        advance(p);
    }
}

const char *ps_text_between(Parser *p, int32_t start, int32_t stop) {
    return arena_strndup(p->a, p->sql + start, (size_t)(stop - start + 1));
}

/* ---- CREATE VIEW ---- */

static Node *create_view(Parser *p, int32_t start, bool or_replace, bool global, bool temp) {
    ps_expect_kw(p, KW_VIEW);
    bool ine = ps_parse_if_not_exists(p);
    Target t = ps_parse_target(p);
    Node *s = ps_new(p, NK_CreateView, start, 0);
    s->u.ddl.or_replace = or_replace;
    s->u.ddl.global = global;
    s->u.ddl.temporary = temp;
    s->u.ddl.is_view = true;
    s->u.ddl.if_not_exists = ine;
    /* CREATE TEMPORARY VIEW v [(col type, ...)] USING fmt [OPTIONS (...)]: a data source view */
    {
        int save = p->pos;
        if (is_op(p, OP_LPAREN)) ps_skip_balanced(p);
        bool using = is_kw(p, KW_USING);
        p->pos = save;
        if (using) {
            Node *c = ps_new(p, NK_CreateTempViewUsing, start, 0);
            c->u.ddl.text = "CREATE TEMPORARY VIEW USING";
            c->u.ddl.temporary = temp;
            c->u.ddl.global = global;
            c->u.ddl.or_replace = or_replace;
            if (ps_accept_op(p, OP_LPAREN)) {
                PtrVec names = {0}, types = {0};
                do {
                    ps_pv_push(p, &names, ps_parse_identifier(p));
                    ps_pv_push(p, &types, ps_parse_type(p));
                    while (!at_eof(p) && !is_op(p, OP_COMMA) && !is_op(p, OP_RPAREN)) ps_skip_balanced(p);
                } while (ps_accept_op(p, OP_COMMA));
                ps_expect_op(p, OP_RPAREN);
                c->u.ddl.ncols = names.n;
                c->u.ddl.col_names = (const char **)names.v;
                c->u.ddl.col_types = (const DataType **)types.v;
            }
            ps_expect_kw(p, KW_USING);
            NameParts prov = ps_parse_multipart(p);
            StrBuf sb;
            sb_init(&sb, p->a, 32);
            for (uint32_t i = 0; i < prov.n; i++) {
                if (i) sb_putc(&sb, '.');
                sb_puts(&sb, prov.v[i]);
            }
            c->u.ddl.provider = sb.data;
            if (ps_accept_kw(p, KW_OPTIONS) && is_op(p, OP_LPAREN)) {
                /* OPTIONS (k [=] v, ...) */
                advance(p);
                PtrVec k = {0}, v = {0};
                if (!is_op(p, OP_RPAREN)) {
                    do {
                        if (ps_at_string(p)) ps_pv_push(p, &k, ps_parse_string_lit(p, NULL));
                        else {
                            NameParts kn = ps_parse_multipart(p);
                            StrBuf kb;
                            sb_init(&kb, p->a, 32);
                            for (uint32_t i = 0; i < kn.n; i++) {
                                if (i) sb_putc(&kb, '.');
                                sb_puts(&kb, kn.v[i]);
                            }
                            ps_pv_push(p, &k, kb.data);
                        }
                        ps_accept_op(p, OP_EQ);
                        if (ps_at_string(p)) ps_pv_push(p, &v, ps_parse_string_lit(p, NULL));
                        else {
                            int32_t vs = cur_start(p);
                            advance(p);
                            ps_pv_push(p, &v, ps_text_between(p, vs, prev_stop(p)));
                        }
                    } while (ps_accept_op(p, OP_COMMA));
                }
                ps_expect_op(p, OP_RPAREN);
                ps_spec(p, c)->nprops = k.n;
                ps_spec(p, c)->prop_keys = (const char **)k.v;
                ps_spec(p, c)->prop_values = (const char **)v.v;
            }
            ps_skip_rest(p);
            c->stop = prev_stop(p);
            return ps_stmt_finish(p, c, &t);
        }
    }
    if (is_op(p, OP_LPAREN)) {
        advance(p);
        PtrVec names = {0}, comments = {0};
        do {
            ps_pv_push(p, &names, ps_parse_identifier(p));
            ps_pv_push(p, &comments, ps_accept_kw(p, KW_COMMENT) ? ps_parse_string_lit(p, NULL) : NULL);
        } while (ps_accept_op(p, OP_COMMA));
        ps_expect_op(p, OP_RPAREN);
        s->u.ddl.ncols = names.n;
        s->u.ddl.col_names = (const char **)names.v;
        s->u.ddl.col_comments = (const char **)comments.v;
    }
    /* COMMENT / TBLPROPERTIES / PARTITIONED ON / SCHEMA BINDING ... before AS */
    while (!is_kw(p, KW_AS) && !at_eof(p)) {
        if (ps_accept_kw(p, KW_COMMENT)) s->u.ddl.value = ps_parse_string_lit(p, NULL);
        else if (ps_accept_kw(p, KW_TBLPROPERTIES)) ps_parse_props(p, s, false);
        else if (is_kw(p, KW_WITH) && ps_word_is(p, 1, "SCHEMA")) {
            /* WITH SCHEMA BINDING | COMPENSATION | [TYPE] EVOLUTION: the view's schema mode (u.ddl.provider) */
            advance(p), advance(p);
            if (ps_accept_word(p, "TYPE")) s->u.ddl.provider = "TYPE EVOLUTION", ps_accept_word(p, "EVOLUTION");
            else if (ps_accept_word(p, "BINDING")) s->u.ddl.provider = "BINDING";
            else if (ps_accept_word(p, "COMPENSATION")) s->u.ddl.provider = "COMPENSATION";
            else if (ps_accept_word(p, "EVOLUTION")) s->u.ddl.provider = "EVOLUTION";
            else ps_syntax_error(p, "");
        }
        else if (is_op(p, OP_LPAREN)) ps_skip_balanced(p);
        else advance(p);
    }
    /* SchemaEvolution with a column list is SchemaTypeEvolution (visitCreateView) */
    if (s->u.ddl.provider && strcmp(s->u.ddl.provider, "EVOLUTION") == 0 && s->u.ddl.ncols)
        s->u.ddl.provider = "TYPE EVOLUTION";
    ps_expect_kw(p, KW_AS);
    int32_t qs = cur_start(p);
    Node *q = ps_parse_query(p);
    s->u.ddl.text = ps_text_between(p, qs, prev_stop(p));
    ps_set_kids(p, s, &q, 1);
    s->stop = prev_stop(p);
    if (temp && !global && (t.ident ? t.folded : true) && t.name.n > 1)
        ps_defer_error(p, ps_perr(p, "TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS", start, prev_stop(p), "actualName",
                                  sql_id_parts(p->a, t.name), NULL));
    return ps_stmt_finish(p, s, &t);
}

/* ---- CREATE TABLE ---- */

static Node *create_table(Parser *p, int32_t start, bool or_replace, bool temp) {
    ps_expect_kw(p, KW_TABLE);
    bool ine = ps_parse_if_not_exists(p);
    Target t = ps_parse_target(p);
    Node *s = ps_new(p, NK_CreateTable, start, 0);
    s->u.ddl.or_replace = or_replace;
    s->u.ddl.temporary = temp;
    s->u.ddl.if_not_exists = ine;
    if (ps_word_is(p, 0, "LIKE")) {
        /* CREATE TABLE t LIKE s [USING fmt] [...] */
        advance(p);
        s->kind = NK_CreateTableLike;
        ps_spec(p, s)->name2 = ps_parse_multipart(p);
        while (!at_eof(p) && !is_op(p, OP_SEMI)) {
            if (ps_accept_kw(p, KW_USING)) s->u.ddl.provider = ps_parse_identifier(p);
            else ps_skip_balanced(p);
        }
        s->stop = prev_stop(p);
        return ps_stmt_finish(p, s, &t);
    }
    /* `(with baz)` is a column `with` of type baz (a query would go on `WITH name AS (`) */
    bool with_column = is_op(p, OP_LPAREN) && is_kw_at(p, 1, KW_WITH) && !ps_word_is(p, 2, "RECURSIVE") &&
                       !is_kw_at(p, 3, KW_AS) && !is_op_at(p, 3, OP_LPAREN);
    if (is_op(p, OP_LPAREN) && (!ps_at_query_start(p) || with_column)) {
        advance(p);
        PtrVec names = {0}, comments = {0}, types = {0};
        do {
            /* table constraints (PRIMARY KEY ..., CONSTRAINT ...) are skipped */
            if (ps_word_is(p, 0, "CONSTRAINT") || ps_word_is(p, 0, "PRIMARY") || ps_word_is(p, 0, "FOREIGN") ||
                (ps_word_is(p, 0, "UNIQUE") && is_op_at(p, 1, OP_LPAREN))) {
                while (!at_eof(p) && !is_op(p, OP_COMMA) && !is_op(p, OP_RPAREN)) {
                    if (is_op(p, OP_LPAREN)) ps_skip_balanced(p);
                    else advance(p);
                }
                continue;
            }
            const char *c = ps_parse_identifier(p);
            const DataType *ty = ps_parse_type(p);
            const char *cm = NULL;
            for (;;) {
                if (is_kw(p, KW_NOT) && is_kw_at(p, 1, KW_NULL)) advance(p), advance(p);
                else if (ps_accept_kw(p, KW_COMMENT)) cm = ps_parse_string_lit(p, NULL);
                else if (ps_accept_kw(p, KW_DEFAULT)) ps_parse_expr(p);
                else if (ps_word_is(p, 0, "GENERATED")) {
                    while (!at_eof(p) && !is_op(p, OP_COMMA) && !is_op(p, OP_RPAREN)) {
                        if (is_op(p, OP_LPAREN)) ps_skip_balanced(p);
                        else advance(p);
                    }
                } else break;
            }
            ps_pv_push(p, &names, c);
            ps_pv_push(p, &types, ty);
            ps_pv_push(p, &comments, cm);
        } while (ps_accept_op(p, OP_COMMA));
        ps_expect_op(p, OP_RPAREN);
        s->u.ddl.ncols = names.n;
        s->u.ddl.col_names = (const char **)names.v;
        s->u.ddl.col_types = (const DataType **)types.v;
        s->u.ddl.col_comments = (const char **)comments.v;
    }
    Node *q = NULL;
    while (!at_eof(p) && !is_op(p, OP_SEMI)) {
        if (ps_accept_kw(p, KW_USING)) s->u.ddl.provider = ps_parse_identifier(p);
        else if (ps_word_is(p, 0, "STORED") && is_kw_at(p, 1, KW_AS)) {
            advance(p), advance(p);
            ps_parse_identifier(p);
        } else if ((is_kw(p, KW_AS) && ps_at_query_start_at(p, 1)) || ps_at_query_start(p)) {
            ps_accept_kw(p, KW_AS);
            int32_t qs = cur_start(p);
            q = ps_parse_query(p);
            s->u.ddl.text = ps_text_between(p, qs, prev_stop(p));
            break;
        } else if (is_kw(p, KW_PARTITIONED) && is_kw_at(p, 1, KW_BY) && is_op_at(p, 2, OP_LPAREN)) {
            /* PARTITIONED BY (c, ...) or (c type, ...): the partition columns */
            advance(p), advance(p), advance(p);
            PtrVec pk = {0};
            do {
                ps_pv_push(p, &pk, ps_parse_identifier(p));
                while (!at_eof(p) && !is_op(p, OP_COMMA) && !is_op(p, OP_RPAREN)) ps_skip_balanced(p);
            } while (ps_accept_op(p, OP_COMMA));
            ps_expect_op(p, OP_RPAREN);
            ps_spec(p, s)->npart = pk.n;
            ps_spec(p, s)->part_keys = (const char **)pk.v;
        } else if (is_kw(p, KW_DEFAULT) && ps_word_is(p, 1, "COLLATION")) {
            /* DEFAULT COLLATION name: the collation of every column typed a plain STRING */
            advance(p), advance(p);
            const Token *nt = tk(p);
            const char *cname = ps_parse_identifier(p);
            int32_t id;
            if (!cname) break;
            if (!collation_from_name(cname, &id)) {
                ps_defer_error(p, ps_perr(p, "COLLATION_INVALID_NAME", nt->start, nt->end - 1, "collationName", cname,
                                          "proposals", collation_suggestions(p->a, cname), NULL));
                continue;
            }
            for (uint32_t i = 0; i < s->u.ddl.ncols; i++)
                s->u.ddl.col_types[i] = type_with_default_collation(p->a, s->u.ddl.col_types[i], id);
            ps_spec(p, s)->has_collation = true;
            ps_spec(p, s)->collation = id;
        } else if (ps_accept_kw(p, KW_COMMENT) || ps_accept_kw(p, KW_LOCATION)) ps_parse_string_lit(p, NULL);
        else if (is_op(p, OP_LPAREN)) ps_skip_balanced(p);
        else advance(p);
    }
    if (q) ps_set_kids(p, s, &q, 1);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

/* ---- namespaces ---- */

static bool at_namespace_word(const Parser *p) {
    return is_kw(p, KW_DATABASE) || is_kw(p, KW_SCHEMA) || is_kw(p, KW_NAMESPACE);
}

static Node *create_namespace(Parser *p, int32_t start) {
    advance(p);
    bool ine = ps_parse_if_not_exists(p);
    Target t = ps_parse_target(p);
    ps_skip_rest(p);
    Node *s = ps_new(p, NK_CreateNamespace, start, prev_stop(p));
    s->u.ddl.if_not_exists = ine;
    return ps_stmt_finish(p, s, &t);
}

static Node *drop_namespace(Parser *p, int32_t start) {
    advance(p);
    bool ie = ps_parse_if_exists(p);
    Target t = ps_parse_target(p);
    bool cascade = false;
    if (ps_word_is(p, 0, "CASCADE")) {
        advance(p);
        cascade = true;
    } else ps_accept_word(p, "RESTRICT");
    Node *s = ps_new(p, NK_DropNamespace, start, prev_stop(p));
    s->u.ddl.if_exists = ie;
    s->u.ddl.cascade = cascade;
    return ps_stmt_finish(p, s, &t);
}

/* ---- variables ---- */

static Node *declare_variable(Parser *p, int32_t start) {
    advance(p); /* DECLARE */
    bool or_replace = false;
    if (is_kw(p, KW_OR) && is_kw_at(p, 1, KW_REPLACE)) {
        advance(p), advance(p);
        or_replace = true;
    }
    if ((is_kw(p, KW_VARIABLE) || is_kw(p, KW_VAR)) && (tk_at(p, 1)->kind == TK_WORD || tk_at(p, 1)->kind == TK_QIDENT))
        advance(p);
    Target t = ps_parse_target(p);
    const DataType *ty = NULL;
    Node *def = NULL;
    if (!at_eof(p) && !is_op(p, OP_SEMI) && !is_kw(p, KW_DEFAULT) && !is_op(p, OP_EQ)) ty = ps_parse_type(p);
    if (ps_accept_kw(p, KW_DEFAULT) || ps_accept_op(p, OP_EQ)) def = ps_parse_expr(p);
    if (!ty && !def)
        ps_defer_error(p, ps_perr(p, "INVALID_SQL_SYNTAX.VARIABLE_TYPE_OR_DEFAULT_REQUIRED", start, prev_stop(p), NULL));
    Node *s = ps_new(p, NK_DeclareVariable, start, prev_stop(p));
    s->u.ddl.or_replace = or_replace;
    s->u.ddl.col_types = ARENA_ARRAY(p->a, const DataType *, 1);
    s->u.ddl.col_types[0] = ty;
    if (def) ps_set_exprs(p, s, &def, 1);
    return ps_stmt_finish(p, s, &t);
}

static Node *one_row(Parser *p) { return node_finish(ps_new(p, NK_OneRowRelation, -1, -1)); }

/* SET VAR a = e [, b = e] | SET VAR (a, b) = (query); syntax errors longjmp. */
static Node *set_variable(Parser *p, int32_t start) {
    advance(p); /* VAR / VARIABLE */
    NodeVec targets = {0};
    Node *src;
    if (ps_accept_op(p, OP_LPAREN)) {
        do {
            int32_t ts = cur_start(p);
            NameParts np = ps_parse_multipart(p);
            ps_nv_push(p, &targets, ps_mk_attr(p, np, ts, prev_stop(p)));
        } while (ps_accept_op(p, OP_COMMA));
        ps_expect_op(p, OP_RPAREN);
        ps_expect_op(p, OP_EQ);
        ps_expect_op(p, OP_LPAREN);
        src = ps_parse_query(p);
        ps_expect_op(p, OP_RPAREN);
    } else {
        NodeVec vals = {0};
        do {
            int32_t ts = cur_start(p);
            NameParts np = ps_parse_multipart(p);
            ps_nv_push(p, &targets, ps_mk_attr(p, np, ts, prev_stop(p)));
            ps_expect_op(p, OP_EQ);
            Node *v = ps_parse_expr(p);
            if (v->kind != NK_UnresolvedAttribute && v->kind != NK_Alias) {
                /* Spark names a value after its variable */
                Node *a = ps_new(p, NK_Alias, v->start, v->stop);
                a->u.attr.name = np.v[np.n - 1];
                ps_set_kids(p, a, &v, 1);
                v = node_finish(a);
            }
            ps_nv_push(p, &vals, v);
        } while (ps_accept_op(p, OP_COMMA));
        Node *proj = ps_new(p, NK_Project, start, prev_stop(p));
        ps_set_exprs(p, proj, vals.v, vals.n);
        Node *orr = one_row(p);
        ps_set_kids(p, proj, &orr, 1);
        src = node_finish(proj);
    }
    Node *s = ps_new(p, NK_SetVariable, start, prev_stop(p));
    ps_set_exprs(p, s, targets.v, targets.n);
    ps_set_kids(p, s, &src, 1);
    return node_finish(s);
}

static Node *set_variable_whole(Parser *p, void *ctx) {
    Node *n = set_variable(p, *(int32_t *)ctx);
    if (!at_eof(p) && !is_op(p, OP_SEMI)) ps_syntax_error(p, "");
    return n;
}

/* A `backquoted` value is unquoted, as Spark's SET key=`value`. */
static const char *set_value(Parser *p, const char *v, const char *e) {
    if (e - v >= 2 && v[0] == '`' && e[-1] == '`') {
        StrBuf sb;
        sb_init(&sb, p->a, (size_t)(e - v));
        for (const char *c = v + 1; c < e - 1; c++) {
            sb_putc(&sb, *c);
            if (*c == '`' && c + 1 < e - 1 && c[1] == '`') c++;
        }
        return sb.data;
    }
    return arena_strndup(p->a, v, (size_t)(e - v));
}

static bool key_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '\\' || c == '.' || c == ':'; }

/* SET, SET key, SET key=value, SET -v: Spark matches the raw text. */
static Node *set_config(Parser *p, int32_t start, int32_t rest) {
    ps_skip_rest(p);
    int32_t end = at_eof(p) ? (int32_t)p->len : cur_start(p);
    const char *s = p->sql + rest, *e = p->sql + end;
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && (isspace((unsigned char)e[-1]) || e[-1] == ';')) e--;
    Node *n = ps_new(p, NK_SetConfig, start, end > start ? end - 1 : start);
    if (s == e) return node_finish(n);
    if (e - s == 2 && s[0] == '-' && s[1] == 'v') {
        n->u.ddl.text = "-v";
        return node_finish(n);
    }
    const char *k = s;
    /* `key` = value (quoted key) */
    if (*k == '`') {
        const char *q = memchr(k + 1, '`', (size_t)(e - k - 1));
        if (q) {
            const char *after = q + 1;
            while (after < e && isspace((unsigned char)*after)) after++;
            n->u.ddl.text = arena_strndup(p->a, k + 1, (size_t)(q - k - 1));
            if (after == e) return node_finish(n);
            if (*after == '=') {
                const char *v = after + 1;
                while (v < e && isspace((unsigned char)*v)) v++;
                n->u.ddl.value = set_value(p, v, e);
                return node_finish(n);
            }
        }
    }
    while (k < e && key_char(*k)) k++;
    if (k > s) {
        const char *after = k;
        while (after < e && isspace((unsigned char)*after)) after++;
        if (after == e && k == e) {
            n->u.ddl.text = arena_strndup(p->a, s, (size_t)(k - s));
            return node_finish(n);
        }
        if (after < e && *after == '=') {
            const char *v = after + 1;
            while (v < e && isspace((unsigned char)*v)) v++;
            n->u.ddl.text = arena_strndup(p->a, s, (size_t)(k - s));
            n->u.ddl.value = set_value(p, v, e);
            return node_finish(n);
        }
    }
    ps_defer_error(p, ps_perr(p, "INVALID_SET_SYNTAX", start, n->stop, NULL));
    return node_finish(n);
}

/* SET TIME ZONE INTERVAL ...: the offset as ZoneOffset prints it (+10:00,
 * -08:30, +15:40:32, Z); an offset with months, days, more than 18 hours
 * or a fraction of a second is INVALID_INTERVAL_FORMAT.TIMEZONE_INTERVAL_OUT_OF_RANGE
 * (the error deferred, "" returned). NULL when iv is no interval literal. */
static const char *time_zone_offset(Parser *p, const Node *iv, int32_t start, int32_t stop) {
    if (!iv || iv->kind != NK_Literal || !iv->type || iv->u.lit.v.is_null) return NULL;
    int64_t months = 0, days = 0, micros = 0;
    const DataType *t = iv->type;
    if (t->id == T_YM_INTERVAL) months = iv->u.lit.v.u.i;
    else if (t->id == T_CALENDAR_INTERVAL) {
        months = iv->u.lit.v.u.iv.months;
        days = iv->u.lit.v.u.iv.days;
        micros = iv->u.lit.v.u.iv.micros;
    } else if (t->id == T_DT_INTERVAL) {
        micros = iv->u.lit.v.u.iv.micros;
        if (t->start_field == IF_DAY) days = micros / 86400000000LL, micros %= 86400000000LL;
    } else return NULL;
    int64_t hours = (micros < 0 ? -micros : micros) / 3600000000LL;
    const char *bad = months ? arena_printf(p->a, "%lld", (long long)months)
                      : days ? arena_printf(p->a, "%lld", (long long)days)
                      : hours > 18 || (hours == 18 && micros % 3600000000LL) ? arena_printf(p->a, "%lld", (long long)hours)
                      : micros % 1000000 ? arena_printf(p->a, "%lld", (long long)micros)
                      : NULL;
    if (bad) {
        ps_defer_error(p, ps_perr(p, "INVALID_INTERVAL_FORMAT.TIMEZONE_INTERVAL_OUT_OF_RANGE", start, stop, "input", bad, NULL));
        return "";
    }
    int64_t secs = micros / 1000000, a = secs < 0 ? -secs : secs;
    if (!secs) return "Z";
    int h = (int)(a / 3600), m = (int)(a / 60 % 60), sec = (int)(a % 60);
    return sec ? arena_printf(p->a, "%c%02d:%02d:%02d", secs < 0 ? '-' : '+', h, m, sec)
               : arena_printf(p->a, "%c%02d:%02d", secs < 0 ? '-' : '+', h, m);
}

static Node *parse_set(Parser *p, int32_t start) {
    const Token *set_tok = tk(p);
    advance(p);
    if (ps_word_is(p, 0, "TIME") && ps_word_is(p, 1, "ZONE")) {
        /* SET TIME ZONE 'zone' | LOCAL | INTERVAL ...: spark.sql.session.timeZone */
        advance(p), advance(p);
        Node *n = ps_new(p, NK_SetConfig, start, 0);
        n->u.ddl.text = "spark.sql.session.timeZone";
        if (ps_at_string(p)) n->u.ddl.value = ps_parse_string_lit(p, NULL);
        else if (ps_accept_word(p, "LOCAL")) {
            /* TimeZone.getDefault: the statement puts in the zone a session starts with */
            n->u.ddl.value = "LOCAL";
            n->flags |= NF_IMPLICIT;
        } else if (is_kw(p, KW_INTERVAL)) {
            int32_t is = cur_start(p);
            Node *iv = ps_parse_value_expr(p);
            n->u.ddl.value = time_zone_offset(p, iv, is, prev_stop(p));
        }
        n->stop = prev_stop(p);
        if (!n->u.ddl.value || (tk(p)->kind != TK_EOF && !is_op(p, OP_SEMI))) {
            /* visitSetTimeZone: neither a zone nor an interval (or more after it) */
            while (tk(p)->kind != TK_EOF && !is_op(p, OP_SEMI)) advance(p);
            n->stop = prev_stop(p);
            ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0045", start, n->stop, NULL));
            n->u.ddl.value = "";
        }
        return node_finish(n);
    }
    if (ps_word_is(p, 0, "COLLATION") && (tk_at(p, 1)->kind == TK_WORD || tk_at(p, 1)->kind == TK_QIDENT) &&
        (tk_at(p, 2)->kind == TK_EOF || is_op_at(p, 2, OP_SEMI))) {
        /* SET COLLATION name: spark.sql.session.collation.default (visitSetCollation) */
        advance(p);
        Node *n = ps_new(p, NK_SetConfig, start, 0);
        n->u.ddl.text = "spark.sql.session.collation.default";
        n->u.ddl.value = ps_parse_identifier(p);
        n->stop = prev_stop(p);
        return node_finish(n);
    }
    if (ps_word_is(p, 0, "CATALOG") && !is_op_at(p, 1, OP_EQ) && !is_op_at(p, 1, OP_DOT) && tk_at(p, 1)->kind != TK_EOF) {
        /* SET CATALOG name | 'name' | IDENTIFIER(...) */
        advance(p);
        Node *n = ps_new(p, NK_SetCatalog, start, 0);
        if (ps_at_string(p)) n->u.ddl.value = ps_parse_string_lit(p, NULL);
        else {
            Target t = ps_parse_target(p);
            n->stop = prev_stop(p);
            return ps_stmt_finish(p, n, &t);
        }
        n->stop = prev_stop(p);
        return node_finish(n);
    }
    if (is_kw(p, KW_VAR) || is_kw(p, KW_VARIABLE)) {
        /* SET VARIABLE if it is one syntactically, else SET config text */
        Node *n = ps_try(p, set_variable_whole, &start);
        if (n) return n;
    }
    return set_config(p, start, set_tok->end);
}

/* ---- EXECUTE IMMEDIATE ---- */

static Node *execute_immediate(Parser *p, int32_t start) {
    advance(p), advance(p);
    NodeVec ex = {0}, using = {0}, into = {0};
    ps_nv_push(p, &ex, ps_parse_value_expr(p));
    if (ps_accept_kw(p, KW_INTO)) {
        do {
            int32_t ts = cur_start(p);
            NameParts np = ps_parse_multipart(p);
            ps_nv_push(p, &into, ps_mk_attr(p, np, ts, prev_stop(p)));
        } while (ps_accept_op(p, OP_COMMA));
    }
    if (ps_accept_kw(p, KW_USING)) {
        do {
            int32_t us = cur_start(p);
            Node *e = ps_parse_expr(p);
            if (ps_accept_kw(p, KW_AS) || (ps_at_identifier(p) && !is_op(p, OP_COMMA) && !is_kw(p, KW_INTO))) {
                const char *an = ps_parse_identifier(p);
                Node *a = ps_new(p, NK_Alias, us, prev_stop(p));
                a->u.attr.name = an;
                ps_set_kids(p, a, &e, 1);
                e = node_finish(a);
            }
            ps_nv_push(p, &using, e);
        } while (ps_accept_op(p, OP_COMMA));
    }
    if (!into.n && ps_accept_kw(p, KW_INTO)) {
        do {
            int32_t ts = cur_start(p);
            NameParts np = ps_parse_multipart(p);
            ps_nv_push(p, &into, ps_mk_attr(p, np, ts, prev_stop(p)));
        } while (ps_accept_op(p, OP_COMMA));
    }
    Node *s = ps_new(p, NK_ExecuteImmediate, start, prev_stop(p));
    for (uint32_t i = 0; i < using.n; i++) ps_nv_push(p, &ex, using.v[i]);
    for (uint32_t i = 0; i < into.n; i++) ps_nv_push(p, &ex, into.v[i]);
    ps_set_exprs(p, s, ex.v, ex.n);
    s->u.ddl.nusing = using.n;
    return node_finish(s);
}

/* ---- INSERT ---- */

static Node *insert_into(Parser *p, int32_t start) {
    advance(p);
    bool overwrite = false;
    if (ps_accept_kw(p, KW_OVERWRITE)) overwrite = true;
    else ps_expect_kw(p, KW_INTO);
    ps_accept_kw(p, KW_TABLE);
    Target t = ps_parse_target(p);
    if (is_kw(p, KW_PARTITION) && is_op_at(p, 1, OP_LPAREN)) {
        advance(p);
        ps_skip_balanced(p);
    }
    Node *s = ps_new(p, NK_InsertInto, start, 0);
    s->u.ddl.or_replace = overwrite;
    if (is_op(p, OP_LPAREN) && !ps_at_query_start(p)) {
        advance(p);
        PtrVec names = {0};
        do {
            ps_pv_push(p, &names, ps_parse_identifier(p));
            if (is_op(p, OP_LPAREN)) ps_syntax_error(p, ": missing ')'");
        } while (ps_accept_op(p, OP_COMMA));
        ps_expect_op(p, OP_RPAREN);
        s->u.ddl.ncols = names.n;
        s->u.ddl.col_names = (const char **)names.v;
    }
    if (is_kw(p, KW_BY) && is_kw_at(p, 1, KW_NAME)) advance(p), advance(p);
    Node *q = ps_parse_query(p);
    ps_set_kids(p, s, &q, 1);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

Node *ps_parse_insert(Parser *p, int32_t start) { return insert_into(p, start); }

/* ---- DROP ---- */

static Node *parse_drop(Parser *p, int32_t start) {
    if (is_kw_at(p, 1, KW_TABLE) || is_kw_at(p, 1, KW_VIEW)) {
        advance(p);
        bool view = is_kw(p, KW_VIEW);
        advance(p);
        bool ie = ps_parse_if_exists(p);
        Target t = ps_parse_target(p);
        ps_accept_word(p, "PURGE");
        Node *s = ps_new(p, NK_DropTable, start, prev_stop(p));
        s->u.ddl.is_view = view;
        s->u.ddl.if_exists = ie;
        return ps_stmt_finish(p, s, &t);
    }
    if (tok_kw(tk_at(p, 1), KW_DATABASE) || tok_kw(tk_at(p, 1), KW_SCHEMA) || tok_kw(tk_at(p, 1), KW_NAMESPACE)) {
        advance(p);
        return drop_namespace(p, start);
    }
    if ((is_kw_at(p, 1, KW_TEMPORARY) || is_kw_at(p, 1, KW_TEMP)) && (is_kw_at(p, 2, KW_VARIABLE) || is_kw_at(p, 2, KW_VAR))) {
        advance(p), advance(p), advance(p);
        bool ie = ps_parse_if_exists(p);
        Target t = ps_parse_target(p);
        Node *s = ps_new(p, NK_DropVariable, start, prev_stop(p));
        s->u.ddl.if_exists = ie;
        return ps_stmt_finish(p, s, &t);
    }
    if (is_kw_at(p, 1, KW_FUNCTION) || (is_kw_at(p, 1, KW_TEMPORARY) && is_kw_at(p, 2, KW_FUNCTION)) ||
        ps_word_is(p, 1, "INDEX"))
        return ps_parse_command(p, start);
    advance(p);
    ps_syntax_error(p, "");
}

/* ---- CREATE ---- */

static Node *parse_create(Parser *p, int32_t start) {
    advance(p); /* CREATE */
    bool or_replace = false, global = false, temp = false;
    if (is_kw(p, KW_OR) && is_kw_at(p, 1, KW_REPLACE)) {
        advance(p), advance(p);
        or_replace = true;
    }
    if (ps_accept_kw(p, KW_GLOBAL)) global = true;
    if (ps_accept_kw(p, KW_TEMPORARY) || ps_accept_kw(p, KW_TEMP)) temp = true;
    ps_accept_word(p, "EXTERNAL");
    if (is_kw(p, KW_VIEW)) return create_view(p, start, or_replace, global, temp);
    if (is_kw(p, KW_TABLE)) return create_table(p, start, or_replace, temp);
    if (at_namespace_word(p) && !or_replace && !temp) return create_namespace(p, start);
    /* CREATE [OR REPLACE] [TEMPORARY] FUNCTION, CREATE INDEX: restarting at CREATE */
    while (p->pos > 0 && p->t[p->pos - 1].start >= start) p->pos--;
    return ps_parse_command(p, start);
}

/* ---- dispatch ---- */

Node *ps_parse_statement_body(Parser *p) {
    int32_t start = cur_start(p);
    if (ps_at_query_start(p) || is_op(p, OP_LPAREN)) {
        p->dml_after_with = true; /* Spark's `ctes? dmlStatementNoWith` */
        return ps_parse_query(p);
    }
    const Token *t = tk(p);
    if (t->kind != TK_WORD) ps_syntax_error(p, "");
    switch (t->kw) {
    case KW_CREATE: return parse_create(p, start);
    case KW_DROP: return parse_drop(p, start);
    case KW_USE: {
        advance(p);
        bool namespace_only = false;
        if (at_namespace_word(p) && (tk_at(p, 1)->kind == TK_WORD || tk_at(p, 1)->kind == TK_QIDENT)) {
            advance(p);
            namespace_only = true;
        }
        Target tg = ps_parse_target(p);
        Node *s = ps_new(p, NK_UseNamespace, start, prev_stop(p));
        s->u.ddl.namespace_only = namespace_only;
        return ps_stmt_finish(p, s, &tg);
    }
    case KW_DECLARE: return declare_variable(p, start);
    case KW_SET: return parse_set(p, start);
    case KW_RESET: {
        advance(p);
        int32_t ks = cur_start(p);
        ps_skip_rest(p);
        Node *s = ps_new(p, NK_ResetConfig, start, prev_stop(p));
        if (prev_stop(p) >= ks) s->u.ddl.text = ps_text_between(p, ks, prev_stop(p));
        return node_finish(s);
    }
    case KW_EXECUTE:
        if (is_kw_at(p, 1, KW_IMMEDIATE)) return execute_immediate(p, start);
        break;
    case KW_INSERT: return insert_into(p, start);
    default: break;
    }
    if (ps_word_is(p, 0, "ALTER")) return ps_parse_alter(p, start);
    static const char *const commands[] = {"DESCRIBE", "DESC", "SHOW", "CACHE", "UNCACHE", "ANALYZE",
                                           "REFRESH", "REPAIR", "MSCK", "TRUNCATE", "COMMENT", "DELETE", "UPDATE",
                                           "MERGE", "REPLACE", "EXPLAIN", "CLEAR", "LOAD", "ADD", "LIST", "CALL"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (ps_word_is(p, 0, commands[i])) return ps_parse_command(p, start);
    ps_syntax_error(p, "");
}
