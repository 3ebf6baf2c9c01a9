/* Log-linear histogram (see hist.h). Index layout: values below 2048 map to
 * themselves; a value with highest set bit e >= 11 keeps its top 11 bits
 * (1024..2047 after the shift by e-10), giving 1024 sub-buckets per power of
 * two: index 2048 + (e-11)*1024 + (top - 1024). */
#include "hist.h"

#include <stdlib.h>
#include <string.h>

void hist_init(Hist *h) {
    memset(h, 0, sizeof *h);
    h->counts = calloc(HIST_BUCKETS, sizeof *h->counts);
    if (!h->counts) abort();
    h->min = UINT64_MAX;
}

void hist_free(Hist *h) {
    free(h->counts);
    h->counts = NULL;
}

void hist_reset(Hist *h) {
    memset(h->counts, 0, HIST_BUCKETS * sizeof *h->counts);
    h->total = 0;
    h->max = 0;
    h->sum = 0;
    h->min = UINT64_MAX;
}

uint32_t hist_index(uint64_t v) {
    if (v < 2048) return (uint32_t)v;
    int e = 63 - __builtin_clzll(v);
    uint64_t top = v >> (e - 10);
    return 2048u + (uint32_t)(e - 11) * 1024u + (uint32_t)(top - 1024);
}

uint64_t hist_lowest(uint32_t i) {
    if (i < 2048) return i;
    uint32_t e = (i - 2048) / 1024 + 11, top = (i - 2048) % 1024 + 1024;
    return (uint64_t)top << (e - 10);
}

uint64_t hist_highest(uint32_t i) {
    if (i < 2048) return i;
    uint32_t e = (i - 2048) / 1024 + 11;
    return hist_lowest(i) + ((uint64_t)1 << (e - 10)) - 1;
}

void hist_record(Hist *h, uint64_t v) {
    h->counts[hist_index(v)]++;
    h->total++;
    h->sum += (double)v;
    if (v < h->min) h->min = v;
    if (v > h->max) h->max = v;
}

void hist_merge(Hist *into, const Hist *from) {
    for (uint32_t i = 0; i < HIST_BUCKETS; i++) into->counts[i] += from->counts[i];
    into->total += from->total;
    into->sum += from->sum;
    if (from->min < into->min) into->min = from->min;
    if (from->max > into->max) into->max = from->max;
}

uint64_t hist_quantile(const Hist *h, double q) {
    if (!h->total) return 0;
    if (q <= 0) return h->min;
    if (q >= 1) return h->max;
    /* the rank of the value: ceil(q * total), at least 1 */
    uint64_t rank = (uint64_t)(q * (double)h->total);
    if ((double)rank < q * (double)h->total) rank++;
    if (rank < 1) rank = 1;
    uint64_t seen = 0;
    for (uint32_t i = 0; i < HIST_BUCKETS; i++) {
        seen += h->counts[i];
        if (seen >= rank) {
            uint64_t v = hist_highest(i);
            return v > h->max ? h->max : v < h->min ? h->min : v;
        }
    }
    return h->max;
}

double hist_mean(const Hist *h) { return h->total ? h->sum / (double)h->total : 0; }
