/* The CTE definitions visible at a point of a query, innermost first: what
 * CTESubstitution binds table names against, and what it leaves on an
 * IDENTIFIER(...) relation so ResolveIdentifierClause can look the built
 * name up among the CTEs before the catalog (SPARK-46625). */
#ifndef CZ_CTE_SCOPE_H
#define CZ_CTE_SCOPE_H

#include "core/analysis.h"

typedef struct CteScope {
    const char *name;
    int64_t id;
    Node *inline_body;           /* LEGACY policy: the definition (SubqueryAlias) to inline; else NULL */
    const struct CteScope *next;
} CteScope;

/* The innermost definition called name, or NULL. */
const CteScope *cte_scope_lookup(const Analysis *an, const CteScope *s, const char *name);

/* What a reference `name` (as written, at node `at`) to definition d
 * becomes: SubqueryAlias(name, CTERelationRef d) — or, for an inlined
 * (LEGACY) definition, its body. */
Node *cte_scope_make_ref(Analysis *an, const Node *at, const char *name, const CteScope *d);

#endif
