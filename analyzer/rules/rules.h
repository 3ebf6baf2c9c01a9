/* Every rule of the analyzer (one file each) and the helpers they share. */
#ifndef CZ_RULES_H
#define CZ_RULES_H

#include "analysis.h"
#include "executor.h"
#include "output.h"
#include "scope.h"

extern const Rule RULE_CTE_SUBSTITUTION;
extern const Rule RULE_WINDOWS_SUBSTITUTION;
extern const Rule RULE_SUBSTITUTE_ORDINALS;
extern const Rule RULE_RESOLVE_IDENTIFIER_CLAUSE;
extern const Rule RULE_RESOLVE_RELATIONS;
extern const Rule RULE_RESOLVE_NESTED_QUERIES;
extern const Rule RULE_RESOLVE_CTE_REFS;
extern const Rule RULE_RESOLVE_TVF;
extern const Rule RULE_RESOLVE_INLINE_TABLES;
extern const Rule RULE_RESOLVE_SUBQUERY_COLUMN_ALIASES;
extern const Rule RULE_RESOLVE_REFERENCES;
extern const Rule RULE_RESOLVE_USING_JOIN;
extern const Rule RULE_RESOLVE_FUNCTIONS;
extern const Rule RULE_RESOLVE_ALIASES;
extern const Rule RULE_RESOLVE_SUBQUERY;
extern const Rule RULE_RESOLVE_ORDINALS;
extern const Rule RULE_RESOLVE_GROUP_BY_ALL;
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

/* ---- helpers (rule_util.c) ---- */

/* Like plan_transform_up_all (analysed subtrees included), but also rewrites
 * the plans of subquery expressions found in each node's expressions
 * (post-order). */
Node *plan_transform_up_with_subqueries(Analysis *an, Node *plan, KindMask interest, RewriteFn fn, void *ctx);

/* An Alias of e named name (fresh id). */
Node *make_alias(Analysis *an, Node *e, const char *name, bool generated);
/* A resolved Project over child. */
Node *make_project(Analysis *an, Node *child, Node *const *exprs, uint32_t n);
Node *make_subquery_alias(Analysis *an, Node *child, NameParts name);
Node *make_literal_int(Analysis *an, int64_t v, const Node *pos);
Node *make_cast(Analysis *an, Node *e, const DataType *t);

/* Children of plan all resolved (Spark's childrenResolved). */
bool children_resolved(const Node *plan);
/* The input attributes of plan's expressions: its children's output. */
AttrList plan_input(Analysis *an, const Node *plan);



/* Structural equality of resolved expressions (Spark's semanticEquals):
 * attributes by id, aliases ignored on neither side, positions ignored. */
bool expr_semantic_equal(const Node *a, const Node *b);

/* The function a call names (session UDFs, then built-ins), or NULL; and
 * Spark's error for an unknown one (resolve_functions.c). */
struct FuncDef;
const struct FuncDef *lookup_function(Analysis *an, const Node *unresolved_fn);
ErrorInfo *unresolved_routine(Analysis *an, const Node *unresolved_fn);

/* Makes a resolved CTERelationDef's output known to references (cte_refs.c). */
void cte_register(Analysis *an, const Node *def);
void cte_merge(Analysis *an, const struct CteRegistry *other);
/* Whether every attribute e references (outside subqueries and outer
 * references) is one of attrs. */
bool expr_refs_within(const Node *e, AttrList attrs);
#endif
