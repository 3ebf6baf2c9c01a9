/* The public entry points: cz_run_sql / cz_run_plan and the result object. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "analyze.h"
#include "catalyzer.h"
#include "executor.h"
#include "catalog/external_catalog.h"
#include "catalog/session.h"
#include "core/output.h"
#include "core/walk.h"
#include "functions/functions.h"
#include "parser/parser.h"
#include "print/printer.h"
#include "resolver/hybrid_analyzer.h"
#include "rules/lib/variables.h"
#include "rules/rules.h"
#include "statements/statements.h"

/* Nesting limit of the parser and of nested analyses: deep enough for
 * thousands of nested subqueries, shallow enough for an 8 MiB stack. */
#define DEFAULT_MAX_DEPTH 20000

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct CzResult {
    Arena *arena;
    CzStatus status;
    CzError error;
    const char *schema;
    const char *tree;
    const Node *plan;
    Node *const *output;          /* the plan's output attributes (queries) */
    uint32_t noutput;
    bool is_command;
    const char *json;
    Tracer tracer;
    ExprId first_id;              /* expression ids up to this are taken (a decoded plan's attributes) */
    Catalog *retired_catalog;     /* versions a command replaced, freed with the result */
    SessionState *retired_state;
    Arena *retired_memo;          /* external tables' copies the session let go (external_memo_trim) */
    HybridState hybrid;           /* which analyzer resolved the queries, what the dual run found */
    bool report_hybrid;           /* singlePass or dualRun on: cz_result_json says so */
};

static const char *const TEST_TABLES[] = {
    "testdata", "key INT, value STRING",
    "arraydata", "arraycol ARRAY<INT>, nestedarraycol ARRAY<ARRAY<INT>>",
    "mapdata", "mapcol MAP<INT,STRING>",
    "aggtest", "a INT, b FLOAT",
    "onek", NULL,
    "tenk1", NULL,
};

static void add_table_from_spec(Catalog *c, const char *name, const char *spec) {
    Arena *a = arena_new(1024);
    ColumnDef cols[32];
    int n = 0;
    if (!spec) {
        static const char *const ints[] = {"unique1", "unique2", "two", "four", "ten", "twenty", "hundred", "thousand",
                                           "twothousand", "fivethous", "tenthous", "odd", "even"};
        for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) cols[n++] = (ColumnDef){ints[i], &TYPE_INT, true};
        cols[n++] = (ColumnDef){"stringu1", &TYPE_STRING, true};
        cols[n++] = (ColumnDef){"stringu2", &TYPE_STRING, true};
        cols[n++] = (ColumnDef){"string4", &TYPE_STRING, true};
    } else {
        const char *p = spec;
        while (*p && n < 32) {
            while (*p == ' ' || *p == ',') p++;
            const char *ns = p;
            while (*p && *p != ' ') p++;
            const char *name_s = arena_strndup(a, ns, (size_t)(p - ns));
            while (*p == ' ') p++;
            size_t used = 0;
            const char *err = NULL;
            const DataType *t = type_parse(a, p, strlen(p), &used, &err);
            if (!t) break;
            p += used;
            cols[n++] = (ColumnDef){name_s, t, true};
        }
    }
    catalog_put_table(c, "default", name, n, cols);
    arena_free(a);
}

CzSession *cz_session_new(bool with_test_tables) {
    CzSession *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->catalog = catalog_new();
    s->state = state_new();
    if (with_test_tables)
        for (size_t i = 0; i < sizeof TEST_TABLES / sizeof TEST_TABLES[0]; i += 2)
            add_table_from_spec(s->catalog, TEST_TABLES[i], TEST_TABLES[i + 1]);
    return s;
}

size_t cz_session_memory_bytes(const CzSession *s) {
    return arena_reserved(s->catalog->arena) + arena_reserved(s->state->arena) +
           (s->udf_arena ? arena_reserved(s->udf_arena) : 0);
}

void cz_session_free(CzSession *s) {
    if (!s) return;
    catalog_release(s->catalog);
    state_free(s->state);
    external_memo_free(s->external_memo);
    arena_free(s->udf_arena);
    free(s);
}

bool cz_session_set_conf(CzSession *s, const char *key, const char *value) {
    SessionState *n = state_clone(s->state);
    if (!state_set_base_conf(n, key, value)) {
        state_free(n);
        return false;
    }
    state_free(s->state);
    s->state = n;
    return true;
}

const char *cz_session_get_conf(const CzSession *s, const char *key) { return state_get_conf(s->state, key); }

bool cz_session_unset_conf(CzSession *s, const char *key) {
    SessionState *n = state_clone(s->state);
    state_unset_conf(n, key);
    state_free(s->state);
    s->state = n;
    return true;
}

int cz_session_conf_keys(const CzSession *s, const char *const **keys) {
    *keys = s->state->conf.keys;
    return s->state->conf.nentries;
}

static void split_name(Arena *a, const char *name, const char **ns, const char **tbl) {
    const char *parts[4];
    int n = 0;
    const char *p = name;
    while (n < 4) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        parts[n++] = arena_strndup(a, p, len);
        if (!dot) break;
        p = dot + 1;
    }
    *tbl = parts[n - 1];
    *ns = n >= 2 ? parts[n - 2] : "default";
}

/* The session's catalog, to edit: its own version, or a copy when the
 * version is shared. */
static Catalog *own_catalog(CzSession *s) {
    if (atomic_load(&s->catalog->refs) == 1) return s->catalog;
    Catalog *c = catalog_clone(s->catalog);
    catalog_release(s->catalog);
    s->catalog = c;
    return c;
}

bool cz_session_create_table(CzSession *s, const char *name, int ncols, const char *const *col_names,
                             const char *const *col_types, const bool *col_nullable, char *err, size_t errlen) {
    Arena *a = arena_new(1024);
    ColumnDef *cols = ARENA_ARRAY(a, ColumnDef, ncols + 1);
    for (int i = 0; i < ncols; i++) {
        const char *e = NULL;
        const DataType *t = type_parse(a, col_types[i], strlen(col_types[i]), NULL, &e);
        if (!t) {
            if (err) snprintf(err, errlen, "column %s: %s: %s", col_names[i], col_types[i], e ? e : "bad type");
            arena_free(a);
            return false;
        }
        cols[i] = (ColumnDef){col_names[i], t, col_nullable ? col_nullable[i] : true};
    }
    const char *ns, *tbl;
    split_name(a, name, &ns, &tbl);
    /* edited in place unless another holder shares this version: a catalog
       of n tables registered one by one costs n, not n^2 copies */
    Catalog *c = own_catalog(s);
    catalog_add_namespace(c, ns);
    catalog_put_table(c, ns, tbl, ncols, cols);
    arena_free(a);
    return true;
}

void cz_session_set_default_time_zone(CzSession *s, const char *zone) {
    s->state->default_time_zone = zone ? arena_strdup(s->state->arena, zone) : NULL;
}

void cz_session_set_catalog_provider(CzSession *s, const CzCatalogProvider *p) {
    s->catalog_provider = p;
    s->state->catalog_provider = p;
    if (p && !s->external_memo) s->external_memo = external_memo_new();
    s->state->external_memo = s->external_memo;
}

bool cz_session_register_function(CzSession *s, const char *name, int nargs, const char *const *arg_types,
                                  const char *result_type, bool deterministic, char *err, size_t errlen) {
    if (!s->udf_arena) s->udf_arena = arena_new(4096);
    Arena *a = s->udf_arena; /* definitions live as long as the session */
    const DataType **types = ARENA_ARRAY(a, const DataType *, nargs + 1);
    for (int i = 0; i < nargs; i++) {
        const char *e = NULL;
        types[i] = type_parse(a, arg_types[i], strlen(arg_types[i]), NULL, &e);
        if (!types[i]) {
            if (err) snprintf(err, errlen, "argument %d: %s", i + 1, e ? e : "bad type");
            return false;
        }
    }
    const char *e = NULL;
    const DataType *rt = type_parse(a, result_type, strlen(result_type), NULL, &e);
    if (!rt) {
        if (err) snprintf(err, errlen, "result: %s", e ? e : "bad type");
        return false;
    }
    const struct FuncDef *def = func_make_udf(a, arena_strdup(a, name), nargs, types, rt, deterministic);
    catalog_put_udf(own_catalog(s), name, def);
    return true;
}

bool cz_type_check(const char *type, char *why, size_t whylen) {
    Arena *a = arena_new(1024);
    const char *e = NULL;
    size_t used = 0, len = strlen(type);
    const DataType *t = type_parse(a, type, len, &used, &e);
    bool ok = t && used == len;
    if (!ok && why) snprintf(why, whylen, "%s", t ? "text after the type" : e ? e : "not a type");
    arena_free(a);
    return ok;
}

/* ---- results ---- */

CzResult *cz_result_prepare(void) {
    CzResult *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->arena = arena_new(32 * 1024);
    return r;
}

struct Arena *cz_result_arena(CzResult *r) { return r->arena; }
CzStatus cz_result_status(const CzResult *r) { return r->status; }
const CzError *cz_result_error(const CzResult *r) { return r->status == CZ_ERROR ? &r->error : NULL; }
const char *cz_result_schema(const CzResult *r) { return r->schema; }
const char *cz_result_tree(const CzResult *r) { return r->tree; }
const Node *cz_result_plan(const CzResult *r) { return r->plan; }

int cz_result_output(const CzResult *r, const Node *const **attrs) {
    *attrs = (const Node *const *)r->output;
    return (int)r->noutput;
}
bool cz_result_is_command(const CzResult *r) { return r->is_command; }
size_t cz_result_arena_bytes(const CzResult *r) { return arena_used(r->arena); }

int cz_result_rule_totals(const CzResult *r, const CzRuleTotal **totals) {
    *totals = r->tracer.totals;
    return r->tracer.ntotals;
}

void cz_result_free(CzResult *r) {
    if (!r) return;
    if (r->retired_catalog) catalog_release(r->retired_catalog);
    arena_free(r->retired_memo);
    if (r->retired_state) state_free(r->retired_state);
    arena_free(r->arena);
    free(r);
}

/* Spark reports character offsets; our positions are byte offsets. */
static int char_offset(const char *sql, size_t len, int byte) {
    if (byte < 0) return -1;
    int chars = 0;
    for (int i = 0; i < byte && (size_t)i < len; i++)
        if (((unsigned char)sql[i] & 0xC0) != 0x80) chars++;
    return chars;
}

static void set_error(CzResult *r, const ErrorInfo *e, const char *sql, size_t len) {
    r->status = CZ_ERROR;
    r->error.error_class = e->error_class;
    r->error.sqlstate = e->sqlstate;
    r->error.message = e->message;
    r->error.nparams = e->nparams;
    r->error.param_names = e->names;
    r->error.param_values = e->values;
    r->error.phase = e->phase;
    r->error.start = r->error.stop = -1;
    if (sql && e->start >= 0 && e->stop >= e->start && (size_t)e->stop < len) {
        r->error.fragment = arena_strndup(r->arena, sql + e->start, (size_t)(e->stop - e->start + 1));
        r->error.start = char_offset(sql, len, e->start);
        r->error.stop = char_offset(sql, len, e->stop);
    }
}

/* ,"single_pass":"covered|declined|mismatch"[,"single_pass_detail":"..."]
 * before the closing brace, for a statement that analysed a query. */
static void hybrid_json(StrBuf *sb, const HybridState *h) {
    if (!h->covered && !h->declined && !h->mismatched) return;
    sb->len--; /* the closing brace */
    const char *what = h->mismatched ? "mismatch" : h->declined ? "declined" : "covered";
    sb_printf(sb, ",\"single_pass\":\"%s\"", what);
    const char *detail = h->mismatched ? h->mismatch : h->declined ? h->decline_reason : NULL;
    if (detail) {
        sb_puts(sb, ",\"single_pass_detail\":");
        sb_put_json_string(sb, detail, strlen(detail));
    }
    sb_putc(sb, '}');
}

const char *cz_result_json(CzResult *r, int index) {
    StrBuf sb;
    sb_init(&sb, r->arena, 256);
    sb_printf(&sb, "{\"index\":%d,", index);
    if (r->status == CZ_OK) {
        sb_puts(&sb, "\"status\":\"ok\",\"schema\":");
        const char *s = r->schema ? r->schema : "struct<>";
        sb_put_json_string(&sb, s, strlen(s));
        sb_putc(&sb, '}');
    } else {
        const CzError *e = &r->error;
        sb_puts(&sb, "\"status\":\"error\",\"error_class\":");
        sb_put_json_string(&sb, e->error_class, strlen(e->error_class));
        sb_puts(&sb, ",\"sqlstate\":");
        if (e->sqlstate) sb_put_json_string(&sb, e->sqlstate, strlen(e->sqlstate));
        else sb_puts(&sb, "null");
        sb_puts(&sb, ",\"message\":");
        sb_put_json_string(&sb, e->message, strlen(e->message));
        sb_puts(&sb, ",\"message_parameters\":{");
        for (int i = 0; i < e->nparams; i++) {
            if (i) sb_putc(&sb, ',');
            sb_put_json_string(&sb, e->param_names[i], strlen(e->param_names[i]));
            sb_putc(&sb, ':');
            sb_put_json_string(&sb, e->param_values[i], strlen(e->param_values[i]));
        }
        sb_putc(&sb, '}');
        if (e->start >= 0) {
            sb_printf(&sb, ",\"query_context\":{\"start\":%d,\"stop\":%d,\"fragment\":", e->start, e->stop);
            sb_put_json_string(&sb, e->fragment, strlen(e->fragment));
            sb_putc(&sb, '}');
        }
        sb_putc(&sb, '}');
    }
    if (r->report_hybrid) hybrid_json(&sb, &r->hybrid);
    r->json = sb_str(&sb);
    return r->json;
}

/* ---- running ---- */

/* The arena's budget handler: back to run_guarded, in the same thread. */
static void on_budget_exhausted(void *ctx) { longjmp(*(jmp_buf *)ctx, 1); }

/* A result's columns: without the hidden ones a USING join keeps for qualified access. */
static AttrList visible_output(Analysis *an, AttrList out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < out.n; i++) n += !out.v[i]->u.attr.metadata_col;
    if (n == out.n) return out;
    Node **v = ARENA_ARRAY(an->arena, Node *, n + 1);
    n = 0;
    for (uint32_t i = 0; i < out.n; i++)
        if (!out.v[i]->u.attr.metadata_col) v[n++] = out.v[i];
    return (AttrList){n, v, NULL};
}

static void run_analysis(CzSession *s, CzResult *r, Node *stmt, const char *sql, size_t len, const CzRunOptions *opts) {
    s->state->catalog_provider = s->catalog_provider; /* whichever state a statement published */
    s->state->external_memo = s->external_memo;
    if (!r->retired_memo) r->retired_memo = external_memo_trim(s->external_memo);
    Analysis an = {.arena = r->arena, .sql = sql, .sql_len = len, .conf = &s->state->conf, .catalog = s->catalog,
                   .session = s->state, .max_depth = opts && opts->max_depth ? opts->max_depth : DEFAULT_MAX_DEPTH,
                   .driver = &ANALYSIS_DRIVER, .next_id = r->first_id,
                   .time_zone = conf_session_time_zone(r->arena, s->state), .hybrid = &r->hybrid};
    r->report_hybrid = s->state->conf.single_pass || s->state->conf.dual_run;
    if (opts) {
        an.phases = opts->phases;
        an.deadline_ns = opts->deadline_ns;
        an.cancel = opts->cancel;
        if (opts->trace) {
            r->tracer.fn = opts->trace;
            r->tracer.ctx = opts->trace_ctx;
            r->tracer.level = opts->trace_level;
            r->tracer.plans = opts->trace_plans;
            r->tracer.timing = true;
            an.tracer = &r->tracer;
        }
    }
    /* parameter markers: bound to the client's values, or UNBOUND_SQL_PARAMETER */
    stmt = bind_run_parameters(&an, stmt, opts);
    if (!stmt) {
        set_error(r, an.error, sql, len);
        return;
    }
    an.nested_height = stmt->height;
    PendingChanges pending = {0};
    Node *plan = run_statement(&an, s, stmt, &pending);
    if (!plan) {
        if (pending.catalog) catalog_release(pending.catalog);
        if (pending.state) state_free(pending.state);
        set_error(r, an.error ? an.error : error_make(r->arena, "INTERNAL_ERROR", NULL, "message", "no plan", NULL), sql,
                  len);
        return;
    }
    /* success: publish the command's changes; the replaced versions live as
       long as the result, whose plan may point into them (view and variable
       names of a SET VAR's query) */
    if (pending.catalog) {
        r->retired_catalog = s->catalog;
        s->catalog = pending.catalog;
    }
    if (pending.state) {
        r->retired_state = s->state;
        s->state = pending.state;
    }
    /* catalyzer.explain.finishAnalysis: the plan Spark's Connect plan tests print */
    if (s->state->conf.finish_analysis && !node_kind_is_command(plan->kind)) {
        Node *finished = finish_analysis(&an, plan);
        if (finished && !an.error) plan = finished;
    }
    r->status = CZ_OK;
    r->plan = plan;
    r->is_command = node_kind_is_command(stmt->kind) ||
                    (stmt->kind == NK_UnresolvedIdentifierPlan && node_kind_is_command(stmt->u.idplan.builds));
    /* EXECUTE IMMEDIATE of a query answers as that query */
    if (stmt->kind == NK_ExecuteImmediate && !node_kind_is_command(plan->kind)) r->is_command = false;
    CzPhaseTimes *ph = opts ? opts->phases : NULL;
    uint64_t t_out = ph ? now_ns() : 0;
    if (!r->is_command) {
        AttrList out = visible_output(&an, plan_output(&an, plan));
        r->schema = schema_string(r->arena, out.v, out.n);
        r->output = out.v;
        r->noutput = out.n;
    } else {
        r->schema = "struct<>";
    }
    uint64_t t_tree = ph ? now_ns() : 0;
    if (ph) ph->output_ns += t_tree - t_out;
    /* with the statement's text, commands print their arguments as written */
    if (opts && opts->want_tree)
        r->tree = plan_tree_string_sql(r->arena, s->state->conf.finish_analysis ? normalize_expr_ids(&an, plan) : plan,
                                       sql, len);
    if (ph) ph->tree_ns += now_ns() - t_tree;
}

static void run_guarded(CzSession *s, CzResult *r, Node *stmt, const char *sql, size_t len, const CzRunOptions *opts) {
    /* the memory budget: the arena jumps back here when exhausted */
    jmp_buf oom;
    if (opts && opts->memory_limit) {
        if (setjmp(oom)) {
            arena_set_limit(r->arena, 0, NULL, NULL);
            ErrorInfo *e = error_make(r->arena, "CATALYZER_MEMORY_LIMIT_EXCEEDED", NULL, "limit",
                                      arena_printf(r->arena, "%zu", opts->memory_limit), NULL);
            set_error(r, e, sql, len);
            return;
        }
        arena_set_limit(r->arena, opts->memory_limit, on_budget_exhausted, &oom);
    }
    run_analysis(s, r, stmt, sql, len, opts);
    arena_set_limit(r->arena, 0, NULL, NULL);
}

/* ${var} in a statement's text (Spark's VariableSubstitution, on unless
 * spark.sql.variable.substitute=false): `${key}`, `${hivevar:key}`,
 * `${hiveconf:key}`, `${spark:key}`, `${sparkconf:key}` take the session
 * configuration's value of key (`SET hivevar:key = v` sets key). Unlike
 * Spark, `${env:...}` and `${system:...}` stay as written: the daemon's
 * environment is not the client's to read. */
static const char *session_var(void *ctx, const char *prefix, const char *name) {
    static const char *const BOUND[] = {"hivevar", "hiveconf", "spark", "sparkconf"};
    if (prefix) {
        bool bound = false;
        for (size_t i = 0; i < sizeof BOUND / sizeof BOUND[0]; i++) bound = bound || strcasecmp(prefix, BOUND[i]) == 0;
        if (!bound) return NULL;
    }
    return state_get_conf(ctx, name);
}

static const char *substitute_session_vars(Arena *a, const SessionState *st, const char *sql, size_t *len) {
    const char *on = state_get_conf(st, "spark.sql.variable.substitute");
    if (on && strcasecmp(on, "false") == 0) return sql;
    return parse_substitute_variables(a, sql, *len, session_var, (void *)st, len);
}

CzResult *cz_run_sql(CzSession *s, const char *sql, size_t len, const CzRunOptions *opts) {
    CzResult *r = cz_result_prepare();
    /* the budget covers the request's text from the start: ${var}
       substitution can multiply it, and parsing builds the whole tree */
    jmp_buf oom;
    if (opts && opts->memory_limit) {
        if (setjmp(oom)) {
            arena_set_limit(r->arena, 0, NULL, NULL);
            ErrorInfo *e = error_make(r->arena, "CATALYZER_MEMORY_LIMIT_EXCEEDED", NULL, "limit",
                                      arena_printf(r->arena, "%zu", opts->memory_limit), NULL);
            set_error(r, e, NULL, 0);
            return r;
        }
        arena_set_limit(r->arena, opts->memory_limit, on_budget_exhausted, &oom);
    }
    uint64_t t_parse = opts && opts->phases ? now_ns() : 0;
    const char *text = arena_strndup(r->arena, sql, len);
    text = substitute_session_vars(r->arena, s->state, text, &len);
    ParserOptions po = {.double_quoted_identifiers = s->state->conf.double_quoted_identifiers,
                        .enforce_reserved_keywords = s->state->conf.enforce_reserved_keywords,
                        .having_without_group_by_as_where = s->state->conf.having_without_group_by_as_where,
                        .legacy_setops_precedence = s->state->conf.legacy_setops_precedence,
                        .timestamp_ntz = s->state->conf.timestamp_type_ntz != 0,
                        .time_zone = conf_session_time_zone(r->arena, s->state),
                        .quoted_regex_column_names =
                            conf_get_bool(&s->state->conf, "spark.sql.parser.quotedRegexColumnNames", false),
                        .case_sensitive = s->state->conf.case_sensitive,
                        .max_depth = opts && opts->max_depth ? opts->max_depth : DEFAULT_MAX_DEPTH};
    ErrorInfo *err = NULL;
    Node *stmt = parse_statement(r->arena, text, len, &po, &err);
    if (opts && opts->phases) opts->phases->parse_ns += now_ns() - t_parse;
    if (!stmt) {
        arena_set_limit(r->arena, 0, NULL, NULL);
        set_error(r, err ? err : error_make(r->arena, "INTERNAL_ERROR", NULL, "message", "parser failed", NULL), text,
                  len);
        return r;
    }
    run_guarded(s, r, stmt, text, len, opts);
    return r;
}

CzResult *cz_parse_sql(CzSession *s, const char *sql, size_t len, const CzRunOptions *opts) {
    CzResult *r = cz_result_prepare();
    jmp_buf oom; /* parsing only is under the budget too */
    if (opts && opts->memory_limit) {
        if (setjmp(oom)) {
            arena_set_limit(r->arena, 0, NULL, NULL);
            ErrorInfo *e = error_make(r->arena, "CATALYZER_MEMORY_LIMIT_EXCEEDED", NULL, "limit",
                                      arena_printf(r->arena, "%zu", opts->memory_limit), NULL);
            set_error(r, e, NULL, 0);
            return r;
        }
        arena_set_limit(r->arena, opts->memory_limit, on_budget_exhausted, &oom);
    }
    const char *text = arena_strndup(r->arena, sql, len);
    ParserOptions po = {.double_quoted_identifiers = s->state->conf.double_quoted_identifiers,
                        .enforce_reserved_keywords = s->state->conf.enforce_reserved_keywords,
                        .having_without_group_by_as_where = s->state->conf.having_without_group_by_as_where,
                        .legacy_setops_precedence = s->state->conf.legacy_setops_precedence,
                        .timestamp_ntz = s->state->conf.timestamp_type_ntz != 0,
                        .time_zone = conf_session_time_zone(r->arena, s->state),
                        .quoted_regex_column_names =
                            conf_get_bool(&s->state->conf, "spark.sql.parser.quotedRegexColumnNames", false),
                        .case_sensitive = s->state->conf.case_sensitive,
                        .max_depth = opts && opts->max_depth ? opts->max_depth : DEFAULT_MAX_DEPTH};
    ErrorInfo *err = NULL;
    Node *stmt = parse_statement(r->arena, text, len, &po, &err);
    if (!stmt) {
        arena_set_limit(r->arena, 0, NULL, NULL);
        set_error(r, err ? err : error_make(r->arena, "INTERNAL_ERROR", NULL, "message", "parser failed", NULL), text,
                  len);
        return r;
    }
    r->status = CZ_OK;
    r->is_command = node_kind_is_command(stmt->kind);
    r->tree = plan_tree_string(r->arena, stmt);
    arena_set_limit(r->arena, 0, NULL, NULL);
    return r; /* no analysed plan: cz_result_plan stays NULL */
}

static WalkResult max_id(const Node *n, void *ctx) {
    ExprId *m = ctx;
    ExprId id = named_expr_id(n);
    if (id > *m) *m = id;
    return WALK_CONTINUE;
}

void cz_run_plan(CzSession *s, CzResult *r, Node *unresolved, const char *sql_text, const CzRunOptions *opts) {
    /* A decoded plan may hold attributes already (a local relation's
       columns): the analysis numbers its own after them. */
    ExprId reserved = 0;
    node_walk(unresolved, WALK_EXPRS | WALK_SUBQUERIES, max_id, &reserved);
    r->first_id = reserved;
    run_guarded(s, r, unresolved, sql_text, sql_text ? strlen(sql_text) : 0, opts);
}
