/* The grpc_server_* metrics under the names and labels of go-grpc-prometheus
 * (the convention Grafana's gRPC dashboards and most alerting rules assume):
 *
 *   grpc_server_started_total{grpc_type,grpc_service,grpc_method}
 *   grpc_server_handled_total{grpc_type,grpc_service,grpc_method,grpc_code}
 *   grpc_server_msg_received_total / grpc_server_msg_sent_total{grpc_type,grpc_service,grpc_method}
 *   grpc_server_handling_seconds{grpc_type,grpc_service,grpc_method} (histogram, Prometheus' default buckets)
 *
 * grpc_code is Go's spelling of the status ("OK", "InvalidArgument",
 * "Canceled", ...). Every method is pre-initialised (all codes at 0), as
 * go-grpc-prometheus' InitializeMetrics does, so rate() sees a series from
 * the start. Only calls on the gRPC port count here; the JSON endpoint's
 * calls are in catalyzer_requests_total with the gRPC ones. The state lives
 * in Metrics (metrics.h) under its lock. */
#ifndef CZ_METRICS_GRPC_H
#define CZ_METRICS_GRPC_H

#include <stdint.h>

#include "core/strbuf.h"
#include "job.h"

enum { GRPC_METRIC_CODES = 17, GRPC_METRIC_BUCKETS = 11 };

typedef struct GrpcMetrics {
    uint64_t started[RPC_COUNT_];
    uint64_t handled[RPC_COUNT_][GRPC_METRIC_CODES];
    uint64_t msg_received[RPC_COUNT_], msg_sent[RPC_COUNT_];
    uint64_t buckets[RPC_COUNT_][GRPC_METRIC_BUCKETS];
    uint64_t count[RPC_COUNT_];
    double sum[RPC_COUNT_];
} GrpcMetrics;

/* Go's codes.Code.String(): "OK", "Canceled", ..., "Unauthenticated"; "Unknown" out of range. */
const char *grpc_code_go_name(int code);

/* The caller holds the Metrics lock for these two. */
void grpc_metrics_handled(GrpcMetrics *g, RpcMethod m, int code, double seconds);
void grpc_metrics_render(const GrpcMetrics *g, StrBuf *sb);

#endif
