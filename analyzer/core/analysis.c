#include "analysis.h"

#include <time.h>

Node *an_fail(Analysis *an, ErrorInfo *err) {
    if (!an->error) an->error = err;
    return NULL;
}

bool an_out_of_time(Analysis *an) {
    if (an->error) return true;
    if (an->cancel && *an->cancel) {
        an_fail(an, error_make(an->arena, "CATALYZER_CANCELLED", NULL, NULL));
        return true;
    }
    if (an->deadline_ns) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        if ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec > an->deadline_ns) {
            an_fail(an, error_make(an->arena, "CATALYZER_DEADLINE_EXCEEDED", NULL, NULL));
            return true;
        }
    }
    return false;
}
