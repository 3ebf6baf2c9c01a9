/* Resolved CTE definitions by id (lib/cte_registry.c); the registry hangs off
 * Analysis.ctes, allocated in the request arena on first use. */
#ifndef CZ_RULES_LIB_CTE_REGISTRY_H
#define CZ_RULES_LIB_CTE_REGISTRY_H

#include "core/analysis.h"

/* Makes a resolved CTERelationDef's output known to references. */
void cte_register(Analysis *an, const Node *def);
/* The resolved definition with this id, or NULL. */
const Node *cte_registry_get(const Analysis *an, int64_t id);
/* Registers every definition of another registry (a nested analysis's). */
void cte_merge(Analysis *an, const struct CteRegistry *other);
/* How many definitions are registered, and forgetting those registered after
 * the first n (the hybrid analyzer undoes a single pass it declined). */
uint32_t cte_registry_size(const Analysis *an);
void cte_registry_truncate(Analysis *an, uint32_t n);

#endif
