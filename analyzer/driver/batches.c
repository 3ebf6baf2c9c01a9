/* The analyzer on one screen: its batches and their rules, in order — as
 * Spark's Analyzer.batches. */
#include "executor.h"
#include "rules/rule.h"
#include "rules/rules.h"

static const Rule *const SUBSTITUTION[] = {
    &RULE_CTE_SUBSTITUTION,
    &RULE_WINDOWS_SUBSTITUTION,
};

static const Rule *const HINTS[] = {
    &RULE_RESOLVE_HINTS,
};

static const Rule *const RESOLUTION[] = {
    &RULE_RESOLVE_IDENTIFIER_CLAUSE,
    &RULE_RESOLVE_NESTED_QUERIES,
    &RULE_RESOLVE_RELATIONS,
    &RULE_ADD_METADATA_COLUMNS,
    &RULE_RESOLVE_CTE_REFS,
    &RULE_RESOLVE_TVF,
    &RULE_RESOLVE_INLINE_TABLES,
    &RULE_RESOLVE_SUBQUERY_COLUMN_ALIASES,
    &RULE_RESOLVE_REFERENCES,
    &RULE_RESOLVE_LATERAL_COLUMN_ALIAS, /* right after ResolveReferences, as in Spark */
    &RULE_RESOLVE_USING_JOIN,
    &RULE_RESOLVE_GROUP_BY_ALL,
    &RULE_RESOLVE_ORDINALS,
    &RULE_RESOLVE_MISSING_REFERENCES,
    &RULE_RESOLVE_GENERATE,
    &RULE_RESOLVE_FUNCTIONS,
    &RULE_RESOLVE_DATAFRAME_OPS,
    &RULE_RESOLVE_SUBQUERY,
    &RULE_RESOLVE_ALIAS_IN_SUBQUERY,
    &RULE_RESOLVE_WINDOW_ORDER,
    &RULE_RESOLVE_WINDOW_FRAME,
    &RULE_TIME_WINDOWING,
    &RULE_RESOLVE_AGGREGATE_FUNCTIONS,
    &RULE_RESOLVE_ORDER_BY_ALL, /* after every other way of resolving the name ALL */
    &RULE_UPDATE_OUTER_REFERENCES,
    &RULE_RESOLVE_ALIASES,
    &RULE_VALIDATE_PIPE_EXPRESSIONS, /* before GlobalAggregates turns a SELECT into an aggregation */
    &RULE_GLOBAL_AGGREGATES,
    &RULE_RESOLVE_GROUPING_ANALYTICS,
    &RULE_SCRIPT_TRANSFORMATION_OUTPUT,
    &RULE_RESOLVE_PIVOT,
    &RULE_RESOLVE_UNPIVOT,
    &RULE_EXTRACT_WINDOW_EXPRESSIONS,
    &RULE_RESOLVE_UNION,
    &RULE_WIDEN_SET_OPERATION_TYPES,
    &RULE_RESOLVE_SQL_FUNCTIONS, /* last, as in Spark: on operators the rules above finished */
};

static const Rule *const CLEANUP[] = {
    &RULE_CLEANUP_ALIASES,
};

static const Batch BATCH_SUBSTITUTION = {"Substitution", true, 2, SUBSTITUTION};
static const Batch BATCH_HINTS = {"Hints", true, 1, HINTS};
static const Batch BATCH_RESOLUTION = {"Resolution", false, sizeof RESOLUTION / sizeof RESOLUTION[0], RESOLUTION};
static const Batch BATCH_CLEANUP = {"Cleanup", true, 1, CLEANUP};
/* opt-in (catalyzer.decorrelate): LATERAL joins rewritten into joins */
static const Rule *const DECORRELATE[] = {&RULE_DECORRELATE_LATERAL_JOIN};
static const Batch BATCH_DECORRELATE = {"Decorrelate", true, 1, DECORRELATE};

static const Batch *const BATCHES[] = {&BATCH_SUBSTITUTION, &BATCH_HINTS, &BATCH_RESOLUTION, &BATCH_CLEANUP, &BATCH_DECORRELATE};

int analyzer_batches(const Batch *const **batches) {
    *batches = BATCHES;
    return sizeof BATCHES / sizeof BATCHES[0];
}
