/* `catalyzer trace [--daemon HOST:PORT] [--conf k=v]... [--bare] [--all] [--diff] FILE`
 * — a readable per-rule timeline of one analysis: the last statement of FILE
 * (earlier statements run first in the same session, as set-up). One line per
 * effective rule application: start offset and duration (microseconds), batch,
 * iteration, rule, the node kinds it replaced; runs of rules without effect are
 * folded into one line (--all lists them). Nested analyses (views, CTE
 * definitions, subqueries) are shown under the rule application they ran in,
 * grouped by analysis and indented (see print_timeline). With --diff, under
 * each effective rule the plan lines it changed (line diff of consecutive
 * plans of the same analysis; the first is compared with the plan the
 * analysis started from). In process or through the daemon, the same output
 * but for the times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "core/arena.h"
#include "external_catalogs.h"
#include "input.h"
#include "parser/parser.h"
#include "print/printer.h"
#include "remote.h"

typedef struct Ev {
    char *batch, *rule, *kinds, *plan, *before, *scope;
    int iteration, depth;
    uint32_t scope_id, parent_id;
    bool effective;
    uint64_t nanos;
    size_t *kids, nkids; /* events of nested analyses that ran inside this rule application */
} Ev;

typedef struct Evs {
    Ev *v;
    size_t n, cap;
} Evs;

static char *dup_or_null(const char *s) { return s && *s ? strdup(s) : NULL; }

static void push(Evs *e, const Ev *src) {
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 256;
        e->v = realloc(e->v, e->cap * sizeof *e->v);
        if (!e->v) abort();
    }
    Ev *v = &e->v[e->n++];
    *v = *src;
    v->batch = strdup(src->batch ? src->batch : "");
    v->rule = strdup(src->rule ? src->rule : "");
    v->kinds = dup_or_null(src->kinds);
    v->plan = dup_or_null(src->plan);
    v->before = dup_or_null(src->before);
    v->scope = strdup(src->scope ? src->scope : "");
    v->depth = src->depth < 0 ? 0 : src->depth;
    v->kids = NULL;
    v->nkids = 0;
}

static void local_event(void *ud, const CzTraceEvent *ev) {
    Ev e = {(char *)ev->batch, (char *)ev->rule, (char *)ev->changed_kinds, (char *)ev->plan, (char *)ev->plan_before,
            (char *)ev->scope, ev->iteration, ev->depth, ev->scope_id, ev->parent_scope_id, ev->effective, ev->nanos,
            NULL, 0};
    push(ud, &e);
}

static void remote_event(void *ud, const Catalyzer__V1__TraceEvent *ev) {
    Ev e = {ev->batch, ev->rule, ev->changed_kinds, ev->plan_after, ev->plan_before, ev->scope, ev->iteration,
            (int)ev->depth, ev->scope_id, ev->parent_scope_id, ev->effective, ev->duration_nanos, NULL, 0};
    push(ud, &e);
}

/* ---------------------------------------------------------------- line diff */

typedef struct Lines {
    char **v;
    size_t n;
    char *buf;
} Lines;

static Lines split_lines(const char *s) {
    Lines l = {0};
    l.buf = strdup(s ? s : "");
    if (!l.buf) abort();
    size_t cap = 16;
    l.v = malloc(cap * sizeof *l.v);
    for (char *p = l.buf; *p;) {
        if (l.n == cap) l.v = realloc(l.v, (cap *= 2) * sizeof *l.v);
        l.v[l.n++] = p;
        char *nl = strchr(p, '\n');
        if (!nl) break;
        *nl = 0;
        p = nl + 1;
    }
    return l;
}

static void free_lines(Lines *l) {
    free(l->v);
    free(l->buf);
}

enum { CONTEXT = 2, LCS_MAX_CELLS = 16 << 20 };

/* Prints the changed lines of a -> b with CONTEXT lines around each change:
 * common prefix and suffix trimmed, the middle by longest common subsequence
 * (or as a whole replacement when too large for the table). */
static void print_diff(const char *pfx, const char *before, const char *after) {
    Lines a = split_lines(before), b = split_lines(after);
    size_t pre = 0, suf = 0;
    while (pre < a.n && pre < b.n && !strcmp(a.v[pre], b.v[pre])) pre++;
    while (suf < a.n - pre && suf < b.n - pre && !strcmp(a.v[a.n - 1 - suf], b.v[b.n - 1 - suf])) suf++;
    size_t n = a.n - pre - suf, m = b.n - pre - suf;
    /* ops over the whole: ' ' keep (index into a), '-' a line, '+' b line */
    size_t cap = a.n + b.n + 1, nops = 0;
    char *op = malloc(cap);
    const char **text = malloc(cap * sizeof *text);
    for (size_t i = 0; i < pre; i++) op[nops] = ' ', text[nops++] = a.v[i];
    if ((n + 1) * (m + 1) <= LCS_MAX_CELLS) {
        uint32_t *t = calloc((n + 1) * (m + 1), sizeof *t);
#define T(i, j) t[(i) * (m + 1) + (j)]
        for (size_t i = n; i-- > 0;)
            for (size_t j = m; j-- > 0;)
                T(i, j) = !strcmp(a.v[pre + i], b.v[pre + j]) ? T(i + 1, j + 1) + 1
                          : T(i + 1, j) >= T(i, j + 1)         ? T(i + 1, j)
                                                                : T(i, j + 1);
        size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && !strcmp(a.v[pre + i], b.v[pre + j])) {
                op[nops] = ' ', text[nops++] = a.v[pre + i];
                i++, j++;
            } else if (i < n && (j == m || T(i + 1, j) >= T(i, j + 1))) {
                op[nops] = '-', text[nops++] = a.v[pre + i++]; /* removals first, as diff -u */
            } else {
                op[nops] = '+', text[nops++] = b.v[pre + j++];
            }
        }
#undef T
        free(t);
    } else {
        for (size_t i = 0; i < n; i++) op[nops] = '-', text[nops++] = a.v[pre + i];
        for (size_t j = 0; j < m; j++) op[nops] = '+', text[nops++] = b.v[pre + j];
    }
    for (size_t i = a.n - suf; i < a.n; i++) op[nops] = ' ', text[nops++] = a.v[i];
    /* print changes with context; "..." where lines are skipped */
    size_t last_printed = (size_t)-1;
    for (size_t k = 0; k < nops; k++) {
        bool show = op[k] != ' ';
        for (size_t d = 1; !show && d <= CONTEXT; d++)
            show = (k >= d && op[k - d] != ' ') || (k + d < nops && op[k + d] != ' ');
        if (!show) continue;
        if (last_printed != k - 1 && (last_printed != (size_t)-1 || k > 0)) printf("%s        ...\n", pfx);
        printf("%s      %c %s\n", pfx, op[k], text[k]);
        last_printed = k;
    }
    if (last_printed != (size_t)-1 && last_printed + 1 < nops) printf("%s        ...\n", pfx);
    free(op);
    free(text);
    free_lines(&a);
    free_lines(&b);
}

/* ---------------------------------------------------------------- timeline
 *
 * The statement's own rule applications are the timeline, one line each.
 * A nested analysis (a view's body, a CTE definition, a subquery) runs inside
 * one of them; its events arrive before that rule's own event, and are
 * printed after its line, grouped by analysis under a "> scope" header and
 * indented with "| " per nesting level, their start offsets inside the rule's
 * time. The plan diffs (--diff) of an analysis compare its own plans. */

typedef struct Trace {
    Evs *e;
    const RemoteOpts *o;
    const char **prev_plan; /* per scope id: the last plan of that analysis */
    size_t nprev;
    size_t neff, nnested_events, nnested_eff, nscopes;
    int max_depth;
} Trace;

/* Attaches each nested event to the rule application it ran inside: the
 * next event one level up. Returns the top-level events; *orphans gets the
 * nested events no such application closed (the analysis stopped inside). */
static size_t *build_tree(Evs *e, size_t *ntop, size_t **orphans, size_t *norphans) {
    int maxd = 0;
    for (size_t i = 0; i < e->n; i++)
        if (e->v[i].depth > maxd) maxd = e->v[i].depth;
    size_t **pend = calloc((size_t)maxd + 2, sizeof *pend), *plen = calloc((size_t)maxd + 2, sizeof *plen);
    size_t *orph = malloc((e->n + 1) * sizeof *orph), no = 0;
    if (!pend || !plen || !orph) abort();
    for (int d = 0; d <= maxd + 1; d++) {
        pend[d] = malloc((e->n + 1) * sizeof **pend);
        if (!pend[d]) abort();
    }
    for (size_t i = 0; i < e->n; i++) {
        int d = e->v[i].depth;
        for (int k = d + 2; k <= maxd + 1; k++) { /* deeper than one level below: never closed */
            for (size_t j = 0; j < plen[k]; j++) orph[no++] = pend[k][j];
            plen[k] = 0;
        }
        if (plen[d + 1]) {
            e->v[i].kids = malloc(plen[d + 1] * sizeof(size_t));
            if (!e->v[i].kids) abort();
            memcpy(e->v[i].kids, pend[d + 1], plen[d + 1] * sizeof(size_t));
            e->v[i].nkids = plen[d + 1];
            plen[d + 1] = 0;
        }
        pend[d][plen[d]++] = i;
    }
    for (int k = 1; k <= maxd + 1; k++)
        for (size_t j = 0; j < plen[k]; j++) orph[no++] = pend[k][j];
    size_t *top = pend[0];
    *ntop = plen[0];
    for (int d = 1; d <= maxd + 1; d++) free(pend[d]);
    free(pend);
    free(plen);
    *orphans = orph;
    *norphans = no;
    return top;
}

static void print_prefix(int depth) {
    if (depth <= 0) return;
    printf("    ");
    for (int i = 0; i < depth; i++) printf("| ");
}

static void print_fold(int depth, size_t count, double us) {
    if (!count) return;
    print_prefix(depth);
    printf("  %10s %9.1f  (%zu rule application%s without effect)\n", "", us, count, count == 1 ? "" : "s");
}

static const char *scope_leaf(const char *scope) {
    const char *slash = strrchr(scope, '/');
    return slash ? slash + 1 : scope;
}

static const char **prev_slot(Trace *tr, uint32_t scope_id) {
    if (scope_id >= tr->nprev) {
        size_t n = tr->nprev ? tr->nprev : 16;
        while (n <= scope_id) n *= 2;
        tr->prev_plan = realloc(tr->prev_plan, n * sizeof *tr->prev_plan);
        if (!tr->prev_plan) abort();
        memset(tr->prev_plan + tr->nprev, 0, (n - tr->nprev) * sizeof *tr->prev_plan);
        tr->nprev = n;
    }
    return &tr->prev_plan[scope_id];
}

static void print_events(Trace *tr, const size_t *idx, size_t n, double t0, int depth);

/* The nested events that ran inside one rule application, an analysis at a time. */
static void print_nested(Trace *tr, const size_t *idx, size_t n, double t0, int depth) {
    double t = t0;
    for (size_t i = 0; i < n;) {
        uint32_t sid = tr->e->v[idx[i]].scope_id;
        size_t j = i, neff = 0;
        double us = 0;
        while (j < n && tr->e->v[idx[j]].scope_id == sid) {
            neff += tr->e->v[idx[j]].effective;
            us += (double)tr->e->v[idx[j]].nanos / 1000.0;
            j++;
        }
        tr->nscopes++;
        print_prefix(depth);
        printf("> %s: %zu rule application%s, %zu effective, %.1f us\n", scope_leaf(tr->e->v[idx[i]].scope), j - i,
               j - i == 1 ? "" : "s", neff, us);
        print_events(tr, idx + i, j - i, t, depth);
        t += us;
        i = j;
    }
}

/* One analysis level's events: a line per effective rule (or every rule with
 * --all), runs without effect folded, each followed by what ran inside it. */
static void print_events(Trace *tr, const size_t *idx, size_t n, double t0, int depth) {
    double t = t0, fold_us = 0;
    size_t fold = 0;
    if (depth > tr->max_depth) tr->max_depth = depth;
    for (size_t k = 0; k < n; k++) {
        const Ev *v = &tr->e->v[idx[k]];
        double us = (double)v->nanos / 1000.0;
        if (depth) {
            tr->nnested_events++;
            tr->nnested_eff += v->effective;
        }
        if (!v->effective && !tr->o->all && !v->nkids) {
            fold++;
            fold_us += us;
            t += us;
            continue;
        }
        print_fold(depth, fold, fold_us);
        fold = 0;
        fold_us = 0;
        print_prefix(depth);
        printf("%10.1f %9.1f  %-16s %4d  %-40s %s\n", t, us, v->batch, v->iteration, v->rule,
               v->effective ? (v->kinds ? v->kinds : "(plan changed)") : "-");
        if (v->effective) {
            tr->neff++;
            const char **prev = prev_slot(tr, v->scope_id);
            if (v->before) *prev = v->before; /* the plan this analysis started from */
            if (tr->o->diff && v->plan) {
                char pfx[256] = "";
                if (depth) {
                    int o = snprintf(pfx, sizeof pfx, "    ");
                    for (int i = 0; i < depth && o < (int)sizeof pfx - 3; i++) o += snprintf(pfx + o, sizeof pfx - (size_t)o, "| ");
                }
                print_diff(pfx, *prev ? *prev : "", v->plan);
            }
            if (v->plan) *prev = v->plan;
        }
        if (v->nkids) print_nested(tr, v->kids, v->nkids, t, depth + 1);
        t += us;
    }
    print_fold(depth, fold, fold_us);
}

static void print_timeline(Evs *e, const RemoteOpts *o, const char *parsed_plan) {
    printf("%10s %9s  %-16s %4s  %-40s %s\n", "start_us", "dur_us", "batch", "iter", "rule", "changed");
    size_t ntop, norph, *orph;
    size_t *top = build_tree(e, &ntop, &orph, &norph);
    Trace tr = {.e = e, .o = o};
    *prev_slot(&tr, 0) = parsed_plan;
    print_events(&tr, top, ntop, 0, 0);
    double total = 0;
    for (size_t i = 0; i < ntop; i++) total += (double)e->v[top[i]].nanos / 1000.0;
    if (norph) {
        printf("(nested analyses the analysis stopped in)\n");
        print_nested(&tr, orph, norph, total, 1);
    }
    /* the time in rules counts each application once: nested ones run inside their rule */
    printf("%zu rule applications, %zu effective, %.1f us in rules\n", e->n, tr.neff, total);
    if (tr.nscopes)
        printf("nested analyses: %zu (depth <= %d), %zu rule applications, %zu effective\n", tr.nscopes, tr.max_depth,
               tr.nnested_events, tr.nnested_eff);
    free(top);
    free(orph);
    free(tr.prev_plan);
}

static void free_evs(Evs *e) {
    for (size_t i = 0; i < e->n; i++) {
        free(e->v[i].batch);
        free(e->v[i].rule);
        free(e->v[i].kinds);
        free(e->v[i].plan);
        free(e->v[i].before);
        free(e->v[i].scope);
        free(e->v[i].kids);
    }
    free(e->v);
}

/* The parsed plan, the "before" of the first effective rule's diff. */
static char *parsed_plan(const char *sql, size_t len) {
    Arena *a = arena_new(0);
    ErrorInfo *err = NULL;
    ParserOptions po = {0};
    Node *plan = parse_statement(a, sql, len, &po, &err);
    char *s = plan ? strdup(plan_tree_string(a, plan)) : NULL;
    arena_free(a);
    return s;
}

static void print_header(const RemoteOpts *o, size_t index, const Statement *q) {
    int n = 0;
    while ((size_t)n < q->len && n < 100 && q->sql[n] != '\n') n++;
    printf("trace of %s statement %zu: %.*s%s\n", o->file, index, n, q->sql, (size_t)n < q->len ? " ..." : "");
}

static void print_outcome(bool ok, const char *schema, const char *cls, const char *msg) {
    const char *sch = schema && *schema ? schema : "struct<>";
    if (ok) printf("result: ok %.200s%s\n", sch, strlen(sch) > 200 ? " ..." : "");
    else printf("result: error %s: %s\n", cls ? cls : "", msg ? msg : "");
}

static int trace_local(const RemoteOpts *o, const StatementList *l) {
    CzSession *s = cli_session_new(!o->bare);
    for (int i = 0; i < o->nconfs; i++) {
        char key[512];
        const char *eq = strchr(o->confs[i], '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - o->confs[i]), o->confs[i]);
        if (!cz_session_set_conf(s, key, eq + 1)) {
            fprintf(stderr, "catalyzer: invalid value for %s: %s\n", key, eq + 1);
            cz_session_free(s);
            return 2;
        }
    }
    for (size_t i = 0; i + 1 < l->n; i++) cz_result_free(cz_run_sql(s, l->v[i].sql, l->v[i].len, NULL));
    const Statement *q = &l->v[l->n - 1];
    Evs e = {0};
    CzRunOptions ro = {.trace = local_event, .trace_ctx = &e, .trace_level = CZ_TRACE_ALL, .trace_plans = o->diff};
    CzResult *r = cz_run_sql(s, q->sql, q->len, &ro);
    char *pp = o->diff ? parsed_plan(q->sql, q->len) : NULL;
    print_header(o, l->n - 1, q);
    print_timeline(&e, o, pp);
    const CzError *err = cz_result_error(r);
    print_outcome(cz_result_status(r) == CZ_OK, cz_result_schema(r), err ? err->error_class : NULL,
                  err ? err->message : NULL);
    free(pp);
    free_evs(&e);
    cz_result_free(r);
    cz_session_free(s);
    return 0;
}

static int trace_remote(const RemoteOpts *o, const StatementList *l) {
    Remote r;
    if (remote_open(&r, o) != 0) return 2;
    for (size_t i = 0; i + 1 < l->n; i++) {
        Catalyzer__V1__AnalyzeResponse *resp = NULL;
        if (remote_analyze(&r, l->v[i].sql, l->v[i].len, false, 0, false, NULL, NULL, &resp) == CZC_OK)
            catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
    }
    const Statement *q = &l->v[l->n - 1];
    Evs e = {0};
    Catalyzer__V1__AnalyzeResponse *resp = NULL;
    int st = remote_analyze(&r, q->sql, q->len, false, CATALYZER__V1__TRACE_LEVEL__TRACE_LEVEL_ALL, o->diff,
                            remote_event, &e, &resp);
    int rc = 0;
    if (st == CZC_OK) {
        char *pp = o->diff ? parsed_plan(q->sql, q->len) : NULL;
        print_header(o, l->n - 1, q);
        print_timeline(&e, o, pp);
        const Catalyzer__V1__AnalyzeResult *res = resp->result;
        print_outcome(res->ok, res->schema, res->error ? res->error->error_class : NULL,
                      res->error ? res->error->message : NULL);
        free(pp);
        catalyzer__v1__analyze_response__free_unpacked(resp, NULL);
    } else {
        rc = 1;
    }
    free_evs(&e);
    remote_close(&r);
    return rc;
}

int cmd_trace(int argc, char **argv) {
    RemoteOpts o;
    static const char USAGE[] = "trace [--daemon HOST:PORT] [--conf key=value]... [--bare] [--all] [--diff] FILE|-|-e SQL";
    int prc = remote_parse_opts(argc, argv, &o, USAGE);
    if (prc == 1) return 0;
    if (prc != 0 || o.trace || !o.file) {
        fprintf(stderr, "usage: catalyzer %s\n", USAGE);
        return 2;
    }
    StatementList l;
    if (statements_read(o.file, &l) != 0) return 2;
    if (l.n == 0) {
        fprintf(stderr, "catalyzer trace: %s has no statement\n", o.file);
        statements_free(&l);
        return 2;
    }
    int rc = o.daemon ? trace_remote(&o, &l) : trace_local(&o, &l);
    statements_free(&l);
    return rc;
}
