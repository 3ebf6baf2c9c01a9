/* google.rpc.Status with ErrorInfo, as Spark Connect's ErrorUtils builds it
 * (see connect_error.h). */
#include "connect_error.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "google/protobuf/any.pb-c.h"
#include "google/rpc/error_details.pb-c.h"
#include "google/rpc/status.pb-c.h"

/* Each exception's class hierarchy, as Spark's allClasses lists it: the
 * class itself, then every superclass up to and including java.lang.Object. */
static const char *const *classes_of(ExceptionKind k) {
#define TAIL_RT "java.lang.RuntimeException", "java.lang.Exception", "java.lang.Throwable", "java.lang.Object", NULL
    static const char *const analysis[] = {"org.apache.spark.sql.catalyst.ExtendedAnalysisException",
                                           "org.apache.spark.sql.AnalysisException", "java.lang.Exception",
                                           "java.lang.Throwable", "java.lang.Object", NULL};
    static const char *const parse[] = {"org.apache.spark.sql.catalyst.parser.ParseException",
                                        "org.apache.spark.sql.AnalysisException", "java.lang.Exception",
                                        "java.lang.Throwable", "java.lang.Object", NULL};
    static const char *const arith[] = {"org.apache.spark.SparkArithmeticException", "java.lang.ArithmeticException",
                                        TAIL_RT};
    static const char *const numfmt[] = {"org.apache.spark.SparkNumberFormatException",
                                         "java.lang.NumberFormatException", "java.lang.IllegalArgumentException",
                                         TAIL_RT};
    static const char *const runtime[] = {"org.apache.spark.SparkRuntimeException", TAIL_RT};
    static const char *const sql[] = {"org.apache.spark.SparkSQLException", "java.sql.SQLException",
                                      "java.lang.Exception", "java.lang.Throwable", "java.lang.Object", NULL};
    static const char *const nse[] = {"org.apache.spark.SparkNoSuchElementException",
                                      "java.util.NoSuchElementException", TAIL_RT};
    static const char *const iae[] = {"java.lang.IllegalArgumentException", TAIL_RT};
    static const char *const plan[] = {"org.apache.spark.sql.connect.common.InvalidPlanInput", "java.lang.Exception",
                                       "java.lang.Throwable", "java.lang.Object", NULL};
    static const char *const unsup[] = {"java.lang.UnsupportedOperationException", TAIL_RT};
    static const char *const internal[] = {"org.apache.spark.SparkException", "java.lang.Exception",
                                           "java.lang.Throwable", "java.lang.Object", NULL};
#undef TAIL_RT
    switch (k) {
    case EXC_ANALYSIS: return analysis;
    case EXC_PARSE: return parse;
    case EXC_ARITHMETIC: return arith;
    case EXC_NUMBER_FORMAT: return numfmt;
    case EXC_RUNTIME: return runtime;
    case EXC_SQL: return sql;
    case EXC_NO_SUCH_ELEMENT: return nse;
    case EXC_ILLEGAL_ARGUMENT: return iae;
    case EXC_INVALID_PLAN: return plan;
    case EXC_UNSUPPORTED: return unsup;
    case EXC_INTERNAL: return internal;
    }
    return internal;
}

ExceptionKind exception_kind_of(const CzError *e) {
    const char *phase = e->phase ? e->phase : "analysis";
    if (strcmp(phase, "parse") == 0) return EXC_PARSE;
    if (strcmp(phase, "execution") != 0) return EXC_ANALYSIS;
    /* Runtime errors of constant folding (DECLARE ... DEFAULT 1/0, ...). */
    static const char *const ARITH[] = {"DIVIDE_BY_ZERO", "ARITHMETIC_OVERFLOW", "NUMERIC_VALUE_OUT_OF_RANGE",
                                        "INTERVAL_ARITHMETIC_OVERFLOW", "INTERVAL_DIVIDED_BY_ZERO", NULL};
    const char *cls = e->error_class ? e->error_class : "";
    for (int i = 0; ARITH[i]; i++)
        if (strncmp(cls, ARITH[i], strlen(ARITH[i])) == 0) return EXC_ARITHMETIC;
    if (strncmp(cls, "CAST_INVALID_INPUT", 18) == 0) return EXC_NUMBER_FORMAT;
    return EXC_RUNTIME;
}

char *message_parameters_json(int n, const char *const *names, const char *const *values) {
    json_t *o = json_object();
    for (int i = 0; i < n; i++) json_object_set_new(o, names[i], json_string(values[i] ? values[i] : ""));
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}

static char *classes_json(ExceptionKind k) {
    json_t *a = json_array();
    for (const char *const *c = classes_of(k); *c; c++) json_array_append_new(a, json_string(*c));
    char *s = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    return s;
}

uint8_t *rich_status_pack(int grpc_code, const char *message, const RichError *e, size_t *len) {
    Google__Rpc__ErrorInfo info = GOOGLE__RPC__ERROR_INFO__INIT;
    Google__Rpc__ErrorInfo__MetadataEntry md[5], *mdp[5];
    size_t nmd = 0;
    char *classes = classes_json(e->kind);
    char *params = NULL;
    info.reason = (char *)classes_of(e->kind)[0];
    info.domain = "org.apache.spark";
#define MD(K, V)                                                      \
    do {                                                              \
        google__rpc__error_info__metadata_entry__init(&md[nmd]);      \
        md[nmd].key = (char *)(K);                                    \
        md[nmd].value = (char *)(V);                                  \
        mdp[nmd] = &md[nmd];                                          \
        nmd++;                                                        \
    } while (0)
    MD("classes", classes ? classes : "[]");
    if (e->sqlstate && *e->sqlstate) MD("sqlState", e->sqlstate);
    if (e->error_class && *e->error_class) {
        params = message_parameters_json(e->nparams, e->param_names, e->param_values);
        MD("errorClass", e->error_class);
        MD("messageParameters", params ? params : "{}");
    }
#undef MD
    info.n_metadata = nmd;
    info.metadata = mdp;

    size_t ilen = protobuf_c_message_get_packed_size(&info.base);
    uint8_t *ibuf = malloc(ilen ? ilen : 1);
    uint8_t *out = NULL;
    if (ibuf) {
        protobuf_c_message_pack(&info.base, ibuf);
        Google__Protobuf__Any any = GOOGLE__PROTOBUF__ANY__INIT;
        any.type_url = "type.googleapis.com/google.rpc.ErrorInfo";
        any.value.data = ibuf;
        any.value.len = ilen;
        Google__Protobuf__Any *anyp = &any;
        Google__Rpc__Status st = GOOGLE__RPC__STATUS__INIT;
        st.code = grpc_code;
        st.message = (char *)(message ? message : "");
        st.n_details = 1;
        st.details = &anyp;
        *len = protobuf_c_message_get_packed_size(&st.base);
        out = malloc(*len ? *len : 1);
        if (out) protobuf_c_message_pack(&st.base, out);
    }
    free(ibuf);
    free(classes);
    free(params);
    return out;
}

void spark_error_message(char *out, size_t cap, const char *error_class, const char *text, const char *sqlstate) {
    const char *t = text ? text : "";
    /* The analyzer's messages already start with "[CLASS] ". */
    bool tagged = error_class && *error_class && t[0] == '[';
    int n;
    if (error_class && *error_class && !tagged)
        n = snprintf(out, cap, "[%s] %s", error_class, t);
    else
        n = snprintf(out, cap, "%s", t);
    if (n >= 0 && (size_t)n < cap && sqlstate && *sqlstate) snprintf(out + n, cap - (size_t)n, " SQLSTATE: %s", sqlstate);
}

uint8_t *rich_status_from_cz(const CzError *e, char *msg, size_t msglen, size_t *len) {
    RichError re = {exception_kind_of(e), e->error_class, e->sqlstate, e->nparams, e->param_names, e->param_values};
    spark_error_message(msg, msglen, e->error_class, e->message, e->sqlstate);
    return rich_status_pack(13 /* INTERNAL */, msg, &re, len);
}

bool fail_set(RpcFailure *f, int code, ExceptionKind kind, const char *error_class, const char *sqlstate,
              const char *text) {
    memset(f, 0, sizeof *f);
    f->code = code;
    f->re.kind = kind;
    if (error_class && *error_class) {
        snprintf(f->error_class, sizeof f->error_class, "%s", error_class);
        f->re.error_class = f->error_class;
    }
    if (sqlstate && *sqlstate) {
        snprintf(f->sqlstate, sizeof f->sqlstate, "%s", sqlstate);
        f->re.sqlstate = f->sqlstate;
    }
    f->re.param_names = f->names;
    f->re.param_values = f->values;
    spark_error_message(f->message, sizeof f->message, error_class, text, sqlstate);
    return false;
}

void fail_param(RpcFailure *f, const char *name, const char *value) {
    if (f->re.nparams >= RPC_FAILURE_PARAMS) return;
    int i = f->re.nparams++;
    snprintf(f->name_buf[i], sizeof f->name_buf[i], "%s", name ? name : "");
    snprintf(f->value_buf[i], sizeof f->value_buf[i], "%s", value ? value : "");
    f->names[i] = f->name_buf[i];
    f->values[i] = f->value_buf[i];
}

uint8_t *fail_pack(RpcFailure *f, size_t *len) {
    /* Point into this copy's buffers: a failure may have been copied by value. */
    f->re.error_class = f->error_class[0] ? f->error_class : NULL;
    f->re.sqlstate = f->sqlstate[0] ? f->sqlstate : NULL;
    for (int i = 0; i < f->re.nparams; i++) {
        f->names[i] = f->name_buf[i];
        f->values[i] = f->value_buf[i];
    }
    f->re.param_names = f->names;
    f->re.param_values = f->values;
    return rich_status_pack(f->code, f->message, &f->re, len);
}
