/* HybridAnalyzer (Spark 4's analysis/resolver/HybridAnalyzer): which
 * analyzer resolves a query, and the dual run that checks one against the
 * other.
 *
 *   catalyzer.analyzer.singlePass=true   the single pass where its guard
 *       covers the plan; the fixed-point batches, on the original plan, for
 *       the rest and wherever the single pass fails (so errors are always the
 *       batches' errors)
 *   catalyzer.analyzer.dualRun=true      both on every query: the single pass
 *       first, then the batches from the same start (same expression-id and
 *       CTE-id counters, so the answer is the batches' answer, as without the
 *       dual run); their plans (ids renamed), schemas and errors compared; a
 *       plan where they differ is a mismatch (HybridState)
 *   catalyzer.analyzer.ruleTrace=true    a traced request takes the batches
 *       (Spark's rule-by-rule trace) even with singlePass on
 *   neither: the batches, as before. */
#ifndef CZ_HYBRID_ANALYZER_H
#define CZ_HYBRID_ANALYZER_H

#include <stdint.h>

#include "resolver.h"

/* What happened to the queries of one statement (CzResult keeps it). */
typedef struct HybridState {
    bool single_active;        /* a single pass runs: nested analyses run it too */
    bool fixed_active;         /* the batches run for a query: nested analyses too */
    uint32_t covered;          /* queries the single pass answered as the batches do */
    uint32_t declined;         /* queries it left to the batches (guard, failure, another error) */
    uint32_t mismatched;       /* dual run: queries where the two answers differ */
    const char *decline_reason; /* the first */
    const char *mismatch;       /* the first */
} HybridState;

typedef struct HybridHooks {
    ResolverHooks resolver;
    /* The fixed-point batches over a plan (the executor). */
    Node *(*fixed_point)(Analysis *an, Node *plan);
} HybridHooks;

/* A whole query resolved and checked (CheckAnalysis) by the analyzer the
 * configuration chooses; NULL on error. Adds its phase times to an->phases. */
Node *hybrid_analyze_query(Analysis *an, Node *plan, const HybridHooks *h);

/* A nested analysis' resolution (a view body, a subquery): the analyzer of
 * the query it is nested in. NULL on error. */
Node *hybrid_resolve_nested(Analysis *an, Node *plan, const HybridHooks *h);

#endif
