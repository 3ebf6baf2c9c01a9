/* Analysis worker processes, loop side (see workers.h). */
#include "workers.h"

#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <openssl/sha.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "connect_error.h"
#include "grpc_codec.h"
#include "job.h"
#include "log.h"
#include "server.h"
#include "session_store.h"
#include "wire.h"

extern char **environ;

/* A call answered (deadline) or abandoned (cancel) is given this long to
 * stop by itself before its worker is killed. */
enum { DEADLINE_GRACE_MS = 100, CANCEL_GRACE_MS = 250, WATCHDOG_MS = 20, RESPAWN_BACKOFF_MS = 100 };
/* A running job older than this is slow: with another worker about, its
 * worker takes no more jobs behind it, and the watchdog takes back those it
 * holds (not started) for the others. */
enum { SLOW_HEAD_NS = 20000000 };

typedef struct WorkerProc {
    Workers *ws;
    uv_process_t proc;
    uv_pipe_t pipe;
    uv_timer_t kill_timer;
    int pid;
    bool spawned;       /* proc and pipe are live handles */
    bool ready;         /* WF_READY seen: takes jobs */
    bool dead;          /* its exit was seen (the pid is reaped) */
    bool exited, pipe_closed; /* its handles are closed */
    int64_t exit_status;
    int term_signal;
    bool paused;        /* not reading: its job's output is over the buffer */
    /* The running job has new output the transport has not been told of:
     * told once the frames read so far are handled, so output followed by
     * the job's DONE in the same read reaches the client in one write. */
    bool output_unsent;
    const char *kill_reason; /* set when the loop killed it */
    Job *job;
    uint64_t seq;
    uint8_t slot;       /* job's slot in `slots` */
    uint64_t job_ns;    /* when `job` became the one it runs (about when it started) */
    Buf in;
    uint64_t started_ns;
    /* Under load, jobs sent behind `job` (WORKER_PIPELINE_DEPTH), oldest
     * first; not started while `job` runs. */
    Job *behind[WORKER_PIPELINE_DEPTH - 1];
    uint64_t behind_seq[WORKER_PIPELINE_DEPTH - 1];
    uint8_t behind_slot[WORKER_PIPELINE_DEPTH - 1];
    uint32_t nbehind;
    /* Shared with the worker (workers.h SLOT_*): which of its jobs started. */
    int slots_fd;
    uint64_t *slots;
    /* Frames not yet handed to uv_write: written together before the loop
     * polls again (Workers.flusher), one syscall for a batch of jobs. */
    Buf out;
} WorkerProc;

struct Workers {
    Server *srv;
    WorkerProc *w;
    uint32_t n;
    Job *head, *tail;
    uint32_t len, running;
    uv_timer_t respawn_timer, watchdog, reaper;
    uv_prepare_t flusher; /* writes the workers' queued frames before the loop polls */
    char exe[4096];
    char **env;
    bool closing;
    uint64_t next_seq;
};

static void spawn(WorkerProc *w);
static void kick(Workers *ws);
static void resume(WorkerProc *w);
static void on_kill_timer(uv_timer_t *t);
static void on_respawn(uv_timer_t *t);
static void watchdog(uv_timer_t *t);

/* ---------------------------------------------------------------- output to a worker */

static void write_done(uv_write_t *req, int status) {
    (void)status; /* a dead worker is noticed by its exit */
    free(req->data);
    free(req);
}

/* Hands the worker's queued frames to libuv (which tries the write at once). */
static void flush_frames(WorkerProc *w) {
    Buf b = w->out;
    w->out = (Buf){0};
    if (!b.len || !w->spawned || w->pipe_closed || uv_is_closing((uv_handle_t *)&w->pipe) || b.failed) {
        buf_free(&b);
        return;
    }
    /* Written here if the socket takes it all (the usual case): no request,
     * and none of the completion's work (a POLLOUT watcher stopped, so an
     * epoll_ctl on the next poll). Queued behind pending writes otherwise. */
    uv_buf_t ub = uv_buf_init((char *)b.data, (unsigned)b.len);
    int k = uv_stream_get_write_queue_size((uv_stream_t *)&w->pipe) ? UV_EAGAIN
                                                                     : uv_try_write((uv_stream_t *)&w->pipe, &ub, 1);
    if (k == (int)b.len) {
        buf_free(&b);
        return;
    }
    size_t done = k > 0 ? (size_t)k : 0;
    if (k < 0 && k != UV_EAGAIN) { /* a dead worker is noticed by its exit */
        buf_free(&b);
        return;
    }
    uv_write_t *req = malloc(sizeof *req);
    if (!req) {
        buf_free(&b);
        return;
    }
    req->data = b.data;
    ub = uv_buf_init((char *)b.data + done, (unsigned)(b.len - done));
    if (uv_write(req, (uv_stream_t *)&w->pipe, &ub, 1, write_done) != 0) {
        free(req);
        free(b.data);
    }
}

static void on_flush(uv_prepare_t *p) {
    Workers *ws = p->data;
    uv_prepare_stop(p);
    for (uint32_t i = 0; i < ws->n; i++) flush_frames(&ws->w[i]);
}

enum { FRAMES_FLUSH_BYTES = 64 << 10 };

/* Queues a frame for the worker: written before the loop next polls, with
 * the others queued meanwhile (at once past FRAMES_FLUSH_BYTES). */
static void send_frame(WorkerProc *w, Buf *b) {
    if (!w->spawned || w->pipe_closed || b->failed) {
        buf_free(b);
        return;
    }
    if (!w->out.len && b->len >= FRAMES_FLUSH_BYTES) { /* big: no copy */
        w->out = *b;
        *b = (Buf){0};
    } else {
        buf_put(&w->out, b->data, b->len);
        buf_free(b);
    }
    if (w->out.len >= FRAMES_FLUSH_BYTES) flush_frames(w);
    else uv_prepare_start(&w->ws->flusher, on_flush);
}

/* ---------------------------------------------------------------- jobs */

static void on_job_cancel(Job *j);
static void on_job_drained(Job *j);

/* The worker is killed in ms unless its job ends first (an earlier kill stands). */
static void arm_kill(WorkerProc *w, uint64_t ms) {
    if (uv_is_active((uv_handle_t *)&w->kill_timer) && uv_timer_get_due_in(&w->kill_timer) <= ms) return;
    uv_timer_stop(&w->kill_timer);
    uv_timer_start(&w->kill_timer, on_kill_timer, ms, 0);
}

/* How logs name a request without its text: SHA-256 of the bytes the worker
 * was given (first 8 bytes, hex). Computed only when a worker dies with the
 * job: hashing every request cost the loop ~1.5% of its time. */
static void request_hash(const Job *j, char out[17]) {
    unsigned char d[SHA256_DIGEST_LENGTH];
    uint8_t *packed = NULL;
    const uint8_t *p = j->req;
    size_t n = j->req_len;
    if (j->req_msg) { /* JSON: the packed form the worker got */
        n = protobuf_c_message_get_packed_size(j->req_msg);
        packed = malloc(n ? n : 1);
        if (packed) protobuf_c_message_pack(j->req_msg, packed);
        else n = 0;
        p = packed;
    }
    SHA256(p ? p : (const uint8_t *)"", n, d);
    free(packed);
    for (int i = 0; i < 8; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void arm_deadline(WorkerProc *w) {
    Job *j = w->job;
    if (!j) return;
    if (j->deadline_ns) {
        uint64_t now = mono_ns();
        uint64_t ms = j->deadline_ns > now ? (j->deadline_ns - now) / 1000000 : 0;
        arm_kill(w, ms + DEADLINE_GRACE_MS);
    }
    if (__atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE)) arm_kill(w, CANCEL_GRACE_MS);
}

/* A slot none of the worker's jobs holds (it holds at most one per slot). */
static uint8_t free_slot(const WorkerProc *w) {
    uint32_t used = w->job ? 1u << w->slot : 0;
    for (uint32_t i = 0; i < w->nbehind; i++) used |= 1u << w->behind_slot[i];
    uint8_t k = 0;
    while (used & (1u << k)) k++;
    return k;
}

/* Whether the watchdog has something to watch: a job held behind another
 * (it may have to be taken back), or, with --worker-memory-limit, a job
 * running. Else it is stopped: an idle daemon is not woken 50 times a second. */
static bool watchdog_needed(const Workers *ws) {
    bool limit = ws->srv->cfg.worker_memory_limit != 0;
    for (uint32_t i = 0; i < ws->n; i++)
        if (ws->w[i].job && (ws->w[i].nbehind || limit)) return true;
    return false;
}

static void watchdog_arm(Workers *ws) {
    if (ws->closing || uv_is_active((uv_handle_t *)&ws->watchdog) || !watchdog_needed(ws)) return;
    uv_timer_start(&ws->watchdog, watchdog, WATCHDOG_MS, WATCHDOG_MS);
}

static void start_job(WorkerProc *w, Job *j) {
    Workers *ws = w->ws;
    bool head = w->job == NULL;
    uint64_t seq = ++ws->next_seq;
    uint8_t slot = free_slot(w);
    __atomic_store_n(&w->slots[slot], SLOT_WORD(seq, SLOT_QUEUED), __ATOMIC_RELEASE);
    if (head) {
        w->job = j;
        w->seq = seq;
        w->slot = slot;
        w->job_ns = mono_ns();
        w->kill_reason = NULL;
    } else {
        w->behind[w->nbehind] = j;
        w->behind_slot[w->nbehind] = slot;
        w->behind_seq[w->nbehind++] = seq;
    }
    j->worker = w;
    j->on_cancel = on_job_cancel;
    j->on_drained = on_job_drained;
    ws->running++;
    Session *s = j->session;
    Buf b = {0};
    size_t at = wire_begin(&b, WF_JOB);
    buf_u64(&b, seq);
    buf_u8(&b, slot);
    buf_u8(&b, (uint8_t)j->method);
    buf_u8(&b, (uint8_t)j->fmt);
    buf_u64(&b, j->deadline_ns);
    buf_u8(&b, j->compress);
    buf_str(&b, j->request_id);
    buf_str(&b, j->session_id);
    buf_str(&b, s ? s->server_id : "");
    buf_u64(&b, s ? s->version : 0);
    if (j->req_msg) { /* JSON: decoded on the loop, sent packed */
        size_t n = protobuf_c_message_get_packed_size(j->req_msg);
        buf_u32(&b, (uint32_t)n);
        buf_reserve(&b, n);
        if (!b.failed) {
            protobuf_c_message_pack(j->req_msg, b.data + b.len);
            b.len += n;
        }
    } else {
        buf_bytes(&b, j->req, j->req_len);
    }
    wire_end(&b, at);
    send_frame(w, &b);
    watchdog_arm(ws);
    if (head) arm_deadline(w);
    if (__atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE)) on_job_cancel(j);
}

static Job *pop(Workers *ws) {
    Job *j = ws->head;
    ws->head = j->next;
    if (!ws->head) ws->tail = NULL;
    j->next = NULL;
    ws->len--;
    return j;
}

/* Whether a busy worker may take one more job behind its own: it is not
 * stalled (paused output, a kill pending, its job cancelled) nor full. */
static bool takes_more(const WorkerProc *w) {
    if (!w->ready || !w->job || w->dead || w->pipe_closed || w->paused || w->kill_reason) return false;
    if (w->nbehind >= WORKER_PIPELINE_DEPTH - 1) return false;
    /* Alone it may as well queue them; else the others take them. */
    if (w->ws->n > 1 && mono_ns() - w->job_ns > SLOW_HEAD_NS) return false;
    return !__atomic_load_n(&w->job->cancel, __ATOMIC_ACQUIRE);
}

static bool idle(const WorkerProc *w) { return w->ready && !w->job && !w->dead && !w->pipe_closed; }

static void requeue_front(Workers *ws, Job *j);

/* Takes back the newest job sent behind w's running one, if the worker has
 * not started it (a CAS on its slot: the worker's CAS, QUEUED → STARTED,
 * and this one, QUEUED → RECALLED, cannot both win). At the front of the
 * queue: it was sent before anything queued. The worker skips its frame. */
static bool steal_newest(WorkerProc *w) {
    if (!w->nbehind || w->dead) return false;
    uint32_t k = w->nbehind - 1;
    uint64_t want = SLOT_WORD(w->behind_seq[k], SLOT_QUEUED);
    if (!__atomic_compare_exchange_n(&w->slots[w->behind_slot[k]], &want, SLOT_WORD(w->behind_seq[k], SLOT_RECALLED),
                                     false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return false;
    w->nbehind--;
    requeue_front(w->ws, w->behind[k]);
    metrics_job_stolen(&w->ws->srv->metrics);
    return true;
}

/* The worker holding the most jobs not started, other than `except`. */
static WorkerProc *busiest(Workers *ws, const WorkerProc *except) {
    WorkerProc *best = NULL;
    for (uint32_t i = 0; i < ws->n; i++) {
        WorkerProc *w = &ws->w[i];
        if (w != except && w->nbehind && !w->dead && (!best || w->nbehind > best->nbehind)) best = w;
    }
    return best;
}

/* Idle workers first; then, with jobs still waiting, one more job at a time
 * to each busy worker that takes more, round the workers, so the queue is
 * shared out evenly. */
static void kick(Workers *ws) {
    for (uint32_t i = 0; i < ws->n && ws->head; i++) {
        WorkerProc *w = &ws->w[i];
        if (!w->ready || w->job || w->dead || w->pipe_closed) continue;
        start_job(w, pop(ws));
    }
    for (bool gave = true; gave && ws->head;) {
        gave = false;
        for (uint32_t i = 0; i < ws->n && ws->head; i++) {
            WorkerProc *w = &ws->w[i];
            if (!takes_more(w)) continue;
            start_job(w, pop(ws));
            gave = true;
        }
    }
    /* Nothing queued and a worker idle: it takes a job another holds but has
     * not started (one at a time; it comes back for more when done). */
    for (uint32_t i = 0; i < ws->n && !ws->head && !ws->closing; i++) {
        WorkerProc *w = &ws->w[i];
        if (!idle(w)) continue;
        WorkerProc *v = busiest(ws, w);
        if (v && steal_newest(v)) start_job(w, pop(ws));
    }
}

/* Back to the front of the queue: a job that never started. */
static void requeue_front(Workers *ws, Job *j) {
    j->worker = NULL;
    j->on_cancel = NULL;
    j->on_drained = NULL;
    ws->running--;
    j->next = ws->head;
    ws->head = j;
    if (!ws->tail) ws->tail = j;
    ws->len++;
}

void workers_push(Workers *ws, Job *j) {
    j->next = NULL;
    if (ws->tail)
        ws->tail->next = j;
    else
        ws->head = j;
    ws->tail = j;
    ws->len++;
    kick(ws);
}

/* A job sent behind a worker's running one has not started: it counts as
 * queued (for --queue's admission, the queue-depth gauge and the drain), so
 * the pipeline does not widen the queue bound by workers × depth. */
void workers_counts(Workers *ws, uint32_t *queued, uint32_t *running, uint32_t *alive) {
    uint32_t a = 0, behind = 0;
    for (uint32_t i = 0; i < ws->n; i++) {
        a += ws->w[i].ready && !ws->w[i].exited;
        behind += ws->w[i].nbehind;
    }
    *queued = ws->len + behind;
    *running = ws->running - behind;
    *alive = a;
}

/* The job's outcome is known (its DONE frame, or its worker's death). */
static void end_job(WorkerProc *w, int status, const char *msg) {
    Job *j = w->job;
    Workers *ws = w->ws;
    w->job = NULL;
    w->output_unsent = false; /* server_job_finished tells the transport */
    ws->running--;
    uv_timer_stop(&w->kill_timer);
    j->worker = NULL;
    j->on_cancel = NULL;
    j->on_drained = NULL;
    if (w->paused && !w->pipe_closed) {
        w->paused = false;
        resume(w);
    }
    if (w->nbehind) { /* the worker goes on with the oldest sent behind */
        w->job = w->behind[0];
        w->seq = w->behind_seq[0];
        w->slot = w->behind_slot[0];
        w->job_ns = mono_ns();
        w->nbehind--;
        memmove(w->behind, w->behind + 1, w->nbehind * sizeof *w->behind);
        memmove(w->behind_seq, w->behind_seq + 1, w->nbehind * sizeof *w->behind_seq);
        memmove(w->behind_slot, w->behind_slot + 1, w->nbehind * sizeof *w->behind_slot);
        arm_deadline(w);
    }
    job_set_done(j, status, msg);
    server_job_finished(ws->srv, j); /* may queue the session's next job */
    kick(ws);
}

static void on_job_cancel(Job *j) {
    WorkerProc *w = j->worker;
    if (!w) return;
    /* SIGUSR1 carrying the job's sequence number: the worker's analysis
     * thread sees it at once, and a late one cannot stop the next job
     * (one for a job not started yet is remembered for when it starts). */
    for (uint32_t i = 0; i < w->nbehind; i++)
        if (w->behind[i] == j) {
            if (!w->dead) sigqueue(w->pid, SIGUSR1, (union sigval){.sival_int = (int)(uint32_t)w->behind_seq[i]});
            return;
        }
    if (w->job != j) return;
    if (!w->dead) sigqueue(w->pid, SIGUSR1, (union sigval){.sival_int = (int)(uint32_t)w->seq});
    if (w->paused) { /* its output is dropped from now on: let it write */
        w->paused = false;
        resume(w);
    }
    arm_kill(w, CANCEL_GRACE_MS);
}

static void on_job_drained(Job *j) {
    WorkerProc *w = j->worker;
    if (!w || w->job != j || !w->paused) return;
    if (j->out_bytes > j->out_cap / 2) return;
    w->paused = false;
    resume(w);
}

/* ---------------------------------------------------------------- death */

static void kill_worker(WorkerProc *w, const char *reason) {
    if (w->dead || !w->spawned) return;
    if (!w->kill_reason) w->kill_reason = reason;
    uv_process_kill(&w->proc, SIGKILL);
}

static void on_kill_timer(uv_timer_t *t) {
    WorkerProc *w = t->data;
    Job *j = w->job;
    if (!j) return;
    bool late = j->deadline_ns && mono_ns() >= j->deadline_ns;
    kill_worker(w, late ? "deadline" : "cancelled");
}


static const char *signal_label(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    default: return "signal";
    }
}

static void on_handle_closed(uv_handle_t *h);

/* Both the process and its socket are gone: fail its job, count and log
 * the death, start its replacement. */
static void worker_gone(WorkerProc *w) {
    Workers *ws = w->ws;
    Server *srv = ws->srv;
    const char *reason = w->kill_reason;
    char why[64];
    if (!reason) {
        if (w->term_signal) reason = signal_label(w->term_signal);
        else if (w->exit_status == WORKER_EXIT_OOM) reason = "memory";
        else reason = "exit";
    }
    if (w->term_signal && !w->kill_reason)
        snprintf(why, sizeof why, "%s", signal_label(w->term_signal));
    else if (!w->kill_reason && strcmp(reason, "exit") == 0)
        snprintf(why, sizeof why, "exit status %" PRId64 ", e.g. a sanitizer report", w->exit_status);
    else
        snprintf(why, sizeof why, "%s", reason);
    /* The jobs sent behind the one that ran never started: other workers
     * take them, first (the oldest at the front). */
    while (w->nbehind) requeue_front(ws, w->behind[--w->nbehind]);
    /* The one it was to run is failed even if its slot says it had not
     * started: a worker dying while it reads a job's frame (out of memory
     * under --worker-memory-limit) must not take every replacement down. */
    buf_free(&w->out);
    bool expected = ws->closing;
    if (!expected) {
        metrics_worker_restart(&srv->metrics, reason);
        json_t *f = json_pack("{s:i,s:s,s:s}", "pid", w->pid, "reason", reason, "detail", why);
        if (w->job) {
            char tag[13], hash[17];
            request_hash(w->job, hash);
            json_object_set_new(f, "request_id", json_string(w->job->request_id));
            if (w->job->trace.valid) json_object_set_new(f, "trace_id", json_string(w->job->trace.trace_id));
            json_object_set_new(f, "method", json_string(rpc_method_name(w->job->method)));
            json_object_set_new(f, "request_sha256", json_string(hash));
            if (w->job->session_id[0]) {
                log_session_tag(w->job->session_id, tag);
                json_object_set_new(f, "session", json_string(tag));
            }
        }
        log_json(srv->cfg.log_level, w->job ? LOG_ERROR : LOG_WARN, "analysis worker died", f);
    }
    if (w->job) {
        Job *j = w->job;
        int status = GRPC_INTERNAL;
        char msg[300];
        if (strcmp(reason, "deadline") == 0) {
            status = GRPC_DEADLINE_EXCEEDED;
            snprintf(msg, sizeof msg, "deadline exceeded (request %s: its analysis worker was stopped)", j->request_id);
        } else if (strcmp(reason, "cancelled") == 0) {
            status = GRPC_CANCELLED;
            snprintf(msg, sizeof msg, "cancelled (request %s: its analysis worker was stopped)", j->request_id);
        } else if (strcmp(reason, "memory") == 0) {
            status = GRPC_RESOURCE_EXHAUSTED;
            snprintf(msg, sizeof msg,
                     "request %s: the analysis worker ran out of memory (--worker-memory-limit %zu bytes); the session "
                     "is intact",
                     j->request_id, srv->cfg.worker_memory_limit);
        } else if (strcmp(reason, "store") == 0) { /* its session's journal could not be read */
            status = GRPC_UNAVAILABLE;
            snprintf(msg, sizeof msg, "request %s: the session store is unavailable; the session is kept there",
                     j->request_id);
        } else if (expected) {
            status = GRPC_UNAVAILABLE;
            snprintf(msg, sizeof msg, "server shutting down");
        } else {
            snprintf(msg, sizeof msg, "request %s: the analysis worker died (%s); the session is intact", j->request_id,
                     why);
        }
        if (status == GRPC_INTERNAL || status == GRPC_RESOURCE_EXHAUSTED) {
            RichError re = {0};
            re.kind = EXC_INTERNAL;
            size_t n = 0;
            uint8_t *det = rich_status_pack(status, msg, &re, &n);
            if (det) job_set_status_details(j, det, n);
        }
        end_job(w, status, msg);
    }
    bool was_ready = w->ready;
    w->spawned = w->ready = false;
    buf_free(&w->in);
    if (ws->closing) return;
    /* A worker that dies before it is ready (exec failing) must not spin the loop. */
    if (!was_ready) {
        if (!uv_is_active((uv_handle_t *)&ws->respawn_timer))
            uv_timer_start(&ws->respawn_timer, on_respawn, RESPAWN_BACKOFF_MS, 0);
        return;
    }
    spawn(w);
}

static void maybe_gone(WorkerProc *w) {
    if (w->exited && w->pipe_closed) worker_gone(w);
}

static void on_pipe_closed(uv_handle_t *h) {
    WorkerProc *w = h->data;
    w->pipe_closed = true;
    maybe_gone(w);
}

static void close_pipe(WorkerProc *w) {
    if (uv_is_closing((uv_handle_t *)&w->pipe)) return;
    uv_close((uv_handle_t *)&w->pipe, on_pipe_closed);
}

static void on_proc_closed(uv_handle_t *h) {
    WorkerProc *w = h->data;
    w->exited = true;
    maybe_gone(w);
}

static void on_worker_exit(uv_process_t *p, int64_t status, int sig) {
    WorkerProc *w = p->data;
    w->dead = true;
    w->exit_status = status;
    w->term_signal = sig;
    uv_close((uv_handle_t *)p, on_proc_closed);
    /* Read what it wrote before dying (a DONE frame may be there), then EOF. */
    if (w->paused) {
        w->paused = false;
        resume(w);
    }
}

/* ---------------------------------------------------------------- frames from a worker */

static void frame_need(WorkerProc *w, Rd *r) {
    Workers *ws = w->ws;
    uint64_t seq = rd_u64(r);
    uint8_t have = rd_u8(r);
    uint64_t held = rd_u64(r);
    Job *j = w->job;
    if (r->bad || !j || seq != w->seq || !j->session) return kill_worker(w, "protocol");
    Session *s = j->session;
    uint8_t *recs = NULL;
    size_t len = 0;
    uint64_t version = 0;
    bool reset = !have;
    StoreStatus st = store_read(ws->srv->store, s->id, have ? held : 0, &recs, &len, &version);
    if (st == STORE_CONFLICT) { /* it holds changes the journal refused: start over */
        reset = true;
        st = store_read(ws->srv->store, s->id, 0, &recs, &len, &version);
    }
    if (st != STORE_OK) {
        free(recs);
        return kill_worker(w, "store");
    }
    /* A shared store may be ahead of the version the job was sent with
     * (another replica appended since): the worker now holds this one, and
     * the job's changes are appended to it. */
    s->version = version;
    if (ws->srv->cfg.log_level <= LOG_DEBUG) {
        char tag[13];
        log_session_tag(s->id, tag);
        log_json(LOG_DEBUG, LOG_DEBUG, "session replay",
                 json_pack("{s:s,s:b,s:I,s:I,s:I}", "session", tag, "from_scratch", reset, "held", (json_int_t)held,
                           "version", (json_int_t)version, "bytes", (json_int_t)len));
    }
    Buf b = {0};
    size_t at = wire_begin(&b, WF_REPLAY);
    buf_u64(&b, seq);
    buf_u8(&b, reset);
    buf_u64(&b, version);
    buf_bytes(&b, recs, len);
    wire_end(&b, at);
    free(recs);
    send_frame(w, &b);
}

static void frame_out(WorkerProc *w, Rd *r) {
    uint64_t seq = rd_u64(r);
    Job *j = w->job;
    if (r->bad || !j || seq != w->seq) return;
    if (__atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE)) return; /* answered already: dropped */
    job_append(j, r->p, (size_t)(r->end - r->p));
    w->output_unsent = true;
    if (j->fmt != JOB_JSON && j->out_bytes > j->out_cap && !w->dead) {
        w->paused = true; /* the worker blocks writing until the client reads */
        uv_read_stop((uv_stream_t *)&w->pipe);
    }
}

static void frame_done(WorkerProc *w, Rd *r) {
    Workers *ws = w->ws;
    Server *srv = ws->srv;
    uint64_t seq = rd_u64(r);
    Job *j = w->job;
    if (!j || seq != w->seq) return kill_worker(w, "protocol");
    int status = (int)rd_u32(r);
    char msg[512];
    rd_str(r, msg, sizeof msg);
    size_t dn;
    const uint8_t *det = rd_bytes(r, &dn);
    rd_str(r, j->error_class, sizeof j->error_class);
    uint64_t bad_input = rd_u64(r);
    size_t jn;
    const uint8_t *journal = rd_bytes(r, &jn);
    uint32_t nrules = rd_u32(r);
    if (nrules > METRIC_RULES) return kill_worker(w, "protocol");
    CzRuleTotal *rules = nrules ? calloc(nrules, sizeof *rules) : NULL;
    char *names = nrules ? malloc((size_t)nrules * 256) : NULL;
    uint32_t nr = 0;
    for (uint32_t i = 0; i < nrules && !r->bad && rules && names; i++, nr++) {
        char *batch = names + (size_t)i * 256, *rule = batch + 128;
        rd_str(r, batch, 128);
        rd_str(r, rule, 128);
        rules[i] = (CzRuleTotal){batch, rule, (uint32_t)rd_u64(r), (uint32_t)rd_u64(r), rd_u64(r)};
    }
    if (!r->bad && nr) metrics_rules(&srv->metrics, rules, (int)nr);
    free(rules);
    free(names);
    uint64_t state_bytes = rd_u64(r);
    if (r->bad) return kill_worker(w, "protocol");
    for (uint64_t i = 0; i < bad_input; i++) metrics_bad_input(&srv->metrics);
    if (dn) {
        uint8_t *copy = malloc(dn);
        if (copy) {
            memcpy(copy, det, dn);
            job_set_status_details(j, copy, dn);
        }
    }
    Session *s = j->session;
    if (jn && s && !s->unlinked) {
        uint64_t v = 0;
        size_t total_max = srv->cfg.max_total_session_state_bytes;
        size_t others = srv->state_bytes_total - s->state_bytes;
        StoreStatus st = total_max && others + state_bytes > total_max
                             ? STORE_TOTAL_FULL
                             : store_append(srv->store, s->id, s->owner, s->version, journal, jn, &v);
        if (st == STORE_OK) {
            /* The worker took its copy to the version after the one it
             * had; a shared store starts a new journal at its own base, so
             * that copy's number is not the journal's: it is dropped, and
             * the next job replays the journal once. */
            if (v != s->version + 1) workers_forget(ws, s);
            s->version = v;
            srv->state_bytes_total = others + state_bytes;
            s->state_bytes = state_bytes;
        } else {
            /* The worker's copy now runs ahead of the journal with changes
             * the journal refused: every worker drops its copy, and the
             * next job on the session replays the journal. (A shared
             * store's next version may be another replica's, so the
             * version alone would not tell the copy is stale.) */
            workers_forget(ws, s);
            status = st == STORE_CONFLICT ? GRPC_ABORTED
                     : st == STORE_ERROR  ? GRPC_UNAVAILABLE
                     : st == STORE_FORBIDDEN ? GRPC_PERMISSION_DENIED
                                          : GRPC_RESOURCE_EXHAUSTED;
            if (st == STORE_CONFLICT)
                snprintf(msg, sizeof msg,
                         "the session changed on another replica while this request ran; its changes were not kept "
                         "(retry it)");
            else if (st == STORE_FORBIDDEN)
                snprintf(msg, sizeof msg, "the session belongs to another principal");
            else if (st == STORE_SESSION_FULL)
                snprintf(msg, sizeof msg,
                         "session state limit: this session's changes would exceed --max-session-state-bytes (%zu "
                         "bytes); the request's changes were not kept",
                         srv->store->max_session_bytes);
            else if (st == STORE_TOTAL_FULL)
                snprintf(msg, sizeof msg,
                         "session state limit: all sessions' changes would exceed --max-total-session-state-bytes "
                         "(%zu bytes); the request's changes were not kept",
                         srv->store->max_total_bytes);
            else
                snprintf(msg, sizeof msg, "the session store could not keep the request's changes (%s)",
                         store_status_name(st));
            free(j->status_details);
            j->status_details = NULL;
            RichError re = {0};
            re.kind = EXC_INTERNAL;
            size_t n = 0;
            uint8_t *d = rich_status_pack(status, msg, &re, &n);
            if (d) job_set_status_details(j, d, n);
        }
    }
    end_job(w, status, msg);
}

static void handle_frame(WorkerProc *w, uint8_t type, const uint8_t *p, size_t n) {
    Rd r = {p, p + n, false};
    switch (type) {
    case WF_READY:
        w->ready = true;
        kick(w->ws);
        break;
    case WF_OUT: frame_out(w, &r); break;
    case WF_NEED: frame_need(w, &r); break;
    case WF_DONE: frame_done(w, &r); break;
    case WF_INVALIDATED: /* before the job's DONE: the others hear of it before its client does */
        for (uint32_t i = 0; i < w->ws->n; i++) {
            WorkerProc *o = &w->ws->w[i];
            if (o == w || !o->spawned || o->dead) continue;
            Buf b = {0};
            size_t at = wire_begin(&b, WF_INVALIDATE);
            buf_put(&b, p, n);
            wire_end(&b, at);
            send_frame(o, &b);
        }
        break;
    default: kill_worker(w, "protocol");
    }
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b) {
    WorkerProc *w = h->data;
    (void)suggested;
    buf_reserve(&w->in, 65536);
    if (w->in.failed) {
        *b = uv_buf_init(NULL, 0);
        return;
    }
    *b = uv_buf_init((char *)w->in.data + w->in.len, (unsigned)(w->in.cap - w->in.len));
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *b) {
    WorkerProc *w = s->data;
    (void)b;
    if (nread < 0) {
        close_pipe(w);
        if (!w->dead) kill_worker(w, NULL); /* a worker without its socket is of no use */
        return;
    }
    w->in.len += (size_t)nread;
    size_t off = 0;
    while (w->in.len - off >= 5 && w->spawned) {
        uint32_t n;
        memcpy(&n, w->in.data + off, 4);
        if (n > WIRE_FRAME_MAX) {
            kill_worker(w, "protocol");
            break;
        }
        if (w->in.len - off - 5 < n) break;
        uint8_t type = w->in.data[off + 4];
        handle_frame(w, type, w->in.data + off + 5, n);
        off += 5 + (size_t)n;
        if (w->paused) break;
    }
    if (off) {
        memmove(w->in.data, w->in.data + off, w->in.len - off);
        w->in.len -= off;
    }
    /* Last: the transport may drain the job and so resume (re-enter) this. */
    if (w->output_unsent) {
        w->output_unsent = false;
        Job *j = w->job;
        if (j && j->call && j->on_output) j->on_output(j);
    }
}

static void resume(WorkerProc *w) {
    if (w->pipe_closed || uv_is_closing((uv_handle_t *)&w->pipe)) return;
    uv_read_start((uv_stream_t *)&w->pipe, on_alloc, on_read);
    /* Frames already buffered while paused. */
    on_read((uv_stream_t *)&w->pipe, 0, NULL);
}

/* ---------------------------------------------------------------- spawn */

static void spawn(WorkerProc *w) {
    Workers *ws = w->ws;
    uv_loop_t *loop = ws->srv->loop;
    w->dead = w->exited = w->pipe_closed = w->ready = w->paused = false;
    w->exit_status = 0;
    w->term_signal = 0;
    w->kill_reason = NULL;
    w->in = (Buf){0};
    w->out = (Buf){0};
    uv_pipe_init(loop, &w->pipe, 0);
    w->pipe.data = w;
    w->proc.data = w;
    uv_stdio_container_t stdio[5];
    stdio[0].flags = UV_IGNORE;
    stdio[1].flags = UV_IGNORE;
    stdio[2].flags = UV_INHERIT_FD; /* sanitizer reports and crash messages reach the daemon's stderr */
    stdio[2].data.fd = 2;
    stdio[3].flags = (uv_stdio_flags)(UV_CREATE_PIPE | UV_READABLE_PIPE | UV_WRITABLE_PIPE);
    stdio[3].data.stream = (uv_stream_t *)&w->pipe;
    /* The old worker is reaped: its slots are this one's, all free. */
    memset(w->slots, 0, WORKER_SLOTS_BYTES);
    stdio[4].flags = UV_INHERIT_FD;
    stdio[4].data.fd = w->slots_fd;
    char *args[] = {ws->exe, NULL};
    uv_process_options_t opt = {0};
    opt.file = ws->exe;
    opt.args = args;
    opt.env = ws->env;
    opt.exit_cb = on_worker_exit;
    opt.stdio_count = 5;
    opt.stdio = stdio;
    w->started_ns = mono_ns();
    int rc = uv_spawn(loop, &w->proc, &opt);
    if (rc != 0) {
        log_json(ws->srv->cfg.log_level, LOG_ERROR, "cannot start an analysis worker",
                 json_pack("{s:s}", "error", uv_strerror(rc)));
        w->spawned = false;
        uv_close((uv_handle_t *)&w->pipe, NULL);
        uv_close((uv_handle_t *)&w->proc, NULL);
        if (!uv_is_active((uv_handle_t *)&ws->respawn_timer))
            uv_timer_start(&ws->respawn_timer, on_respawn, RESPAWN_BACKOFF_MS, 0);
        return;
    }
    w->spawned = true;
    w->pid = w->proc.pid;
    uv_read_start((uv_stream_t *)&w->pipe, on_alloc, on_read);
    Buf b = {0};
    size_t at = wire_begin(&b, WF_CONFIG);
    buf_put(&b, &ws->srv->cfg, sizeof ws->srv->cfg);
    wire_end(&b, at);
    send_frame(w, &b);
}

static void on_respawn(uv_timer_t *t) {
    Workers *ws = t->data;
    if (ws->closing) return;
    for (uint32_t i = 0; i < ws->n; i++)
        if (!ws->w[i].spawned) spawn(&ws->w[i]);
}

/* Resident memory over --worker-memory-limit: RLIMIT_AS does not apply
 * under AddressSanitizer, and resident memory is what hurts the machine. */
static void watchdog(uv_timer_t *t) {
    Workers *ws = t->data;
    size_t limit = ws->srv->cfg.worker_memory_limit;
    long page = sysconf(_SC_PAGESIZE);
    /* A slow job holds the ones sent behind it: the others take them if
     * one of them can take a job now. */
    uint64_t now = mono_ns();
    bool moved = false;
    for (uint32_t i = 0; i < ws->n && !ws->closing; i++) {
        WorkerProc *w = &ws->w[i];
        if (!w->job || !w->nbehind || now - w->job_ns <= SLOW_HEAD_NS) continue;
        bool other = false;
        for (uint32_t k = 0; k < ws->n && !other; k++)
            other = &ws->w[k] != w && (idle(&ws->w[k]) || takes_more(&ws->w[k]));
        while (other && steal_newest(w)) moved = true;
    }
    if (moved) kick(ws);
    if (!watchdog_needed(ws)) uv_timer_stop(t); /* started again with the next job that needs it */
    if (!limit) return;
    for (uint32_t i = 0; i < ws->n; i++) {
        WorkerProc *w = &ws->w[i];
        if (!w->job || !w->spawned || w->dead) continue;
        char path[64], buf[128];
        snprintf(path, sizeof path, "/proc/%d/statm", w->pid);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        unsigned long size = 0, rss = 0;
        if (fgets(buf, sizeof buf, f) && sscanf(buf, "%lu %lu", &size, &rss) == 2 &&
            (size_t)rss * (size_t)page > limit)
            kill_worker(w, "memory");
        fclose(f);
    }
}

/* As pid 1 (a container's init) orphans are re-parented to the daemon:
 * reap the zombies that are not its workers (libuv reaps those). */
static void reap_orphans(uv_timer_t *t) {
    Workers *ws = t->data;
    uv_fs_t req;
    if (uv_fs_scandir(NULL, &req, "/proc", 0, NULL) < 0) return;
    uv_dirent_t ent;
    while (uv_fs_scandir_next(&req, &ent) != UV_EOF) {
        char *end;
        long pid = strtol(ent.name, &end, 10);
        if (*end || pid <= 1) continue;
        bool ours = false;
        for (uint32_t i = 0; i < ws->n && !ours; i++) ours = ws->w[i].pid == pid;
        if (ours) continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        const char *rp = strrchr(buf, ')');
        char state;
        int ppid;
        if (rp && sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && state == 'Z' && ppid == 1)
            waitpid((pid_t)pid, NULL, WNOHANG);
    }
    uv_fs_req_cleanup(&req);
}

Workers *workers_start(Server *srv) {
    /* The loop now copies every request and response through its heap:
     * keep freed memory instead of trimming it back with brk each time. */
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 4 << 20);
    Workers *ws = calloc(1, sizeof *ws);
    if (!ws) return NULL;
    ws->srv = srv;
    ws->n = srv->cfg.workers;
    ws->w = calloc(ws->n, sizeof *ws->w);
    size_t sz = sizeof ws->exe;
    if (!ws->w || uv_exepath(ws->exe, &sz) != 0) {
        free(ws->w);
        free(ws);
        return NULL;
    }
    size_t ne = 0;
    while (environ[ne]) ne++;
    ws->env = calloc(ne + 4, sizeof *ws->env);
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        if (strncmp(environ[i], "CATALYZERD_INTERNAL_", 20) != 0) ws->env[k++] = environ[i];
    static char fd_var[64], parent_var[64], slots_var[64];
    snprintf(fd_var, sizeof fd_var, "%s=3", WORKER_FD_ENV);
    snprintf(slots_var, sizeof slots_var, "%s=4", WORKER_SLOTS_ENV);
    ws->env[k++] = slots_var;
    snprintf(parent_var, sizeof parent_var, "%s=%d", WORKER_PARENT_ENV, (int)getpid());
    ws->env[k++] = fd_var;
    ws->env[k++] = parent_var;
    uv_timer_init(srv->loop, &ws->respawn_timer);
    ws->respawn_timer.data = ws;
    uv_timer_init(srv->loop, &ws->watchdog);
    ws->watchdog.data = ws;
    uv_prepare_init(srv->loop, &ws->flusher);
    ws->flusher.data = ws;
    for (uint32_t i = 0; i < ws->n; i++) { /* each worker's slots: a memfd it inherits as fd 4 */
        WorkerProc *w = &ws->w[i];
        w->slots_fd = memfd_create("catalyzerd-worker-slots", MFD_CLOEXEC);
        if (w->slots_fd < 0 || ftruncate(w->slots_fd, WORKER_SLOTS_BYTES) != 0 ||
            (w->slots = mmap(NULL, WORKER_SLOTS_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, w->slots_fd, 0)) ==
                MAP_FAILED) {
            log_json(srv->cfg.log_level, LOG_ERROR, "cannot share memory with an analysis worker",
                     json_pack("{s:s}", "error", strerror(errno)));
            for (uint32_t k2 = 0; k2 <= i; k2++) {
                if (ws->w[k2].slots && ws->w[k2].slots != MAP_FAILED) munmap(ws->w[k2].slots, WORKER_SLOTS_BYTES);
                if (ws->w[k2].slots_fd >= 0) close(ws->w[k2].slots_fd);
            }
            free(ws->w);
            free(ws->env);
            free(ws);
            return NULL;
        }
    }
    for (uint32_t i = 0; i < ws->n; i++) {
        ws->w[i].ws = ws;
        uv_timer_init(srv->loop, &ws->w[i].kill_timer);
        ws->w[i].kill_timer.data = &ws->w[i];
        spawn(&ws->w[i]);
    }
    uv_timer_init(srv->loop, &ws->reaper);
    ws->reaper.data = ws;
    if (getpid() == 1) uv_timer_start(&ws->reaper, reap_orphans, 1000, 1000);
    return ws;
}

void workers_forget(Workers *ws, const Session *s) {
    for (uint32_t i = 0; i < ws->n; i++) {
        WorkerProc *w = &ws->w[i];
        if (!w->spawned || w->dead) continue;
        Buf b = {0};
        size_t at = wire_begin(&b, WF_FORGET);
        buf_str(&b, s->server_id);
        wire_end(&b, at);
        send_frame(w, &b);
    }
}

static void on_handle_closed(uv_handle_t *h) { (void)h; }

void workers_close(Workers *ws) {
    if (!ws || ws->closing) return;
    ws->closing = true;
    uv_close((uv_handle_t *)&ws->respawn_timer, on_handle_closed);
    uv_close((uv_handle_t *)&ws->watchdog, on_handle_closed);
    uv_close((uv_handle_t *)&ws->reaper, on_handle_closed);
    uv_close((uv_handle_t *)&ws->flusher, on_handle_closed);
    for (uint32_t i = 0; i < ws->n; i++) {
        WorkerProc *w = &ws->w[i];
        uv_close((uv_handle_t *)&w->kill_timer, on_handle_closed);
        if (!w->spawned) continue;
        close_pipe(w); /* the worker reads EOF and exits */
        if (!uv_is_closing((uv_handle_t *)&w->proc)) uv_close((uv_handle_t *)&w->proc, on_handle_closed);
    }
}

void workers_free(Workers *ws) {
    if (!ws) return;
    /* Reap what the closed handles no longer watch: a second, then kill. */
    for (int tries = 0; tries < 100; tries++) {
        bool left = false;
        for (uint32_t i = 0; i < ws->n; i++) {
            WorkerProc *w = &ws->w[i];
            if (w->pid <= 0) continue;
            int st;
            pid_t r = waitpid(w->pid, &st, WNOHANG);
            if (r == w->pid || (r < 0)) w->pid = 0;
            else left = true;
        }
        if (!left) break;
        usleep(10000);
    }
    for (uint32_t i = 0; i < ws->n; i++)
        if (ws->w[i].pid > 0) {
            kill(ws->w[i].pid, SIGKILL);
            waitpid(ws->w[i].pid, NULL, 0);
        }
    for (uint32_t i = 0; i < ws->n; i++) {
        buf_free(&ws->w[i].in);
        buf_free(&ws->w[i].out);
        munmap(ws->w[i].slots, WORKER_SLOTS_BYTES);
        close(ws->w[i].slots_fd);
    }
    free(ws->w);
    free(ws->env);
    free(ws);
}
