/* Small helpers `catalyzer bench` uses in process (cmd_bench.c) and through
 * the daemon (cmd_remote.c), so the two measure and print the same way. */
#ifndef CZ_CLI_BENCH_UTIL_H
#define CZ_CLI_BENCH_UTIL_H

#include <string.h>
#include <time.h>

static inline double bench_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* qsort comparator for the per-iteration times. */
static inline int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The file name a query is reported under. */
static inline const char *bench_base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

#endif
