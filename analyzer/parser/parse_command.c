/* The statements beyond queries, tables, views, namespaces, variables and
 * SET: DESCRIBE, SHOW, ALTER, CACHE, REFRESH, REPAIR, TRUNCATE, ANALYZE,
 * LOAD DATA, ADD/LIST resources, COMMENT ON, CREATE/DROP FUNCTION and
 * INDEX, DELETE/UPDATE/MERGE, REPLACE TABLE, CALL and EXPLAIN, each as its
 * own node kind (node_kinds.def) with what the statement says in u.ddl.
 *
 * A statement starts with a head of keywords (Spark's SqlBaseParser rule
 * names the same words); the longest head the words match picks the kind,
 * and the kind's own part reads the rest. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "parser_int.h"
#include "core/collation.h"

typedef enum Tail {
    T_TARGET,        /* [IF [NOT] EXISTS] target, then the rest skipped */
    T_NONE,          /* nothing follows */
    T_DESCRIBE,      /* target [PARTITION (...)] [column] [AS JSON], or a query */
    T_LISTING,       /* [FROM|IN ns] [[LIKE] 'pattern'] */
    T_TABLE_EXT,     /* [FROM|IN ns] LIKE 'pattern' [PARTITION (...)] */
    T_COLUMNS,       /* FROM|IN table [FROM|IN ns] */
    T_PARTITIONS,    /* table [PARTITION (...)] */
    T_TBLPROPERTIES, /* table [('key')] */
    T_CREATE_TABLE,  /* table [AS SERDE] */
    T_CACHE,         /* table [OPTIONS (...)] [[AS] query] */
    T_RESOURCE,      /* the rest as text (paths) */
    T_REFRESH,       /* 'path' or the rest as text */
    T_LOAD,          /* [LOCAL] INPATH 'p' [OVERWRITE] INTO TABLE t [PARTITION (...)] */
    T_ANALYZE,       /* table [PARTITION (...)] COMPUTE STATISTICS [NOSCAN | FOR COLUMNS ... | FOR ALL COLUMNS] */
    T_ANALYZE_ALL,   /* [FROM|IN ns] COMPUTE STATISTICS [NOSCAN] */
    T_REPAIR,        /* table [ADD|DROP|SYNC PARTITIONS] */
    T_COMMENT,       /* target IS 'comment' | NULL */
    T_FUNCTION,      /* [IF NOT EXISTS] name AS 'class' [USING ...] */
    T_EXPLAIN,       /* [mode] statement */
} Tail;

typedef struct Head {
    const char *words; /* upper case, DESCRIBE written DESC */
    NodeKind kind;
    Tail tail;
} Head;

static const Head HEADS[] = {
    {"EXPLAIN", NK_Explain, T_EXPLAIN},
    {"DESC", NK_DescribeRelation, T_DESCRIBE},
    {"DESC TABLE", NK_DescribeRelation, T_DESCRIBE},
    {"DESC EXTENDED", NK_DescribeRelation, T_DESCRIBE},
    {"DESC FORMATTED", NK_DescribeRelation, T_DESCRIBE},
    {"DESC TABLE EXTENDED", NK_DescribeRelation, T_DESCRIBE},
    {"DESC TABLE FORMATTED", NK_DescribeRelation, T_DESCRIBE},
    {"DESC QUERY", NK_DescribeQuery, T_DESCRIBE},
    {"DESC SCHEMA", NK_DescribeNamespace, T_TARGET},
    {"DESC SCHEMA EXTENDED", NK_DescribeNamespace, T_TARGET},
    {"DESC DATABASE", NK_DescribeNamespace, T_TARGET},
    {"DESC DATABASE EXTENDED", NK_DescribeNamespace, T_TARGET},
    {"DESC NAMESPACE", NK_DescribeNamespace, T_TARGET},
    {"DESC NAMESPACE EXTENDED", NK_DescribeNamespace, T_TARGET},
    {"DESC FUNCTION", NK_DescribeFunction, T_TARGET},
    {"DESC FUNCTION EXTENDED", NK_DescribeFunction, T_TARGET},
    {"SHOW NAMESPACES", NK_ShowNamespaces, T_LISTING},
    {"SHOW SCHEMAS", NK_ShowNamespaces, T_LISTING},
    {"SHOW DATABASES", NK_ShowNamespaces, T_LISTING},
    {"SHOW TABLES", NK_ShowTables, T_LISTING},
    {"SHOW TABLE EXTENDED", NK_ShowTableExtended, T_TABLE_EXT},
    {"SHOW VIEWS", NK_ShowViews, T_LISTING},
    {"SHOW COLUMNS", NK_ShowColumns, T_COLUMNS},
    {"SHOW PARTITIONS", NK_ShowPartitions, T_PARTITIONS},
    {"SHOW FUNCTIONS", NK_ShowFunctions, T_LISTING},
    {"SHOW USER FUNCTIONS", NK_ShowFunctions, T_LISTING},
    {"SHOW SYSTEM FUNCTIONS", NK_ShowFunctions, T_LISTING},
    {"SHOW ALL FUNCTIONS", NK_ShowFunctions, T_LISTING},
    {"SHOW CREATE TABLE", NK_ShowCreateTable, T_CREATE_TABLE},
    {"SHOW TBLPROPERTIES", NK_ShowTblProperties, T_TBLPROPERTIES},
    {"SHOW CURRENT NAMESPACE", NK_ShowCurrentNamespace, T_NONE},
    {"SHOW CURRENT SCHEMA", NK_ShowCurrentNamespace, T_NONE},
    {"SHOW CURRENT DATABASE", NK_ShowCurrentNamespace, T_NONE},
    {"SHOW CATALOGS", NK_ShowCatalogs, T_LISTING},
    {"CACHE TABLE", NK_CacheTable, T_CACHE},
    {"CACHE LAZY TABLE", NK_CacheTable, T_CACHE},
    {"UNCACHE TABLE", NK_UncacheTable, T_TARGET},
    {"CLEAR CACHE", NK_ClearCache, T_NONE},
    {"REFRESH TABLE", NK_RefreshTable, T_TARGET},
    {"REFRESH FUNCTION", NK_RefreshFunction, T_TARGET},
    {"REFRESH", NK_RefreshResource, T_REFRESH},
    {"REPAIR TABLE", NK_RepairTable, T_REPAIR},
    {"MSCK REPAIR TABLE", NK_RepairTable, T_REPAIR},
    {"TRUNCATE TABLE", NK_TruncateTable, T_PARTITIONS},
    {"ANALYZE TABLE", NK_AnalyzeTable, T_ANALYZE},
    {"ANALYZE TABLES", NK_AnalyzeTables, T_ANALYZE_ALL},
    {"LOAD DATA", NK_LoadData, T_LOAD},
    {"ADD JAR", NK_AddResource, T_RESOURCE},
    {"ADD JARS", NK_AddResource, T_RESOURCE},
    {"ADD FILE", NK_AddResource, T_RESOURCE},
    {"ADD FILES", NK_AddResource, T_RESOURCE},
    {"ADD ARCHIVE", NK_AddResource, T_RESOURCE},
    {"ADD ARCHIVES", NK_AddResource, T_RESOURCE},
    {"LIST JAR", NK_ListResource, T_RESOURCE},
    {"LIST JARS", NK_ListResource, T_RESOURCE},
    {"LIST FILE", NK_ListResource, T_RESOURCE},
    {"LIST FILES", NK_ListResource, T_RESOURCE},
    {"LIST ARCHIVE", NK_ListResource, T_RESOURCE},
    {"LIST ARCHIVES", NK_ListResource, T_RESOURCE},
    {"DELETE FROM", NK_DeleteFrom, T_TARGET},
    {"UPDATE", NK_UpdateTable, T_TARGET},
    {"MERGE INTO", NK_MergeInto, T_TARGET},
    {"REPLACE TABLE", NK_ReplaceTable, T_TARGET},
    {"CALL", NK_CallProcedure, T_TARGET},
    {"COMMENT ON TABLE", NK_CommentOnTable, T_COMMENT},
    {"COMMENT ON SCHEMA", NK_CommentOnNamespace, T_COMMENT},
    {"COMMENT ON DATABASE", NK_CommentOnNamespace, T_COMMENT},
    {"COMMENT ON NAMESPACE", NK_CommentOnNamespace, T_COMMENT},
    {"CREATE FUNCTION", NK_CreateFunction, T_FUNCTION},
    {"CREATE TEMPORARY FUNCTION", NK_CreateFunction, T_FUNCTION},
    {"CREATE OR REPLACE FUNCTION", NK_CreateFunction, T_FUNCTION},
    {"CREATE OR REPLACE TEMPORARY FUNCTION", NK_CreateFunction, T_FUNCTION},
    {"DROP FUNCTION", NK_DropFunction, T_TARGET},
    {"DROP TEMPORARY FUNCTION", NK_DropFunction, T_TARGET},
    {"CREATE INDEX", NK_CreateIndex, T_TARGET},
    {"DROP INDEX", NK_DropIndex, T_TARGET},
};
#define NHEADS (sizeof HEADS / sizeof HEADS[0])

static const char *upper_word(Parser *p) {
    char *w = (char *)ps_tok_text(p, tk(p));
    for (char *c = w; *c; c++) *c = (char)toupper((unsigned char)*c);
    return !strcmp(w, "DESCRIBE") ? "DESC" : w;
}

/* Some head starts with `words` followed by more words. */
static bool head_extends(const char *words, const char *next) {
    size_t n = strlen(words), m = strlen(next);
    for (size_t i = 0; i < NHEADS; i++) {
        const char *h = HEADS[i].words;
        if (!strncmp(h, words, n) && h[n] == ' ' && !strncmp(h + n + 1, next, m) && (h[n + 1 + m] == ' ' || !h[n + 1 + m]))
            return true;
    }
    return false;
}

static const Head *head_of(const char *words) {
    for (size_t i = 0; i < NHEADS; i++)
        if (!strcmp(HEADS[i].words, words)) return &HEADS[i];
    return NULL;
}

/* A literal value as Spark keeps it in a property or partition spec: a
 * string unquoted, anything else as written. */
static const char *spec_value(Parser *p) {
    if (ps_at_string(p)) return ps_parse_string_lit(p, NULL);
    int32_t s = cur_start(p);
    if (is_op(p, OP_MINUS) || is_op(p, OP_PLUS)) advance(p);
    if (at_eof(p) || is_op(p, OP_COMMA) || is_op(p, OP_RPAREN)) ps_syntax_error(p, "");
    advance(p);
    return ps_text_between(p, s, prev_stop(p));
}

/* A property key: a dotted identifier or a string. */
static const char *prop_key(Parser *p) {
    if (ps_at_string(p)) return ps_parse_string_lit(p, NULL);
    NameParts n = ps_parse_multipart(p);
    StrBuf sb;
    sb_init(&sb, p->a, 32);
    for (uint32_t i = 0; i < n.n; i++) {
        if (i) sb_putc(&sb, '.');
        sb_puts(&sb, n.v[i]);
    }
    return sb.data;
}

/* (k [=] v, ...), or with keys_only (k, ...) as UNSET TBLPROPERTIES has. */
void ps_parse_props(Parser *p, Node *s, bool keys_only) {
    ps_expect_op(p, OP_LPAREN);
    PtrVec k = {0}, v = {0};
    if (!is_op(p, OP_RPAREN)) {
        do {
            ps_pv_push(p, &k, prop_key(p));
            if (!keys_only) {
                ps_accept_op(p, OP_EQ);
                ps_pv_push(p, &v, is_op(p, OP_COMMA) || is_op(p, OP_RPAREN) ? NULL : spec_value(p));
            }
        } while (ps_accept_op(p, OP_COMMA));
    }
    ps_expect_op(p, OP_RPAREN);
    ps_spec(p, s)->nprops = k.n;
    ps_spec(p, s)->prop_keys = (const char **)k.v;
    ps_spec(p, s)->prop_values = keys_only ? NULL : (const char **)v.v;
}

/* PARTITION (k [= v], ...) when the current token is PARTITION. */
static bool parse_partition(Parser *p, Node *s) {
    if (!is_kw(p, KW_PARTITION)) return false;
    advance(p);
    ps_expect_op(p, OP_LPAREN);
    PtrVec k = {0}, v = {0};
    do {
        ps_pv_push(p, &k, ps_parse_identifier(p));
        ps_pv_push(p, &v, ps_accept_op(p, OP_EQ) ? spec_value(p) : NULL);
    } while (ps_accept_op(p, OP_COMMA));
    ps_expect_op(p, OP_RPAREN);
    ps_spec(p, s)->npart = k.n;
    ps_spec(p, s)->part_keys = (const char **)k.v;
    ps_spec(p, s)->part_values = (const char **)v.v;
    return true;
}

static bool at_end(const Parser *p) { return at_eof(p) || is_op(p, OP_SEMI); }

static void expect_end(Parser *p) {
    if (!at_end(p)) ps_syntax_error(p, "");
}

/* [FROM|IN ns]: the namespace, if given. */
static bool parse_from_in(Parser *p, Target *t) {
    if (!is_kw(p, KW_FROM) && !is_kw(p, KW_IN)) return false;
    advance(p);
    *t = ps_parse_target(p);
    return true;
}

static Node *explain(Parser *p, Node *s) {
    while (ps_word_is(p, 0, "EXTENDED") || ps_word_is(p, 0, "CODEGEN") || ps_word_is(p, 0, "COST") ||
           ps_word_is(p, 0, "FORMATTED") || ps_word_is(p, 0, "LOGICAL")) {
        if (!s->u.ddl.value) s->u.ddl.value = upper_word(p);
        advance(p);
    }
    Node *inner = ps_parse_statement_body(p);
    ps_set_kids(p, s, &inner, 1);
    s->stop = prev_stop(p);
    return node_finish(s);
}

static Node *describe(Parser *p, Node *s, const char *words) {
    s->u.ddl.extended = strstr(words, "EXTENDED") || strstr(words, "FORMATTED");
    s->u.ddl.value = strstr(words, "FORMATTED") ? "FORMATTED" : NULL;
    bool query_word = s->kind == NK_DescribeQuery;
    if ((query_word || !strcmp(words, "DESC")) && ps_at_query_start(p) &&
        (query_word || !(tk_at(p, 1)->kind == TK_EOF || tok_op(tk_at(p, 1), OP_SEMI) || tok_op(tk_at(p, 1), OP_DOT)))) {
        /* DESCRIBE [QUERY] query */
        s->kind = NK_DescribeQuery;
        Node *q = ps_parse_query(p);
        ps_set_kids(p, s, &q, 1);
        s->stop = prev_stop(p);
        expect_end(p);
        return node_finish(s);
    }
    if (query_word) ps_syntax_error(p, "");
    Target t = ps_parse_target(p);
    parse_partition(p, s);
    if (!at_end(p) && !is_kw(p, KW_AS)) ps_spec(p, s)->name2 = ps_parse_multipart(p);
    if (is_kw(p, KW_AS) && ps_word_is(p, 1, "JSON")) {
        advance(p), advance(p);
        s->u.ddl.as_json = true;
    }
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

static Node *listing(Parser *p, Node *s, Tail tail) {
    Target t = {{0, NULL}, NULL, false, -1, -1};
    bool in = s->kind != NK_ShowCatalogs && parse_from_in(p, &t);
    if (ps_word_is(p, 0, "LIKE")) {
        advance(p);
        if (!ps_at_string(p)) ps_syntax_error(p, "");
    } else if (tail == T_TABLE_EXT) {
        ps_syntax_error(p, "");
    }
    if (ps_at_string(p)) s->u.ddl.value = ps_parse_string_lit(p, NULL);
    else if (s->kind == NK_ShowFunctions && ps_at_identifier(p) && !at_end(p)) {
        /* SHOW FUNCTIONS [LIKE] name: a function name as the pattern */
        int32_t ps = cur_start(p);
        ps_parse_multipart(p);
        s->u.ddl.value = ps_text_between(p, ps, prev_stop(p));
    }
    if (tail == T_TABLE_EXT) parse_partition(p, s);
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, in ? &t : NULL);
}

static Node *show_columns(Parser *p, Node *s) {
    if (!ps_accept_kw(p, KW_FROM) && !ps_accept_kw(p, KW_IN)) ps_syntax_error(p, "");
    Target t = ps_parse_target(p);
    if (ps_accept_kw(p, KW_FROM) || ps_accept_kw(p, KW_IN)) ps_spec(p, s)->name2 = ps_parse_multipart(p);
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

static Node *cache_table(Parser *p, Node *s, const char *words) {
    s->u.ddl.value = strstr(words, "LAZY") ? "LAZY" : NULL;
    Target t = ps_parse_target(p);
    if (ps_accept_kw(p, KW_OPTIONS)) ps_parse_props(p, s, false);
    bool as = ps_accept_kw(p, KW_AS);
    if (as || ps_at_query_start(p)) {
        int32_t qs = cur_start(p);
        Node *q = ps_parse_query(p);
        s->u.ddl.text = ps_text_between(p, qs, prev_stop(p));
        s->u.ddl.extended = true; /* CACHE TABLE t AS query: text is the query's */
        ps_set_kids(p, s, &q, 1);
    }
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

/* The rest of the statement as written, or NULL when nothing follows. */
static const char *rest_text(Parser *p) {
    if (at_end(p)) return NULL;
    int32_t rs = cur_start(p);
    ps_skip_rest(p);
    return ps_text_between(p, rs, prev_stop(p));
}

static Node *load_data(Parser *p, Node *s) {
    if (ps_word_is(p, 0, "LOCAL")) {
        advance(p);
        s->u.ddl.local = true;
    }
    if (!ps_accept_word(p, "INPATH")) ps_syntax_error(p, "");
    if (!ps_at_string(p)) ps_syntax_error(p, "");
    s->u.ddl.value = ps_parse_string_lit(p, NULL);
    if (ps_accept_kw(p, KW_OVERWRITE)) s->u.ddl.or_replace = true;
    ps_expect_kw(p, KW_INTO);
    ps_expect_kw(p, KW_TABLE);
    Target t = ps_parse_target(p);
    parse_partition(p, s);
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

static Node *analyze(Parser *p, Node *s, bool all) {
    Target t = {{0, NULL}, NULL, false, -1, -1};
    bool has_target = all ? parse_from_in(p, &t) : (t = ps_parse_target(p), true);
    if (!all) parse_partition(p, s);
    if (!ps_word_is(p, 0, "COMPUTE") || !ps_word_is(p, 1, "STATISTICS")) ps_syntax_error(p, "");
    advance(p), advance(p);
    if (ps_word_is(p, 0, "NOSCAN")) {
        advance(p);
        s->u.ddl.value = "NOSCAN";
    } else if (!all && is_kw(p, KW_FOR)) {
        advance(p);
        if (is_kw(p, KW_ALL)) {
            advance(p);
            s->u.ddl.value = "FOR ALL COLUMNS";
        } else {
            s->u.ddl.value = "FOR COLUMNS";
            PtrVec cols = {0};
            if (!ps_word_is(p, 0, "COLUMNS")) ps_syntax_error(p, "");
            advance(p);
            do {
                NameParts n = ps_parse_multipart(p);
                ps_pv_push(p, &cols, n.v[n.n - 1]);
            } while (ps_accept_op(p, OP_COMMA));
            s->u.ddl.ncols = cols.n;
            s->u.ddl.col_names = (const char **)cols.v;
            return ps_stmt_finish(p, s, &t);
        }
        if (!ps_accept_word(p, "COLUMNS")) ps_syntax_error(p, "");
    }
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, has_target ? &t : NULL);
}

static Node *repair(Parser *p, Node *s) {
    Target t = ps_parse_target(p);
    if (ps_word_is(p, 1, "PARTITIONS")) {
        if (ps_word_is(p, 0, "ADD")) s->u.ddl.action = SA_REPAIR_ADD;
        else if (is_kw(p, KW_DROP)) s->u.ddl.action = SA_REPAIR_DROP;
        else if (ps_word_is(p, 0, "SYNC")) s->u.ddl.action = SA_REPAIR_SYNC;
        else ps_syntax_error(p, "");
        advance(p), advance(p);
    }
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

static Node *comment_on(Parser *p, Node *s) {
    Target t = ps_parse_target(p);
    if (!ps_accept_kw(p, KW_IS)) ps_syntax_error(p, "");
    if (ps_accept_kw(p, KW_NULL)) s->u.ddl.value = NULL;
    else if (ps_at_string(p)) s->u.ddl.value = ps_parse_string_lit(p, NULL);
    else ps_syntax_error(p, "");
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

/* CREATE FUNCTION f ( [name type [DEFAULT expr] [COMMENT 'c'], ...] )
 * RETURNS type [characteristics] RETURN { query | expression }: the
 * parameters, the scalar return type and the body's text (Spark's
 * createUserDefinedFunction). RETURNS TABLE (a table function) and anything
 * else this does not read keep ret_type NULL: the rest is skipped. */
static void sql_function_header(Parser *p, Node *s) {
    int32_t save = p->pos;
    if (!is_op(p, OP_LPAREN)) goto skip;
    advance(p);
    PtrVec names = {0}, types = {0}, defaults = {0};
    if (!is_op(p, OP_RPAREN)) {
        do {
            if (!ps_at_identifier(p)) goto skip;
            const char *name = ps_parse_identifier(p);
            const DataType *t = ps_parse_type(p);
            const char *dflt = NULL;
            if (ps_word_is(p, 0, "DEFAULT")) {
                advance(p);
                int32_t ds = cur_start(p);
                (void)ps_parse_expr(p);
                dflt = arena_strndup(p->a, p->sql + ds, (size_t)(prev_stop(p) + 1 - ds));
            }
            if (ps_word_is(p, 0, "COMMENT")) {
                advance(p);
                (void)ps_parse_string_lit(p, NULL);
            }
            ps_pv_push(p, &names, (void *)name);
            ps_pv_push(p, &types, (void *)t);
            ps_pv_push(p, &defaults, (void *)dflt);
        } while (ps_accept_op(p, OP_COMMA));
    }
    ps_expect_op(p, OP_RPAREN);
    if (!ps_word_is(p, 0, "RETURNS")) goto skip;
    advance(p);
    if (is_kw(p, KW_TABLE)) goto skip;
    const DataType *ret = ps_parse_type(p);
    /* LANGUAGE SQL, [NOT] DETERMINISTIC, COMMENT '...', CONTAINS SQL, READS SQL DATA, SQL SECURITY ... */
    while (!at_eof(p) && !is_op(p, OP_SEMI) && !ps_word_is(p, 0, "RETURN")) advance(p);
    if (!ps_word_is(p, 0, "RETURN")) goto skip;
    advance(p);
    if (at_eof(p) || is_op(p, OP_SEMI)) goto skip;
    int32_t bs = cur_start(p);
    s->u.ddl.body_is_query = ps_at_query_start(p);
    ps_skip_rest(p);
    s->u.ddl.body = arena_strndup(p->a, p->sql + bs, (size_t)(prev_stop(p) + 1 - bs));
    s->u.ddl.ret_type = ret;
    s->u.ddl.ncols = names.n;
    s->u.ddl.col_names = (const char **)names.v;
    s->u.ddl.col_types = (const DataType **)types.v;
    s->u.ddl.col_defaults = (const char **)defaults.v;
    return;
skip:
    p->pos = save;
    ps_skip_rest(p);
}

static Node *create_function(Parser *p, Node *s, const char *words) {
    s->u.ddl.temporary = strstr(words, "TEMPORARY") != NULL;
    s->u.ddl.or_replace = strstr(words, "REPLACE") != NULL;
    s->u.ddl.if_not_exists = ps_parse_if_not_exists(p);
    Target t = ps_parse_target(p);
    if (is_kw(p, KW_AS) && tk_at(p, 1)->kind == TK_STRING) {
        advance(p);
        s->u.ddl.value = ps_parse_string_lit(p, NULL); /* the class */
        if (ps_accept_kw(p, KW_USING)) ps_skip_rest(p); /* JAR|FILE|ARCHIVE 'uri', ... */
        expect_end(p);
    } else {
        /* a SQL function: (params) RETURNS ... [RETURN] body; value stays NULL */
        s->u.ddl.text = arena_printf(p->a, "%s SQL", s->u.ddl.text);
        sql_function_header(p, s);
    }
    s->stop = prev_stop(p);
    if (s->u.ddl.temporary && (t.ident ? t.folded : true) && t.name.n > 1)
        ps_defer_error(p, ps_perr(p, "INVALID_SQL_SYNTAX.CREATE_TEMP_FUNC_WITH_DATABASE", s->start, prev_stop(p),
                                  "database", sql_ident(p->a, t.name.v[0]), NULL));
    return ps_stmt_finish(p, s, &t);
}

/* DROP [TEMPORARY] FUNCTION, CREATE|DROP INDEX, UNCACHE, REFRESH, DESC
 * SCHEMA|FUNCTION, DELETE/UPDATE/MERGE/REPLACE/CALL: the target, the rest
 * skipped (the statements whose rest Catalyzer does not read). */
static Node *target_then_rest(Parser *p, Node *s, const char *words) {
    s->u.ddl.extended = strstr(words, "EXTENDED") != NULL;
    s->u.ddl.temporary = strstr(words, "TEMPORARY") != NULL;
    if (ps_parse_if_exists(p)) s->u.ddl.if_exists = true;
    else if (ps_parse_if_not_exists(p)) s->u.ddl.if_not_exists = true;
    Target t = {{0, NULL}, NULL, false, -1, -1};
    bool has_target = false;
    if (ps_at_string(p) && s->kind == NK_DescribeFunction) {
        /* DESC FUNCTION 'name' */
        const char *n = ps_parse_string_lit(p, NULL);
        const char **v = ARENA_ARRAY(p->a, const char *, 1);
        v[0] = n;
        t.name = (NameParts){1, v};
        has_target = true;
    } else if (ps_at_identifier(p) && !at_end(p)) {
        t = ps_parse_target(p);
        has_target = true;
    }
    if (s->kind == NK_CreateIndex) {
        /* CREATE INDEX [IF NOT EXISTS] name ON [TABLE] t ...: the index name, then the table */
        ps_spec(p, s)->name2 = t.name;
        ps_expect_kw(p, KW_ON);
        ps_accept_kw(p, KW_TABLE);
        t = ps_parse_target(p);
    } else if (s->kind == NK_DropIndex) {
        ps_spec(p, s)->name2 = t.name;
        ps_expect_kw(p, KW_ON);
        ps_accept_kw(p, KW_TABLE);
        t = ps_parse_target(p);
    }
    ps_skip_rest(p);
    s->stop = prev_stop(p);
    if (s->kind == NK_DropFunction && s->u.ddl.temporary && has_target && (t.ident ? t.folded : true) && t.name.n > 1)
        ps_defer_error(p, ps_perr(p, "INVALID_SQL_SYNTAX.MULTI_PART_NAME", s->start, prev_stop(p), "statement",
                                  "DROP TEMPORARY FUNCTION", "name", sql_id_parts(p->a, t.name), NULL));
    return ps_stmt_finish(p, s, has_target ? &t : NULL);
}

Node *ps_parse_command(Parser *p, int32_t start) {
    StrBuf sb;
    sb_init(&sb, p->a, 32);
    sb_puts(&sb, upper_word(p));
    StrBuf raw;
    sb_init(&raw, p->a, 32);
    {
        char *w = (char *)ps_tok_text(p, tk(p));
        for (char *c = w; *c; c++) *c = (char)toupper((unsigned char)*c);
        sb_puts(&raw, w);
    }
    advance(p);
    /* the longest head the words make; a word followed by `.` is a name */
    while (tk(p)->kind == TK_WORD && !is_op_at(p, 1, OP_DOT) && head_extends(sb.data, upper_word(p))) {
        const char *w = upper_word(p);
        sb_putc(&sb, ' ');
        sb_puts(&sb, w);
        sb_putc(&raw, ' ');
        sb_puts(&raw, ps_tok_text(p, tk(p)));
        advance(p);
    }
    const Head *h = head_of(sb.data);
    if (!h) ps_syntax_error(p, "");
    for (char *c = raw.data; *c; c++) *c = (char)toupper((unsigned char)*c);
    Node *s = ps_new(p, h->kind, start, 0);
    s->u.ddl.text = raw.data; /* the statement's keywords, as written */
    switch (h->tail) {
    case T_EXPLAIN: return explain(p, s);
    case T_DESCRIBE: return describe(p, s, sb.data);
    case T_LISTING:
    case T_TABLE_EXT:
        s->u.ddl.extended = h->tail == T_TABLE_EXT;
        return listing(p, s, h->tail);
    case T_COLUMNS: return show_columns(p, s);
    case T_NONE:
        expect_end(p);
        s->stop = prev_stop(p);
        return node_finish(s);
    case T_PARTITIONS: {
        Target t = ps_parse_target(p);
        parse_partition(p, s);
        expect_end(p);
        s->stop = prev_stop(p);
        return ps_stmt_finish(p, s, &t);
    }
    case T_TBLPROPERTIES: {
        Target t = ps_parse_target(p);
        if (ps_accept_op(p, OP_LPAREN)) {
            s->u.ddl.value = prop_key(p);
            ps_expect_op(p, OP_RPAREN);
        }
        expect_end(p);
        s->stop = prev_stop(p);
        return ps_stmt_finish(p, s, &t);
    }
    case T_CREATE_TABLE: {
        Target t = ps_parse_target(p);
        if (is_kw(p, KW_AS) && ps_word_is(p, 1, "SERDE")) {
            advance(p), advance(p);
            s->u.ddl.is_table = true;
        }
        expect_end(p);
        s->stop = prev_stop(p);
        return ps_stmt_finish(p, s, &t);
    }
    case T_CACHE: return cache_table(p, s, sb.data);
    case T_RESOURCE:
        s->u.ddl.value = rest_text(p);
        s->stop = prev_stop(p);
        return node_finish(s);
    case T_REFRESH:
        if (ps_at_string(p)) {
            s->u.ddl.value = ps_parse_string_lit(p, NULL);
            expect_end(p);
        } else {
            s->u.ddl.value = rest_text(p);
        }
        if (!s->u.ddl.value) ps_syntax_error(p, "");
        s->stop = prev_stop(p);
        return node_finish(s);
    case T_LOAD: return load_data(p, s);
    case T_ANALYZE: return analyze(p, s, false);
    case T_ANALYZE_ALL: return analyze(p, s, true);
    case T_REPAIR: return repair(p, s);
    case T_COMMENT: return comment_on(p, s);
    case T_FUNCTION: return create_function(p, s, sb.data);
    case T_TARGET: return target_then_rest(p, s, sb.data);
    }
    ps_syntax_error(p, "");
}

/* ---- ALTER ---- */

/* col type [NOT NULL] [COMMENT 'c'] [DEFAULT e] [FIRST | AFTER c], ... with
 * or without parentheses: names, types and comments into s. */
static void parse_column_defs(Parser *p, Node *s, bool with_types) {
    bool paren = ps_accept_op(p, OP_LPAREN);
    PtrVec names = {0}, types = {0}, comments = {0};
    do {
        NameParts n = ps_parse_multipart(p);
        const char *nm = n.v[n.n - 1];
        if (n.n > 1) {
            StrBuf sb;
            sb_init(&sb, p->a, 32);
            for (uint32_t i = 0; i < n.n; i++) {
                if (i) sb_putc(&sb, '.');
                sb_puts(&sb, n.v[i]);
            }
            nm = sb.data;
        }
        const DataType *ty = with_types ? ps_parse_type(p) : NULL;
        const char *cm = NULL;
        for (;;) {
            if (is_kw(p, KW_NOT) && is_kw_at(p, 1, KW_NULL)) advance(p), advance(p);
            else if (ps_accept_kw(p, KW_COMMENT)) cm = ps_parse_string_lit(p, NULL);
            else if (ps_accept_kw(p, KW_DEFAULT)) ps_parse_expr(p);
            else if (ps_word_is(p, 0, "FIRST")) advance(p);
            else if (ps_word_is(p, 0, "AFTER")) advance(p), ps_parse_identifier(p);
            else break;
        }
        ps_pv_push(p, &names, nm);
        ps_pv_push(p, &types, ty);
        ps_pv_push(p, &comments, cm);
    } while (ps_accept_op(p, OP_COMMA));
    if (paren) ps_expect_op(p, OP_RPAREN);
    s->u.ddl.ncols = names.n;
    s->u.ddl.col_names = (const char **)names.v;
    s->u.ddl.col_types = (const DataType **)types.v;
    s->u.ddl.col_comments = (const char **)comments.v;
}

/* ALTER|CHANGE [COLUMN] a [TYPE t | COMMENT 'c' | FIRST | AFTER b | SET|DROP NOT NULL | SET|DROP DEFAULT ...]
 * and Hive's CHANGE [COLUMN] a b type [COMMENT 'c'] [FIRST | AFTER c]. */
static void parse_alter_column(Parser *p, Node *s) {
    ps_accept_word(p, "COLUMN");
    NameParts n = ps_parse_multipart(p);
    const char **names = ARENA_ARRAY(p->a, const char *, 2);
    const DataType **types = ARENA_ARRAY(p->a, const DataType *, 1);
    names[0] = n.v[n.n - 1];
    names[1] = NULL;
    s->u.ddl.ncols = 1;
    s->u.ddl.col_names = names;
    s->u.ddl.col_types = types;
    ps_spec(p, s)->name2 = n;
    if (ps_accept_word(p, "TYPE")) {
        types[0] = ps_parse_type(p);
    } else if (ps_accept_kw(p, KW_COMMENT)) {
        s->u.ddl.value = ps_parse_string_lit(p, NULL);
    } else if (ps_word_is(p, 0, "FIRST") || ps_word_is(p, 0, "AFTER")) {
        s->u.ddl.extended = true; /* a position */
        ps_skip_rest(p);
    } else if (is_kw(p, KW_SET) || is_kw(p, KW_DROP)) {
        ps_skip_rest(p);
    } else if (at_end(p)) {
        ps_defer_error(p, ps_perr(p, "_LEGACY_ERROR_TEMP_0035", s->start, prev_stop(p), "message",
                                  "ALTER TABLE table CHANGE COLUMN requires a TYPE, a SET/DROP, a COMMENT, or a FIRST/AFTER",
                                  NULL));
    } else {
        /* Hive: the new name and type */
        names[1] = ps_parse_identifier(p);
        types[0] = ps_parse_type(p);
        for (;;) {
            if (is_kw(p, KW_NOT) && is_kw_at(p, 1, KW_NULL)) advance(p), advance(p);
            else if (ps_accept_kw(p, KW_COMMENT)) s->u.ddl.value = ps_parse_string_lit(p, NULL);
            else if (ps_word_is(p, 0, "FIRST")) advance(p);
            else if (ps_word_is(p, 0, "AFTER")) advance(p), ps_parse_identifier(p);
            else break;
        }
    }
}

static Node *alter_namespace(Parser *p, Node *s) {
    Target t = ps_parse_target(p);
    if (ps_accept_kw(p, KW_SET)) {
        if (ps_word_is(p, 0, "DBPROPERTIES") || ps_word_is(p, 0, "PROPERTIES")) {
            advance(p);
            s->u.ddl.action = SA_SET_PROPERTIES;
            ps_parse_props(p, s, false);
        } else if (ps_accept_kw(p, KW_LOCATION)) {
            s->u.ddl.action = SA_SET_LOCATION;
            s->u.ddl.value = ps_parse_string_lit(p, NULL);
        } else if (ps_word_is(p, 0, "OWNER")) {
            s->u.ddl.action = SA_SET_OWNER;
            ps_skip_rest(p);
        } else {
            ps_syntax_error(p, "");
        }
    } else if (ps_word_is(p, 0, "UNSET") && (ps_word_is(p, 1, "DBPROPERTIES") || ps_word_is(p, 1, "PROPERTIES"))) {
        advance(p), advance(p);
        s->u.ddl.action = SA_UNSET_PROPERTIES;
        ps_parse_props(p, s, true);
    } else {
        ps_syntax_error(p, "");
    }
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

/* ALTER TABLE|VIEW t ... (the current token is TABLE or VIEW). */
static Node *alter_relation(Parser *p, int32_t start, bool view) {
    advance(p);
    Node *s = ps_new(p, view ? NK_AlterView : NK_AlterTable, start, 0);
    s->u.ddl.is_view = view;
    s->u.ddl.text = view ? "ALTER VIEW" : "ALTER TABLE";
    Target t = ps_parse_target(p);
    if (ps_word_is(p, 0, "RENAME") && is_kw_at(p, 1, KW_TO)) {
        advance(p), advance(p);
        s->kind = NK_RenameTable;
        ps_spec(p, s)->name2 = ps_parse_multipart(p);
    } else if (view && (is_kw(p, KW_AS) || (ps_at_query_start(p) && !(is_kw(p, KW_WITH) && ps_word_is(p, 1, "SCHEMA"))))) {
        ps_accept_kw(p, KW_AS);
        s->kind = NK_AlterViewAs;
        int32_t qs = cur_start(p);
        Node *q = ps_parse_query(p);
        s->u.ddl.text = ps_text_between(p, qs, prev_stop(p));
        ps_set_kids(p, s, &q, 1);
    } else if (view && is_kw(p, KW_WITH) && ps_word_is(p, 1, "SCHEMA")) {
        advance(p), advance(p);
        s->u.ddl.action = SA_SCHEMA_BINDING;
        if (ps_word_is(p, 0, "TYPE") && ps_word_is(p, 1, "EVOLUTION")) {
            advance(p), advance(p);
            s->u.ddl.value = "TYPE EVOLUTION";
        } else if (ps_word_is(p, 0, "BINDING") || ps_word_is(p, 0, "COMPENSATION") || ps_word_is(p, 0, "EVOLUTION")) {
            s->u.ddl.value = upper_word(p);
            advance(p);
        } else {
            ps_syntax_error(p, "");
        }
    } else if (ps_word_is(p, 0, "ADD") && (ps_word_is(p, 1, "COLUMN") || ps_word_is(p, 1, "COLUMNS"))) {
        advance(p), advance(p);
        s->u.ddl.action = SA_ADD_COLUMNS;
        parse_column_defs(p, s, true);
    } else if (ps_word_is(p, 0, "ADD")) {
        advance(p);
        s->u.ddl.action = SA_ADD_PARTITION;
        s->u.ddl.if_not_exists = ps_parse_if_not_exists(p);
        if (!parse_partition(p, s)) ps_syntax_error(p, "");
        ps_skip_rest(p); /* LOCATION, further partitions */
    } else if (is_kw(p, KW_DROP) && (ps_word_is(p, 1, "COLUMN") || ps_word_is(p, 1, "COLUMNS"))) {
        advance(p), advance(p);
        s->u.ddl.action = SA_DROP_COLUMNS;
        s->u.ddl.if_exists = ps_parse_if_exists(p);
        parse_column_defs(p, s, false);
    } else if (is_kw(p, KW_DROP)) {
        advance(p);
        s->u.ddl.action = SA_DROP_PARTITION;
        s->u.ddl.if_exists = ps_parse_if_exists(p);
        if (!parse_partition(p, s)) ps_syntax_error(p, "");
        ps_skip_rest(p);
    } else if (ps_word_is(p, 0, "RENAME") && ps_word_is(p, 1, "COLUMN")) {
        advance(p), advance(p);
        s->u.ddl.action = SA_RENAME_COLUMN;
        const char **names = ARENA_ARRAY(p->a, const char *, 2);
        NameParts from = ps_parse_multipart(p);
        names[0] = from.v[from.n - 1];
        ps_expect_kw(p, KW_TO);
        names[1] = ps_parse_identifier(p);
        s->u.ddl.ncols = 2;
        s->u.ddl.col_names = names;
    } else if (ps_word_is(p, 0, "ALTER") || ps_word_is(p, 0, "CHANGE")) {
        s->u.ddl.text = ps_word_is(p, 0, "CHANGE") ? "ALTER TABLE CHANGE" : "ALTER TABLE ALTER";
        advance(p);
        s->u.ddl.action = SA_ALTER_COLUMN;
        parse_alter_column(p, s);
    } else if (ps_word_is(p, 0, "REPLACE") && ps_word_is(p, 1, "COLUMNS")) {
        advance(p), advance(p);
        s->u.ddl.action = SA_REPLACE_COLUMNS;
        parse_column_defs(p, s, true);
    } else if (is_kw(p, KW_SET) && is_kw_at(p, 1, KW_TBLPROPERTIES)) {
        advance(p), advance(p);
        s->u.ddl.action = SA_SET_PROPERTIES;
        ps_parse_props(p, s, false);
    } else if (!view && is_kw(p, KW_DEFAULT) && ps_word_is(p, 1, "COLLATION")) {
        /* ALTER TABLE t DEFAULT COLLATION name: the table's `collation`
           property, what columns added later take (existing ones keep theirs) */
        advance(p), advance(p);
        const Token *nt = tk(p);
        const char *cname = ps_parse_identifier(p);
        int32_t id;
        s->u.ddl.action = SA_SET_PROPERTIES;
        if (cname && !collation_from_name(cname, &id)) {
            ps_defer_error(p, ps_perr(p, "COLLATION_INVALID_NAME", nt->start, nt->end - 1, "collationName", cname,
                                      "proposals", collation_suggestions(p->a, cname), NULL));
        } else if (cname) {
            StmtSpec *sp = ps_spec(p, s);
            sp->nprops = 1;
            sp->prop_keys = ARENA_ARRAY(p->a, const char *, 1);
            sp->prop_values = ARENA_ARRAY(p->a, const char *, 1);
            sp->prop_keys[0] = "collation";
            sp->prop_values[0] = collation_name(p->a, id);
            sp->has_collation = true;
            sp->collation = id;
        }
    } else if (ps_word_is(p, 0, "UNSET") && is_kw_at(p, 1, KW_TBLPROPERTIES)) {
        advance(p), advance(p);
        s->u.ddl.action = SA_UNSET_PROPERTIES;
        s->u.ddl.if_exists = ps_parse_if_exists(p);
        ps_parse_props(p, s, true);
    } else if (ps_word_is(p, 0, "RECOVER") && ps_word_is(p, 1, "PARTITIONS")) {
        advance(p), advance(p);
        s->u.ddl.action = SA_RECOVER_PARTITIONS;
    } else if (ps_word_is(p, 0, "CLUSTER") && is_kw_at(p, 1, KW_BY)) {
        advance(p), advance(p);
        s->u.ddl.action = SA_CLUSTER_BY;
        ps_skip_rest(p);
    } else {
        /* [PARTITION (...)] SET SERDE | SET SERDEPROPERTIES | SET LOCATION | RENAME TO PARTITION (...) */
        bool part = parse_partition(p, s);
        if (is_kw(p, KW_SET) && (ps_word_is(p, 1, "SERDE") || ps_word_is(p, 1, "SERDEPROPERTIES"))) {
            advance(p);
            s->u.ddl.action = SA_SET_SERDE;
            if (ps_accept_word(p, "SERDE")) {
                s->u.ddl.value = ps_parse_string_lit(p, NULL);
                if (is_kw(p, KW_WITH) && ps_word_is(p, 1, "SERDEPROPERTIES")) advance(p), advance(p), ps_parse_props(p, s, false);
            } else {
                advance(p);
                ps_parse_props(p, s, false);
            }
        } else if (is_kw(p, KW_SET) && is_kw_at(p, 1, KW_LOCATION)) {
            advance(p), advance(p);
            s->u.ddl.action = SA_SET_LOCATION;
            s->u.ddl.value = ps_parse_string_lit(p, NULL);
        } else if (part && ps_word_is(p, 0, "RENAME") && is_kw_at(p, 1, KW_TO)) {
            advance(p), advance(p);
            s->u.ddl.action = SA_RENAME_PARTITION;
            Node tmp = {0};
            if (!parse_partition(p, &tmp)) ps_syntax_error(p, "");
        } else {
            ps_syntax_error(p, "");
        }
    }
    expect_end(p);
    s->stop = prev_stop(p);
    return ps_stmt_finish(p, s, &t);
}

Node *ps_parse_alter(Parser *p, int32_t start) {
    advance(p); /* ALTER */
    if (is_kw(p, KW_TABLE)) return alter_relation(p, start, false);
    if (is_kw(p, KW_VIEW)) return alter_relation(p, start, true);
    if (is_kw(p, KW_DATABASE) || is_kw(p, KW_SCHEMA) || is_kw(p, KW_NAMESPACE)) {
        advance(p);
        Node *s = ps_new(p, NK_AlterNamespace, start, 0);
        s->u.ddl.text = "ALTER NAMESPACE";
        return alter_namespace(p, s);
    }
    ps_syntax_error(p, "");
}
