/* grpc_server_* metrics (see metrics_grpc.h). */
#include "metrics_grpc.h"

#include "grpc_methods.h"

/* prometheus.DefBuckets, which go-grpc-prometheus' handling-time histogram uses. */
static const double BUCKETS[GRPC_METRIC_BUCKETS] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

const char *grpc_code_go_name(int code) {
    static const char *const N[GRPC_METRIC_CODES] = {
        "OK",          "Canceled",         "Unknown",           "InvalidArgument",    "DeadlineExceeded", "NotFound",
        "AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition", "Aborted",
        "OutOfRange",  "Unimplemented",    "Internal",          "Unavailable",        "DataLoss",         "Unauthenticated"};
    return code >= 0 && code < GRPC_METRIC_CODES ? N[code] : "Unknown";
}

void grpc_metrics_handled(GrpcMetrics *g, RpcMethod m, int code, double seconds) {
    if (m >= RPC_COUNT_) return; /* unknown methods: no series (a client could mint any number of names) */
    if (code < 0 || code >= GRPC_METRIC_CODES) code = 2; /* Unknown */
    g->handled[m][code]++;
    for (int b = 0; b < GRPC_METRIC_BUCKETS; b++)
        if (seconds <= BUCKETS[b]) g->buckets[m][b]++;
    g->count[m]++;
    g->sum[m] += seconds;
}

static void labels(StrBuf *sb, RpcMethod m) {
    const GrpcMethodInfo *i = grpc_method_info(m);
    sb_printf(sb, "grpc_type=\"%s\",grpc_service=\"%s\",grpc_method=\"%s\"", i->type, i->service, i->method);
}

static void per_method(StrBuf *sb, const char *name, const char *help, const uint64_t v[RPC_COUNT_]) {
    sb_printf(sb, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
    for (int m = 0; m < RPC_COUNT_; m++) {
        sb_printf(sb, "%s{", name);
        labels(sb, (RpcMethod)m);
        sb_printf(sb, "} %llu\n", (unsigned long long)v[m]);
    }
}

void grpc_metrics_render(const GrpcMetrics *g, StrBuf *sb) {
    per_method(sb, "grpc_server_started_total", "Total number of RPCs started on the server.", g->started);
    sb_puts(sb, "# HELP grpc_server_handled_total Total number of RPCs completed on the server, regardless of success or "
                "failure.\n# TYPE grpc_server_handled_total counter\n");
    for (int m = 0; m < RPC_COUNT_; m++)
        for (int c = 0; c < GRPC_METRIC_CODES; c++) {
            sb_puts(sb, "grpc_server_handled_total{");
            labels(sb, (RpcMethod)m);
            sb_printf(sb, ",grpc_code=\"%s\"} %llu\n", grpc_code_go_name(c), (unsigned long long)g->handled[m][c]);
        }
    per_method(sb, "grpc_server_msg_received_total", "Total number of RPC stream messages received on the server.",
               g->msg_received);
    per_method(sb, "grpc_server_msg_sent_total", "Total number of gRPC stream messages sent by the server.", g->msg_sent);
    sb_puts(sb, "# HELP grpc_server_handling_seconds Histogram of response latency (seconds) of gRPC that had been "
                "application-level handled by the server.\n# TYPE grpc_server_handling_seconds histogram\n");
    for (int m = 0; m < RPC_COUNT_; m++) {
        for (int b = 0; b < GRPC_METRIC_BUCKETS; b++) {
            sb_puts(sb, "grpc_server_handling_seconds_bucket{");
            labels(sb, (RpcMethod)m);
            sb_printf(sb, ",le=\"%g\"} %llu\n", BUCKETS[b], (unsigned long long)g->buckets[m][b]);
        }
        sb_puts(sb, "grpc_server_handling_seconds_bucket{");
        labels(sb, (RpcMethod)m);
        sb_printf(sb, ",le=\"+Inf\"} %llu\n", (unsigned long long)g->count[m]);
        sb_puts(sb, "grpc_server_handling_seconds_sum{");
        labels(sb, (RpcMethod)m);
        sb_printf(sb, "} %.9f\n", g->sum[m]);
        sb_puts(sb, "grpc_server_handling_seconds_count{");
        labels(sb, (RpcMethod)m);
        sb_printf(sb, "} %llu\n", (unsigned long long)g->count[m]);
    }
}
