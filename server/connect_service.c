/* SparkConnectService handlers (see connect_service.h). They follow Spark
 * Connect's server: SparkConnectAnalyzeHandler, SparkConnectConfigHandler,
 * ExecuteThreadRunner + SparkConnectPlanner.process for commands,
 * SparkConnectReleaseSessionHandler, SparkConnectReleaseExecuteHandler. */
#include "connect_service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "connect_conf.h"
#include "journal.h"
#include "connect_error.h"
#include "connect_schema.h"
#include "grpc_codec.h"
#include "plan_decode.h"
#include "plan_encode.h"
#include "print/printer.h"
#include "server.h"
#include "spark/connect/base.pb-c.h"
#include "spark/connect/commands.pb-c.h"

/* The version Catalyzer's analysis follows (SparkSession.version). */
#define SPARK_VERSION "4.0.0"

/* ---------------------------------------------------------------- UUIDs */

bool uuid_valid(const char *s) {
    static const int DASH[] = {8, 13, 18, 23};
    if (!s || strlen(s) != 36) return false;
    for (int i = 0, k = 0; i < 36; i++) {
        if (k < 4 && i == DASH[k]) {
            if (s[i] != '-') return false;
            k++;
            continue;
        }
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
    }
    return true;
}

void uuid_new(char out[37]) {
    uint8_t b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
        /* getrandom cannot fail for 16 bytes once the pool is ready; fall back to the clock */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)(uintptr_t)out;
        for (int i = 0; i < 16; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            b[i] = (uint8_t)x;
        }
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
             b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static bool invalid_handle(RpcFailure *f, const char *sub, const char *text, const char *handle) {
    char cls[64], msg[512];
    snprintf(cls, sizeof cls, "INVALID_HANDLE.%s", sub);
    snprintf(msg, sizeof msg, "The handle %s is invalid. %s", handle, text);
    fail_set(f, GRPC_INTERNAL, EXC_SQL, cls, "HY000", msg);
    fail_param(f, "handle", handle);
    return false;
}

bool connect_session_id_check(const char *id, char *why, size_t whylen, uint8_t **details, size_t *dlen) {
    if (uuid_valid(id)) return true;
    RpcFailure f;
    invalid_handle(&f, "FORMAT", "Handle must be an UUID string of the format '00112233-4455-6677-8899-aabbccddeeff'",
                   id);
    snprintf(why, whylen, "%s", f.message);
    *details = fail_pack(&f, dlen);
    return false;
}

const ProtobufCMessageDescriptor *connect_request_descriptor(RpcMethod m) {
    switch (m) {
    case RPC_CONNECT_EXECUTE_PLAN: return &spark__connect__execute_plan_request__descriptor;
    case RPC_CONNECT_ANALYZE_PLAN: return &spark__connect__analyze_plan_request__descriptor;
    case RPC_CONNECT_CONFIG: return &spark__connect__config_request__descriptor;
    case RPC_CONNECT_RELEASE_EXECUTE: return &spark__connect__release_execute_request__descriptor;
    case RPC_CONNECT_RELEASE_SESSION: return &spark__connect__release_session_request__descriptor;
    default: return NULL;
    }
}

/* ---------------------------------------------------------------- context */

typedef struct Ctx {
    Job *j;
    Arena *a;
    CzSession *s;
    const char *session_id;
    const char *server_id;
    RpcFailure fail;
} Ctx;

static bool fail_text(Ctx *c, int code, ExceptionKind k, const char *text) {
    return fail_set(&c->fail, code, k, NULL, NULL, text);
}

/* An analyzer error, as Spark reports its AnalysisException / ParseException. */
static bool fail_cz(Ctx *c, const CzError *e) {
    fail_set(&c->fail, GRPC_INTERNAL, exception_kind_of(e), e->error_class, e->sqlstate, e->message);
    for (int i = 0; i < e->nparams; i++) fail_param(&c->fail, e->param_names[i], e->param_values[i]);
    return false;
}

static bool fail_info(Ctx *c, const ErrorInfo *e) {
    CzError ce = {e->error_class, e->sqlstate, e->message, e->nparams, e->names, e->values, e->start, e->stop, NULL,
                  e->phase};
    return fail_cz(c, &ce);
}

/* A client that saw another server-side session id talks to a restarted
 * server (or another replica's session): Spark refuses it. */
static bool check_observed(Ctx *c, bool has, const char *observed) {
    if (!has || strcmp(observed, c->server_id) == 0) return true;
    return invalid_handle(&c->fail, "SESSION_CHANGED",
                          "The existing Spark server driver instance has restarted. Please reconnect.", c->session_id);
}

static bool emit(Ctx *c, const ProtobufCMessage *m) {
    if (!job_emit_grpc(c->j, m)) return fail_text(c, GRPC_CANCELLED, EXC_INTERNAL, "cancelled");
    return true;
}

static bool conf_true(CzSession *s, const char *key, bool dflt) {
    const char *v = cz_session_get_conf(s, key);
    if (!v) return dflt;
    while (*v == ' ') v++;
    return strncasecmp(v, "true", 4) == 0;
}

static void run_options(Ctx *c, CzRunOptions *o) {
    const Config *cfg = &c->j->srv->cfg;
    memset(o, 0, sizeof *o);
    o->memory_limit = cfg->max_memory_bytes;
    o->max_depth = cfg->max_plan_depth;
    o->deadline_ns = c->j->deadline_ns;
    o->cancel = &c->j->cancel;
    o->want_tree = true;
}

/* ---------------------------------------------------------------- analysis of a plan */

typedef struct Analysed {
    CzResult *r;
    Node *parsed;       /* the unresolved plan (for explain) */
} Analysed;

/* Decodes plan.root and analyses it. False with c->fail set: a decode
 * problem, or the analysis error (Spark's AnalysisException). */
static bool analyse_root(Ctx *c, const Spark__Connect__Plan *plan, const char *field, Analysed *out) {
    out->r = NULL;
    out->parsed = NULL;
    char why[512];
    if (!plan) {
        snprintf(why, sizeof why, "%s.plan is required", field);
        return fail_text(c, GRPC_INVALID_ARGUMENT, EXC_INVALID_PLAN, why);
    }
    if (plan->op_type_case != SPARK__CONNECT__PLAN__OP_TYPE_ROOT) {
        snprintf(why, sizeof why, "%s.plan.root is required (a command has no schema to analyse)", field);
        return fail_text(c, GRPC_INVALID_ARGUMENT, EXC_INVALID_PLAN, why);
    }
    CzResult *r = cz_result_prepare();
    const Config *cfg = &c->j->srv->cfg;
    DecodeLimits lim = {cfg->max_plan_depth, cfg->max_plan_nodes};
    DecodeOptions opt = {
        .ansi = conf_true(c->s, "spark.sql.ansi.enabled", true),
        .double_quoted_identifiers = conf_true(c->s, "spark.sql.ansi.doubleQuotedIdentifiers", false),
        .enforce_reserved_keywords = conf_true(c->s, "spark.sql.ansi.enforceReservedKeywords", false),
        .time_zone = cz_session_get_conf(c->s, "spark.sql.session.timeZone"),
    };
    DecodeResult dr;
    Node *p = plan_decode(cz_result_arena(r), plan->root, &lim, &opt, &dr);
    if (!p) {
        bool ok;
        if (dr.status == DECODE_SPARK_ERROR) ok = fail_info(c, dr.spark);
        else
            ok = fail_text(c, dr.status == DECODE_UNSUPPORTED ? GRPC_UNIMPLEMENTED : GRPC_INVALID_ARGUMENT,
                           dr.status == DECODE_UNSUPPORTED ? EXC_UNSUPPORTED : EXC_INVALID_PLAN, dr.message);
        cz_result_free(r);
        return ok;
    }
    CzRunOptions o;
    run_options(c, &o);
    cz_run_plan(c->s, r, p, NULL, &o);
    out->r = r;
    out->parsed = p;
    if (cz_result_status(r) != CZ_OK) return fail_cz(c, cz_result_error(r));
    return true;
}

/* The analysed plan's output as a struct type (Dataset.schema). */
static const DataType *result_schema(Ctx *c, const CzResult *r) {
    const Node *const *out;
    int n = cz_result_output(r, &out);
    StructField *f = ARENA_ARRAY(c->a, StructField, n ? n : 1);
    for (int i = 0; i < n; i++)
        f[i] = (StructField){out[i]->u.attr.name, out[i]->type, (out[i]->flags & NF_NULLABLE) != 0, NULL};
    return type_struct(c->a, n, f);
}

/* Spark's QueryExecution.explainString: the sections each mode prints. The
 * analysed plan is Catalyzer's; optimised and physical plans are not
 * produced, and the text says so where Spark would print them. */
static const char *explain_string(Ctx *c, const Analysed *an, Spark__Connect__AnalyzePlanRequest__Explain__ExplainMode mode) {
    StrBuf sb;
    sb_init(&sb, c->a, 1024);
    const char *tree = cz_result_tree(an->r);
    const DataType *schema = result_schema(c, an->r);
    static const char NOT_PRODUCED[] =
        "(not produced: Catalyzer analyses plans; it does not optimise, plan or execute them)\n";
    switch (mode) {
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__EXPLAIN__EXPLAIN_MODE__EXPLAIN_MODE_EXTENDED:
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__EXPLAIN__EXPLAIN_MODE__EXPLAIN_MODE_COST:
        sb_puts(&sb, "== Parsed Logical Plan ==\n");
        sb_puts(&sb, plan_tree_string(c->a, an->parsed));
        sb_puts(&sb, "\n\n== Analyzed Logical Plan ==\n");
        if (schema->nfields) {
            for (int i = 0; i < schema->nfields; i++) {
                if (i) sb_puts(&sb, ", ");
                sb_printf(&sb, "%s: ", schema->fields[i].name);
                type_print_catalog(&sb, schema->fields[i].type);
            }
            sb_putc(&sb, '\n');
        }
        sb_puts(&sb, tree ? tree : "");
        sb_puts(&sb, "\n\n== Optimized Logical Plan ==\n");
        sb_puts(&sb, NOT_PRODUCED);
        sb_puts(&sb, "\n== Physical Plan ==\n");
        sb_puts(&sb, NOT_PRODUCED);
        break;
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__EXPLAIN__EXPLAIN_MODE__EXPLAIN_MODE_CODEGEN:
        sb_puts(&sb, "== Analyzed Logical Plan ==\n");
        sb_puts(&sb, tree ? tree : "");
        sb_puts(&sb, "\n\n== Generated Code ==\n");
        sb_puts(&sb, NOT_PRODUCED);
        break;
    default: /* SIMPLE (and UNSPECIFIED, Spark's default) and FORMATTED show the physical plan */
        sb_puts(&sb, "== Analyzed Logical Plan ==\n");
        sb_puts(&sb, tree ? tree : "");
        sb_puts(&sb, "\n\n== Physical Plan ==\n");
        sb_puts(&sb, NOT_PRODUCED);
        break;
    }
    return sb_str(&sb);
}

/* Whether any node of the analysed plan is a streaming source. */
static bool plan_streaming(const Node *p) {
    if (!p) return false;
    if ((p->kind == NK_UnresolvedRelation || p->kind == NK_Relation) && p->u.un.is_streaming) return true;
    for (uint32_t i = 0; i < p->nkids; i++)
        if (plan_streaming(p->kids[i])) return true;
    return false;
}

/* Canonical text for sameSemantics / semanticHash: the analysed tree with
 * expression ids renumbered in order of appearance and the names of
 * attributes and aliases erased, as Spark's QueryPlan.canonicalized does
 * (an Alias canonicalises to an empty name, an AttributeReference to
 * "none"): `SELECT id + 1 AS x` and `... AS y` are the same query. */
static bool canonical_name_char(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '`';
}

static const char *canonical_text(Ctx *c, const CzResult *r) {
    const char *t = cz_result_tree(r);
    StrBuf sb;
    sb_init(&sb, c->a, t ? strlen(t) + 16 : 16);
    unsigned long long seen[4096];
    size_t nseen = 0;
    for (const char *p = t ? t : ""; *p; p++) {
        if (strncmp(p, " AS ", 4) == 0) {
            /* an alias: its name, up to the id it defines on this line, is erased */
            const char *id = p + 4;
            while (*id && *id != '\n' && !(*id == '#' && id[1] >= '0' && id[1] <= '9')) id++;
            if (*id == '#') {
                sb_puts(&sb, " AS ");
                p = id - 1;
                continue;
            }
        }
        if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
            while (sb.len > 0 && canonical_name_char(sb.data[sb.len - 1])) sb_truncate(&sb, sb.len - 1);
            unsigned long long id = strtoull(p + 1, (char **)&p, 10);
            size_t k = 0;
            while (k < nseen && seen[k] != id) k++;
            if (k == nseen && nseen < sizeof seen / sizeof seen[0]) seen[nseen++] = id;
            sb_printf(&sb, "#%zu", k);
            p--;
            continue;
        }
        sb_putc(&sb, *p);
    }
    return sb_str(&sb);
}

static int32_t text_hash(const char *s) {
    uint32_t h = 0x9747b28cu; /* murmur-style mixing of a 32-bit FNV */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    return (int32_t)h;
}

#define NEWMSG(T, init)                       \
    ({                                        \
        T *m_ = arena_alloc(c->a, sizeof(T)); \
        init(m_);                             \
        m_;                                   \
    })

static bool analyze_plan(Ctx *c, const Spark__Connect__AnalyzePlanRequest *rq) {
    if (!check_observed(c, rq->_client_observed_server_side_session_id_case,
                        rq->client_observed_server_side_session_id))
        return false;
    Spark__Connect__AnalyzePlanResponse resp = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__INIT;
    resp.session_id = (char *)c->session_id;
    resp.server_side_session_id = (char *)c->server_id;
    Analysed an = {0}, other = {0};
    bool ok = true;
    char why[512];
    switch (rq->analyze_case) {
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_SCHEMA:
        if (!(ok = analyse_root(c, rq->schema->plan, "schema", &an))) break;
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_SCHEMA;
        resp.schema = NEWMSG(Spark__Connect__AnalyzePlanResponse__Schema, spark__connect__analyze_plan_response__schema__init);
        resp.schema->schema = connect_type_encode(c->a, result_schema(c, an.r));
        break;
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_EXPLAIN:
        if (!(ok = analyse_root(c, rq->explain->plan, "explain", &an))) break;
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_EXPLAIN;
        resp.explain =
            NEWMSG(Spark__Connect__AnalyzePlanResponse__Explain, spark__connect__analyze_plan_response__explain__init);
        resp.explain->explain_string = (char *)explain_string(c, &an, rq->explain->explain_mode);
        break;
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_TREE_STRING:
        if (!(ok = analyse_root(c, rq->tree_string->plan, "tree_string", &an))) break;
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_TREE_STRING;
        resp.tree_string = NEWMSG(Spark__Connect__AnalyzePlanResponse__TreeString,
                                  spark__connect__analyze_plan_response__tree_string__init);
        resp.tree_string->tree_string = (char *)connect_tree_string(
            c->a, result_schema(c, an.r), rq->tree_string->_level_case ? rq->tree_string->level : 0);
        break;
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_IS_LOCAL: {
        if (!(ok = analyse_root(c, rq->is_local->plan, "is_local", &an))) break;
        const Node *p = cz_result_plan(an.r);
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_IS_LOCAL;
        resp.is_local =
            NEWMSG(Spark__Connect__AnalyzePlanResponse__IsLocal, spark__connect__analyze_plan_response__is_local__init);
        /* Dataset.isLocal: the analysed plan is a LocalRelation (or a command's result) */
        resp.is_local->is_local = p && (p->kind == NK_LocalRelation || node_kind_is_command(p->kind));
        break;
    }
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_IS_STREAMING:
        if (!(ok = analyse_root(c, rq->is_streaming->plan, "is_streaming", &an))) break;
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_IS_STREAMING;
        resp.is_streaming = NEWMSG(Spark__Connect__AnalyzePlanResponse__IsStreaming,
                                   spark__connect__analyze_plan_response__is_streaming__init);
        resp.is_streaming->is_streaming = plan_streaming(cz_result_plan(an.r));
        break;
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_INPUT_FILES:
        if (!(ok = analyse_root(c, rq->input_files->plan, "input_files", &an))) break;
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_INPUT_FILES;
        /* Catalog tables and local data have no files; file reads are not analysed yet. */
        resp.input_files = NEWMSG(Spark__Connect__AnalyzePlanResponse__InputFiles,
                                  spark__connect__analyze_plan_response__input_files__init);
        break;
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_SPARK_VERSION:
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_SPARK_VERSION;
        resp.spark_version = NEWMSG(Spark__Connect__AnalyzePlanResponse__SparkVersion,
                                    spark__connect__analyze_plan_response__spark_version__init);
        resp.spark_version->version = SPARK_VERSION;
        break;
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_DDL_PARSE: {
        const DataType *t = connect_parse_ddl(c->a, rq->ddl_parse->ddl_string, why, sizeof why);
        if (!t) {
            /* Spark's ParseException for a DDL string that does not parse */
            const char *params[2] = {NULL, ""};
            snprintf(why, sizeof why, "Syntax error at or near '%s'.", rq->ddl_parse->ddl_string);
            fail_set(&c->fail, GRPC_INTERNAL, EXC_PARSE, "PARSE_SYNTAX_ERROR", "42601", why);
            char q[300];
            snprintf(q, sizeof q, "'%s'", rq->ddl_parse->ddl_string);
            fail_param(&c->fail, "error", q);
            fail_param(&c->fail, "hint", params[1]);
            ok = false;
            break;
        }
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_DDL_PARSE;
        resp.ddl_parse =
            NEWMSG(Spark__Connect__AnalyzePlanResponse__DDLParse, spark__connect__analyze_plan_response__ddlparse__init);
        resp.ddl_parse->parsed = connect_type_encode(c->a, t);
        break;
    }
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_SAME_SEMANTICS:
        if (!(ok = analyse_root(c, rq->same_semantics->target_plan, "same_semantics.target_plan", &an))) break;
        if (!(ok = analyse_root(c, rq->same_semantics->other_plan, "same_semantics.other_plan", &other))) break;
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_SAME_SEMANTICS;
        resp.same_semantics = NEWMSG(Spark__Connect__AnalyzePlanResponse__SameSemantics,
                                     spark__connect__analyze_plan_response__same_semantics__init);
        resp.same_semantics->result = strcmp(canonical_text(c, an.r), canonical_text(c, other.r)) == 0;
        break;
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_SEMANTIC_HASH:
        if (!(ok = analyse_root(c, rq->semantic_hash->plan, "semantic_hash", &an))) break;
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_SEMANTIC_HASH;
        resp.semantic_hash = NEWMSG(Spark__Connect__AnalyzePlanResponse__SemanticHash,
                                    spark__connect__analyze_plan_response__semantic_hash__init);
        resp.semantic_hash->result = text_hash(canonical_text(c, an.r));
        break;
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_JSON_TO_DDL: {
        const DataType *t = connect_parse_json_type(c->a, rq->json_to_ddl->json_string, why, sizeof why);
        if (!t || t->id != T_STRUCT) {
            ok = fail_text(c, GRPC_INVALID_ARGUMENT, EXC_ILLEGAL_ARGUMENT,
                           t ? "json_to_ddl.json_string is not a struct type" : why);
            break;
        }
        resp.result_case = SPARK__CONNECT__ANALYZE_PLAN_RESPONSE__RESULT_JSON_TO_DDL;
        resp.json_to_ddl = NEWMSG(Spark__Connect__AnalyzePlanResponse__JsonToDDL,
                                  spark__connect__analyze_plan_response__json_to_ddl__init);
        resp.json_to_ddl->ddl_string = (char *)connect_struct_to_ddl(c->a, t);
        break;
    }
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_PERSIST:
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_UNPERSIST:
    case SPARK__CONNECT__ANALYZE_PLAN_REQUEST__ANALYZE_GET_STORAGE_LEVEL:
        ok = fail_text(c, GRPC_UNIMPLEMENTED, EXC_UNSUPPORTED,
                       "persist, unpersist and get_storage_level manage cached data; Catalyzer analyses plans and "
                       "holds no data");
        break;
    default: ok = fail_text(c, GRPC_INVALID_ARGUMENT, EXC_INVALID_PLAN, "AnalyzePlanRequest.analyze is not set"); break;
    }
    if (ok) ok = emit(c, &resp.base);
    if (an.r) cz_result_free(an.r);
    if (other.r) cz_result_free(other.r);
    return ok;
}

/* ---------------------------------------------------------------- Config */

static bool config(Ctx *c, const Spark__Connect__ConfigRequest *rq) {
    if (!check_observed(c, rq->_client_observed_server_side_session_id_case,
                        rq->client_observed_server_side_session_id))
        return false;
    Spark__Connect__ConfigResponse resp = SPARK__CONNECT__CONFIG_RESPONSE__INIT;
    resp.session_id = (char *)c->session_id;
    resp.server_side_session_id = (char *)c->server_id;
    /* With worker processes what the operation changed goes to the session's journal. */
    ConfSnap *before = c->j->journal ? journal_conf_snapshot(c->s) : NULL;
    bool ok = connect_config(c->s, rq->operation, c->a, &resp, &c->fail);
    journal_conf_diff(c->j->journal, before, c->s);
    if (!ok) return false;
    return emit(c, &resp.base);
}

/* ---------------------------------------------------------------- ExecutePlan */

typedef struct Exec {
    Ctx *c;
    char operation_id[40];
    bool reattachable;
} Exec;

static Spark__Connect__ExecutePlanResponse *exec_response(Exec *x) {
    Ctx *c = x->c;
    Spark__Connect__ExecutePlanResponse *r = NEWMSG(Spark__Connect__ExecutePlanResponse,
                                                    spark__connect__execute_plan_response__init);
    r->session_id = (char *)c->session_id;
    r->server_side_session_id = (char *)c->server_id;
    r->operation_id = x->operation_id;
    char *rid = arena_alloc(c->a, 37);
    uuid_new(rid);
    r->response_id = rid;
    return r;
}

/* SQL parameter values as the analyzer takes them: SQL literal text. */
static const char *literal_sql(Ctx *c, const Spark__Connect__Expression__Literal *l, const char *where) {
    Spark__Connect__Expression e = SPARK__CONNECT__EXPRESSION__INIT;
    e.expr_type_case = SPARK__CONNECT__EXPRESSION__EXPR_TYPE_LITERAL;
    e.literal = (Spark__Connect__Expression__Literal *)l;
    Spark__Connect__Project pr = SPARK__CONNECT__PROJECT__INIT;
    Spark__Connect__Expression *ep = &e;
    pr.n_expressions = 1;
    pr.expressions = &ep;
    Spark__Connect__Relation rel = SPARK__CONNECT__RELATION__INIT;
    rel.rel_type_case = SPARK__CONNECT__RELATION__REL_TYPE_PROJECT;
    rel.project = &pr;
    DecodeLimits lim = {c->j->srv->cfg.max_plan_depth, c->j->srv->cfg.max_plan_nodes};
    DecodeResult dr;
    Node *p = plan_decode(c->a, &rel, &lim, NULL, &dr);
    if (!p) {
        char why[700];
        snprintf(why, sizeof why, "%s: %s", where, dr.message);
        fail_text(c, GRPC_INVALID_ARGUMENT, EXC_INVALID_PLAN, why);
        return NULL;
    }
    const Node *lit = p->exprs[0]->kind == NK_UnresolvedAlias ? p->exprs[0]->kids[0] : p->exprs[0];
    StrBuf sb;
    sb_init(&sb, c->a, 32);
    value_print_sql(&sb, &lit->u.lit.v);
    return sb_str(&sb);
}

static const char *expression_sql(Ctx *c, const Spark__Connect__Expression *e, const char *where) {
    if (e && e->expr_type_case == SPARK__CONNECT__EXPRESSION__EXPR_TYPE_LITERAL) return literal_sql(c, e->literal, where);
    char why[300];
    snprintf(why, sizeof why, "%s: only literal values are supported as SQL parameters", where);
    fail_text(c, GRPC_UNIMPLEMENTED, EXC_UNSUPPORTED, why);
    return NULL;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
/* spark.sql(...) from a SqlCommand: its SQL relation (Spark 4: `input`; older
 * clients: the deprecated fields). */
static const Spark__Connect__SQL *sql_of(Ctx *c, const Spark__Connect__SqlCommand *cmd, Spark__Connect__SQL *tmp) {
    if (cmd->input) {
        if (cmd->input->rel_type_case == SPARK__CONNECT__RELATION__REL_TYPE_SQL) return cmd->input->sql;
        if (cmd->input->rel_type_case == SPARK__CONNECT__RELATION__REL_TYPE_WITH_RELATIONS) {
            fail_text(c, GRPC_UNIMPLEMENTED, EXC_UNSUPPORTED,
                      "SQL with DataFrame references (WithRelations) is not supported yet");
            return NULL;
        }
        fail_text(c, GRPC_INVALID_ARGUMENT, EXC_INVALID_PLAN,
                  "SQL command expects either a SQL or a WithRelations relation (at command.sql_command.input)");
        return NULL;
    }
    spark__connect__sql__init(tmp);
    tmp->query = cmd->sql;
    tmp->n_args = cmd->n_args;
    tmp->args = (Spark__Connect__SQL__ArgsEntry **)cmd->args; /* the same map entry shape */
    tmp->n_pos_args = cmd->n_pos_args;
    tmp->pos_args = cmd->pos_args;
    tmp->n_named_arguments = cmd->n_named_arguments;
    tmp->named_arguments = (Spark__Connect__SQL__NamedArgumentsEntry **)cmd->named_arguments;
    tmp->n_pos_arguments = cmd->n_pos_arguments;
    tmp->pos_arguments = cmd->pos_arguments;
    return tmp;
}

static bool sql_command(Exec *x, const Spark__Connect__SqlCommand *cmd) {
    Ctx *c = x->c;
    Spark__Connect__SQL tmp;
    const Spark__Connect__SQL *sql = sql_of(c, cmd, &tmp);
    if (!sql) return false;
    /* Parameters, by name or by position, as SQL literal text. */
    size_t nn = sql->n_named_arguments ? sql->n_named_arguments : sql->n_args;
    size_t np = sql->n_pos_arguments ? sql->n_pos_arguments : sql->n_pos_args;
    const char **pn = ARENA_ARRAY(c->a, const char *, nn + 1), **pv = ARENA_ARRAY(c->a, const char *, nn + 1);
    const char **pp = ARENA_ARRAY(c->a, const char *, np + 1);
    for (size_t i = 0; i < nn; i++) {
        if (sql->n_named_arguments) {
            pn[i] = sql->named_arguments[i]->key;
            pv[i] = expression_sql(c, sql->named_arguments[i]->value, "named_arguments");
        } else {
            pn[i] = sql->args[i]->key;
            pv[i] = literal_sql(c, sql->args[i]->value, "args");
        }
        if (!pv[i]) return false;
    }
    for (size_t i = 0; i < np; i++) {
        pp[i] = sql->n_pos_arguments ? expression_sql(c, sql->pos_arguments[i], "pos_arguments")
                                     : literal_sql(c, sql->pos_args[i], "pos_args");
        if (!pp[i]) return false;
    }
    CzRunOptions o;
    run_options(c, &o);
    o.nnamed_params = (int)nn;
    o.param_names = pn;
    o.param_values_sql = pv;
    o.npos_params = (int)np;
    o.pos_params_sql = pp;
    CzResult *r = cz_run_sql(c->s, sql->query, strlen(sql->query), &o);
    bool ok;
    if (cz_result_status(r) == CZ_OK && cz_result_is_command(r))
        journal_sql(c->j->journal, sql->query, strlen(sql->query), &o);
    if (cz_result_status(r) != CZ_OK) {
        ok = fail_cz(c, cz_result_error(r));
        cz_result_free(r);
        return ok;
    }
    Spark__Connect__ExecutePlanResponse *resp = exec_response(x);
    resp->response_type_case = SPARK__CONNECT__EXECUTE_PLAN_RESPONSE__RESPONSE_TYPE_SQL_COMMAND_RESULT;
    resp->sql_command_result = NEWMSG(Spark__Connect__ExecutePlanResponse__SqlCommandResult,
                                      spark__connect__execute_plan_response__sql_command_result__init);
    bool is_command = cz_result_is_command(r);
    Spark__Connect__Relation *rel;
    if (is_command) {
        /* The command ran. Spark hands back its result rows as a local
         * relation of Arrow data; Catalyzer sends the relation's schema. */
        rel = NEWMSG(Spark__Connect__Relation, spark__connect__relation__init);
        rel->rel_type_case = SPARK__CONNECT__RELATION__REL_TYPE_LOCAL_RELATION;
        rel->local_relation = NEWMSG(Spark__Connect__LocalRelation, spark__connect__local_relation__init);
        rel->local_relation->_schema_case = SPARK__CONNECT__LOCAL_RELATION___SCHEMA_SCHEMA;
        /* a command's own output (SHOW ..., SET) is not modelled: an empty schema */
        const char *ddl = "";
        rel->local_relation->schema = (char *)(*ddl ? ddl : "struct<>");
    } else {
        /* A query is not run: the client gets its SQL relation back, as from Spark. */
        Spark__Connect__Relation *copy = NEWMSG(Spark__Connect__Relation, spark__connect__relation__init);
        copy->rel_type_case = SPARK__CONNECT__RELATION__REL_TYPE_SQL;
        copy->sql = (Spark__Connect__SQL *)sql;
        rel = cmd->input ? cmd->input : copy;
    }
    resp->sql_command_result->relation = rel;
    ok = emit(c, &resp->base);
    if (ok && is_command) {
        /* Spark then sends the command's metrics (none here: nothing executed on data). */
        Spark__Connect__ExecutePlanResponse *m = exec_response(x);
        m->metrics = NEWMSG(Spark__Connect__ExecutePlanResponse__Metrics, spark__connect__execute_plan_response__metrics__init);
        ok = emit(c, &m->base);
    }
    cz_result_free(r);
    return ok;
}

#pragma GCC diagnostic pop

static const char *command_name(const Spark__Connect__Command *cmd) {
    switch (cmd->command_type_case) {
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_REGISTER_FUNCTION: return "register_function";
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_WRITE_OPERATION: return "write_operation";
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_CREATE_DATAFRAME_VIEW: return "create_dataframe_view";
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_WRITE_OPERATION_V2: return "write_operation_v2";
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_REGISTER_TABLE_FUNCTION: return "register_table_function";
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_REGISTER_DATA_SOURCE: return "register_data_source";
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_CHECKPOINT_COMMAND: return "checkpoint_command";
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_REMOVE_CACHED_REMOTE_RELATION_COMMAND:
        return "remove_cached_remote_relation_command";
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_MERGE_INTO_TABLE_COMMAND: return "merge_into_table_command";
    case SPARK__CONNECT__COMMAND__COMMAND_TYPE_EXTENSION: return "extension";
    default: break;
    }
    static const struct {
        unsigned tag;
        const char *name;
    } UNDECLARED[] = {{6, "write_stream_operation_start"},
                      {7, "streaming_query_command"},
                      {8, "get_resources_command"},
                      {9, "streaming_query_manager_command"},
                      {11, "streaming_query_listener_bus_command"},
                      {13, "create_resource_profile_command"},
                      {17, "ml_command"}};
    if (cmd->base.n_unknown_fields)
        for (size_t i = 0; i < sizeof UNDECLARED / sizeof UNDECLARED[0]; i++)
            if (UNDECLARED[i].tag == cmd->base.unknown_fields[0].tag) return UNDECLARED[i].name;
    return cmd->base.n_unknown_fields ? "an unknown command" : NULL;
}

static bool execute_plan(Ctx *c, const Spark__Connect__ExecutePlanRequest *rq) {
    if (!check_observed(c, rq->_client_observed_server_side_session_id_case,
                        rq->client_observed_server_side_session_id))
        return false;
    Exec x = {.c = c};
    if (rq->_operation_id_case) {
        if (!uuid_valid(rq->operation_id))
            return invalid_handle(&c->fail, "FORMAT",
                                  "Handle must be an UUID string of the format '00112233-4455-6677-8899-aabbccddeeff'",
                                  rq->operation_id);
        snprintf(x.operation_id, sizeof x.operation_id, "%s", rq->operation_id);
    } else {
        uuid_new(x.operation_id);
    }
    for (size_t i = 0; i < rq->n_request_options; i++) {
        const Spark__Connect__ExecutePlanRequest__RequestOption *o = rq->request_options[i];
        if (o->request_option_case == SPARK__CONNECT__EXECUTE_PLAN_REQUEST__REQUEST_OPTION__REQUEST_OPTION_REATTACH_OPTIONS)
            x.reattachable = o->reattach_options->reattachable;
    }
    if (!rq->plan) return fail_text(c, GRPC_INVALID_ARGUMENT, EXC_INVALID_PLAN, "ExecutePlanRequest.plan is required");
    bool ok;
    if (rq->plan->op_type_case == SPARK__CONNECT__PLAN__OP_TYPE_ROOT) {
        /* A query: analysed (its errors are Spark's), but never run. */
        Analysed an;
        ok = analyse_root(c, rq->plan, "execute", &an);
        if (an.r) cz_result_free(an.r);
        if (!ok) return false;
        return fail_text(c, GRPC_UNIMPLEMENTED, EXC_UNSUPPORTED,
                         "Catalyzer analyses plans and does not execute them: ExecutePlan of a query relation returns "
                         "no rows. Use AnalyzePlan (schema, explain) for its analysis.");
    }
    if (rq->plan->op_type_case != SPARK__CONNECT__PLAN__OP_TYPE_COMMAND)
        return fail_text(c, GRPC_INVALID_ARGUMENT, EXC_INVALID_PLAN, "ExecutePlanRequest.plan has no root or command");
    const Spark__Connect__Command *cmd = rq->plan->command;
    if (cmd->command_type_case == SPARK__CONNECT__COMMAND__COMMAND_TYPE_SQL_COMMAND) {
        ok = sql_command(&x, cmd->sql_command);
    } else {
        const char *name = command_name(cmd);
        char why[512];
        if (!name)
            return fail_text(c, GRPC_INVALID_ARGUMENT, EXC_INVALID_PLAN, "Command.command_type is not set");
        snprintf(why, sizeof why,
                 "the %s command is not supported: Catalyzer runs SQL commands (sql_command) on the session; it "
                 "does not write, register code or stream",
                 name);
        return fail_text(c, GRPC_UNIMPLEMENTED, EXC_UNSUPPORTED, why);
    }
    if (ok && x.reattachable) {
        /* A reattachable execution ends with ResultComplete (ExecuteThreadRunner). */
        Spark__Connect__ExecutePlanResponse *done = exec_response(&x);
        done->response_type_case = SPARK__CONNECT__EXECUTE_PLAN_RESPONSE__RESPONSE_TYPE_RESULT_COMPLETE;
        done->result_complete = NEWMSG(Spark__Connect__ExecutePlanResponse__ResultComplete,
                                       spark__connect__execute_plan_response__result_complete__init);
        ok = emit(c, &done->base);
    }
    return ok;
}

/* ---------------------------------------------------------------- releases */

static bool release_execute(Ctx *c, const Spark__Connect__ReleaseExecuteRequest *rq) {
    if (!check_observed(c, rq->_client_observed_server_side_session_id_case,
                        rq->client_observed_server_side_session_id))
        return false;
    if (!uuid_valid(rq->operation_id))
        return invalid_handle(&c->fail, "FORMAT",
                              "Handle must be an UUID string of the format '00112233-4455-6677-8899-aabbccddeeff'",
                              rq->operation_id);
    /* Operations finish before their stream ends and keep no buffered
     * responses, so there is nothing left to release. */
    Spark__Connect__ReleaseExecuteResponse resp = SPARK__CONNECT__RELEASE_EXECUTE_RESPONSE__INIT;
    resp.session_id = (char *)c->session_id;
    resp.server_side_session_id = (char *)c->server_id;
    resp._operation_id_case = SPARK__CONNECT__RELEASE_EXECUTE_RESPONSE___OPERATION_ID_OPERATION_ID;
    resp.operation_id = rq->operation_id;
    return emit(c, &resp.base);
}

static bool release_session(Ctx *c) {
    /* The loop drops the session once this call succeeds (server.c). */
    Spark__Connect__ReleaseSessionResponse resp = SPARK__CONNECT__RELEASE_SESSION_RESPONSE__INIT;
    resp.session_id = (char *)c->session_id;
    resp.server_side_session_id = (char *)(c->server_id ? c->server_id : "");
    return emit(c, &resp.base);
}

/* ---------------------------------------------------------------- entry */

int connect_rpc_run(Job *j, ProtobufCMessage *rq, Arena *a, char *err, size_t errlen) {
    Ctx c = {.j = j, .a = a, .session_id = j->session_id};
    c.s = j->session ? j->session->cz : NULL;
    c.server_id = j->session ? j->session->server_id : NULL;
    bool ok;
    if (!c.s && j->method != RPC_CONNECT_RELEASE_SESSION) {
        ok = fail_text(&c, GRPC_INTERNAL, EXC_INTERNAL, "no session for the call");
    } else {
        switch (j->method) {
        case RPC_CONNECT_ANALYZE_PLAN: ok = analyze_plan(&c, (Spark__Connect__AnalyzePlanRequest *)rq); break;
        case RPC_CONNECT_CONFIG: ok = config(&c, (Spark__Connect__ConfigRequest *)rq); break;
        case RPC_CONNECT_EXECUTE_PLAN: ok = execute_plan(&c, (Spark__Connect__ExecutePlanRequest *)rq); break;
        case RPC_CONNECT_RELEASE_EXECUTE:
            ok = release_execute(&c, (Spark__Connect__ReleaseExecuteRequest *)rq);
            break;
        case RPC_CONNECT_RELEASE_SESSION: ok = release_session(&c); break;
        default: ok = fail_text(&c, GRPC_UNIMPLEMENTED, EXC_UNSUPPORTED, "method not implemented"); break;
        }
    }
    if (ok) return GRPC_OK;
    snprintf(err, errlen, "%s", c.fail.message);
    if (j->error_class[0] == '\0' && c.fail.error_class[0])
        snprintf(j->error_class, sizeof j->error_class, "%s", c.fail.error_class);
    if (c.fail.code != GRPC_CANCELLED) {
        size_t n = 0;
        uint8_t *det = fail_pack(&c.fail, &n);
        job_set_status_details(j, det, n);
    }
    return c.fail.code;
}
