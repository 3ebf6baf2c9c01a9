/* The single-pass resolver (Spark 4's analysis/resolver/Resolver): a plan
 * resolved in one bottom-up traversal, each operator once, after its
 * children, instead of the Resolution batch run over the whole plan to a
 * fixed point. The hybrid analyzer (hybrid_analyzer.h) decides when it runs
 * and checks it against the fixed-point batches.
 *
 * An operator is resolved by its resolver (resolver.c says which exist):
 * the operator's own step with the children finished and sealed, so no
 * rule looks below it again. The once-batches before and after Resolution
 * (Substitution, Hints; Cleanup, Decorrelate) run whole, as the executor
 * runs them. */
#ifndef CZ_RESOLVER_H
#define CZ_RESOLVER_H

#include <stdint.h>

#include "core/analysis.h"
#include "core/ir.h"
#include "rules/rule.h"

/* What the driver hands the resolver: the batches (so the resolver runs the
 * same rules the executor would, where it delegates), and the trace. */
typedef struct ResolverBatch {
    const char *name;
    bool once;                 /* false: the Resolution batch, which the traversal replaces */
    uint32_t nrules;
    const Rule *const *rules;
} ResolverBatch;

typedef struct ResolverHooks {
    uint32_t nbatches;
    const ResolverBatch *batches;
    /* Whether trace events are wanted (cheap); and one event, as the
     * executor reports a rule application: batch "SinglePass", rule = the
     * resolver that handled the operator, changed_kinds = the operator's
     * kind. */
    bool (*tracing)(const Analysis *an);
    void (*trace)(Analysis *an, const char *batch, const char *rule, int iteration, bool effective, uint64_t nanos,
                  const char *changed_kinds, const Node *before, const Node *after);
} ResolverHooks;

/* Resolves plan (a query or a nested query) in one traversal. NULL when it
 * failed or declined: an->error holds why (CATALYZER_SINGLE_PASS_DECLINED
 * when the resolver met something it does not cover, in this plan or a
 * nested one). The caller (the hybrid analyzer) then runs the fixed-point
 * batches on the original plan. */
Node *resolver_run(Analysis *an, Node *plan, const ResolverHooks *h);

/* Records the decline (CATALYZER_SINGLE_PASS_DECLINED, "reason") and returns NULL. */
Node *resolver_decline(Analysis *an, const Node *at, const char *reason);

#endif
