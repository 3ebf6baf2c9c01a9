/* Fault injection (catalyzerd --enable-fault-injection only): a request's
 * conf `catalyzer.debug.fault=KIND` makes the analysis worker running it
 * misbehave, so tests and operators can prove each failure path. The keys
 * apply to the request that carries them and are never stored in the
 * session; without the flag they are refused (INVALID_ARGUMENT).
 *
 *   catalyzer.debug.fault        segv | abort | hang | oom | slow
 *   catalyzer.debug.fault.phase  start (as the request's conf is read) |
 *                                analyze (before each statement, default) |
 *                                respond (before the response is sent)
 *   catalyzer.debug.fault.millis slow: how long to stall (default 2000),
 *                                still honouring the deadline and cancel
 *
 * segv writes through a bad pointer, abort calls abort(), hang spins on the
 * CPU ignoring deadline and cancel (the loop must stop the worker), oom
 * allocates and touches memory until the worker's memory limit
 * (--worker-memory-limit, required) stops it. */
#ifndef CZ_FAULT_H
#define CZ_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum FaultKind { FAULT_NONE, FAULT_SEGV, FAULT_ABORT, FAULT_HANG, FAULT_OOM, FAULT_SLOW } FaultKind;
typedef enum FaultPhase { FAULT_AT_START, FAULT_AT_ANALYZE, FAULT_AT_RESPOND } FaultPhase;

typedef struct Fault {
    FaultKind kind;
    FaultPhase phase;
    uint32_t millis;
} Fault;

struct Job;

/* True for the keys fault injection reads (catalyzer.debug.fault*). */
bool fault_key(const char *key);
/* Arms f from one key; false with a message for a refused key or value
 * (fault injection off, unknown kind or phase, oom without a memory limit). */
bool fault_set(Fault *f, const char *key, const char *value, bool enabled, size_t memory_limit, char *err,
               size_t errlen);
/* Fires j's fault if it is armed for phase. slow returns false when the
 * call's deadline passed or it was cancelled meanwhile. */
bool fault_point(struct Job *j, FaultPhase phase);

/* The exit code of a worker that ran out of memory (its limit). */
enum { WORKER_EXIT_OOM = 86 };

#endif
