#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "rpc.h"

static Server *g_srv;

Server *fuzz_server(void) {
    if (g_srv) return g_srv;
    g_srv = calloc(1, sizeof *g_srv);
    char arg0[] = "catalyzerd", thread[] = "--worker-isolation=thread", level[64];
    /* quiet unless FUZZ_LOG_LEVEL says otherwise (debug shows every call and reset) */
    snprintf(level, sizeof level, "--log-level=%s", getenv("FUZZ_LOG_LEVEL") ? getenv("FUZZ_LOG_LEVEL") : "error");
    char *argv[] = {arg0, thread, level, NULL};
    if (config_load(&g_srv->cfg, 3, argv) != 0) abort();
    metrics_init(&g_srv->metrics);
    pthread_mutex_init(&g_srv->notify_mu, NULL);
    return g_srv;
}

Session *fuzz_session_new(const char *id) {
    Session *s = calloc(1, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", id);
    snprintf(s->server_id, sizeof s->server_id, "s-fuzz");
    s->cz = server_new_cz_session(fuzz_server());
    if (!s->cz) abort();
    return s;
}

void fuzz_session_free(Session *s) {
    if (!s) return;
    cz_session_free(s->cz);
    free(s);
}

static bool sink_emit(Job *j, const void *data, size_t len) {
    (void)data;
    j->out_bytes += len; /* counted, not kept */
    return true;
}

static void sink_finish(Job *j) { (void)j; }

static const JobSink SINK = {sink_emit, sink_finish};

void fuzz_report(const Job *j) {
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_VERBOSE") != NULL;
    if (verbose)
        fprintf(stderr, "fuzz: %s: status %d %.200s (%zu bytes out)\n", rpc_method_name(j->method), j->status,
                j->status_msg, j->out_bytes);
}

int fuzz_run_job(Job *j) {
    j->sink = &SINK;
    rpc_run(j);
    fuzz_report(j);
    if (!j->done) {
        fprintf(stderr, "fuzz: rpc_run returned without finishing its job\n");
        abort();
    }
    return j->status;
}
