/* Flag and environment parsing for catalyzerd (see config.h). */
#include "config.h"

#include "cors.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum OptKind { OPT_HOSTPORT_GRPC, OPT_HOSTPORT_HTTP, OPT_U32, OPT_SIZE, OPT_LOGLEVEL, OPT_STRING, OPT_ORIGINS, OPT_BOOL } OptKind;

typedef struct Opt {
    const char *flag; /* without the leading -- */
    const char *env;
    OptKind kind;
    size_t offset;
    const char *def;
    const char *help;
} Opt;

#define OFF(f) offsetof(Config, f)
static const Opt OPTS[] = {
    {"grpc", "CATALYZERD_GRPC", OPT_HOSTPORT_GRPC, 0, "127.0.0.1:15002", "gRPC (HTTP/2 cleartext) listen address (15002: Spark Connect's port); port 0 = any free port"},
    {"http", "CATALYZERD_HTTP", OPT_HOSTPORT_HTTP, 0, "127.0.0.1:8080", "JSON endpoint listen address (HTTP/1.1, and HTTP/2: h2c with prior knowledge, or h2 by ALPN under TLS); 'off' disables it"},
    {"workers", "CATALYZERD_WORKERS", OPT_U32, OFF(workers), "0", "analysis workers (processes, or threads with --worker-isolation thread); 0 = number of cores"},
    {"queue", "CATALYZERD_QUEUE", OPT_U32, OFF(queue), "256", "bounded job queue; a full queue answers RESOURCE_EXHAUSTED"},
    {"worker-stack-bytes", "CATALYZERD_WORKER_STACK_BYTES", OPT_SIZE, OFF(worker_stack_bytes), "16777216", "stack size of each worker's analysis thread"},
    {"max-message-bytes", "CATALYZERD_MAX_MESSAGE_BYTES", OPT_U32, OFF(max_message_bytes), "4194304", "largest request message (gRPC or JSON body)"},
    {"max-plan-depth", "CATALYZERD_MAX_PLAN_DEPTH", OPT_U32, OFF(max_plan_depth), "1000", "deepest plan/expression nesting, checked before unpacking"},
    {"max-plan-nodes", "CATALYZERD_MAX_PLAN_NODES", OPT_U32, OFF(max_plan_nodes), "200000", "most plan/expression nodes in a request"},
    {"max-memory-bytes", "CATALYZERD_MAX_MEMORY_BYTES", OPT_SIZE, OFF(max_memory_bytes), "268435456", "per-request analysis memory budget"},
    {"max-response-bytes", "CATALYZERD_MAX_RESPONSE_BYTES", OPT_SIZE, OFF(max_response_bytes), "67108864", "one call's response (every message, trace events included); a response that would pass it ends in RESOURCE_EXHAUSTED instead of being sent; 0 = unlimited"},
    {"max-concurrent-streams", "CATALYZERD_MAX_CONCURRENT_STREAMS", OPT_U32, OFF(max_concurrent_streams), "100", "HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS"},
    {"max-header-list-bytes", "CATALYZERD_MAX_HEADER_LIST_BYTES", OPT_U32, OFF(max_header_list_bytes), "16384", "HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE (enforced)"},
    {"max-connections", "CATALYZERD_MAX_CONNECTIONS", OPT_U32, OFF(max_connections), "1024", "open client connections, both ports together"},
    {"session-idle-seconds", "CATALYZERD_SESSION_IDLE_SECONDS", OPT_U32, OFF(session_idle_seconds), "600", "idle sessions expire after this"},
    {"max-sessions", "CATALYZERD_MAX_SESSIONS", OPT_U32, OFF(max_sessions), "10000", "most live sessions; more answers RESOURCE_EXHAUSTED"},
    {"default-timeout-ms", "CATALYZERD_DEFAULT_TIMEOUT_MS", OPT_U32, OFF(default_timeout_ms), "0", "deadline of calls without grpc-timeout; 0 = none"},
    {"drain-timeout-ms", "CATALYZERD_DRAIN_TIMEOUT_MS", OPT_U32, OFF(drain_timeout_ms), "10000", "on SIGTERM, how long in-flight calls may take"},
    {"drain-delay-ms", "CATALYZERD_DRAIN_DELAY_MS", OPT_U32, OFF(drain_delay_ms), "0", "on SIGTERM, health turns NOT_SERVING at once but calls are still accepted and served this long before the drain starts (a load balancer's health check sees the replica going first); 0 = drain at once"},
    {"stream-buffer-bytes", "CATALYZERD_STREAM_BUFFER_BYTES", OPT_U32, OFF(stream_buffer_bytes), "1048576", "unsent output per call before its worker waits (slow readers)"},
    {"idle-timeout-seconds", "CATALYZERD_IDLE_TIMEOUT_SECONDS", OPT_U32, OFF(idle_timeout_seconds), "300", "close connections without a call started or ended this long (bytes alone do not count); 0 = never"},
    {"log-level", "CATALYZERD_LOG_LEVEL", OPT_LOGLEVEL, OFF(log_level), "info", "debug, info, warn or error"},
    {"tls-cert", "CATALYZERD_TLS_CERT", OPT_STRING, OFF(tls_cert), "", "PEM certificate chain: both ports speak TLS (gRPC with ALPN h2)"},
    {"tls-key", "CATALYZERD_TLS_KEY", OPT_STRING, OFF(tls_key), "", "PEM private key of --tls-cert"},
    {"tls-client-ca", "CATALYZERD_TLS_CLIENT_CA", OPT_STRING, OFF(tls_client_ca), "", "PEM CA bundle: clients must present a certificate it signed (mutual TLS)"},
    {"auth-token-file", "CATALYZERD_AUTH_TOKEN_FILE", OPT_STRING, OFF(auth_token_file), "", "lines of 'TOKEN PRINCIPAL': calls need 'authorization: Bearer TOKEN'"},
    {"http-allowed-hosts", "CATALYZERD_HTTP_ALLOWED_HOSTS", OPT_STRING, OFF(http_allowed_hosts), "localhost,127.0.0.1,::1", "Host header names the JSON endpoint answers (plus the --http address); '*' any"},
    {"http-allowed-origins", "CATALYZERD_HTTP_ALLOWED_ORIGINS", OPT_STRING, OFF(http_allowed_origins), "", "browser origins (scheme://host[:port], comma-separated) besides its own allowed to call the JSON endpoint"},
    {"http-cors", "CATALYZERD_HTTP_CORS", OPT_ORIGINS, OFF(http_cors), "", "browser origins (scheme://host:port, comma-separated) allowed to call the JSON endpoint cross-origin (CORS); empty = none"},
    {"worker-isolation", "CATALYZERD_WORKER_ISOLATION", OPT_STRING, OFF(worker_isolation), "process", "process: each analysis worker is a process, a crash costs one request; thread: workers are threads of the daemon"},
    {"worker-memory-limit", "CATALYZERD_WORKER_MEMORY_LIMIT", OPT_SIZE, OFF(worker_memory_limit), "0", "bytes of memory per worker process (RLIMIT_AS, resident memory); over it the request gets RESOURCE_EXHAUSTED; 0 = none"},
    {"enable-fault-injection", "CATALYZERD_ENABLE_FAULT_INJECTION", OPT_BOOL, OFF(enable_fault_injection), "false", "accept the request conf catalyzer.debug.fault=segv|abort|hang|oom|slow (tests of the failure paths)"},
    {"max-session-state-bytes", "CATALYZERD_MAX_SESSION_STATE_BYTES", OPT_SIZE, OFF(max_session_state_bytes), "67108864", "one session's state (its recorded changes, and its memory in a worker); over it the change is refused (RESOURCE_EXHAUSTED); 0 = unlimited"},
    {"max-timeout-ms", "CATALYZERD_MAX_TIMEOUT_MS", OPT_U32, OFF(max_timeout_ms), "300000", "longest deadline of any call: a client's longer grpc-timeout (or none) is cut to it; 0 = no cap"},
    {"max-grpc-connections", "CATALYZERD_MAX_GRPC_CONNECTIONS", OPT_U32, OFF(max_grpc_connections), "1024", "open client connections on the gRPC port (within --max-connections)"},
    {"max-http-connections", "CATALYZERD_MAX_HTTP_CONNECTIONS", OPT_U32, OFF(max_http_connections), "256", "open client connections on the JSON port (within --max-connections), so it cannot crowd out gRPC"},
    {"max-pinned-calls", "CATALYZERD_MAX_PINNED_CALLS", OPT_U32, OFF(max_pinned_calls), "1", "per HTTP/2 connection: calls whose output waits for the client to open its flow-control window; more calls on it get RESOURCE_EXHAUSTED"},
    {"max-total-session-state-bytes", "CATALYZERD_MAX_TOTAL_SESSION_STATE_BYTES", OPT_SIZE, OFF(max_total_session_state_bytes), "1073741824", "all sessions' state together (the same two measures); 0 = unlimited"},
    {"catalog-cache-max-entries", "CATALYZERD_CATALOG_CACHE_MAX_ENTRIES", OPT_U32, OFF(catalog_cache_max_entries), "10000", "tables of external catalogs (JDBC, catalyzer.remote) each worker keeps cached"},
    {"catalog-cache-max-bytes", "CATALYZERD_CATALOG_CACHE_MAX_BYTES", OPT_SIZE, OFF(catalog_cache_max_bytes), "67108864", "bytes of those cached tables per worker (least recently used go first)"},
    {"catalog-cache-ttl-seconds", "CATALYZERD_CATALOG_CACHE_TTL_SECONDS", OPT_U32, OFF(catalog_cache_ttl_seconds), "300", "how long a cached table is used before it is loaded (remote: revalidated by version) again; a catalog's cacheTtlSeconds option overrides it; 0 = the default"},
    {"session-store", "CATALYZERD_SESSION_STORE", OPT_STRING, OFF(session_store), "memory", "where sessions' journals live: 'memory' (this process) or redis://[:PASSWORD@]HOST[:PORT][/DB][?timeout_ms=N&prefix=P], shared by replicas so any of them serves any session"},
};
#define NOPTS (sizeof OPTS / sizeof OPTS[0])

bool config_is_loopback(const char *host) {
    return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 || strcmp(host, "localhost") == 0;
}

/* Flags that only make sense together, and the rule that a daemon nobody
 * authenticates to and nobody can verify stays on loopback. */
static int check_security(const Config *cfg) {
    if (!!cfg->tls_cert[0] != !!cfg->tls_key[0]) {
        fprintf(stderr, "catalyzerd: --tls-cert and --tls-key go together\n");
        return -1;
    }
    if (cfg->tls_client_ca[0] && !cfg->tls_cert[0]) {
        fprintf(stderr, "catalyzerd: --tls-client-ca needs --tls-cert and --tls-key\n");
        return -1;
    }
    if (cfg->tls_cert[0] || cfg->auth_token_file[0]) return 0;
    const char *what[2] = {cfg->grpc_host, cfg->http_host};
    const char *flag[2] = {"--grpc", "--http"};
    for (int i = 0; i < 2; i++)
        if (what[i][0] && !config_is_loopback(what[i])) {
            fprintf(stderr,
                    "catalyzerd: %s %s is not a loopback address: without TLS (--tls-cert, --tls-key) or "
                    "authentication (--auth-token-file) catalyzerd listens on loopback only\n",
                    flag[i], what[i]);
            return -1;
        }
    return 0;
}

bool config_parse_hostport(const char *s, char *host, size_t hostcap, int *port) {
    const char *colon = strrchr(s, ':');
    if (!colon) return false;
    size_t hl = (size_t)(colon - s);
    if (hl >= 2 && s[0] == '[' && s[hl - 1] == ']') { /* [::1]:port */
        s++;
        hl -= 2;
    }
    if (hl == 0 || hl >= hostcap) return false;
    char *end;
    errno = 0;
    long p = strtol(colon + 1, &end, 10);
    if (!colon[1] || *end || errno || p < 0 || p > 65535) return false;
    memcpy(host, s, hl);
    host[hl] = '\0';
    *port = (int)p;
    return true;
}

static bool set_opt(Config *cfg, const Opt *o, const char *v) {
    char *end;
    errno = 0;
    switch (o->kind) {
    case OPT_HOSTPORT_GRPC: return config_parse_hostport(v, cfg->grpc_host, sizeof cfg->grpc_host, &cfg->grpc_port);
    case OPT_HOSTPORT_HTTP:
        if (strcmp(v, "off") == 0 || !*v) {
            cfg->http_host[0] = '\0';
            return true;
        }
        return config_parse_hostport(v, cfg->http_host, sizeof cfg->http_host, &cfg->http_port);
    case OPT_U32: {
        unsigned long long n = strtoull(v, &end, 10);
        if (!*v || *end || errno || n > UINT32_MAX || *v == '-') return false;
        *(uint32_t *)((char *)cfg + o->offset) = (uint32_t)n;
        return true;
    }
    case OPT_SIZE: {
        unsigned long long n = strtoull(v, &end, 10);
        if (!*v || *end || errno || *v == '-') return false;
        *(size_t *)((char *)cfg + o->offset) = (size_t)n;
        return true;
    }
    case OPT_STRING:
        if (strlen(v) >= CONFIG_STR_MAX) return false;
        snprintf((char *)cfg + o->offset, CONFIG_STR_MAX, "%s", v);
        return true;
    case OPT_BOOL:
        if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0) *(bool *)((char *)cfg + o->offset) = true;
        else if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0) *(bool *)((char *)cfg + o->offset) = false;
        else return false;
        return true;
    case OPT_ORIGINS: {
        char err[256];
        if (strlen(v) >= sizeof cfg->http_cors || !cors_list_valid(v, err, sizeof err)) return false;
        snprintf(cfg->http_cors, sizeof cfg->http_cors, "%s", v);
        return true;
    }
    case OPT_LOGLEVEL: {
        static const char *const L[] = {"debug", "info", "warn", "error"};
        for (int i = 0; i < 4; i++)
            if (strcmp(v, L[i]) == 0) {
                cfg->log_level = i;
                return true;
            }
        return false;
    }
    }
    return false;
}

static void usage(FILE *f) {
    fprintf(f, "usage: catalyzerd [--grpc HOST:PORT] [--http HOST:PORT|off] [options]\n\n"
               "Catalyzer's analyzer daemon: gRPC services catalyzer.v1.Analyzer, spark.connect.SparkConnectService\n"
               "and grpc.health.v1.Health\n"
               "over HTTP/2 (TLS with --tls-cert/--tls-key), plus a JSON debugging endpoint (POST /v1/analyze, /v1/execute,\n"
               "/v1/register-catalog, /v1/drop-session; GET /healthz, /metrics) over HTTP/1.1,\n"
               "and on that port the plan debugger page at GET /.\n"
               "The first log line (JSON) names the ports chosen. SIGTERM/SIGINT drain and exit 0.\n\n"
               "options (each also read from its environment variable; flags win):\n");
    for (size_t i = 0; i < NOPTS; i++)
        fprintf(f, "  --%-24s %-36s %s (default %s)\n", OPTS[i].flag, OPTS[i].env, OPTS[i].help, *OPTS[i].def ? OPTS[i].def : "none");
    fprintf(f, "  --%-24s %-36s %s\n", "help, -h", "", "this text");
    fprintf(f, "  --%-24s %-36s %s\n", "version, -V", "", "print the version");
}

/* getopt_long over the table (argv as config_load rewrote it); 0 to go on,
 * 1 after --help/--version, -1 on a bad flag. */
static int parse_flags(Config *cfg, int argc, char **argv) {
    /* getopt_long over the table: --flag VALUE or --flag=VALUE (unambiguous
     * abbreviations too), -h/--help, -V/--version. */
    struct option longopts[NOPTS + 3];
    for (size_t i = 0; i < NOPTS; i++)
        longopts[i] = (struct option){OPTS[i].flag, OPTS[i].kind == OPT_BOOL ? optional_argument : required_argument,
                                      NULL, 256 + (int)i};
    longopts[NOPTS] = (struct option){"help", no_argument, NULL, 'h'};
    longopts[NOPTS + 1] = (struct option){"version", no_argument, NULL, 'V'};
    longopts[NOPTS + 2] = (struct option){NULL, 0, NULL, 0};
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return 1;
        }
        if (c == 'V') {
            printf("catalyzerd %s\n", CATALYZER_VERSION);
            return 1;
        }
        if (c == ':') {
            fprintf(stderr, "catalyzerd: bad value for %s: '(missing)'\n", argv[optind - 1]);
            return -1;
        }
        if (c == '?') {
            fprintf(stderr, "catalyzerd: unknown option '%s' (see --help)\n", argv[optind - 1]);
            return -1;
        }
        const Opt *o = &OPTS[c - 256];
        /* A switch takes no value unless given with '='. */
        const char *v = o->kind == OPT_BOOL && !optarg ? "true" : optarg;
        if (!set_opt(cfg, o, v)) {
            fprintf(stderr, "catalyzerd: bad value for --%s: '%s'\n", o->flag, v);
            return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "catalyzerd: unexpected argument '%s' (see --help)\n", argv[optind]);
        return -1;
    }
    return 0;
}

int config_load(Config *cfg, int argc, char **argv) {
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < NOPTS; i++)
        if (!set_opt(cfg, &OPTS[i], OPTS[i].def)) abort(); /* defaults are valid by construction */
    for (size_t i = 0; i < NOPTS; i++) {
        const char *v = getenv(OPTS[i].env);
        if (v && !set_opt(cfg, &OPTS[i], v)) {
            fprintf(stderr, "catalyzerd: bad value for %s: '%s'\n", OPTS[i].env, v);
            return -1;
        }
    }
    /* Abbreviations keep naming what they named as flags are added: one
     * that fits several flags names the first of them in the table (where
     * getopt_long would call it ambiguous); new flags go last. */
    char **args = calloc((size_t)argc + 1, sizeof *args);
    char **owned = calloc((size_t)argc + 1, sizeof *owned);
    if (!args || !owned) abort();
    for (int a = 0; a < argc; a++) args[a] = argv[a];
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (strcmp(arg, "--") == 0) break;
        if (strncmp(arg, "--", 2) != 0) continue;
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t nl = eq ? (size_t)(eq - name) : strlen(name);
        const Opt *exact = NULL, *first = NULL;
        int fits = 0;
        for (size_t i = 0; i < NOPTS; i++) {
            if (strncmp(OPTS[i].flag, name, nl) != 0) continue;
            if (strlen(OPTS[i].flag) == nl) exact = &OPTS[i];
            if (!first) first = &OPTS[i];
            fits++;
        }
        const Opt *o = exact ? exact : first;
        if (!exact && fits > 1 && strncmp("help", name, nl) != 0 && strncmp("version", name, nl) != 0) {
            size_t n = strlen(first->flag) + strlen(eq ? eq : "") + 3;
            if (!(owned[a] = malloc(n))) abort();
            snprintf(owned[a], n, "--%s%s", first->flag, eq ? eq : "");
            args[a] = owned[a];
        }
        if (o && !eq && o->kind != OPT_BOOL) a++; /* its value */
    }
    int rc = parse_flags(cfg, argc, args);
    for (int k = 0; k < argc; k++) free(owned[k]);
    free(owned);
    free(args);
    if (rc) return rc;
    if (cfg->workers == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cfg->workers = n > 0 ? (uint32_t)n : 1;
    }
    if (cfg->workers > 1024) cfg->workers = 1024;
    if (cfg->queue == 0) cfg->queue = 1;
    if (cfg->max_plan_depth == 0) cfg->max_plan_depth = 1;
    if (cfg->worker_stack_bytes < 256 * 1024) cfg->worker_stack_bytes = 256 * 1024;
    if (cfg->max_concurrent_streams == 0) cfg->max_concurrent_streams = 1;
    if (cfg->stream_buffer_bytes < 16384) cfg->stream_buffer_bytes = 16384;
    if (strcmp(cfg->worker_isolation, "process") == 0) {
        cfg->worker_processes = true;
    } else if (strcmp(cfg->worker_isolation, "thread") == 0) {
        cfg->worker_processes = false;
    } else {
        fprintf(stderr, "catalyzerd: --worker-isolation is 'process' or 'thread', not '%s'\n", cfg->worker_isolation);
        return -1;
    }
    if (!cfg->worker_processes && cfg->enable_fault_injection) {
        fprintf(stderr, "catalyzerd: --enable-fault-injection needs --worker-isolation process (a fault would take the "
                        "daemon down)\n");
        return -1;
    }
    if (!cfg->worker_processes && cfg->worker_memory_limit) {
        fprintf(stderr, "catalyzerd: --worker-memory-limit needs --worker-isolation process\n");
        return -1;
    }
    if (strcmp(cfg->session_store, "memory") != 0 && strncmp(cfg->session_store, "redis://", 8) != 0) {
        fprintf(stderr, "catalyzerd: --session-store is 'memory' or a redis:// URL, not '%s'\n", cfg->session_store);
        return -1;
    }
    if (!cfg->worker_processes && strcmp(cfg->session_store, "memory") != 0) {
        fprintf(stderr, "catalyzerd: --session-store redis://... needs --worker-isolation process (threads share the "
                        "daemon's own sessions, which no journal rebuilds)\n");
        return -1;
    }
    if (cfg->worker_memory_limit && cfg->worker_memory_limit < (64u << 20)) {
        fprintf(stderr, "catalyzerd: --worker-memory-limit below 64 MiB leaves a worker no room to start\n");
        return -1;
    }
    return check_security(cfg);
}
