/* Every rule of the analyzer, one file each (the helpers they share are in
 * rules/lib/, one header each; the batches that run them: driver/batches.c). */
#ifndef CZ_RULES_H
#define CZ_RULES_H

#include "rule.h"

extern const Rule RULE_CTE_SUBSTITUTION;
extern const Rule RULE_WINDOWS_SUBSTITUTION;
extern const Rule RULE_SUBSTITUTE_ORDINALS;
extern const Rule RULE_RESOLVE_IDENTIFIER_CLAUSE;
extern const Rule RULE_RESOLVE_RELATIONS;
extern const Rule RULE_ADD_METADATA_COLUMNS;
extern const Rule RULE_RESOLVE_DATAFRAME_OPS;
extern const Rule RULE_RESOLVE_HINTS;
extern const Rule RULE_RESOLVE_UNION;
extern const Rule RULE_RESOLVE_NESTED_QUERIES;
extern const Rule RULE_RESOLVE_CTE_REFS;
extern const Rule RULE_RESOLVE_TVF;
extern const Rule RULE_RESOLVE_INLINE_TABLES;
extern const Rule RULE_RESOLVE_SUBQUERY_COLUMN_ALIASES;
extern const Rule RULE_RESOLVE_REFERENCES;
extern const Rule RULE_RESOLVE_USING_JOIN;
extern const Rule RULE_RESOLVE_FUNCTIONS;
/* p with the operator calls in its expressions typed once their arguments are (ResolveFunctions' typing) */
Node *resolve_operator_calls(Analysis *an, Node *p);
extern const Rule RULE_RESOLVE_ALIASES;
/* p with its user aliases (expr AS name) typed once their child is (ResolveAliases' typing) */
Node *resolve_user_aliases(Analysis *an, Node *p);
extern const Rule RULE_RESOLVE_SUBQUERY;
extern const Rule RULE_RESOLVE_ORDINALS;
extern const Rule RULE_RESOLVE_GROUP_BY_ALL;
extern const Rule RULE_RESOLVE_ORDER_BY_ALL;
extern const Rule RULE_RESOLVE_SQL_FUNCTIONS;
extern const Rule RULE_RESOLVE_PIVOT;
extern const Rule RULE_RESOLVE_UNPIVOT;
extern const Rule RULE_VALIDATE_PIPE_EXPRESSIONS;
extern const Rule RULE_SCRIPT_TRANSFORMATION_OUTPUT;
extern const Rule RULE_RESOLVE_MISSING_REFERENCES;
extern const Rule RULE_RESOLVE_AGGREGATE_FUNCTIONS;
extern const Rule RULE_GLOBAL_AGGREGATES;
extern const Rule RULE_RESOLVE_GROUPING_ANALYTICS;
extern const Rule RULE_EXTRACT_WINDOW_EXPRESSIONS;
extern const Rule RULE_RESOLVE_WINDOW_ORDER;
extern const Rule RULE_RESOLVE_WINDOW_FRAME;
extern const Rule RULE_TIME_WINDOWING;
extern const Rule RULE_RESOLVE_GENERATE;
extern const Rule RULE_WIDEN_SET_OPERATION_TYPES;
extern const Rule RULE_RESOLVE_LATERAL_COLUMN_ALIAS;
extern const Rule RULE_UPDATE_OUTER_REFERENCES;
extern const Rule RULE_RESOLVE_ALIAS_IN_SUBQUERY;
extern const Rule RULE_DECORRELATE_LATERAL_JOIN;
extern const Rule RULE_CLEANUP_ALIASES;

/* Spark's Finish Analysis as its Connect plan tests apply it
 * (catalyzer.explain.finishAnalysis; finish_analysis.c): ReplaceExpressions
 * and RewriteWithExpression on an analysed plan, and the tests'
 * expression-id normalisation for printing. */
Node *finish_analysis(Analysis *an, Node *plan);
Node *normalize_expr_ids(Analysis *an, Node *plan);

#endif
