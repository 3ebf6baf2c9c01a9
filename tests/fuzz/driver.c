/* The fuzz targets without libFuzzer (the gcc build, tests/meson.build):
 * runs LLVMFuzzerTestOneInput on every file named (or in every folder
 * named), then on --mutate N seeded mutations of them (byte flips, inserts,
 * erases, copies, splices), stopping early after --seconds S. Fixed seed
 * (--seed): a failure reproduces; the input that failed is written to
 * --crash-file (default ./fuzz-driver-crash) before each run.
 *
 * Usage: fuzz_X [--mutate N] [--seed S] [--seconds S] [--crash-file F] PATH... */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct Input {
    uint8_t *p;
    size_t n;
} Input;

static Input *inputs;
static size_t ninputs, cap;

static void add_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz driver: cannot read %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(n > 0 ? (size_t)n : 1);
    if (n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n) exit(2);
    fclose(f);
    if (ninputs == cap) {
        cap = cap ? cap * 2 : 256;
        inputs = realloc(inputs, cap * sizeof *inputs);
    }
    inputs[ninputs++] = (Input){p, (size_t)n};
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void add_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return; /* an absent folder (no seeds yet): nothing to run */
    if (!S_ISDIR(st.st_mode)) {
        add_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (!d) return;
    char **names = NULL;
    size_t n = 0, c = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == c) names = realloc(names, (c = c ? c * 2 : 64) * sizeof *names);
        size_t l = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        snprintf(names[n++], l, "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp); /* readdir's order is not stable */
    for (size_t i = 0; i < n; i++) {
        add_path(names[i]);
        free(names[i]);
    }
    free(names);
}

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const char *crash_file = "fuzz-driver-crash";

static void run(const uint8_t *p, size_t n) {
    FILE *f = fopen(crash_file, "wb");
    if (f) {
        fwrite(p, 1, n, f);
        fclose(f);
    }
    uint8_t *copy = malloc(n ? n : 1); /* exactly n bytes: reads past them are caught */
    memcpy(copy, p, n);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
}

static size_t mutate(uint8_t *buf, size_t n, size_t max) {
    int k = 1 + (int)(rnd() % 4);
    for (int i = 0; i < k; i++) {
        switch (rnd() % 6) {
        case 0: /* flip a bit */
            if (n) buf[rnd() % n] ^= (uint8_t)(1u << (rnd() % 8));
            break;
        case 1: /* an interesting byte */
            if (n) {
                static const uint8_t B[] = {0, 0xff, 0x7f, 0x80, '(', ')', '\'', '"', '\\', ',', ';', '{', '}', 0x08};
                buf[rnd() % n] = B[rnd() % sizeof B];
            }
            break;
        case 2: /* erase a run */
            if (n) {
                size_t at = rnd() % n, len = 1 + rnd() % (n - at < 16 ? n - at : 16);
                memmove(buf + at, buf + at + len, n - at - len);
                n -= len;
            }
            break;
        case 3: /* insert a random byte */
            if (n < max) {
                size_t at = n ? rnd() % (n + 1) : 0;
                memmove(buf + at + 1, buf + at, n - at);
                buf[at] = (uint8_t)rnd();
                n++;
            }
            break;
        case 4: /* copy a run elsewhere */
            if (n > 1) {
                size_t from = rnd() % n, len = 1 + rnd() % (n - from < 32 ? n - from : 32);
                if (n + len > max) break;
                size_t at = rnd() % (n + 1);
                uint8_t tmp[32];
                memcpy(tmp, buf + from, len);
                memmove(buf + at + len, buf + at, n - at);
                memcpy(buf + at, tmp, len);
                n += len;
            }
            break;
        default: /* splice another input's tail */
            if (ninputs) {
                const Input *o = &inputs[rnd() % ninputs];
                if (!o->n) break;
                size_t at = n ? rnd() % n : 0, from = rnd() % o->n, len = o->n - from;
                if (at + len > max) len = max - at;
                memcpy(buf + at, o->p + from, len);
                n = at + len;
            }
        }
    }
    return n;
}

int main(int argc, char **argv) {
    long mutations = 0;
    double seconds = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--mutate") == 0 && i + 1 < argc) mutations = atol(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) rng_state = strtoull(argv[++i], NULL, 0) | 1;
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--crash-file") == 0 && i + 1 < argc) crash_file = argv[++i];
        else add_path(argv[i]);
    }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < ninputs; i++) run(inputs[i].p, inputs[i].n);
    long done = 0;
    enum { MAX = 1 << 16 };
    uint8_t *buf = malloc(MAX);
    for (; done < mutations && ninputs; done++) {
        if (seconds > 0 && done % 16 == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 > seconds) break;
        }
        const Input *in = &inputs[rnd() % ninputs];
        size_t n = in->n < MAX ? in->n : MAX;
        memcpy(buf, in->p, n);
        n = mutate(buf, n, MAX);
        run(buf, n);
    }
    free(buf);
    remove(crash_file);
    printf("fuzz driver: %zu inputs and %ld mutations run, no crash\n", ninputs, done);
    for (size_t i = 0; i < ninputs; i++) free(inputs[i].p);
    free(inputs);
    return 0;
}
