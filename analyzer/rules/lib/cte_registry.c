/* The resolved CTE definitions of one analysis, by id: filled as
 * CTERelationDefs resolve, read when their references resolve, merged back
 * from nested analyses (views, subqueries). */
#include "cte_registry.h"

/* Resolved definitions by id: ids are small consecutive numbers given by
 * CTESubstitution, so a directly indexed array (grown by doubling). */
struct CteRegistry {
    uint32_t cap;
    const Node **defs; /* defs[id], NULL when not (yet) resolved */
    uint32_t n;        /* registered */
    int64_t *ids;      /* in registration order, for merging */
};

void cte_register(Analysis *an, const Node *def) {
    struct CteRegistry *r = an->ctes;
    if (!r) r = an->ctes = ARENA_NEW(an->arena, struct CteRegistry);
    int64_t id = def->u.cte.id;
    if (id < 0) return;
    if ((uint64_t)id >= r->cap) {
        uint32_t cap = r->cap ? r->cap : 16;
        while ((uint64_t)id >= cap) cap *= 2;
        const Node **defs = ARENA_ARRAY(an->arena, const Node *, cap);
        int64_t *ids = ARENA_ARRAY(an->arena, int64_t, cap);
        mem_copy(defs, r->defs, sizeof(Node *) * r->cap);
        mem_copy(ids, r->ids, sizeof(int64_t) * r->n);
        r->defs = defs;
        r->ids = ids;
        r->cap = cap;
    }
    if (r->defs[id]) return;
    r->defs[id] = def;
    r->ids[r->n++] = id;
}

const Node *cte_registry_get(const Analysis *an, int64_t id) {
    const struct CteRegistry *r = an->ctes;
    return r && id >= 0 && (uint64_t)id < r->cap ? r->defs[id] : NULL;
}

void cte_merge(Analysis *an, const struct CteRegistry *other) {
    if (!other) return;
    for (uint32_t i = 0; i < other->n; i++) cte_register(an, other->defs[other->ids[i]]);
}

uint32_t cte_registry_size(const Analysis *an) { return an->ctes ? an->ctes->n : 0; }

void cte_registry_truncate(Analysis *an, uint32_t n) {
    struct CteRegistry *r = an->ctes;
    if (!r) return;
    while (r->n > n) r->defs[r->ids[--r->n]] = NULL;
}
