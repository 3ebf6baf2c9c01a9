/* Analysis worker processes, as PostgreSQL isolates its backends: the loop
 * process owns every socket, the sessions and the queue; each request runs
 * in one of N worker processes (catalyzerd re-executed with its end of a
 * socket pair on fd 3), which streams the response back as it is produced.
 *
 * A worker that dies (a signal, abort(), a sanitizer report) costs only the
 * request it held: that call gets INTERNAL naming the request id and the
 * reason, a new worker replaces it at once, the log names the request by a
 * hash of its bytes (never its SQL), catalyzer_worker_restarts_total{reason}
 * counts it. A worker still busy shortly after its call's deadline passed,
 * or after its call was cancelled, is killed (no CPU burns for an answered
 * call); one over --worker-memory-limit (RLIMIT_AS, and the loop's resident
 * memory watchdog) is killed too and its call gets RESOURCE_EXHAUSTED.
 *
 * Sessions live in the loop as journals (session_store.h). A job names its
 * session's journal version; a worker that does not hold the session at that
 * version asks for the records after the one it holds (WF_NEED) and replays
 * them (WF_REPLAY) before running the job; what the job changed comes back
 * with its result (WF_DONE) and is appended, so any worker, including a
 * fresh one after a crash, sees the session as it was.
 *
 * Frames are in wire.h. Backpressure: past the call's --stream-buffer-bytes
 * of unsent output the loop stops reading the worker's socket, so the worker
 * blocks writing, as a thread worker waits. */
#ifndef CZ_WORKERS_H
#define CZ_WORKERS_H

#include <stdbool.h>
#include <stdint.h>

struct Server;
struct Job;
struct Session;
typedef struct Workers Workers;

/* Jobs a worker holds at most under load: the one it runs and the ones sent
 * behind it, so it goes from one to the next without sleeping in between
 * and the loop can answer and refill in batches (a wake-up and a context
 * switch saved per call; bench/isolation_perf.sh: depth 2 → 4 → 8 → 16
 * took syscalls per call from 8.0 to 4.0, 3.1, 2.8; with stealing, 8 → 16
 * took the loop's voluntary switches from 0.26 to 0.17 a call and CPU
 * from 86–91 to 80–82 µs; 32 was no better). A slow job would hold
 * the ones sent behind it: they are stolen instead (the slots below) for a
 * worker gone idle, or by the 20 ms watchdog once the running job is slow,
 * and a slow worker takes no more while there is another. Sent-behind jobs
 * have not started: when the worker dies they go back to the front of the
 * queue, in order. */
enum { WORKER_PIPELINE_DEPTH = 16 };

/* Work stealing without a race: each worker shares with the loop a ring of
 * WORKER_PIPELINE_DEPTH slots (a memfd on the worker's fd 4), one per job it
 * holds, each seq << 2 | state in one atomic word. The loop writes QUEUED
 * before sending the job (its frame names the slot); the worker CASes
 * QUEUED → STARTED before running it, and skips it silently (no frame back)
 * if the loop took it back first (CAS QUEUED → RECALLED) to give an idle
 * worker, or when the running job is slow. The seq in the word makes a slot
 * reused for a later job fail the stale frame's CAS. */
enum { SLOT_QUEUED = 1, SLOT_STARTED = 2, SLOT_RECALLED = 3 };
#define SLOT_WORD(seq, state) ((uint64_t)(seq) << 2 | (uint64_t)(state))
#define WORKER_SLOTS_BYTES (WORKER_PIPELINE_DEPTH * sizeof(uint64_t))

/* The environment variables a worker process starts with. */
#define WORKER_FD_ENV "CATALYZERD_INTERNAL_WORKER_FD"
#define WORKER_SLOTS_ENV "CATALYZERD_INTERNAL_WORKER_SLOTS"
#define WORKER_PARENT_ENV "CATALYZERD_INTERNAL_WORKER_PARENT"

/* Loop: starts cfg.workers processes. NULL on failure (logged). */
Workers *workers_start(struct Server *srv);
/* Loop: queues a job (the caller holds the worker's reference). */
void workers_push(Workers *ws, struct Job *j);
void workers_counts(Workers *ws, uint32_t *queued, uint32_t *running, uint32_t *alive);
/* Loop: a session was dropped or expired: workers forget their copies. */
void workers_forget(Workers *ws, const struct Session *s);
/* Loop, at the end of the drain: closes the workers' sockets (they exit),
 * then reaps them after the loop stops. */
void workers_close(Workers *ws);
void workers_free(Workers *ws);

/* The worker process' main: fd is its end of the socket pair. */
int worker_process_main(int fd);

#endif
