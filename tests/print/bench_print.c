/* Benchmark (not a test): printing throughput on large plans. Prints figures:
 * a 5000-level chain, a 10000-way union, and every TPC-DS / TPC-H query of
 * $CATALYZER_SHARED/workloads parsed and printed (when present). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "corpus.h"
#include "parser/parser.h"
#include "print/printer.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static Node *attr(Arena *a, const char *name, ExprId id) {
    Node *n = node_new(a, NK_AttributeReference, -1, -1);
    n->u.attr.name = name;
    n->u.attr.id = id;
    n->type = &TYPE_INT;
    return node_finish(n);
}

static void report(const char *what, size_t bytes, double secs, int reps) {
    printf("%-34s %10.2f MB out  %8.3f ms/print  %8.1f MB/s\n", what, (double)bytes / 1e6, secs * 1e3 / reps,
           (double)bytes * reps / 1e6 / secs);
}

static void bench_chain(void) {
    Arena *a = arena_new(0);
    Node *p = node_finish(node_new(a, NK_OneRowRelation, -1, -1));
    Node *x = attr(a, "a", 1);
    for (int i = 0; i < 5000; i++) {
        Node *q = node_new(a, NK_Project, -1, -1);
        node_set_exprs(a, q, &x, 1);
        node_set_kids(a, q, &p, 1);
        p = node_finish(q);
    }
    double t = now();
    size_t n = 0;
    for (int r = 0; r < 5; r++) n = strlen(plan_tree_string(a, p));
    report("chain of 5000 Projects", n, now() - t, 5);
    arena_free(a);
}

static void bench_union(void) {
    Arena *a = arena_new(0);
    enum { N = 10000 };
    Node **kids = arena_alloc(a, sizeof(Node *) * N);
    Node *x = attr(a, "a", 1);
    for (int i = 0; i < N; i++) {
        Node *q = node_new(a, NK_Project, -1, -1);
        Node *one = node_finish(node_new(a, NK_OneRowRelation, -1, -1));
        node_set_exprs(a, q, &x, 1);
        node_set_kids(a, q, &one, 1);
        kids[i] = node_finish(q);
    }
    Node *u = node_new(a, NK_Union, -1, -1);
    node_set_kids(a, u, kids, N);
    node_finish(u);
    double t = now();
    size_t n = 0;
    for (int r = 0; r < 20; r++) n = strlen(plan_tree_string(a, u));
    report("union of 10000 Projects", n, now() - t, 20);
    arena_free(a);
}

/* The workload queries of one set (file prefix "tpch/", ...; schema.sql left out). */
static void bench_workload(const Corpus *c, const char *prefix, const char *label) {
    Arena *a = arena_new(0);
    size_t bytes = 0;
    int nq = 0;
    double secs = 0;
    for (size_t i = 0; i < c->n; i++) {
        const CorpusRecord *r = &c->v[i];
        if (strncmp(r->file, prefix, strlen(prefix)) != 0 || strstr(r->file, "/schema.sql")) continue;
        ErrorInfo *err = NULL;
        ParserOptions po = {0};
        Node *plan = parse_statement(a, r->sql, strlen(r->sql), &po, &err);
        if (!plan) continue;
        double t = now();
        for (int k = 0; k < 50; k++) bytes += strlen(plan_tree_string(a, plan));
        secs += now() - t;
        nq++;
    }
    if (nq) {
        char what[64];
        snprintf(what, sizeof what, "%s: %d parsed queries", label, nq);
        report(what, bytes / 50, secs, 50);
    }
    arena_free(a);
}

int main(void) {
    bench_chain();
    bench_union();
    Corpus c = {0};
    if (corpus_shared_dir() && corpus_load_workloads(&c)) {
        bench_workload(&c, "tpcds/", "TPC-DS");
        bench_workload(&c, "tpch/", "TPC-H");
    }
    corpus_free(&c);
    return 0;
}
