/* A latency histogram in the manner of HdrHistogram: log-linear buckets
 * (each power of two split into 1024 linear sub-buckets), so any recorded
 * value is reproduced within 0.1% whatever its magnitude, in fixed memory,
 * with O(1) recording. Values are nanoseconds (any uint64). */
#ifndef CZ_LOAD_HIST_H
#define CZ_LOAD_HIST_H

#include <stdint.h>

typedef struct Hist {
    uint64_t *counts;
    uint64_t total, min, max;
    double sum;
} Hist;

void hist_init(Hist *h);
void hist_free(Hist *h);
void hist_reset(Hist *h);
void hist_record(Hist *h, uint64_t v);
void hist_merge(Hist *into, const Hist *from);
/* The value at quantile q (0..1): the highest value equivalent to the bucket
 * holding the q-th recorded value (as HdrHistogram reports), capped at max. */
uint64_t hist_quantile(const Hist *h, double q);
double hist_mean(const Hist *h);

/* Bucket arithmetic, exposed for the tests. */
uint32_t hist_index(uint64_t v);
uint64_t hist_lowest(uint32_t index);  /* smallest value mapping to index */
uint64_t hist_highest(uint32_t index); /* largest value mapping to index */
#define HIST_BUCKETS (2048u + 53u * 1024u)

#endif
