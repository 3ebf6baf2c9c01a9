/* Helpers shared by the peer timing programs (pg_prepare.c, sqlite_prepare.c):
 * a monotonic clock, the median of a sample, whole-file reading and one JSON
 * line per query, so every peer reports in the same shape:
 *   {"query":"q1.sql","median_us":..,"min_us":..,"iterations":N,"status":"ok"}
 *   {"query":"q2.sql","status":"rejected","error":"..."}
 * These are benchmark tools, not part of Catalyzer. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(s);
        return NULL;
    }
    s[n] = 0;
    fclose(f);
    return s;
}

static const char *base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static void json_str(const char *s) {
    putchar('"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf(" ");
        else putchar(c);
    }
    putchar('"');
}

static void report_ok(const char *name, double *t, int n) {
    qsort(t, (size_t)n, sizeof(double), cmp_double);
    printf("{\"query\":");
    json_str(name);
    printf(",\"median_us\":%.2f,\"min_us\":%.2f,\"iterations\":%d,\"status\":\"ok\"}\n", t[n / 2], t[0], n);
    fflush(stdout);
}

static void report_rejected(const char *name, const char *err) {
    printf("{\"query\":");
    json_str(name);
    printf(",\"status\":\"rejected\",\"error\":");
    /* first line of the message is enough to say why */
    char buf[400];
    snprintf(buf, sizeof buf, "%s", err ? err : "");
    char *nl = strchr(buf, '\n');
    if (nl) *nl = 0;
    json_str(buf);
    printf("}\n");
    fflush(stdout);
}
#endif
