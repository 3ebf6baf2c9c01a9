/* Name resolution against a plan's output (Spark's AttributeSeq.resolve and
 * ColumnResolutionHelper): qualified and unqualified columns, nested struct
 * fields, ambiguity, stars; the enclosing queries' scopes for outer
 * references. Shared by the rules that resolve references. */
#ifndef CZ_SCOPE_H
#define CZ_SCOPE_H

#include "core/analysis.h"
#include "core/output.h"

typedef struct OuterScope {
    AttrList attrs;              /* the outer query's input (its children's output) */
    const Node *plan;            /* the outer operator */
    struct OuterScope *parent;
    /* aliases of the outer SELECT list visible to subqueries (alias-in-subquery extension) */
    AttrList aliases;
} OuterScope;

typedef enum ResolveStatus { RS_NOT_FOUND, RS_FOUND, RS_AMBIGUOUS } ResolveStatus;

/* Resolves name against attrs. On RS_FOUND *out is the attribute, or for
 * nested fields an Alias(GetStructField..., last field) as Spark builds it.
 * On RS_AMBIGUOUS an AMBIGUOUS_REFERENCE error has been recorded. `at` gives
 * the position for errors. */
ResolveStatus resolve_name(Analysis *an, const Node *at, NameParts name, AttrList attrs, Node **out);

/* Extracts struct fields `fields` from a resolved expression (GetStructField
 * chain); NULL (error recorded) when a field is missing. */
Node *extract_fields(Analysis *an, const Node *at, Node *base, const char *const *fields, uint32_t n);

/* Expands a star (`*`, `t.*`, `s.*` for struct s, `* EXCEPT (...)`) against attrs.
 * Returns false with an error recorded when it cannot. */
bool expand_star(Analysis *an, const Node *star, AttrList attrs, AttrList *out);

bool ident_eq(const Analysis *an, const char *a, const char *b);

/* The attribute as an ordinary (non-hidden) column: a hidden USING-join key
 * selected explicitly becomes a normal output column. */
Node *visible_attr(Analysis *an, Node *attr);

/* UNRESOLVED_COLUMN's proposal for `name` among attrs taken as an
 * operator's inputSet (CheckAnalysis.failUnresolvedAttribute): the set in
 * AttributeSet.toSeq's order, then core/suggest.h's similarity order; "" when
 * attrs has no attribute. */
const char *suggest_columns(Analysis *an, NameParts name, AttrList attrs);

/* UNRESOLVED_COLUMN.WITH_SUGGESTION for `name` against input, or
 * .WITHOUT_SUGGESTION when there is nothing to suggest. */
ErrorInfo *unresolved_column_error(Analysis *an, const Node *at, NameParts name, AttrList input);

#endif
