/* An analysis worker process (see workers.h): started by the loop with its
 * end of a socket pair on fd 3, it reads frames and runs one request at a
 * time on its analysis thread (the --worker-stack-bytes stack). A cancel
 * comes as SIGUSR1 queued with the job's sequence number (sigqueue), so no
 * second thread has to watch the socket and a late cancel cannot hit the
 * next job. Output is buffered and written with the job's outcome (one
 * write per call), or when WRITE_CHUNK bytes or FLUSH_NS have accumulated,
 * so streamed trace events still arrive as they are produced. Under load
 * (the next job already read) a job's outcome waits for the next one's, at
 * most DEFER_NS (a timer signal writes it then): one write and one wake-up
 * of the loop for several calls, as a thread pool's uv_async coalesces. It keeps the
 * sessions it has served (their CzSession and journal version); a job
 * naming a session it holds at another version makes it ask for the journal
 * and replay it first. It dies with its parent (PR_SET_PDEATHSIG) and exits
 * when the socket closes. */
#include "workers.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "catalogs.h"
#include "fault.h"
#include "grpc_codec.h"
#include "journal.h"
#include "rpc.h"
#include "server.h"
#include "wire.h"

enum { CACHE_MAX = 512 };

typedef struct Cached {
    Session sess;       /* id, server_id and cz: what rpc_run reads */
    uint64_t version;   /* journal version the session is at */
    uint64_t last_used;
    bool used;
} Cached;

typedef struct Frame {
    uint8_t type;
    size_t len;
    uint8_t data[];
} Frame;

/* STASH_MAX: the jobs the loop may have sent behind the running one. */
enum { WRITE_CHUNK = 64 << 10, FLUSH_NS = 5000000, STASH_MAX = WORKER_PIPELINE_DEPTH - 1 };
/* How long a finished job's outcome may wait for the next job's
 * (bench/isolation_perf.sh: 2.8 → 1.5 syscalls a call). */
enum { DEFER_NS = 1000000 };

/* A job frame's seq and slot (the first fields of WF_JOB). */
static void job_seq_slot(const Frame *f, uint64_t *seq, uint8_t *slot) {
    Rd r = {f->data, f->data + f->len, false};
    *seq = rd_u64(&r);
    *slot = rd_u8(&r);
    if (r.bad || *slot >= WORKER_PIPELINE_DEPTH) *seq = 0;
}

typedef struct WState {
    int fd;
    Server srv;          /* cfg and per-job metrics, for rpc_run */
    Frame *stash[STASH_MAX]; /* jobs read while waiting for a replay, in order */
    int nstash;
    Buf out;             /* frames not yet written */
    uint64_t out_since_ns; /* when out became non-empty */
    uint64_t current_seq; /* the job running, 0: none (atomic: the SIGUSR1 handler reads it) */
    Job *current;
    Cached cache[CACHE_MAX];
    uint64_t tick;
    Buf journal;
    /* Rule metrics accumulate here and go to the loop as deltas at most
     * every RULES_SHIP_NS: merging ~100 rules per request on the loop
     * would serialise what threads did in parallel. */
    struct {
        uint64_t runs, effective, nanos;
    } shipped[METRIC_RULES];
    uint64_t last_ship_ns;
    uint64_t bad_input_shipped;
    bool drop_session;   /* the job's changes were refused: forget this copy */
    size_t state_bytes;  /* the job's session, measured after it ran */
    /* Frames from the loop, read ahead: a header and its body (and under load
     * the next job behind it) come in one read instead of two or more. */
    uint8_t in[16384];
    size_t in_pos, in_len;
    uint64_t *slots; /* shared with the loop (workers.h SLOT_*); NULL: none */
    /* Deferred output: who may touch `out` (OUT_*). The timer signals the
     * main thread (idle in pthread_join), so no job's syscalls see EINTR. */
    timer_t defer_timer;
    bool defer_ok;       /* the timer exists: outcomes may be deferred */
    int out_state;       /* atomic OUT_* */
    int alarm_armed;     /* atomic */
} WState;

/* Whether the loop has not taken the job back (it may still). */
static bool still_queued(const WState *w, const Frame *f) {
    uint64_t seq;
    uint8_t slot;
    job_seq_slot(f, &seq, &slot);
    if (!w->slots || !seq) return true;
    return __atomic_load_n(&w->slots[slot], __ATOMIC_ACQUIRE) == SLOT_WORD(seq, SLOT_QUEUED);
}

/* Claims the job before it runs; false: the loop took it back (another
 * worker runs it), so it is skipped without a word. */
static bool claim(const WState *w, const Frame *f) {
    uint64_t seq;
    uint8_t slot;
    job_seq_slot(f, &seq, &slot);
    if (!w->slots || !seq) return true;
    uint64_t want = SLOT_WORD(seq, SLOT_QUEUED);
    return __atomic_compare_exchange_n(&w->slots[slot], &want, SLOT_WORD(seq, SLOT_STARTED), false, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
}

static WState *W; /* for the signal handlers */

/* out_state: the analysis thread owns `out` (BUSY); it holds whole frames
 * the timer's handler may write (HELD); the handler is writing them. */
enum { OUT_BUSY = 0, OUT_HELD = 1, OUT_WRITING = 2 };

/* The analysis thread takes `out` back before touching it (waiting out a
 * write of the handler's, a few microseconds). */
static void own_out(WState *w) {
    for (;;) {
        int v = __atomic_load_n(&w->out_state, __ATOMIC_SEQ_CST);
        if (v == OUT_BUSY) return;
        if (v == OUT_HELD &&
            __atomic_compare_exchange_n(&w->out_state, &v, OUT_BUSY, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            return;
    }
}

enum { RULES_SHIP_NS = 100000000 };

static bool write_all(int fd, const uint8_t *p, size_t n) {
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static bool read_all(int fd, uint8_t *p, size_t n) {
    while (n) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static void flush_out(WState *w) {
    own_out(w);
    if (w->out.failed || !write_all(w->fd, w->out.data, w->out.len)) _exit(3); /* the loop is gone, or no memory */
    w->out.len = 0;
}

/* Queues a frame; written at once when urgent (the job's end, a NEED that
 * waits for an answer) or when enough has accumulated. */
static void send_buf(WState *w, Buf *b, bool urgent) {
    own_out(w); /* the handler keeps off `out` from here */
    if (b->failed) _exit(3);
    if (!w->out.len) w->out_since_ns = mono_ns();
    buf_put(&w->out, b->data, b->len);
    if (urgent || w->out.len >= WRITE_CHUNK || mono_ns() - w->out_since_ns >= FLUSH_NS) flush_out(w);
}

/* The outcome in `out` waits (for the next job's): the timer writes it
 * within DEFER_NS if the next job is slow. */
static void defer_out(WState *w) {
    if (!w->out.len) return;
    __atomic_store_n(&w->out_state, OUT_HELD, __ATOMIC_SEQ_CST);
    if (__atomic_exchange_n(&w->alarm_armed, 1, __ATOMIC_SEQ_CST)) return; /* armed: it fires soon enough */
    struct itimerspec its = {.it_value = {0, DEFER_NS}};
    if (timer_settime(w->defer_timer, 0, &its, NULL) != 0) flush_out(w);
}

/* Writes the deferred output unless the analysis thread has taken `out`
 * back since (it is then written in order anyway); if the handler is
 * writing it, waits until it is written. Async-signal-safe. */
static void write_deferred(void) {
    WState *w = W;
    int saved = errno;
    int v = OUT_HELD;
    if (w && __atomic_compare_exchange_n(&w->out_state, &v, OUT_WRITING, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        if (!write_all(w->fd, w->out.data, w->out.len)) _exit(3);
        w->out.len = 0;
        __atomic_store_n(&w->out_state, OUT_BUSY, __ATOMIC_SEQ_CST);
    }
    while (w && __atomic_load_n(&w->out_state, __ATOMIC_SEQ_CST) == OUT_WRITING) {
    }
    errno = saved;
}

/* SIGALRM on the main thread, DEFER_NS after an outcome was deferred. */
static void on_defer_timer(int sig) {
    (void)sig;
    __atomic_store_n(&W->alarm_armed, 0, __ATOMIC_SEQ_CST);
    write_deferred();
}

/* ---------------------------------------------------------------- the job sink */

static bool sink_emit(Job *j, const void *data, size_t len) {
    WState *w = W;
    if (__atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE)) return false;
    Buf b = {0};
    size_t at = wire_begin(&b, WF_OUT);
    buf_u64(&b, w->current_seq);
    buf_put(&b, data, len);
    wire_end(&b, at);
    send_buf(w, &b, false);
    buf_free(&b);
    return !__atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE);
}

/* A request that grew its session past --max-session-state-bytes keeps
 * nothing: its changes are not recorded and this worker's copy is dropped
 * (the next call rebuilds it from the journal without them). */
static void check_session_size(WState *w, Job *j) {
    size_t limit = w->srv.cfg.max_session_state_bytes;
    if (!j->session || !j->session->cz) return;
    w->state_bytes = cz_session_memory_bytes(j->session->cz);
    if (!limit || !w->journal.len || w->state_bytes <= limit) return;
    char msg[400];
    snprintf(msg, sizeof msg,
             "session state limit: this request would grow the session to %zu bytes, over --max-session-state-bytes "
             "(%zu); its changes were not kept",
             w->state_bytes, limit);
    job_set_done(j, GRPC_RESOURCE_EXHAUSTED, msg);
    free(j->status_details);
    j->status_details = NULL;
    j->status_details_len = 0;
    w->journal.len = 0;
    w->drop_session = true;
    w->state_bytes = 0;
}

static void sink_finish(Job *j) {
    WState *w = W;
    check_session_size(w, j);
    Buf b = {0};
    size_t at = wire_begin(&b, WF_DONE);
    buf_u64(&b, w->current_seq);
    buf_u32(&b, (uint32_t)j->status);
    buf_str(&b, j->status_msg);
    buf_bytes(&b, j->status_details, j->status_details_len);
    buf_str(&b, j->error_class);
    Metrics *m = &w->srv.metrics; /* only this thread writes it */
    buf_u64(&b, m->bad_input - w->bad_input_shipped);
    w->bad_input_shipped = m->bad_input;
    buf_bytes(&b, w->journal.data, w->journal.len);
    uint64_t now = mono_ns();
    bool ship = now - w->last_ship_ns >= RULES_SHIP_NS;
    uint32_t changed = 0;
    for (uint32_t i = 0; ship && i < m->nrules; i++) changed += m->rules[i].runs != w->shipped[i].runs;
    buf_u32(&b, changed);
    for (uint32_t i = 0; changed && i < m->nrules; i++) {
        if (m->rules[i].runs == w->shipped[i].runs) continue;
        buf_str(&b, m->rules[i].batch);
        buf_str(&b, m->rules[i].rule);
        buf_u64(&b, m->rules[i].runs - w->shipped[i].runs);
        buf_u64(&b, m->rules[i].effective - w->shipped[i].effective);
        buf_u64(&b, m->rules[i].nanos - w->shipped[i].nanos);
        w->shipped[i].runs = m->rules[i].runs;
        w->shipped[i].effective = m->rules[i].effective;
        w->shipped[i].nanos = m->rules[i].nanos;
    }
    if (ship) w->last_ship_ns = now;
    buf_u64(&b, w->state_bytes);
    wire_end(&b, at);
    /* The next job already read: this outcome goes with its (deferred). */
    bool next_in_hand = w->defer_ok && (w->nstash || w->in_pos < w->in_len);
    send_buf(w, &b, !next_in_hand);
    buf_free(&b);
    if (next_in_hand) defer_out(w);
}

static const JobSink SINK = {sink_emit, sink_finish};

/* ---------------------------------------------------------------- frames in */

/* n bytes from the loop: first what was read ahead, then from the socket —
 * small remainders through the read-ahead buffer, big ones straight in. */
static bool read_in(WState *w, uint8_t *p, size_t n) {
    while (n) {
        if (w->in_pos == w->in_len) {
            if (w->out.len) flush_out(w); /* never wait for the loop with output held back */
            if (n >= sizeof w->in) return read_all(w->fd, p, n);
            ssize_t k = read(w->fd, w->in, sizeof w->in);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) return false;
            w->in_pos = 0;
            w->in_len = (size_t)k;
        }
        size_t take = w->in_len - w->in_pos < n ? w->in_len - w->in_pos : n;
        memcpy(p, w->in + w->in_pos, take);
        w->in_pos += take;
        p += take;
        n -= take;
    }
    return true;
}

/* The next frame from the loop (malloc'ed); on EOF the loop closed its end
 * (shutdown) or died: nothing left to do. */
static Frame *next_frame(WState *w) {
    uint8_t hdr[5];
    uint32_t n;
    if (!read_in(w, hdr, 5)) _exit(0);
    memcpy(&n, hdr, 4);
    if (n > WIRE_FRAME_MAX) _exit(3);
    Frame *f = malloc(sizeof *f + n + 1);
    if (!f) _exit(3);
    if (!read_in(w, f->data, n)) _exit(0);
    f->type = hdr[4];
    f->len = n;
    return f;
}

/* Cancels of jobs not started yet (sent behind the running one). Only the
 * analysis thread takes SIGUSR1, so the handler never races its reads. */
enum { EARLY_CANCELS = 4 * WORKER_PIPELINE_DEPTH };
static volatile uint32_t early_cancel[EARLY_CANCELS];
static volatile uint32_t early_next;

/* SIGUSR1 from the loop, its value the sequence number of the job to stop. */
static void on_cancel(int sig, siginfo_t *si, void *uc) {
    (void)sig;
    (void)uc;
    WState *w = W;
    uint32_t want = (uint32_t)si->si_value.sival_int;
    uint64_t seq = __atomic_load_n(&w->current_seq, __ATOMIC_ACQUIRE);
    if (seq && (uint32_t)seq == want && w->current)
        __atomic_store_n(&w->current->cancel, 1, __ATOMIC_RELEASE);
    else
        early_cancel[early_next++ % EARLY_CANCELS] = want;
}

static bool cancelled_early(uint64_t seq) {
    for (int i = 0; i < EARLY_CANCELS; i++)
        if (early_cancel[i] == (uint32_t)seq) return true;
    return false;
}

/* ---------------------------------------------------------------- external-catalog invalidation */

/* This worker dropped cached tables (InvalidateTable, REFRESH TABLE): the
 * loop passes it on to the other workers. Sent ahead of the job's DONE. */
static void tell_loop_invalidated(void *ud, const char *catalog, int nns, const char *const *ns, const char *table) {
    WState *w = ud;
    Buf b = {0};
    size_t at = wire_begin(&b, WF_INVALIDATED);
    buf_str(&b, catalog);
    buf_u32(&b, (uint32_t)nns);
    for (int i = 0; i < nns; i++) buf_str(&b, ns[i]);
    buf_u8(&b, table != NULL);
    buf_str(&b, table);
    wire_end(&b, at);
    send_buf(w, &b, false);
    buf_free(&b);
}

static char *rd_strdup(Rd *r) {
    size_t n;
    const uint8_t *p = rd_bytes(r, &n);
    char *s = malloc(n + 1);
    if (!s) _exit(3);
    if (p && n) memcpy(s, p, n);
    s[n] = 0;
    return s;
}

/* Another worker dropped cached tables: so does this one (before its next job). */
static void frame_invalidate(WState *w, const Frame *f) {
    Rd r = {f->data, f->data + f->len, false};
    char *catalog = rd_strdup(&r);
    uint32_t nns = rd_u32(&r);
    if (nns > 256) r.bad = true;
    char **ns = calloc(nns + 1, sizeof *ns);
    if (!ns) _exit(3);
    for (uint32_t i = 0; i < nns && !r.bad; i++) ns[i] = rd_strdup(&r);
    bool has_table = rd_u8(&r);
    char *table = rd_strdup(&r);
    if (r.bad) /* cannot tell which: drop the catalog's, or everything */
        cz_catalogs_invalidate(w->srv.catalogs, catalog[0] ? catalog : NULL, 0, NULL, NULL, false);
    else
        cz_catalogs_invalidate(w->srv.catalogs, catalog, (int)nns, (const char *const *)ns, has_table ? table : NULL,
                               false);
    for (uint32_t i = 0; i < nns; i++) free(ns[i]);
    free(ns);
    free(table);
    free(catalog);
}

/* ---------------------------------------------------------------- sessions */

static Cached *cache_find(WState *w, const char *server_id) {
    for (int i = 0; i < CACHE_MAX; i++)
        if (w->cache[i].used && strcmp(w->cache[i].sess.server_id, server_id) == 0) return &w->cache[i];
    return NULL;
}

static void cache_drop(Cached *c) {
    if (!c || !c->used) return;
    cz_session_free(c->sess.cz);
    memset(c, 0, sizeof *c);
}

static Cached *cache_new(WState *w, const char *id, const char *server_id) {
    Cached *slot = NULL;
    for (int i = 0; i < CACHE_MAX && !slot; i++)
        if (!w->cache[i].used) slot = &w->cache[i];
    if (!slot) { /* the least recently used goes: it is replayed if it comes back */
        slot = &w->cache[0];
        for (int i = 1; i < CACHE_MAX; i++)
            if (w->cache[i].last_used < slot->last_used) slot = &w->cache[i];
        cache_drop(slot);
    }
    slot->sess.cz = server_new_cz_session(&w->srv);
    if (!slot->sess.cz) return NULL;
    slot->used = true;
    snprintf(slot->sess.id, sizeof slot->sess.id, "%s", id);
    snprintf(slot->sess.server_id, sizeof slot->sess.server_id, "%s", server_id);
    slot->version = 0;
    return slot;
}

/* Makes room in the stash: drops the jobs taken back since they came. */
static bool drop_recalled(WState *w) {
    int k = 0;
    for (int i = 0; i < w->nstash; i++) {
        if (still_queued(w, w->stash[i])) w->stash[k++] = w->stash[i];
        else free(w->stash[i]);
    }
    w->nstash = k;
    return k < STASH_MAX;
}

/* Brings c (NULL: none held) to version `want`: asks the loop for the
 * journal after what it holds and replays it. NULL with err set on failure. */
static Cached *bring_up_to_date(WState *w, Job *j, Cached *c, const char *server_id, uint64_t want, char *err,
                                size_t errlen) {
    Buf b = {0};
    size_t at = wire_begin(&b, WF_NEED);
    buf_u64(&b, w->current_seq);
    buf_u8(&b, c != NULL);
    buf_u64(&b, c ? c->version : 0);
    wire_end(&b, at);
    send_buf(w, &b, true);
    buf_free(&b);
    Frame *f;
    /* A FORGET may come first (another session dropped meanwhile), or the
     * job the loop sent behind this one: kept for after it. */
    for (;;) {
        f = next_frame(w);
        if (f->type == WF_FORGET) {
            Rd fr = {f->data, f->data + f->len, false};
            char sid[40];
            rd_str(&fr, sid, sizeof sid);
            Cached *gone = cache_find(w, sid);
            if (gone != c) cache_drop(gone);
            free(f);
        } else if (f->type == WF_INVALIDATE) {
            frame_invalidate(w, f);
            free(f);
        } else if (f->type == WF_JOB && !still_queued(w, f)) {
            free(f); /* taken back: another worker runs it */
        } else if (f->type == WF_JOB && (w->nstash < STASH_MAX || drop_recalled(w))) {
            w->stash[w->nstash++] = f;
        } else {
            break;
        }
    }
    Rd r = {f->data, f->data + f->len, false};
    uint64_t seq = rd_u64(&r);
    uint8_t reset = rd_u8(&r);
    uint64_t version = rd_u64(&r);
    size_t n;
    const uint8_t *recs = rd_bytes(&r, &n);
    if (f->type != WF_REPLAY || r.bad || seq != w->current_seq) {
        free(f);
        snprintf(err, errlen, "session replay: protocol error");
        cache_drop(c);
        return NULL;
    }
    if (reset || !c) {
        cache_drop(c);
        c = cache_new(w, j->session_id, server_id);
        if (!c) {
            free(f);
            snprintf(err, errlen, "session replay: out of memory");
            return NULL;
        }
    }
    CzRunOptions o = {0};
    o.memory_limit = w->srv.cfg.max_memory_bytes;
    o.max_depth = w->srv.cfg.max_plan_depth;
    o.deadline_ns = j->deadline_ns;
    o.cancel = &j->cancel;
    char why[256];
    bool ok = journal_replay(c->sess.cz, recs, n, &o, why, sizeof why);
    free(f);
    if (!ok) {
        snprintf(err, errlen, "the session could not be rebuilt from its journal (%s)", why);
        cache_drop(c);
        return NULL;
    }
    c->version = version;
    (void)want;
    return c;
}

/* ---------------------------------------------------------------- jobs */

static void run_job(WState *w, Frame *f) {
    if (!claim(w, f)) {
        free(f);
        return;
    }
    Rd r = {f->data, f->data + f->len, false};
    uint64_t seq = rd_u64(&r);
    (void)rd_u8(&r); /* its slot */
    RpcMethod method = (RpcMethod)rd_u8(&r);
    JobFormat fmt = (JobFormat)rd_u8(&r);
    uint64_t deadline = rd_u64(&r);
    Job *j = job_new(&w->srv, method, fmt);
    if (!j) _exit(3);
    j->sink = &SINK;
    j->deadline_ns = deadline;
    j->compress = rd_u8(&r);
    rd_str(&r, j->request_id, sizeof j->request_id);
    rd_str(&r, j->session_id, sizeof j->session_id);
    char server_id[40];
    rd_str(&r, server_id, sizeof server_id);
    uint64_t version = rd_u64(&r);
    size_t n;
    const uint8_t *req = rd_bytes(&r, &n);
    j->req = malloc(n ? n : 1);
    if (!j->req) _exit(3);
    if (n) memcpy(j->req, req, n);
    j->req_len = n;
    free(f);

    w->journal.len = 0;
    w->journal.failed = false;
    w->drop_session = false;
    w->state_bytes = 0;
    w->current = j;
    __atomic_store_n(&w->current_seq, seq, __ATOMIC_RELEASE);
    if (cancelled_early(seq)) __atomic_store_n(&j->cancel, 1, __ATOMIC_RELEASE);

    Cached *c = NULL;
    if (!r.bad && server_id[0]) {
        c = cache_find(w, server_id);
        if (!c || c->version != version) {
            char err[400];
            c = bring_up_to_date(w, j, c, server_id, version, err, sizeof err);
            if (!c) {
                job_finish(j, __atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE) ? GRPC_CANCELLED : GRPC_INTERNAL, err);
                goto out;
            }
        }
        c->last_used = ++w->tick;
        j->session = &c->sess;
        j->journal = &w->journal;
    }
    if (r.bad) {
        job_finish(j, GRPC_INTERNAL, "worker protocol error");
        goto out;
    }
    rpc_run(j); /* ends with job_finish: the DONE frame */
    if (c) {
        if (w->journal.len) c->version++; /* what the loop's append makes it (or it is forgotten) */
        if (w->journal.failed || w->drop_session) cache_drop(c);
        else if ((method == RPC_DROP_SESSION || method == RPC_CONNECT_RELEASE_SESSION) && j->status == GRPC_OK)
            cache_drop(c);
    }
out:
    __atomic_store_n(&w->current_seq, 0, __ATOMIC_RELEASE);
    w->current = NULL;
    j->session = NULL;
    j->journal = NULL;
    job_unref(j);
}

#if defined(__SANITIZE_ADDRESS__)
#define CZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CZ_ASAN 1
#endif
#endif

/* A job that crashes costs only itself: the outcome of the one before it,
 * if deferred (DEFER_NS), is written first. Out of address space under
 * RLIMIT_AS, code that cannot go on aborts (the arena) or follows a NULL it
 * was not given: either way the limit ended the request, and the loop
 * answers RESOURCE_EXHAUSTED for the exit code. */
static void on_fatal(int sig) {
    int err = errno;
    write_deferred();
    if (err == ENOMEM && W && W->srv.cfg.worker_memory_limit) _exit(WORKER_EXIT_OOM);
    signal(sig, SIG_DFL);
    raise(sig);
}

#ifdef CZ_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#ifndef CZ_ASAN
/* Each thread that runs jobs: a stack for on_fatal (a stack overflow). */
static void fatal_altstack(void) {
    static _Thread_local char altstack[65536];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
}
#endif

static void *analysis_thread(void *arg) {
    WState *w = arg;
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_UNBLOCK, &usr1, NULL); /* cancels land on this thread */
#ifndef CZ_ASAN
    fatal_altstack();
#endif
    Buf b = {0};
    size_t at = wire_begin(&b, WF_READY);
    buf_u32(&b, (uint32_t)getpid());
    wire_end(&b, at);
    send_buf(w, &b, true);
    buf_free(&b);
    for (;;) {
        Frame *f;
        if (w->nstash) {
            f = w->stash[0];
            memmove(w->stash, w->stash + 1, (size_t)--w->nstash * sizeof *w->stash);
        } else {
            f = next_frame(w);
        }
        if (f->type == WF_JOB) {
            run_job(w, f);
        } else if (f->type == WF_FORGET) {
            Rd r = {f->data, f->data + f->len, false};
            char sid[40];
            rd_str(&r, sid, sizeof sid);
            cache_drop(cache_find(w, sid));
            free(f);
        } else if (f->type == WF_INVALIDATE) {
            frame_invalidate(w, f);
            free(f);
        } else {
            free(f);
        }
    }
    return NULL;
}

/* ---------------------------------------------------------------- start */


int worker_process_main(int fd) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the loop */
    const char *parent = getenv(WORKER_PARENT_ENV);
    if (parent && (pid_t)strtol(parent, NULL, 10) != getppid()) return 0; /* it died before the line above */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, SIG_IGN);  /* the loop drains on these; the worker goes when its socket closes */
    signal(SIGTERM, SIG_IGN);
    /* Every request allocates and frees its arena: keep the memory rather
     * than hand it back (brk, munmap) and fault it in again each time. */
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 4 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    WState *w = calloc(1, sizeof *w);
    if (!w) return 3;
    W = w;
    w->fd = fd;
    metrics_init(&w->srv.metrics);
    uint8_t hdr[5];
    uint32_t n;
    if (!read_all(fd, hdr, 5)) return 0;
    memcpy(&n, hdr, 4);
    if (hdr[4] != WF_CONFIG || n != sizeof(Config) || !read_all(fd, (uint8_t *)&w->srv.cfg, n)) return 3;
    const Config *cfg = &w->srv.cfg;
    const char *slots_fd = getenv(WORKER_SLOTS_ENV);
    if (slots_fd) {
        void *m = mmap(NULL, WORKER_SLOTS_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, atoi(slots_fd), 0);
        if (m == MAP_FAILED) return 3;
        w->slots = m;
    }
    /* each worker keeps its own external-catalog cache and connections (made after the fork) */
    w->srv.catalogs = server_new_catalogs(cfg);
    cz_catalogs_on_invalidate(w->srv.catalogs, tell_loop_invalidated, w);
    struct sigaction sa = {.sa_handler = on_fatal, .sa_flags = SA_ONSTACK};
    sigaction(SIGABRT, &sa, NULL);
#ifndef CZ_ASAN
    if (cfg->worker_memory_limit) {
        struct rlimit rl = {cfg->worker_memory_limit, cfg->worker_memory_limit};
        setrlimit(RLIMIT_AS, &rl);
    }
    fatal_altstack();
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
#else
    __sanitizer_set_death_callback(write_deferred); /* the sanitizer takes SIGSEGV and reports */
#endif
    struct sigaction ca = {.sa_sigaction = on_cancel, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigaction(SIGUSR1, &ca, NULL);
    struct sigaction da = {.sa_handler = on_defer_timer, .sa_flags = SA_RESTART};
    sigaction(SIGALRM, &da, NULL);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL); /* only the analysis thread takes it */
    /* The defer timer signals this thread (it only waits for the other). */
    struct sigevent sev = {.sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGALRM};
    sev._sigev_un._tid = (pid_t)syscall(SYS_gettid); /* sigev_notify_thread_id: glibc 2.36 lacks the name */
    w->defer_ok = timer_create(CLOCK_MONOTONIC, &sev, &w->defer_timer) == 0;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, cfg->worker_stack_bytes); /* analysis recurses over plan depth */
    pthread_t t;
    if (pthread_create(&t, &attr, analysis_thread, w) != 0) return 3;
    pthread_attr_destroy(&attr);
    pthread_join(t, NULL); /* it exits the process */
    return 0;
}
