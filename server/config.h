/* catalyzerd settings: one table of flags, each with an environment variable
 * (CATALYZERD_<NAME>), a default and a help line. Flags win over the
 * environment. This is a stable interface that tools rely on. */
#ifndef CZ_CONFIG_H
#define CZ_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { CONFIG_STR_MAX = 1024 };

typedef struct Config {
    char grpc_host[256];
    int grpc_port;
    char http_host[256]; /* empty: JSON endpoint off */
    int http_port;
    uint32_t workers;           /* 0 → number of cores */
    uint32_t queue;             /* bounded job queue */
    size_t worker_stack_bytes;
    uint32_t max_message_bytes;
    uint32_t max_plan_depth;
    uint32_t max_plan_nodes;
    size_t max_memory_bytes;    /* per-request arena budget */
    uint32_t max_concurrent_streams;
    uint32_t max_header_list_bytes;
    uint32_t max_connections;
    uint32_t session_idle_seconds;
    uint32_t max_sessions;
    uint32_t default_timeout_ms; /* 0: none */
    uint32_t drain_timeout_ms;
    uint32_t drain_delay_ms;    /* SIGTERM: NOT_SERVING this long, still serving, before the drain */
    uint32_t stream_buffer_bytes; /* per-call unsent output before the worker waits */
    uint32_t idle_timeout_seconds; /* close connections without calls or traffic after this; 0 = never */
    int log_level;              /* 0 debug, 1 info, 2 warn, 3 error */
    /* Security (see server/README.md): empty strings are "not set". */
    char tls_cert[CONFIG_STR_MAX];        /* PEM chain; with tls_key, both ports speak TLS */
    char tls_key[CONFIG_STR_MAX];
    char tls_client_ca[CONFIG_STR_MAX];   /* CA bundle: client certificates required (mutual TLS) */
    char auth_token_file[CONFIG_STR_MAX]; /* TOKEN PRINCIPAL lines: bearer tokens required */
    char http_allowed_hosts[CONFIG_STR_MAX];   /* Host header names the JSON endpoint answers */
    char http_allowed_origins[CONFIG_STR_MAX]; /* cross-origin pages allowed to call it */
    char http_cors[2048];       /* origins allowed cross-origin on the JSON endpoint, comma-separated; empty: none */
    /* Isolation (workers.h). */
    char worker_isolation[CONFIG_STR_MAX]; /* "process" (default) or "thread" */
    char default_time_zone[128]; /* the sessions' zone while spark.sql.session.timeZone is unset: the
                                  * machine's, looked up once at start (as the JVM does); workers get this copy */
    bool worker_processes;      /* worker_isolation is "process" */
    size_t worker_memory_limit; /* per worker process, bytes; 0: none */
    bool enable_fault_injection; /* the catalyzer.debug.fault request conf is accepted (fault.h) */
    size_t max_response_bytes;            /* one call's response, all its messages; 0: unlimited */
    size_t max_session_state_bytes;       /* one session's journal; 0: unlimited */
    size_t max_total_session_state_bytes; /* all sessions' journals; 0: unlimited */
    char session_store[CONFIG_STR_MAX]; /* "" or "memory": in this process; redis://...: shared by replicas */
    /* Server limits (issue 13, item 4). */
    uint32_t max_timeout_ms;    /* longest deadline a call gets (client grpc-timeout capped); 0: none */
    uint32_t max_grpc_connections; /* open connections on the gRPC port */
    uint32_t max_http_connections; /* open connections on the JSON port */
    uint32_t max_pinned_calls;  /* per HTTP/2 connection: calls waiting on the client's flow-control window */
    /* External catalogs (catalogs/catalogs.h): each worker's table cache. */
    uint32_t catalog_cache_max_entries;
    size_t catalog_cache_max_bytes;
    uint32_t catalog_cache_ttl_seconds; /* a catalog's cacheTtlSeconds option overrides it */
} Config;

/* Fills cfg from defaults, environment, then argv. Returns 0 to run, 1 when
 * --help/--version was printed (exit 0), -1 on a bad setting (message on stderr). */
int config_load(Config *cfg, int argc, char **argv);

/* A loopback address (127.0.0.0/8, ::1, localhost): without TLS and
 * authentication catalyzerd listens on nothing else. */
bool config_is_loopback(const char *host);

/* "host:port" → parts; port 0 allowed. */
bool config_parse_hostport(const char *s, char *host, size_t hostcap, int *port);

#endif
