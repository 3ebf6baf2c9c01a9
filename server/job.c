/* Jobs: the hand-off between the loop and the workers (see job.h). */
#include "job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grpc_codec.h"
#include "grpc_compress.h"
#include "server.h"

const char *rpc_method_name(RpcMethod m) {
    static const char *const N[] = {"Analyze", "Execute", "RegisterCatalog", "DropSession", "Health.Check", "Health.Watch",
                                    "ListFunctions", "InvalidateTable", "Connect.ExecutePlan", "Connect.AnalyzePlan", "Connect.Config",
                                    "Connect.ReleaseExecute", "Connect.ReleaseSession", "Reflection.v1", "Reflection.v1alpha"};
    _Static_assert(sizeof N / sizeof N[0] == RPC_COUNT_, "a name per method");
    return m < RPC_COUNT_ ? N[m] : "unknown";
}

uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

Job *job_new(struct Server *srv, RpcMethod m, JobFormat fmt) {
    Job *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->srv = srv;
    j->method = m;
    j->fmt = fmt;
    j->start_ns = mono_ns();
    j->out_cap = srv ? srv->cfg.stream_buffer_bytes : 1 << 20;
    pthread_mutex_init(&j->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&j->cv, &ca);
    pthread_condattr_destroy(&ca);
    j->refs = 1;
    return j;
}

void job_ref(Job *j) { __atomic_add_fetch(&j->refs, 1, __ATOMIC_ACQ_REL); }

void job_unref(Job *j) {
    if (__atomic_sub_fetch(&j->refs, 1, __ATOMIC_ACQ_REL) != 0) return;
    for (OutChunk *c = j->out_head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(j->req);
    free(j->status_details);
    if (j->req_msg) protobuf_c_message_free_unpacked(j->req_msg, NULL);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    free(j);
}

static bool append(Job *j, const void *data, size_t len) {
    OutChunk *c = malloc(sizeof *c + len);
    if (!c) return false;
    c->next = NULL;
    c->len = len;
    c->off = 0;
    memcpy(c->data, data, len);
    pthread_mutex_lock(&j->mu);
    if (j->out_tail)
        j->out_tail->next = c;
    else
        j->out_head = c;
    j->out_tail = c;
    j->out_bytes += len;
    pthread_mutex_unlock(&j->mu);
    return true;
}

void job_append(Job *j, const void *data, size_t len) { append(j, data, len); }

/* Would len more bytes take the response past --max-response-bytes? Then the
 * call ends in RESOURCE_EXHAUSTED (job_set_done) instead of sending them: a
 * 16 MB session variable once made an 80 MB answer. */
static bool over_response_cap(Job *j, size_t len) {
    size_t cap = j->srv ? j->srv->cfg.max_response_bytes : 0;
    if (!cap || (j->emitted_bytes <= cap && len <= cap - j->emitted_bytes)) return false;
    j->over_cap_bytes = j->emitted_bytes + len;
    return true;
}

bool job_emit(Job *j, const void *data, size_t len) {
    if (__atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE)) return false;
    if (over_response_cap(j, len)) return false;
    j->emitted_bytes += len;
    if (j->sink) return j->sink->emit(j, data, len);
    if (!append(j, data, len)) return false;
    if (j->srv) server_notify(j->srv, j);
    /* Backpressure: wait for the loop to send (flow control) before producing more. */
    if (j->loop_owned || j->fmt == JOB_JSON) return true; /* JSON: one body, sent whole when done */
    pthread_mutex_lock(&j->mu);
    while (j->out_bytes > j->out_cap && !__atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE)) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&j->cv, &j->mu, &ts);
        if (j->deadline_ns && mono_ns() > j->deadline_ns) break;
    }
    pthread_mutex_unlock(&j->mu);
    return !__atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE);
}

bool job_emit_grpc(Job *j, const ProtobufCMessage *msg) {
    size_t n = protobuf_c_message_get_packed_size(msg);
    if (over_response_cap(j, n + 5)) return false; /* before packing it */
    uint8_t stackbuf[4096];
    uint8_t *buf = n + 5 <= sizeof stackbuf ? stackbuf : malloc(n + 5);
    if (!buf) return false;
    grpc_frame_header(buf, (uint32_t)n);
    protobuf_c_message_pack(msg, buf + 5);
    /* A compressed response: each message whose compressed form is smaller
     * goes with the Compressed-Flag set; the others stay as they are (the
     * flag is per message, whatever grpc-encoding says). */
    uint8_t *z = NULL;
    size_t zn = 0;
    if (j->compress != GRPC_ENC_IDENTITY && n > 0 && grpc_deflate((GrpcEncoding)j->compress, buf + 5, n, &z, &zn) &&
        zn < n) {
        if (buf != stackbuf) free(buf);
        uint8_t *f = malloc(zn + 5);
        bool ok = f != NULL;
        if (ok) {
            grpc_frame_header(f, (uint32_t)zn);
            f[0] = 1;
            memcpy(f + 5, z, zn);
            ok = job_emit(j, f, zn + 5);
        }
        free(f);
        free(z);
        return ok;
    }
    free(z);
    bool ok = job_emit(j, buf, n + 5);
    if (buf != stackbuf) free(buf);
    return ok;
}

void job_set_done(Job *j, int status, const char *msg) {
    pthread_mutex_lock(&j->mu);
    j->status = status;
    snprintf(j->status_msg, sizeof j->status_msg, "%s", msg ? msg : "");
    if (j->over_cap_bytes) { /* whatever the handler made of the refused send */
        j->status = GRPC_RESOURCE_EXHAUSTED;
        free(j->status_details); /* they described the handler's view (a cancelled send) */
        j->status_details = NULL;
        j->status_details_len = 0;
        snprintf(j->status_msg, sizeof j->status_msg,
                 "the response would be at least %zu bytes, over the daemon's limit of %zu (--max-response-bytes)",
                 j->over_cap_bytes, j->srv ? j->srv->cfg.max_response_bytes : 0);
    }
    j->done = true;
    pthread_mutex_unlock(&j->mu);
}

void job_finish(Job *j, int status, const char *msg) {
    job_set_done(j, status, msg);
    if (j->sink) {
        j->sink->finish(j);
        return;
    }
    /* The last touch of j by its worker: once the loop takes this
     * notification it may free the job. */
    if (j->srv) server_notify_finish(j->srv, j);
}

void job_set_status_details(Job *j, uint8_t *details, size_t len) {
    pthread_mutex_lock(&j->mu);
    free(j->status_details);
    j->status_details = details;
    j->status_details_len = details ? len : 0;
    pthread_mutex_unlock(&j->mu);
}

size_t job_take(Job *j, uint8_t *buf, size_t cap, bool *eof) {
    size_t n = 0;
    pthread_mutex_lock(&j->mu);
    while (n < cap && j->out_head) {
        OutChunk *c = j->out_head;
        size_t k = c->len - c->off;
        if (k > cap - n) k = cap - n;
        memcpy(buf + n, c->data + c->off, k);
        c->off += k;
        n += k;
        if (c->off == c->len) {
            j->out_head = c->next;
            if (!j->out_head) j->out_tail = NULL;
            free(c);
        }
    }
    j->out_bytes -= n;
    *eof = j->done && !j->out_head;
    if (n) pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
    if (n && j->on_drained) j->on_drained(j);
    return n;
}

void job_cancel(Job *j) {
    __atomic_store_n(&j->cancel, 1, __ATOMIC_RELEASE);
    pthread_mutex_lock(&j->mu);
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    if (j->on_cancel) j->on_cancel(j);
}

bool job_is_done(Job *j) {
    pthread_mutex_lock(&j->mu);
    bool d = j->done;
    pthread_mutex_unlock(&j->mu);
    return d;
}

bool job_has_output(Job *j) {
    pthread_mutex_lock(&j->mu);
    bool d = j->out_head != NULL;
    pthread_mutex_unlock(&j->mu);
    return d;
}
