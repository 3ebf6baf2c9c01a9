#include "executor.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "catalog/conf.h"
#include "print/printer.h"
#include "rules/rule.h"

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Kinds of the nodes that differ between before and after, top-down until
 * the first changed node on each path ("which node kinds it changed"). */
static void changed_kinds(const Node *before, const Node *after, StrBuf *sb, KindMask *seen) {
    if (before == after) return;
    if (!before || !after || before->kind != after->kind || before->nkids != after->nkids ||
        before->nexprs != after->nexprs) {
        if (after && !kind_mask_has(*seen, after->kind)) {
            *seen = kind_mask_or(*seen, kind_mask_of(after->kind));
            if (sb->len) sb_putc(sb, ',');
            sb_puts(sb, node_kind_name(after->kind));
        }
        return;
    }
    bool kids_differ = false;
    for (uint32_t i = 0; i < after->nkids; i++) {
        if (before->kids[i] != after->kids[i]) {
            kids_differ = true;
            changed_kinds(before->kids[i], after->kids[i], sb, seen);
        }
    }
    bool own = !kids_differ;
    for (uint32_t i = 0; i < after->nexprs; i++)
        if (before->exprs[i] != after->exprs[i]) own = true;
    if (own && !kind_mask_has(*seen, after->kind)) {
        *seen = kind_mask_or(*seen, kind_mask_of(after->kind));
        if (sb->len) sb_putc(sb, ',');
        sb_puts(sb, node_kind_name(after->kind));
    }
}

static int rule_index(const Batch *const *batches, int nb, int b, int r) {
    int idx = 0;
    for (int i = 0; i < b && i < nb; i++) idx += batches[i]->nrules;
    return idx + r;
}

static bool out_of_time(Analysis *an) {
    if (an->cancel && *an->cancel) {
        an_fail(an, error_make(an->arena, "CATALYZER_CANCELLED", NULL, NULL));
        return true;
    }
    if (an->deadline_ns && now_ns() > an->deadline_ns) {
        an_fail(an, error_make(an->arena, "CATALYZER_DEADLINE_EXCEEDED", NULL, NULL));
        return true;
    }
    return false;
}

Node *executor_run(Analysis *an, Node *plan) {
    const Batch *const *batches;
    int nb = analyzer_batches(&batches);
    Tracer *t = an->tracer;
    bool sent_start = false; /* the first effective event carries the plan this run started from */
    if (t && !t->totals) {
        int total = 0;
        for (int b = 0; b < nb; b++) total += batches[b]->nrules;
        t->ntotals = total;
        t->totals = ARENA_ARRAY(an->arena, CzRuleTotal, total);
        for (int b = 0; b < nb; b++)
            for (int r = 0; r < batches[b]->nrules; r++) {
                CzRuleTotal *rt = &t->totals[rule_index(batches, nb, b, r)];
                rt->batch = batches[b]->name;
                rt->rule = batches[b]->rules[r]->name;
            }
    }
    for (int b = 0; b < nb; b++) {
        const Batch *batch = batches[b];
        KindMask masks[64];
        for (int r = 0; r < batch->nrules && r < 64; r++)
            masks[r] = batch->rules[r]->nkinds ? kind_mask_list(batch->rules[r]->nkinds, batch->rules[r]->kinds)
                                               : KIND_MASK_ALL;
        int max_iter = batch->once ? 1 : an->conf->max_iterations;
        int iter = 0;
        for (;;) {
            iter++;
            Node *start = plan;
            for (int r = 0; r < batch->nrules; r++) {
                const Rule *rule = batch->rules[r];
                if (r < 64 && !kind_mask_any(plan->mask, masks[r])) continue;
                uint64_t t0 = (t && (t->fn || t->timing)) ? now_ns() : 0;
                Node *before = plan;
                Node *after = rule->apply(an, plan);
                if (an_failed(an)) return NULL;
                if (!after) return an_fail(an, error_make(an->arena, "INTERNAL_ERROR", NULL, "message",
                                                          arena_printf(an->arena, "rule %s returned no plan", rule->name), NULL));
                plan = after;
                if (t) {
                    uint64_t dt = t0 ? now_ns() - t0 : 0;
                    CzRuleTotal *rt = &t->totals[rule_index(batches, nb, b, r)];
                    rt->runs++;
                    rt->nanos += dt;
                    bool effective = after != before;
                    if (effective) rt->effective++;
                    if (t->fn && (t->level == CZ_TRACE_ALL || (t->level == CZ_TRACE_EFFECTIVE && effective))) {
                        CzTraceEvent ev = {.batch = batch->name, .rule = rule->name, .iteration = iter,
                                           .effective = effective, .nanos = dt, .depth = t->scope.depth,
                                           .scope = t->scope.path ? t->scope.path : "", .scope_id = t->scope.id,
                                           .parent_scope_id = t->scope.parent_id};
                        if (effective) {
                            StrBuf sb;
                            sb_init(&sb, an->arena, 64);
                            KindMask seen = {{0, 0}};
                            changed_kinds(before, after, &sb, &seen);
                            ev.changed_kinds = sb_str(&sb);
                            if (t->plans) ev.plan = plan_tree_string(an->arena, after);
                            /* the start of this analysis' diffs */
                            if (t->plans && !sent_start) ev.plan_before = plan_tree_string(an->arena, before);
                            sent_start = true;
                        }
                        t->fn(t->ctx, &ev);
                    }
                }
            }
            if (plan == start || iter >= max_iter) {
                if (plan != start && !batch->once) {
                    return an_fail(an, error_make(an->arena, "CATALYZER_ANALYSIS_DID_NOT_CONVERGE", NULL, "batch",
                                                  batch->name, "maxIterations",
                                                  arena_printf(an->arena, "%d", max_iter), NULL));
                }
                break;
            }
            if (out_of_time(an)) return NULL;
        }
    }
    return plan;
}
