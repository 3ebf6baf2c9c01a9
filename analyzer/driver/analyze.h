/* The analysis driver: a query through the rule batches and CheckAnalysis,
 * and nested analyses (views, subqueries) under the depth limit. Lower
 * layers reach these through Analysis.driver (core/analysis.h). */
#ifndef CZ_DRIVER_ANALYZE_H
#define CZ_DRIVER_ANALYZE_H

#include "core/analysis.h"

/* Resolves a query plan completely (batches, then checks). NULL on error. */
Node *analyze_query(Analysis *an, Node *plan);

/* Analyses a plan nested in the current one (a view body, a subquery) to a
 * fixed point with the given outer scope; NULL on error. Depth-limited.
 * While tracing, its events carry its own scope (kind, name: see
 * CzTraceEvent.scope). */
Node *analyze_nested(Analysis *an, Node *plan, struct OuterScope *outer, const char *kind, const char *name);

/* The table of the two above, for Analysis.driver. */
extern const AnalysisDriver ANALYSIS_DRIVER;

#endif
