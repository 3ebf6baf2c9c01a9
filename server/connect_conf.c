/* Config operations and Spark's configuration keys (see connect_conf.h). */
#include "connect_conf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

typedef enum ConfType { CT_BOOL, CT_INT, CT_LONG, CT_DOUBLE, CT_STRING, CT_ENUM, CT_TIMEZONE, CT_BYTES } ConfType;

enum {
    CK_STATIC = 1, /* StaticSQLConf: fixed when the server starts */
    CK_CORE = 2,   /* a Spark core key (SparkConf), not a SQL one */
};

typedef struct ConfKey {
    const char *key;
    ConfType type;
    const char *dflt;   /* Spark's default, as RuntimeConfig.get prints it; NULL: none */
    const char *values; /* CT_ENUM: the allowed values, "A,B,C" (compared ignoring case) */
    unsigned flags;
} ConfKey;

/* The keys Catalyzer knows: every key its analyzer reads, the keys Spark
 * Connect clients ask for when they start (PySpark, the Scala client), and
 * the static and core keys a client may try to change. Defaults are Spark
 * 4.0's. A key not listed is stored as given (as Spark stores an unknown
 * key) but answers SQL_CONF_NOT_FOUND until set. */
static const ConfKey KEYS[] = {
    /* the analyzer's keys */
    {"spark.sql.ansi.enabled", CT_BOOL, "true", NULL, 0},
    {"spark.sql.caseSensitive", CT_BOOL, "false", NULL, 0},
    {"spark.sql.groupByOrdinal", CT_BOOL, "true", NULL, 0},
    {"spark.sql.orderByOrdinal", CT_BOOL, "true", NULL, 0},
    {"spark.sql.groupByAliases", CT_BOOL, "true", NULL, 0},
    {"spark.sql.lateralColumnAlias.enableImplicitResolution", CT_BOOL, "true", NULL, 0},
    {"spark.sql.crossJoin.enabled", CT_BOOL, "true", NULL, 0},
    {"spark.sql.legacy.parser.havingWithoutGroupByAsWhere", CT_BOOL, "false", NULL, 0},
    {"spark.sql.ansi.doubleQuotedIdentifiers", CT_BOOL, "false", NULL, 0},
    {"spark.sql.ansi.enforceReservedKeywords", CT_BOOL, "false", NULL, 0},
    {"spark.sql.legacy.ctePrecedencePolicy", CT_ENUM, "CORRECTED", "EXCEPTION,LEGACY,CORRECTED", 0},
    {"spark.sql.analyzer.maxIterations", CT_INT, "100", NULL, 0},
    {"spark.sql.timestampType", CT_ENUM, "TIMESTAMP_LTZ", "TIMESTAMP_LTZ,TIMESTAMP_NTZ", 0},
    {"spark.sql.session.timeZone", CT_TIMEZONE, NULL /* the server's zone */, NULL, 0},
    {"spark.sql.useCommonExprIdForAlias", CT_BOOL, "true", NULL, 0},
    {"spark.sql.defaultCatalog", CT_STRING, "spark_catalog", NULL, 0},
    {"spark.sql.legacy.interval.enabled", CT_BOOL, "false", NULL, 0},
    {"spark.sql.variable.substitute", CT_BOOL, "true", NULL, 0},
    {"spark.sql.parser.escapedStringLiterals", CT_BOOL, "false", NULL, 0},
    {"spark.sql.allowNamedFunctionArguments", CT_BOOL, "true", NULL, 0},
    {"spark.sql.decimalOperations.allowPrecisionLoss", CT_BOOL, "true", NULL, 0},
    {"spark.sql.legacy.timeParserPolicy", CT_ENUM, "CORRECTED", "EXCEPTION,LEGACY,CORRECTED", 0},
    {"spark.sql.mapKeyDedupPolicy", CT_ENUM, "EXCEPTION", "EXCEPTION,LAST_WIN", 0},
    {"spark.sql.storeAssignmentPolicy", CT_ENUM, "ANSI", "ANSI,LEGACY,STRICT", 0},
    {"spark.sql.session.collation.default", CT_STRING, "UTF8_BINARY", NULL, 0},
    {"spark.sql.datetime.java8API.enabled", CT_BOOL, "false", NULL, 0},
    {"spark.sql.legacy.allowNegativeScaleOfDecimal", CT_BOOL, "false", NULL, 0},
    {"spark.sql.selfJoinAutoResolveAmbiguity", CT_BOOL, "true", NULL, 0},
    {"spark.sql.analyzer.failAmbiguousSelfJoin", CT_BOOL, "true", NULL, 0},
    {"spark.sql.retainGroupColumns", CT_BOOL, "true", NULL, 0},
    {"spark.sql.pivotMaxValues", CT_INT, "10000", NULL, 0},
    {"spark.sql.debug.maxToStringFields", CT_INT, "25", NULL, 0},
    {"spark.sql.maxPlanStringLength", CT_BYTES, "2147483632", NULL, 0},
    /* execution keys clients read or set; Catalyzer keeps them for the session */
    {"spark.sql.shuffle.partitions", CT_INT, "200", NULL, 0},
    {"spark.sql.adaptive.enabled", CT_BOOL, "true", NULL, 0},
    {"spark.sql.autoBroadcastJoinThreshold", CT_BYTES, "10MB", NULL, 0},
    {"spark.sql.sources.default", CT_STRING, "parquet", NULL, 0},
    {"spark.sql.optimizer.maxIterations", CT_INT, "100", NULL, 0},
    {"spark.sql.execution.arrow.maxRecordsPerBatch", CT_INT, "10000", NULL, 0},
    {"spark.sql.execution.arrow.pyspark.enabled", CT_BOOL, "false", NULL, 0},
    {"spark.sql.execution.arrow.pyspark.fallback.enabled", CT_BOOL, "true", NULL, 0},
    {"spark.sql.execution.arrow.useLargeVarTypes", CT_BOOL, "false", NULL, 0},
    {"spark.sql.execution.pandas.convertToArrowArraySafely", CT_BOOL, "false", NULL, 0},
    {"spark.sql.execution.pandas.structHandlingMode", CT_ENUM, "legacy", "legacy,row,dict", 0},
    {"spark.sql.execution.pandas.inferPandasDictAsMap", CT_BOOL, "false", NULL, 0},
    {"spark.sql.pyspark.inferNestedDictAsStruct.enabled", CT_BOOL, "false", NULL, 0},
    {"spark.sql.pyspark.legacy.inferArrayTypeFromFirstElement.enabled", CT_BOOL, "false", NULL, 0},
    {"spark.sql.pyspark.legacy.inferMapTypeFromFirstPair.enabled", CT_BOOL, "false", NULL, 0},
    {"spark.sql.pyspark.jvmStacktrace.enabled", CT_BOOL, "false", NULL, 0},
    {"spark.sql.repl.eagerEval.enabled", CT_BOOL, "false", NULL, 0},
    {"spark.sql.repl.eagerEval.maxNumRows", CT_INT, "20", NULL, 0},
    {"spark.sql.repl.eagerEval.truncate", CT_INT, "20", NULL, 0},
    {"spark.sql.session.localRelationCacheThreshold", CT_LONG, "67108864", NULL, 0},
    {"spark.sql.connect.enrichError.enabled", CT_BOOL, "true", NULL, 0},
    {"spark.sql.connect.serverStacktrace.enabled", CT_BOOL, "true", NULL, 0},
    /* Catalyzer's own (documented in the README) */
    {"catalyzer.aliasInSubquery.enabled", CT_BOOL, "false", NULL, 0},
    {"catalyzer.decorrelate", CT_BOOL, "false", NULL, 0},
    {"catalyzer.explain.finishAnalysis", CT_BOOL, "false", NULL, 0},
    /* static SQL keys */
    {"spark.sql.warehouse.dir", CT_STRING, "spark-warehouse", NULL, CK_STATIC},
    {"spark.sql.catalogImplementation", CT_ENUM, "in-memory", "in-memory,hive", CK_STATIC},
    {"spark.sql.globalTempDatabase", CT_STRING, "global_temp", NULL, CK_STATIC},
    {"spark.sql.extensions", CT_STRING, NULL, NULL, CK_STATIC},
    {"spark.sql.queryExecutionListeners", CT_STRING, NULL, NULL, CK_STATIC},
    {"spark.sql.streaming.streamingQueryListeners", CT_STRING, NULL, NULL, CK_STATIC},
    {"spark.sql.ui.retainedExecutions", CT_INT, "1000", NULL, CK_STATIC},
    {"spark.sql.sources.schemaStringLengthThreshold", CT_INT, "4000", NULL, CK_STATIC},
    {"spark.sql.event.truncate.length", CT_INT, "2147483647", NULL, CK_STATIC},
    {"spark.sql.cache.serializer", CT_STRING, "org.apache.spark.sql.execution.columnar.DefaultCachedBatchSerializer",
     NULL, CK_STATIC},
    {"spark.sql.debug", CT_BOOL, "false", NULL, CK_STATIC},
    /* Spark core keys: not SQL configuration, so not settable from a session */
    {"spark.master", CT_STRING, NULL, NULL, CK_CORE},
    {"spark.app.name", CT_STRING, NULL, NULL, CK_CORE},
    {"spark.driver.memory", CT_BYTES, NULL, NULL, CK_CORE},
    {"spark.executor.memory", CT_BYTES, NULL, NULL, CK_CORE},
    {"spark.executor.cores", CT_INT, NULL, NULL, CK_CORE},
    {"spark.executor.instances", CT_INT, NULL, NULL, CK_CORE},
    {"spark.default.parallelism", CT_INT, NULL, NULL, CK_CORE},
    {"spark.serializer", CT_STRING, NULL, NULL, CK_CORE},
    {"spark.task.cpus", CT_INT, NULL, NULL, CK_CORE},
    {"spark.dynamicAllocation.enabled", CT_BOOL, NULL, NULL, CK_CORE},
    {"spark.connect.grpc.binding.port", CT_INT, NULL, NULL, CK_CORE},
};

static const ConfKey *find_key(const char *key) {
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++)
        if (strcmp(KEYS[i].key, key) == 0) return &KEYS[i];
    return NULL;
}

/* The server's zone, which Spark takes from the JVM's default (the analyzer's default). */
static const char *server_time_zone(Arena *a) {
    char buf[128];
    cz_default_time_zone(buf, sizeof buf);
    return arena_strdup(a, buf);
}

static const char *default_of(const ConfKey *k, Arena *a) {
    if (k->type == CT_TIMEZONE && !k->dflt) return server_time_zone(a);
    return k->dflt;
}

/* ---------------------------------------------------------------- values */

static bool parse_long(const char *v, long long *out) {
    while (isspace((unsigned char)*v)) v++;
    char *end;
    long long n = strtoll(v, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (end == v || *end) return false;
    *out = n;
    return true;
}

/* Spark's zone ids: a region ("America/Los_Angeles", from the zone database),
 * UTC/GMT/Z, or an offset ("+08:00", "UTC+8", "GMT-03:30"). */
static bool valid_time_zone(const char *z) {
    if (!*z || strlen(z) > 64) return false;
    if (strcmp(z, "Z") == 0 || strcasecmp(z, "UTC") == 0 || strcasecmp(z, "GMT") == 0 || strcasecmp(z, "UT") == 0)
        return true;
    const char *p = z;
    if (strncasecmp(p, "UTC", 3) == 0 || strncasecmp(p, "GMT", 3) == 0) p += 3;
    else if (strncasecmp(p, "UT", 2) == 0) p += 2;
    if (*p == '+' || *p == '-') {
        p++;
        int h = 0, m = 0, nd = 0;
        while (isdigit((unsigned char)*p) && nd < 2) h = h * 10 + (*p++ - '0'), nd++;
        if (!nd) return false;
        if (*p == ':') p++;
        if (*p) {
            if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1])) return false;
            m = (p[0] - '0') * 10 + (p[1] - '0');
            p += 2;
            if (*p == ':' && isdigit((unsigned char)p[1]) && isdigit((unsigned char)p[2])) p += 3;
        }
        return !*p && h <= 18 && m < 60;
    }
    if (p != z) return false;
    /* A region: it must be in the zone database. */
    for (const char *c = z; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '/' && *c != '_' && *c != '-' && *c != '+') return false;
    if (strstr(z, "..") || z[0] == '/') return false;
    char path[128];
    snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", z);
    return access(path, R_OK) == 0;
}

static bool check_bytes(const char *v) {
    while (isspace((unsigned char)*v)) v++;
    const char *p = v;
    while (isdigit((unsigned char)*p)) p++;
    if (p == v) return false;
    static const char *const SUFFIX[] = {"", "b", "k", "kb", "m", "mb", "g", "gb", "t", "tb", "p", "pb", NULL};
    for (int i = 0; SUFFIX[i]; i++)
        if (strcasecmp(p, SUFFIX[i]) == 0) return true;
    return false;
}

/* Spark's ConfigEntry value conversion: false and the reason when v does not fit. */
static bool check_value(const ConfKey *k, const char *v, RpcFailure *f) {
    char why[512];
    long long n;
    switch (k->type) {
    case CT_BOOL: {
        char t[8] = "";
        size_t len = strlen(v);
        const char *s = v;
        while (len && isspace((unsigned char)*s)) s++, len--;
        while (len && isspace((unsigned char)s[len - 1])) len--;
        if (len < sizeof t) memcpy(t, s, len), t[len] = '\0';
        if (strcasecmp(t, "true") == 0 || strcasecmp(t, "false") == 0) return true;
        snprintf(why, sizeof why, "%s should be boolean, but was %s", k->key, v);
        return fail_set(f, 13, EXC_ILLEGAL_ARGUMENT, NULL, NULL, why);
    }
    case CT_INT:
        if (parse_long(v, &n) && n >= -2147483648LL && n <= 2147483647LL) return true;
        snprintf(why, sizeof why, "%s should be int, but was %s", k->key, v);
        return fail_set(f, 13, EXC_ILLEGAL_ARGUMENT, NULL, NULL, why);
    case CT_LONG:
        if (parse_long(v, &n)) return true;
        snprintf(why, sizeof why, "%s should be long, but was %s", k->key, v);
        return fail_set(f, 13, EXC_ILLEGAL_ARGUMENT, NULL, NULL, why);
    case CT_DOUBLE: {
        char *end;
        strtod(v, &end);
        if (end != v && !*end) return true;
        snprintf(why, sizeof why, "%s should be double, but was %s", k->key, v);
        return fail_set(f, 13, EXC_ILLEGAL_ARGUMENT, NULL, NULL, why);
    }
    case CT_BYTES:
        if (check_bytes(v)) return true;
        snprintf(why, sizeof why, "Size must be specified as bytes (b), kibibytes (k), mebibytes (m), gibibytes (g), "
                                  "tebibytes (t), or pebibytes(p). E.g. 50b, 100k, or 250m. (%s: %s)",
                 k->key, v);
        return fail_set(f, 13, EXC_ILLEGAL_ARGUMENT, NULL, NULL, why);
    case CT_ENUM: {
        const char *p = k->values;
        size_t vl = strlen(v);
        while (*p) {
            size_t l = strcspn(p, ",");
            if (l == vl && strncasecmp(p, v, l) == 0) return true;
            p += l + (p[l] == ',');
        }
        char list[256];
        snprintf(list, sizeof list, "%s", k->values);
        for (char *c = list; *c; c++)
            if (*c == ',') *c = ' ';
        /* "A, B, C" as Spark's checkValues lists them */
        char pretty[300] = "";
        size_t o = 0;
        for (char *tok = strtok(list, " "); tok; tok = strtok(NULL, " "))
            o += (size_t)snprintf(pretty + o, sizeof pretty - o, "%s%s", o ? ", " : "", tok);
        snprintf(why, sizeof why, "The value of %s should be one of %s, but was %s", k->key, pretty, v);
        return fail_set(f, 13, EXC_ILLEGAL_ARGUMENT, NULL, NULL, why);
    }
    case CT_TIMEZONE:
        if (valid_time_zone(v)) return true;
        snprintf(why, sizeof why, "The value '%s' in the config \"%s\" is invalid. Cannot resolve the given timezone.",
                 v, k->key);
        fail_set(f, 13, EXC_ILLEGAL_ARGUMENT, "INVALID_CONF_VALUE.TIME_ZONE", "22022", why);
        fail_param(f, "confValue", v);
        fail_param(f, "confName", k->key);
        return false;
    case CT_STRING: return true;
    }
    return true;
}

/* ---------------------------------------------------------------- operations */

static bool cannot_modify(const ConfKey *k, RpcFailure *f) {
    char quoted[300], text[600];
    snprintf(quoted, sizeof quoted, "\"%s\"", k->key);
    snprintf(text, sizeof text,
             "Cannot modify the value of the Spark config: %s. See also "
             "'https://spark.apache.org/docs/latest/sql-migration-guide.html#ddl-statements'.",
             quoted);
    fail_set(f, 13, EXC_ANALYSIS, "CANNOT_MODIFY_CONFIG", "46110", text);
    fail_param(f, "key", quoted);
    fail_param(f, "docroot", "https://spark.apache.org/docs/latest");
    return false;
}

static bool not_found(const char *key, RpcFailure *f) {
    char quoted[300], text[600];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    snprintf(text, sizeof text, "The SQL config %s cannot be found. Please verify that the config exists.", quoted);
    fail_set(f, 13, EXC_NO_SUCH_ELEMENT, "SQL_CONF_NOT_FOUND", "42K0I", text);
    fail_param(f, "sqlConf", quoted);
    return false;
}

const char *connect_conf_value(CzSession *s, const char *key, Arena *a) {
    const char *v = cz_session_get_conf(s, key);
    if (v) return arena_strdup(a, v);
    const ConfKey *k = find_key(key);
    return k ? default_of(k, a) : NULL;
}

static bool set_one(CzSession *s, const char *key, const char *value, RpcFailure *f) {
    const ConfKey *k = find_key(key);
    if (k && (k->flags & (CK_STATIC | CK_CORE))) return cannot_modify(k, f);
    if (!value) {
        char why[400];
        snprintf(why, sizeof why, "requirement failed: value for %s cannot be null", key);
        return fail_set(f, 13, EXC_ILLEGAL_ARGUMENT, NULL, NULL, why);
    }
    if (k && !check_value(k, value, f)) return false;
    if (!cz_session_set_conf(s, key, value)) {
        char why[400];
        snprintf(why, sizeof why, "%s does not accept the value %s", key, value);
        return fail_set(f, 13, EXC_ILLEGAL_ARGUMENT, NULL, NULL, why);
    }
    return true;
}

static bool unset_one(CzSession *s, const char *key, RpcFailure *f) {
    const ConfKey *k = find_key(key);
    if (k && (k->flags & (CK_STATIC | CK_CORE))) return cannot_modify(k, f);
    if (!cz_session_unset_conf(s, key)) {
        char why[400];
        snprintf(why, sizeof why, "cannot unset %s", key);
        return fail_set(f, 13, EXC_INTERNAL, NULL, NULL, why);
    }
    return true;
}

static Spark__Connect__KeyValue *kv(Arena *a, const char *key, const char *value) {
    Spark__Connect__KeyValue *p = arena_alloc(a, sizeof *p);
    spark__connect__key_value__init(p);
    p->key = (char *)key;
    if (value) {
        p->_value_case = SPARK__CONNECT__KEY_VALUE___VALUE_VALUE;
        p->value = (char *)value;
    }
    return p;
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

bool connect_config(CzSession *s, const Spark__Connect__ConfigRequest__Operation *op, Arena *a,
                    Spark__Connect__ConfigResponse *resp, RpcFailure *f) {
    if (!op) return fail_set(f, 3, EXC_INVALID_PLAN, NULL, NULL, "ConfigRequest.operation is required");
    size_t n = 0;
    Spark__Connect__KeyValue **out = NULL;
    switch (op->op_type_case) {
    case SPARK__CONNECT__CONFIG_REQUEST__OPERATION__OP_TYPE_SET: {
        const Spark__Connect__ConfigRequest__Set *set = op->set;
        bool silent = set->_silent_case && set->silent;
        resp->warnings = ARENA_ARRAY(a, char *, set->n_pairs ? set->n_pairs : 1);
        for (size_t i = 0; i < set->n_pairs; i++) {
            const Spark__Connect__KeyValue *p = set->pairs[i];
            const char *v = p->_value_case ? p->value : NULL;
            RpcFailure one;
            if (set_one(s, p->key, v, &one)) continue;
            if (!silent) {
                *f = one;
                return false;
            }
            resp->warnings[resp->n_warnings++] =
                arena_printf(a, "Failed to set %s to %s due to %s", p->key, v ? v : "null", one.message);
        }
        return true;
    }
    case SPARK__CONNECT__CONFIG_REQUEST__OPERATION__OP_TYPE_GET: {
        const Spark__Connect__ConfigRequest__Get *g = op->get;
        out = ARENA_ARRAY(a, Spark__Connect__KeyValue *, g->n_keys ? g->n_keys : 1);
        for (size_t i = 0; i < g->n_keys; i++) {
            const char *v = connect_conf_value(s, g->keys[i], a);
            const ConfKey *k = find_key(g->keys[i]);
            if (!v && !k) return not_found(g->keys[i], f);
            out[n++] = kv(a, g->keys[i], v); /* a known key without default: no value */
        }
        break;
    }
    case SPARK__CONNECT__CONFIG_REQUEST__OPERATION__OP_TYPE_GET_WITH_DEFAULT: {
        const Spark__Connect__ConfigRequest__GetWithDefault *g = op->get_with_default;
        out = ARENA_ARRAY(a, Spark__Connect__KeyValue *, g->n_pairs ? g->n_pairs : 1);
        for (size_t i = 0; i < g->n_pairs; i++) {
            const Spark__Connect__KeyValue *p = g->pairs[i];
            const char *set = cz_session_get_conf(s, p->key);
            const char *dflt = p->_value_case ? p->value : NULL;
            const ConfKey *k = find_key(p->key);
            /* Spark checks a given default of a known key against its type. */
            if (!set && dflt && k && !check_value(k, dflt, f)) return false;
            out[n++] = kv(a, p->key, set ? arena_strdup(a, set) : dflt);
        }
        break;
    }
    case SPARK__CONNECT__CONFIG_REQUEST__OPERATION__OP_TYPE_GET_OPTION: {
        const Spark__Connect__ConfigRequest__GetOption *g = op->get_option;
        out = ARENA_ARRAY(a, Spark__Connect__KeyValue *, g->n_keys ? g->n_keys : 1);
        for (size_t i = 0; i < g->n_keys; i++) out[n++] = kv(a, g->keys[i], connect_conf_value(s, g->keys[i], a));
        break;
    }
    case SPARK__CONNECT__CONFIG_REQUEST__OPERATION__OP_TYPE_GET_ALL: {
        const char *prefix = op->get_all->_prefix_case ? op->get_all->prefix : "";
        const char *const *keys;
        int nk = cz_session_conf_keys(s, &keys);
        const char **sorted = ARENA_ARRAY(a, const char *, nk ? nk : 1);
        int m = 0;
        for (int i = 0; i < nk; i++)
            if (strncmp(keys[i], prefix, strlen(prefix)) == 0) sorted[m++] = arena_strdup(a, keys[i]);
        qsort(sorted, (size_t)m, sizeof *sorted, cmp_str);
        out = ARENA_ARRAY(a, Spark__Connect__KeyValue *, m ? m : 1);
        for (int i = 0; i < m; i++) out[n++] = kv(a, sorted[i], arena_strdup(a, cz_session_get_conf(s, sorted[i])));
        break;
    }
    case SPARK__CONNECT__CONFIG_REQUEST__OPERATION__OP_TYPE_UNSET:
        for (size_t i = 0; i < op->unset->n_keys; i++)
            if (!unset_one(s, op->unset->keys[i], f)) return false;
        return true;
    case SPARK__CONNECT__CONFIG_REQUEST__OPERATION__OP_TYPE_IS_MODIFIABLE: {
        const Spark__Connect__ConfigRequest__IsModifiable *g = op->is_modifiable;
        out = ARENA_ARRAY(a, Spark__Connect__KeyValue *, g->n_keys ? g->n_keys : 1);
        for (size_t i = 0; i < g->n_keys; i++) {
            const ConfKey *k = find_key(g->keys[i]);
            bool mod = k && !(k->flags & (CK_STATIC | CK_CORE));
            out[n++] = kv(a, g->keys[i], mod ? "true" : "false");
        }
        break;
    }
    default: return fail_set(f, 3, EXC_INVALID_PLAN, NULL, NULL, "ConfigRequest.operation has no operation set");
    }
    resp->n_pairs = n;
    resp->pairs = out;
    return true;
}
