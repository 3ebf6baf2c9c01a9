/* Comparing the plans of the two analyzers (HybridAnalyzer's dual run):
 * equal up to a renaming of expression ids (a bijection: the same id on one
 * side is the same id on the other), node by node — kinds, children,
 * expressions, subquery plans, types, nullability, names, qualifiers,
 * positions, the flags that mean something — and then as tree strings with
 * ids renumbered by first appearance, which covers what the printer shows
 * of the kind-specific fields. */
#include "plan_compare.h"

#include <string.h>

#include "catalog/catalog.h"
#include "core/output.h"
#include "print/printer.h"

typedef struct IdMap {
    uint32_t cap, n;
    ExprId *keys, *vals;
} IdMap;

static ExprId *idmap_slot(Analysis *an, IdMap *m, ExprId k, bool *fresh) {
    if ((m->n + 1) * 2 > m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 256;
        ExprId *keys = ARENA_ARRAY(an->arena, ExprId, cap), *vals = ARENA_ARRAY(an->arena, ExprId, cap);
        for (uint32_t i = 0; i < m->cap; i++) {
            if (!m->keys[i]) continue;
            uint32_t h = (uint32_t)(m->keys[i] * 0x9E3779B97F4A7C15u >> 32) & (cap - 1);
            while (keys[h]) h = (h + 1) & (cap - 1);
            keys[h] = m->keys[i];
            vals[h] = m->vals[i];
        }
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
    }
    uint32_t h = (uint32_t)(k * 0x9E3779B97F4A7C15u >> 32) & (m->cap - 1);
    while (m->keys[h] && m->keys[h] != k) h = (h + 1) & (m->cap - 1);
    *fresh = !m->keys[h];
    if (*fresh) {
        m->keys[h] = k;
        m->n++;
    }
    return &m->vals[h];
}

typedef struct Cmp {
    Analysis *an;
    IdMap ab, ba;
    const char *why;
    const Node *at_a, *at_b;
} Cmp;

static bool ids_match(Cmp *c, ExprId a, ExprId b) {
    if (!a || !b) return a == b;
    bool fa, fb;
    ExprId *va = idmap_slot(c->an, &c->ab, a, &fa);
    ExprId *vb = idmap_slot(c->an, &c->ba, b, &fb);
    if (fa) *va = b;
    if (fb) *vb = a;
    return *va == b && *vb == a;
}

static bool str_eq(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

static bool names_eq(NameParts a, NameParts b) {
    if (a.n != b.n) return false;
    for (uint32_t i = 0; i < a.n; i++)
        if (!str_eq(a.v[i], b.v[i])) return false;
    return true;
}

/* The same catalog table, or two copies of one made during the analysis (a
 * temporary view over a data source gets a fresh unnamed table each time it
 * is resolved): equal by what the plan shows of them. */
static bool tables_eq(const TableDef *a, const TableDef *b) {
    if (a == b) return true;
    if (!a || !b || !str_eq(a->catalog, b->catalog) || !str_eq(a->ns, b->ns) || !str_eq(a->name, b->name) ||
        !str_eq(a->provider, b->provider) || a->v2 != b->v2 || a->ncols != b->ncols)
        return false;
    for (int i = 0; i < a->ncols; i++)
        if (!str_eq(a->cols[i].name, b->cols[i].name) || !type_equal(a->cols[i].type, b->cols[i].type))
            return false;
    return true;
}

static bool differ(Cmp *c, const Node *a, const Node *b, const char *why) {
    if (!c->why) {
        c->why = why;
        c->at_a = a;
        c->at_b = b;
    }
    return false;
}

#define MEANINGFUL_FLAGS                                                                                              \
    (NF_RESOLVED | NF_NULLABLE | NF_NONDETERMINISTIC | NF_HAS_FILTER | NF_DISTINCT | NF_IMPLICIT |                   \
     NF_GENERATED_ALIAS | NF_PENDING)

static bool same(Cmp *c, const Node *a, const Node *b) {
    if (a == b) return true;
    if (!a || !b) return differ(c, a, b, "a node on one side only");
    if (a->kind != b->kind) return differ(c, a, b, "node kinds");
    if (a->nkids != b->nkids || a->nexprs != b->nexprs) return differ(c, a, b, "children");
    if ((a->flags & MEANINGFUL_FLAGS) != (b->flags & MEANINGFUL_FLAGS))
        return differ(c, a, b, arena_printf(c->an->arena, "flags %#x", (a->flags ^ b->flags) & MEANINGFUL_FLAGS));
    if (a->start != b->start || a->stop != b->stop) return differ(c, a, b, "positions");
    if (a->plan_id != b->plan_id) return differ(c, a, b, "plan ids");
    if ((a->type == NULL) != (b->type == NULL) || (a->type && !type_equal(a->type, b->type)))
        return differ(c, a, b, arena_printf(c->an->arena, "types %s vs %s", a->type ? type_catalog_string(c->an->arena, a->type) : "none",
                                            b->type ? type_catalog_string(c->an->arena, b->type) : "none"));
    switch (a->kind) {
    case NK_AttributeReference:
    case NK_Alias:
    case NK_NamedLambdaVariable:
    case NK_VariableReference:
        if (!str_eq(a->u.attr.name, b->u.attr.name)) return differ(c, a, b, "names");
        if (!names_eq(a->u.attr.qualifier, b->u.attr.qualifier)) return differ(c, a, b, "qualifiers");
        if (a->u.attr.metadata_col != b->u.attr.metadata_col || a->u.attr.char_len != b->u.attr.char_len)
            return differ(c, a, b, "attribute metadata");
        if (a->kind != NK_VariableReference && !ids_match(c, a->u.attr.id, b->u.attr.id))
            return differ(c, a, b, "expression ids");
        break;
    case NK_Call:
        if (a->u.call.def != b->u.call.def || !str_eq(a->u.call.name, b->u.call.name))
            return differ(c, a, b, "functions");
        break;
    case NK_Relation:
        if (!tables_eq(a->u.relation.table, b->u.relation.table)) return differ(c, a, b, "tables");
        break;
    case NK_SubqueryAlias:
        if (!names_eq(a->u.alias.name, b->u.alias.name)) return differ(c, a, b, "aliases");
        break;
    case NK_Aggregate:
        if (a->u.aggregate.ngroup != b->u.aggregate.ngroup) return differ(c, a, b, "grouping");
        break;
    case NK_Window:
        if (a->u.window.nwindow != b->u.window.nwindow || a->u.window.npartition != b->u.window.npartition)
            return differ(c, a, b, "window");
        break;
    case NK_Join:
    case NK_LateralJoin:
        if (a->u.join.type != b->u.join.type) return differ(c, a, b, "join types");
        break;
    case NK_Project:
        if (a->u.project.has_hidden != b->u.project.has_hidden || a->u.project.nhidden != b->u.project.nhidden)
            return differ(c, a, b, "hidden output");
        for (uint32_t i = 0; a->u.project.has_hidden && i < a->u.project.nhidden; i++)
            if (!same(c, a->u.project.hidden[i], b->u.project.hidden[i])) return false;
        break;
    default:
        if (node_kind_is_subquery(a->kind)) {
            if (!ids_match(c, a->u.subq.id, b->u.subq.id)) return differ(c, a, b, "subquery ids");
            if (a->u.subq.nvalues != b->u.subq.nvalues) return differ(c, a, b, "subquery values");
            if (!same(c, a->u.subq.plan, b->u.subq.plan)) return false;
        }
        break;
    }
    for (uint32_t i = 0; i < a->nexprs; i++)
        if (!same(c, a->exprs[i], b->exprs[i])) return false;
    for (uint32_t i = 0; i < a->nkids; i++)
        if (!same(c, a->kids[i], b->kids[i])) return false;
    return true;
}

/* The tree string with every `#<digits>` renumbered by first appearance. */
static const char *renumber(Analysis *an, const char *s) {
    StrBuf sb;
    sb_init(&sb, an->arena, strlen(s) + 16);
    IdMap m = {0};
    ExprId next = 0;
    for (const char *p = s; *p;) {
        if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
            ExprId v = 0;
            const char *q = p + 1;
            while (*q >= '0' && *q <= '9') v = v * 10 + (ExprId)(*q++ - '0');
            bool fresh;
            ExprId *slot = idmap_slot(an, &m, v + 1, &fresh);
            if (fresh) *slot = ++next;
            sb_printf(&sb, "#%llu", (unsigned long long)*slot);
            p = q;
            continue;
        }
        sb_putc(&sb, *p++);
    }
    return sb_str(&sb);
}

const char *plan_compare(Analysis *an, const Node *a, const Node *b) {
    Cmp c = {.an = an};
    if (!same(&c, a, b)) {
        StrBuf sb;
        sb_init(&sb, an->arena, 256);
        sb_printf(&sb, "%s: %s", c.why, c.at_a ? node_kind_name(c.at_a->kind) : "-");
        if (c.at_a && !node_is_plan(c.at_a)) sb_printf(&sb, " `%s`", expr_to_string(an->arena, c.at_a));
        sb_printf(&sb, " vs %s", c.at_b ? node_kind_name(c.at_b->kind) : "-");
        if (c.at_b && !node_is_plan(c.at_b)) sb_printf(&sb, " `%s`", expr_to_string(an->arena, c.at_b));
        return sb_str(&sb);
    }
    const char *ta = renumber(an, plan_tree_string(an->arena, a));
    const char *tb = renumber(an, plan_tree_string(an->arena, b));
    if (strcmp(ta, tb) != 0) {
        size_t i = 0;
        while (ta[i] && ta[i] == tb[i]) i++;
        size_t from = i > 60 ? i - 60 : 0;
        return arena_printf(an->arena, "tree strings differ at %zu: single pass `%.120s` vs fixed point `%.120s`", i,
                            ta + from, tb + from);
    }
    return NULL;
}
