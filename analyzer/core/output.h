/* Attributes: making them, turning named expressions into them, and the
 * output attributes of every plan kind (Spark's LogicalPlan.output). */
#ifndef CZ_OUTPUT_H
#define CZ_OUTPUT_H

#include "analysis.h"
#include "ir.h"

typedef struct AttrList {
    uint32_t n;
    Node **v;
    struct AttrIndexSlot *index; /* where a name index of this list is cached (plan outputs); NULL: none */
    /* plan inputs: the children's metadata output (Spark's metadataOutput),
       searched by name only when the list itself has no match; NULL: none */
    const struct AttrList *hidden;
} AttrList;

/* A case-insensitive hash index from attribute name to positions, built on
 * first use for long lists so that resolving n names against n columns is
 * linear, not quadratic. */
typedef struct AttrIndex {
    uint32_t mask;    /* buckets - 1 */
    int32_t *head;    /* per bucket: first position, -1 none */
    int32_t *next;    /* per position: next position in the chain */
} AttrIndex;

/* Built on a list's second search (of 16 or more attributes): plan outputs
 * are many and most are searched once, but a scan of a long list costs about
 * what building its index does (the names' hashes are cached on them). */
typedef struct AttrIndexSlot {
    AttrIndex *ix;
    uint32_t lookups;
} AttrIndexSlot;

uint32_t attr_name_hash(const char *name);
/* The index of l (built and cached if l has a cache slot and is long enough); NULL otherwise. */
const AttrIndex *attr_index(Analysis *an, AttrList l);

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

/* Spark's LogicalPlan.metadataOutput: the hidden columns a plan makes
 * reachable by qualified name without outputting them (the other side's keys
 * of a USING/NATURAL join). Cached on the node. */
AttrList plan_metadata_output(Analysis *an, const Node *plan);

/* Whether plan is resolved in Spark's sense: its children and expressions
 * are, and it contains nothing that a later rule still has to pull out
 * (aggregates in a Project, windows in an Aggregate, ...). */
bool plan_is_resolved(const Node *plan);

/* Whether expression e contains a node of the given kinds, not looking
 * inside subquery plans. */
bool expr_has_kind(const Node *e, KindMask kinds);

#endif
