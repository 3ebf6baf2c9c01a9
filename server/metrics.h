/* Server metrics in Prometheus text format: requests and errors by method,
 * gRPC status and analysis error class; latency histogram; queue depth;
 * per-rule cumulative time and effective runs (Spark's rule metering).
 * All entry points lock; workers record rule totals directly. */
#ifndef CZ_METRICS_H
#define CZ_METRICS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "catalyzer.h"
#include "core/strbuf.h"
#include "metrics_grpc.h"

enum { METRIC_METHODS = 16, /* RPC_COUNT_ + 1 (unknown) */ METRIC_STATUSES = 17, METRIC_BUCKETS = 14, METRIC_CLASSES = 256, METRIC_RULES = 1024 };

typedef struct RuleMetric {
    char *batch, *rule;
    uint64_t runs, effective, nanos;
} RuleMetric;

typedef struct ClassMetric {
    char *cls;
    uint64_t count;
} ClassMetric;

typedef struct Metrics {
    pthread_mutex_t mu;
    uint64_t requests[METRIC_METHODS][METRIC_STATUSES];
    uint64_t latency_buckets[METRIC_METHODS][METRIC_BUCKETS];
    uint64_t latency_count[METRIC_METHODS];
    double latency_sum[METRIC_METHODS];
    ClassMetric classes[METRIC_CLASSES];
    uint32_t nclasses;
    RuleMetric rules[METRIC_RULES];
    uint32_t nrules;
    uint64_t rejected_queue_full;
    uint64_t bad_input;
    uint64_t jobs_stolen;       /* jobs taken back from a worker, not started, for another (workers.c) */
    struct {
        char reason[24];
        uint64_t count;
    } restarts[16];             /* worker processes replaced, by why the old one went */
    uint32_t nrestarts;
    GrpcMetrics grpc;           /* grpc_server_*: calls on the gRPC port (metrics_grpc.h) */
} Metrics;

void metrics_init(Metrics *m);
void metrics_free(Metrics *m);
/* method: RpcMethod index; transport "grpc" or "json" folded in method, except
 * in grpc_server_*, which count the gRPC port's calls (grpc true) only. */
void metrics_request(Metrics *m, int method, bool grpc, int status, const char *error_class, double seconds);
/* A call for a known method began on the gRPC port (grpc_server_started_total). */
void metrics_grpc_started(Metrics *m, RpcMethod method);
/* Messages received from / sent to the client on a gRPC call. */
void metrics_grpc_messages(Metrics *m, RpcMethod method, uint32_t received, uint32_t sent);
void metrics_rules(Metrics *m, const CzRuleTotal *t, int n);
void metrics_bad_input(Metrics *m);
void metrics_job_stolen(Metrics *m);
void metrics_queue_full(Metrics *m);
/* A worker process died and was replaced: reason "SIGSEGV", "deadline", "memory", ... */
void metrics_worker_restart(Metrics *m, const char *reason);
/* Renders everything (with the process_* and build-info metrics, metrics_process.h); gauges given by the caller. */
void metrics_render(Metrics *m, StrBuf *sb, uint32_t queue_depth, uint32_t running, uint32_t workers, uint32_t sessions,
                    uint32_t connections);

#endif
