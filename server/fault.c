/* Fault injection (see fault.h). */
#include "fault.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "job.h"
#include "server.h"

static const char KEY[] = "catalyzer.debug.fault";

bool fault_key(const char *key) { return strncasecmp(key, KEY, sizeof KEY - 1) == 0; }

bool fault_set(Fault *f, const char *key, const char *value, bool enabled, size_t memory_limit, char *err,
               size_t errlen) {
    if (!enabled) {
        snprintf(err, errlen, "%s is only accepted by a catalyzerd started with --enable-fault-injection", key);
        return false;
    }
    const char *sub = key + sizeof KEY - 1;
    if (*sub == '\0') {
        static const char *const K[] = {"segv", "abort", "hang", "oom", "slow"};
        for (int i = 0; i < 5; i++)
            if (strcasecmp(value, K[i]) == 0) f->kind = (FaultKind)(i + 1);
        if (f->kind == FAULT_NONE) {
            snprintf(err, errlen, "%s: unknown fault '%s' (segv, abort, hang, oom or slow)", key, value);
            return false;
        }
        if (f->kind == FAULT_OOM && !memory_limit) {
            snprintf(err, errlen, "%s=oom needs a worker memory limit (catalyzerd --worker-memory-limit)", key);
            return false;
        }
        return true;
    }
    if (strcasecmp(sub, ".phase") == 0) {
        if (strcasecmp(value, "start") == 0) f->phase = FAULT_AT_START;
        else if (strcasecmp(value, "analyze") == 0) f->phase = FAULT_AT_ANALYZE;
        else if (strcasecmp(value, "respond") == 0) f->phase = FAULT_AT_RESPOND;
        else {
            snprintf(err, errlen, "%s: unknown phase '%s' (start, analyze or respond)", key, value);
            return false;
        }
        return true;
    }
    if (strcasecmp(sub, ".millis") == 0) {
        char *end;
        unsigned long ms = strtoul(value, &end, 10);
        if (!*value || *end || ms > 600000) {
            snprintf(err, errlen, "%s: '%s' is not a number of milliseconds up to 600000", key, value);
            return false;
        }
        f->millis = (uint32_t)ms;
        return true;
    }
    snprintf(err, errlen, "unknown fault injection key %s (fault, fault.phase, fault.millis)", key);
    return false;
}

static void oom(size_t limit) {
    /* Touch every page, so the limit is met whether it counts address
     * space (RLIMIT_AS) or resident memory (the loop's watchdog). */
    size_t total = 0;
    for (;;) {
        enum { STEP = 1 << 20 };
        char *p = malloc(STEP);
        if (!p) _exit(WORKER_EXIT_OOM);
        memset(p, 0xa5, STEP);
        total += STEP;
        /* Nothing stopped us well past the limit: end as the limit would. */
        if (total > limit + (256u << 20)) _exit(WORKER_EXIT_OOM);
    }
}

bool fault_point(Job *j, FaultPhase phase) {
    Fault *f = &j->fault;
    if (f->kind == FAULT_NONE || f->phase != phase) return true;
    FaultKind k = f->kind;
    if (k != FAULT_SLOW) f->kind = FAULT_NONE;
    switch (k) {
    case FAULT_SEGV: {
        static volatile uintptr_t bad = 16; /* the compiler cannot see it is a bad address */
        *(volatile int *)bad = 1;
        break;
    }
    case FAULT_ABORT: abort();
    case FAULT_HANG: {
        volatile uint64_t spin = 0;
        for (;;) spin++;
    }
    case FAULT_OOM: oom(j->srv ? j->srv->cfg.worker_memory_limit : 0); break;
    case FAULT_SLOW: {
        f->kind = FAULT_NONE; /* once per request */
        uint64_t until = mono_ns() + (uint64_t)(f->millis ? f->millis : 2000) * 1000000ull;
        while (mono_ns() < until) {
            if (__atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE)) return false;
            if (j->deadline_ns && mono_ns() >= j->deadline_ns) return false;
            struct timespec ts = {0, 5 * 1000000L};
            nanosleep(&ts, NULL);
        }
        break;
    }
    default: break;
    }
    return true;
}
