/* Attributes: making them, turning named expressions into them, and the
 * output attributes of every plan kind (Spark's LogicalPlan.output). */
#ifndef CZ_OUTPUT_H
#define CZ_OUTPUT_H

#include "analysis.h"
#include "ir.h"

typedef struct AttrList {
    uint32_t n;
    Node **v;
} AttrList;

/* A new AttributeReference (fresh id when id == 0). */
Node *attr_new(Analysis *an, const char *name, const DataType *type, bool nullable, ExprId id, NameParts qualifier,
               int32_t start, int32_t stop);
/* Same attribute with another qualifier / nullability (id kept). */
Node *attr_with_qualifier(Analysis *an, Node *attr, NameParts qualifier);
Node *attr_with_nullable(Analysis *an, Node *attr, bool nullable);

/* The attribute a resolved named expression (Alias, AttributeReference,
 * ...) produces. NULL if e is not named. */
Node *to_attribute(Analysis *an, Node *e);
/* The name of a named expression, or NULL. */
const char *named_expr_name(const Node *e);
ExprId named_expr_id(const Node *e);
static inline bool expr_nullable(const Node *e) { return (e->flags & NF_NULLABLE) != 0; }

/* The output of a resolved plan (cached on the node). For unresolved plans
 * the result is meaningless; call only once node_resolved(plan) or for nodes
 * whose children are resolved where noted by the caller. */
AttrList plan_output(Analysis *an, const Node *plan);

/* Whether plan is resolved in Spark's sense: its children and expressions
 * are, and it contains nothing that a later rule still has to pull out
 * (aggregates in a Project, windows in an Aggregate, ...). */
bool plan_is_resolved(const Node *plan);

/* Whether expression e contains a node of the given kinds, not looking
 * inside subquery plans. */
bool expr_has_kind(const Node *e, KindMask kinds);

#endif
