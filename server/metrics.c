/* Prometheus metrics (see metrics.h). */
#include "metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grpc_codec.h"
#include "job.h"
#include "metrics_process.h"

_Static_assert((int)RPC_COUNT_ < (int)METRIC_METHODS, "a metrics row per method, and one for unknown ones");

static const double BUCKETS[METRIC_BUCKETS] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                               0.025,  0.05,    0.1,    0.25,  0.5,   1,     5};

void metrics_init(Metrics *m) {
    memset(m, 0, sizeof *m);
    pthread_mutex_init(&m->mu, NULL);
}

void metrics_free(Metrics *m) {
    for (uint32_t i = 0; i < m->nclasses; i++) free(m->classes[i].cls);
    for (uint32_t i = 0; i < m->nrules; i++) {
        free(m->rules[i].batch);
        free(m->rules[i].rule);
    }
    pthread_mutex_destroy(&m->mu);
}

void metrics_request(Metrics *m, int method, bool grpc, int status, const char *error_class, double seconds) {
    if (method < 0 || method >= METRIC_METHODS) return;
    if (status < 0 || status >= METRIC_STATUSES) status = GRPC_UNKNOWN;
    pthread_mutex_lock(&m->mu);
    if (grpc) grpc_metrics_handled(&m->grpc, (RpcMethod)method, status, seconds);
    m->requests[method][status]++;
    for (int b = 0; b < METRIC_BUCKETS; b++)
        if (seconds <= BUCKETS[b]) m->latency_buckets[method][b]++;
    m->latency_count[method]++;
    m->latency_sum[method] += seconds;
    if (error_class && *error_class) {
        uint32_t i = 0;
        while (i < m->nclasses && strcmp(m->classes[i].cls, error_class) != 0) i++;
        if (i == m->nclasses && i < METRIC_CLASSES) {
            m->classes[i].cls = strdup(error_class);
            m->nclasses += m->classes[i].cls != NULL;
        }
        if (i < m->nclasses) m->classes[i].count++;
    }
    pthread_mutex_unlock(&m->mu);
}

void metrics_grpc_started(Metrics *m, RpcMethod method) {
    if (method >= RPC_COUNT_) return;
    pthread_mutex_lock(&m->mu);
    m->grpc.started[method]++;
    pthread_mutex_unlock(&m->mu);
}

void metrics_grpc_messages(Metrics *m, RpcMethod method, uint32_t received, uint32_t sent) {
    if (method >= RPC_COUNT_ || (!received && !sent)) return;
    pthread_mutex_lock(&m->mu);
    m->grpc.msg_received[method] += received;
    m->grpc.msg_sent[method] += sent;
    pthread_mutex_unlock(&m->mu);
}

void metrics_rules(Metrics *m, const CzRuleTotal *t, int n) {
    pthread_mutex_lock(&m->mu);
    for (int k = 0; k < n; k++) {
        uint32_t i = 0;
        while (i < m->nrules && (strcmp(m->rules[i].rule, t[k].rule) != 0 || strcmp(m->rules[i].batch, t[k].batch) != 0))
            i++;
        if (i == m->nrules) {
            if (i == METRIC_RULES) continue;
            m->rules[i].batch = strdup(t[k].batch ? t[k].batch : "");
            m->rules[i].rule = strdup(t[k].rule ? t[k].rule : "");
            if (!m->rules[i].batch || !m->rules[i].rule) {
                free(m->rules[i].batch);
                free(m->rules[i].rule);
                continue;
            }
            m->nrules++;
        }
        m->rules[i].runs += t[k].runs;
        m->rules[i].effective += t[k].effective;
        m->rules[i].nanos += t[k].nanos;
    }
    pthread_mutex_unlock(&m->mu);
}

void metrics_bad_input(Metrics *m) {
    pthread_mutex_lock(&m->mu);
    m->bad_input++;
    pthread_mutex_unlock(&m->mu);
}

void metrics_job_stolen(Metrics *m) {
    pthread_mutex_lock(&m->mu);
    m->jobs_stolen++;
    pthread_mutex_unlock(&m->mu);
}

void metrics_worker_restart(Metrics *m, const char *reason) {
    pthread_mutex_lock(&m->mu);
    uint32_t i = 0;
    while (i < m->nrestarts && strcmp(m->restarts[i].reason, reason) != 0) i++;
    if (i == m->nrestarts && i < sizeof m->restarts / sizeof m->restarts[0]) {
        snprintf(m->restarts[i].reason, sizeof m->restarts[i].reason, "%s", reason);
        m->nrestarts++;
    }
    if (i < m->nrestarts) m->restarts[i].count++;
    pthread_mutex_unlock(&m->mu);
}

void metrics_queue_full(Metrics *m) {
    pthread_mutex_lock(&m->mu);
    m->rejected_queue_full++;
    pthread_mutex_unlock(&m->mu);
}

/* Prometheus label values escape \, " and newline. */
static void put_label(StrBuf *sb, const char *s) {
    for (; *s; s++) {
        if (*s == '\\' || *s == '"') sb_putc(sb, '\\');
        if (*s == '\n') {
            sb_puts(sb, "\\n");
            continue;
        }
        sb_putc(sb, *s);
    }
}

void metrics_render(Metrics *m, StrBuf *sb, uint32_t queue_depth, uint32_t running, uint32_t workers, uint32_t sessions,
                    uint32_t connections) {
    pthread_mutex_lock(&m->mu);
    sb_puts(sb, "# HELP catalyzer_requests_total RPCs finished, by method and gRPC status.\n"
                "# TYPE catalyzer_requests_total counter\n");
    for (int me = 0; me < RPC_COUNT_; me++)
        for (int s = 0; s < METRIC_STATUSES; s++)
            if (m->requests[me][s])
                sb_printf(sb, "catalyzer_requests_total{method=\"%s\",status=\"%s\"} %llu\n", rpc_method_name(me),
                          grpc_status_name(s), (unsigned long long)m->requests[me][s]);
    sb_puts(sb, "# HELP catalyzer_errors_total RPCs that did not finish OK, by method and gRPC status.\n"
                "# TYPE catalyzer_errors_total counter\n");
    for (int me = 0; me < RPC_COUNT_; me++)
        for (int s = 1; s < METRIC_STATUSES; s++)
            if (m->requests[me][s])
                sb_printf(sb, "catalyzer_errors_total{method=\"%s\",status=\"%s\"} %llu\n", rpc_method_name(me),
                          grpc_status_name(s), (unsigned long long)m->requests[me][s]);
    sb_puts(sb, "# HELP catalyzer_analysis_errors_total Analysis results that are Spark errors, by error class.\n"
                "# TYPE catalyzer_analysis_errors_total counter\n");
    for (uint32_t i = 0; i < m->nclasses; i++) {
        sb_puts(sb, "catalyzer_analysis_errors_total{error_class=\"");
        put_label(sb, m->classes[i].cls);
        sb_printf(sb, "\"} %llu\n", (unsigned long long)m->classes[i].count);
    }
    sb_puts(sb, "# HELP catalyzer_request_duration_seconds RPC latency from request to last byte queued.\n"
                "# TYPE catalyzer_request_duration_seconds histogram\n");
    for (int me = 0; me < RPC_COUNT_; me++) {
        if (!m->latency_count[me]) continue;
        for (int b = 0; b < METRIC_BUCKETS; b++)
            sb_printf(sb, "catalyzer_request_duration_seconds_bucket{method=\"%s\",le=\"%g\"} %llu\n", rpc_method_name(me),
                      BUCKETS[b], (unsigned long long)m->latency_buckets[me][b]);
        sb_printf(sb, "catalyzer_request_duration_seconds_bucket{method=\"%s\",le=\"+Inf\"} %llu\n", rpc_method_name(me),
                  (unsigned long long)m->latency_count[me]);
        sb_printf(sb, "catalyzer_request_duration_seconds_sum{method=\"%s\"} %.9f\n", rpc_method_name(me),
                  m->latency_sum[me]);
        sb_printf(sb, "catalyzer_request_duration_seconds_count{method=\"%s\"} %llu\n", rpc_method_name(me),
                  (unsigned long long)m->latency_count[me]);
    }
    sb_printf(sb,
              "# HELP catalyzer_queue_depth Jobs waiting for a worker (including those parked behind a busy session).\n"
              "# TYPE catalyzer_queue_depth gauge\ncatalyzer_queue_depth %u\n"
              "# HELP catalyzer_jobs_running Jobs being analysed now.\n"
              "# TYPE catalyzer_jobs_running gauge\ncatalyzer_jobs_running %u\n"
              "# HELP catalyzer_workers Analysis workers ready (processes or threads).\n# TYPE catalyzer_workers gauge\ncatalyzer_workers %u\n"
              "# HELP catalyzer_sessions Live sessions.\n# TYPE catalyzer_sessions gauge\ncatalyzer_sessions %u\n"
              "# HELP catalyzer_connections Open client connections.\n"
              "# TYPE catalyzer_connections gauge\ncatalyzer_connections %u\n"
              "# HELP catalyzer_rejected_queue_full_total Calls answered RESOURCE_EXHAUSTED because the queue was full.\n"
              "# TYPE catalyzer_rejected_queue_full_total counter\ncatalyzer_rejected_queue_full_total %llu\n"
              "# HELP catalyzer_bad_input_total Requests rejected as malformed or over a limit.\n"
              "# TYPE catalyzer_bad_input_total counter\ncatalyzer_bad_input_total %llu\n"
              "# HELP catalyzer_jobs_stolen_total Jobs a worker held but had not started, taken back for another.\n"
              "# TYPE catalyzer_jobs_stolen_total counter\ncatalyzer_jobs_stolen_total %llu\n",
              queue_depth, running, workers, sessions, connections, (unsigned long long)m->rejected_queue_full,
              (unsigned long long)m->bad_input, (unsigned long long)m->jobs_stolen);
    sb_puts(sb, "# HELP catalyzer_worker_restarts_total Analysis worker processes replaced, by why the old one went.\n"
                "# TYPE catalyzer_worker_restarts_total counter\n");
    for (uint32_t i = 0; i < m->nrestarts; i++)
        sb_printf(sb, "catalyzer_worker_restarts_total{reason=\"%s\"} %llu\n", m->restarts[i].reason,
                  (unsigned long long)m->restarts[i].count);
    sb_puts(sb, "# HELP catalyzer_rule_runs_total Rule applications, by batch and rule.\n"
                "# TYPE catalyzer_rule_runs_total counter\n");
    for (uint32_t i = 0; i < m->nrules; i++) {
        sb_puts(sb, "catalyzer_rule_runs_total{batch=\"");
        put_label(sb, m->rules[i].batch);
        sb_puts(sb, "\",rule=\"");
        put_label(sb, m->rules[i].rule);
        sb_printf(sb, "\"} %llu\n", (unsigned long long)m->rules[i].runs);
    }
    sb_puts(sb, "# HELP catalyzer_rule_effective_runs_total Rule applications that changed the plan.\n"
                "# TYPE catalyzer_rule_effective_runs_total counter\n");
    for (uint32_t i = 0; i < m->nrules; i++) {
        sb_puts(sb, "catalyzer_rule_effective_runs_total{batch=\"");
        put_label(sb, m->rules[i].batch);
        sb_puts(sb, "\",rule=\"");
        put_label(sb, m->rules[i].rule);
        sb_printf(sb, "\"} %llu\n", (unsigned long long)m->rules[i].effective);
    }
    sb_puts(sb, "# HELP catalyzer_rule_seconds_total Cumulative time in each rule.\n"
                "# TYPE catalyzer_rule_seconds_total counter\n");
    for (uint32_t i = 0; i < m->nrules; i++) {
        sb_puts(sb, "catalyzer_rule_seconds_total{batch=\"");
        put_label(sb, m->rules[i].batch);
        sb_puts(sb, "\",rule=\"");
        put_label(sb, m->rules[i].rule);
        sb_printf(sb, "\"} %.9f\n", (double)m->rules[i].nanos / 1e9);
    }
    grpc_metrics_render(&m->grpc, sb);
    pthread_mutex_unlock(&m->mu);
    process_metrics_render(sb);
    build_info_render(sb);
}
