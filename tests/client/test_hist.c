/* catalyzer-load's histogram: bucket arithmetic and percentiles against an
 * exact sort. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "hist.h"

Test(hist, buckets_cover_values_within_a_tenth_of_a_percent) {
    uint64_t vs[] = {0, 1, 2047, 2048, 2049, 4095, 4096, 123456, 1000000007ull, UINT64_MAX / 3, UINT64_MAX};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
        uint32_t k = hist_index(vs[i]);
        cr_assert_lt(k, HIST_BUCKETS);
        cr_assert_leq(hist_lowest(k), vs[i]);
        cr_assert_geq(hist_highest(k), vs[i]);
        cr_assert_leq((double)(hist_highest(k) - hist_lowest(k)), (double)vs[i] / 1000.0 + 1);
    }
    for (uint32_t k = 1; k < HIST_BUCKETS; k++) cr_assert_eq(hist_lowest(k), hist_highest(k - 1) + 1, "contiguous at %u", k);
}

static int cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

Test(hist, percentiles_match_an_exact_sort) {
    enum { N = 100000 };
    uint64_t *v = malloc(N * sizeof *v);
    Hist h;
    hist_init(&h);
    srand(7);
    for (int i = 0; i < N; i++) {
        /* long-tailed: most near 200us, some up to 50 ms */
        v[i] = 150000 + (uint64_t)(rand() % 100000) + (rand() % 100 == 0 ? (uint64_t)(rand() % 50000000) : 0);
        hist_record(&h, v[i]);
    }
    qsort(v, N, sizeof *v, cmp);
    double qs[] = {0.5, 0.9, 0.99, 0.999};
    for (int i = 0; i < 4; i++) {
        uint64_t exact = v[(size_t)(qs[i] * N) - 1], got = hist_quantile(&h, qs[i]);
        cr_assert_leq((double)(got > exact ? got - exact : exact - got), (double)exact * 0.002, "q%.3f: %lu vs %lu",
                      qs[i], (unsigned long)got, (unsigned long)exact);
    }
    cr_assert_eq(hist_quantile(&h, 1.0), v[N - 1]);
    cr_assert_eq(h.total, N);
    Hist h2;
    hist_init(&h2);
    hist_merge(&h2, &h);
    cr_assert_eq(hist_quantile(&h2, 0.99), hist_quantile(&h, 0.99));
    hist_free(&h);
    hist_free(&h2);
    free(v);
}
