/* HybridAnalyzer: the single pass, the fixed-point batches, or both
 * (hybrid_analyzer.h says when). */
#include "hybrid_analyzer.h"

#include <string.h>
#include <time.h>

#include "catalyzer.h"
#include "plan_compare.h"
#include "catalog/conf.h"
#include "check/check.h"
#include "core/output.h"
#include "print/printer.h"
#include "rules/lib/cte_registry.h"

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What a single pass may change in the Analysis, to start the batches
 * from where it started. */
typedef struct Snapshot {
    ExprId next_id;
    int64_t next_cte_id;
    struct CteRegistry *ctes;
    uint32_t nctes;
    int depth;
    struct OuterScope *outer;
    const char *view_ns;
    const char *sql;
    size_t sql_len;
    ErrorInfo *error;
} Snapshot;

static Snapshot take(const Analysis *an) {
    return (Snapshot){an->next_id, an->next_cte_id, an->ctes, cte_registry_size(an), an->depth, an->outer,
                      an->view_ns, an->sql, an->sql_len, an->error};
}

static void restore(Analysis *an, const Snapshot *s) {
    an->next_id = s->next_id;
    an->next_cte_id = s->next_cte_id;
    if (an->ctes != s->ctes) an->ctes = s->ctes;
    cte_registry_truncate(an, s->nctes);
    an->depth = s->depth;
    an->outer = s->outer;
    an->view_ns = s->view_ns;
    an->sql = s->sql;
    an->sql_len = s->sql_len;
    an->error = s->error;
}

static bool is_decline(const ErrorInfo *e) {
    return e && e->error_class && strcmp(e->error_class, "CATALYZER_SINGLE_PASS_DECLINED") == 0;
}

static const char *decline_reason(Analysis *an, const ErrorInfo *e) {
    if (!e) return "CheckAnalysis";
    if (is_decline(e)) return e->nparams ? e->values[0] : "declined";
    return arena_printf(an->arena, "error %s", e->error_class);
}

static bool same_error(const ErrorInfo *a, const ErrorInfo *b) {
    if (!a || !b || strcmp(a->error_class, b->error_class) != 0 || a->nparams != b->nparams) return false;
    if (a->start != b->start || a->stop != b->stop) return false;
    for (int i = 0; i < a->nparams; i++)
        if (strcmp(a->names[i], b->names[i]) != 0 || strcmp(a->values[i], b->values[i]) != 0) return false;
    return true;
}

/* The fixed point and CheckAnalysis, timed into ph. */
static Node *fixed_and_check(Analysis *an, Node *plan, const HybridHooks *h, CzPhaseTimes *ph) {
    HybridState *hs = an->hybrid;
    bool was = hs ? hs->fixed_active : false;
    if (hs) hs->fixed_active = true;
    uint64_t t0 = ph ? now_ns() : 0;
    Node *r = h->fixed_point(an, plan);
    uint64_t t1 = ph ? now_ns() : 0;
    if (ph) ph->resolve_ns += t1 - t0;
    if (r && !check_analysis(an, r)) r = NULL;
    if (ph) ph->check_ns += now_ns() - t1;
    if (hs) hs->fixed_active = was;
    return r;
}

static Node *single_and_check(Analysis *an, Node *plan, const HybridHooks *h, CzPhaseTimes *ph) {
    HybridState *hs = an->hybrid;
    bool was = hs->single_active;
    hs->single_active = true;
    uint64_t t0 = ph ? now_ns() : 0;
    Node *r = resolver_run(an, plan, &h->resolver);
    uint64_t t1 = ph ? now_ns() : 0;
    if (ph) ph->resolve_ns += t1 - t0;
    if (r && !check_analysis(an, r)) r = NULL;
    if (ph) ph->check_ns += now_ns() - t1;
    hs->single_active = was;
    return r;
}

static void note_decline(HybridState *hs, const char *why) {
    hs->declined++;
    if (!hs->decline_reason) hs->decline_reason = why;
}

static void note_mismatch(HybridState *hs, const char *why) {
    hs->mismatched++;
    if (!hs->mismatch) hs->mismatch = why;
}

/* The two answers to one query compared: plans, schemas, errors. */
static void compare(Analysis *an, HybridState *hs, Node *sp, const ErrorInfo *sp_err, Node *fp) {
    if (sp && fp) {
        const char *why = plan_compare(an, sp, fp);
        if (!why) {
            AttrList a = plan_output(an, sp), b = plan_output(an, fp);
            const char *sa = schema_string(an->arena, a.v, a.n), *sb = schema_string(an->arena, b.v, b.n);
            if (strcmp(sa, sb) != 0) why = arena_printf(an->arena, "schemas: %s vs %s", sa, sb);
        }
        if (why) note_mismatch(hs, why);
        else hs->covered++;
        return;
    }
    if (sp && !fp) {
        note_mismatch(hs, arena_printf(an->arena, "the single pass answered, the batches failed: %s",
                                       an->error ? an->error->error_class : "?"));
        return;
    }
    if (!sp && fp) {
        note_decline(hs, decline_reason(an, sp_err));
        return;
    }
    /* both failed: the same error is the single pass covering it */
    if (!is_decline(sp_err) && same_error(sp_err, an->error)) hs->covered++;
    else note_decline(hs, decline_reason(an, sp_err));
}

Node *hybrid_analyze_query(Analysis *an, Node *plan, const HybridHooks *h) {
    CzPhaseTimes *ph = an->phases;
    an->phases = NULL; /* what runs inside (a view's query) counts in this query's phases */
    HybridState *hs = an->hybrid;
    const struct Conf *cf = an->conf;
    bool want = cf->single_pass || cf->dual_run;
    if (want && cf->rule_trace && h->resolver.tracing && h->resolver.tracing(an)) want = false;
    Node *r;
    if (!hs || !want || hs->fixed_active) {
        r = fixed_and_check(an, plan, h, ph);
    } else if (hs->single_active) {
        /* a query inside a single pass (a command's) is part of it */
        r = single_and_check(an, plan, h, ph);
    } else if (!cf->dual_run) {
        Snapshot s = take(an);
        r = single_and_check(an, plan, h, ph);
        if (r) hs->covered++;
        else {
            note_decline(hs, decline_reason(an, an->error));
            restore(an, &s);
            r = fixed_and_check(an, plan, h, ph);
        }
    } else {
        Snapshot s = take(an);
        /* the answer and the trace are the batches': the single pass runs untraced */
        struct Tracer *tracer = an->tracer;
        an->tracer = NULL;
        Node *sp = single_and_check(an, plan, h, NULL);
        ErrorInfo *sp_err = an->error;
        an->tracer = tracer;
        restore(an, &s);
        r = fixed_and_check(an, plan, h, ph);
        compare(an, hs, sp, sp_err, r);
    }
    an->phases = ph;
    return r;
}

Node *hybrid_resolve_nested(Analysis *an, Node *plan, const HybridHooks *h) {
    if (an->hybrid && an->hybrid->single_active) return resolver_run(an, plan, &h->resolver);
    return h->fixed_point(an, plan);
}
