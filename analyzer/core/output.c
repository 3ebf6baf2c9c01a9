#include "output.h"

#include "func_sig.h"

#include <string.h>
#include "walk.h"

struct OutputCache {
    AttrList attrs;
    bool attrs_done;
    bool meta_done;
    AttrList meta;
    AttrIndexSlot index;
};

static struct OutputCache *output_cache(Analysis *an, const Node *plan) {
    if (!plan->out) {
        struct OutputCache *c = ARENA_NEW(an->arena, struct OutputCache);
        ((Node *)plan)->out = c; /* derived values: caching them does not change the node */
    }
    return plan->out;
}

uint32_t attr_name_hash(const char *name) {
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        unsigned char c = *p;
        if (c >= 'A' && c <= 'Z') c = (unsigned char)(c + 32);
        h = (h ^ c) * 16777619u;
    }
    return h;
}

const AttrIndex *attr_index(Analysis *an, AttrList l) {
    if (!l.index || l.n < 16) return NULL;
    if (l.index->ix) return l.index->ix;
    if (++l.index->lookups < 2) return NULL;
    uint32_t buckets = 16;
    while (buckets < l.n * 2) buckets *= 2;
    AttrIndex *ix = ARENA_NEW(an->arena, AttrIndex);
    ix->mask = buckets - 1;
    ix->head = arena_alloc(an->arena, sizeof(int32_t) * buckets);
    ix->next = arena_alloc(an->arena, sizeof(int32_t) * l.n);
    for (uint32_t b = 0; b < buckets; b++) ix->head[b] = -1;
    /* insert in reverse so chains list positions in order */
    for (uint32_t i = l.n; i-- > 0;) {
        const char *nm = l.v[i]->kind == NK_AttributeReference ? l.v[i]->u.attr.name : NULL;
        if (!nm) {
            ix->next[i] = -1;
            continue;
        }
        /* the hash the attribute carries (computed when it was made) */
        uint32_t h = l.v[i]->u.attr.name_hash ? l.v[i]->u.attr.name_hash : attr_name_hash(nm);
        uint32_t b = h & ix->mask;
        ix->next[i] = ix->head[b];
        ix->head[b] = (int32_t)i;
    }
    l.index->ix = ix;
    return ix;
}

Node *attr_new(Analysis *an, const char *name, const DataType *type, bool nullable, ExprId id, NameParts qualifier,
               int32_t start, int32_t stop) {
    Node *a = node_new(an->arena, NK_AttributeReference, start, stop);
    a->u.attr.name = name;
    a->u.attr.id = id ? id : an_new_id(an);
    a->u.attr.qualifier = qualifier;
    a->u.attr.name_hash = attr_name_hash(name);
    a->type = type;
    if (nullable) a->flags |= NF_NULLABLE;
    return node_finish(a);
}

Node *attr_with_qualifier(Analysis *an, Node *attr, NameParts qualifier) {
    /* the qualifier is no input of node_finish: the copy's derived fields
       (mask, height, flags) are the finished original's */
    Node *c = node_copy(an->arena, attr);
    c->u.attr.qualifier = qualifier;
    return c;
}

/* Copies of the attributes l.v[0..n) with qualifier q, in one allocation: a
 * SubqueryAlias re-qualifies every column of its child (a table reference
 * does it per column), and one block costs one allocation, not n. What each
 * copy holds is attr_with_qualifier's. */
static void attrs_with_qualifier(Analysis *an, Node *const *in, uint32_t n, NameParts q, Node **out) {
    if (!n) return;
    Node *block = arena_alloc(an->arena, sizeof(Node) * n);
    for (uint32_t i = 0; i < n; i++) {
        Node *c = &block[i];
        memcpy(c, in[i], sizeof(Node));
        c->out = NULL;
        c->flags &= ~(uint32_t)(NF_ANALYZED | NF_SP_SEALED); /* as node_copy */
        c->u.attr.qualifier = q;
        out[i] = c;
    }
}

Node *attr_with_nullable(Analysis *an, Node *attr, bool nullable) {
    if (expr_nullable(attr) == nullable) return attr;
    Node *c = node_copy(an->arena, attr);
    if (nullable) c->flags |= NF_NULLABLE;
    else c->flags &= ~(uint32_t)NF_NULLABLE;
    return node_finish(c);
}

const char *named_expr_name(const Node *e) {
    switch (e->kind) {
    case NK_Alias:
    case NK_AttributeReference:
    case NK_NamedLambdaVariable: return e->u.attr.name;
    case NK_OuterReference: return named_expr_name(e->kids[0]);
    default: return NULL;
    }
}

ExprId named_expr_id(const Node *e) {
    switch (e->kind) {
    case NK_Alias:
    case NK_AttributeReference:
    case NK_NamedLambdaVariable: return e->u.attr.id;
    default: return 0;
    }
}

Node *to_attribute(Analysis *an, Node *e) {
    switch (e->kind) {
    case NK_AttributeReference: return e;
    case NK_OuterReference: /* a select item outer(a) outputs a */
    case NK_LateralColumnAliasReference: return to_attribute(an, e->kids[0]); /* ... and lca(a) too */
    case NK_Alias: {
        Node *a = attr_new(an, e->u.attr.name, e->kids[0]->type, expr_nullable(e->kids[0]), e->u.attr.id,
                           e->u.attr.qualifier, e->start, e->stop);
        /* the alias's explicit metadata, else its attribute child's */
        a->u.attr.char_len = e->u.attr.char_len ? e->u.attr.char_len
                             : e->kids[0]->kind == NK_AttributeReference ? e->kids[0]->u.attr.char_len : 0;
        return a;
    }
    default: return NULL;
    }
}

static AttrList attrs_of_exprs(Analysis *an, Node *const *exprs, uint32_t n) {
    AttrList l = {0, ARENA_ARRAY(an->arena, Node *, n ? n : 1)};
    for (uint32_t i = 0; i < n; i++) {
        Node *a = to_attribute(an, exprs[i]);
        if (a) l.v[l.n++] = a;
    }
    return l;
}

static AttrList concat(Analysis *an, AttrList x, AttrList y) {
    AttrList l = {x.n + y.n, ARENA_ARRAY(an->arena, Node *, x.n + y.n + 1)};
    if (x.n) mem_copy(l.v, x.v, sizeof(Node *) * x.n);
    if (y.n) mem_copy(l.v + x.n, y.v, sizeof(Node *) * y.n);
    return l;
}

static AttrList with_nullable(Analysis *an, AttrList x) {
    AttrList l = {x.n, ARENA_ARRAY(an->arena, Node *, x.n + 1)};
    for (uint32_t i = 0; i < x.n; i++) l.v[i] = attr_with_nullable(an, x.v[i], true);
    return l;
}

static AttrList compute_output(Analysis *an, const Node *p) {
    AttrList none = {0, NULL};
    /* a statement's result columns (DESCRIBE, SHOW, ...) are its exprs, but
       for the variable statements, whose exprs are values and targets */
    if (node_kind_is_command(p->kind))
        return p->kind == NK_DeclareVariable || p->kind == NK_SetVariable || p->kind == NK_ExecuteImmediate
                   ? none
                   : (AttrList){p->nexprs, p->exprs};
    switch (p->kind) {
    case NK_Project: return attrs_of_exprs(an, p->exprs, p->nexprs);
    case NK_Aggregate:
        return attrs_of_exprs(an, node_exprs_from(p, p->u.aggregate.ngroup), p->nexprs - p->u.aggregate.ngroup);
    case NK_Window:
        return concat(an, plan_output(an, p->kids[0]), attrs_of_exprs(an, p->exprs, p->u.window.nwindow));
    case NK_Relation:
    case NK_LogicalRDD:
    case NK_LocalRelation:
    case NK_Range:
    case NK_CTERelationRef:
    case NK_View: return (AttrList){p->nexprs, p->exprs};
    case NK_Expand: return (AttrList){p->u.expand.noutput, p->exprs};
    case NK_ScriptTransformation: return (AttrList){p->nexprs, p->exprs};
    case NK_OneRowRelation: return none;
    case NK_SubqueryAlias: {
        AttrList c = plan_output(an, p->kids[0]);
        AttrList l = {c.n, ARENA_ARRAY(an->arena, Node *, c.n + 1)};
        attrs_with_qualifier(an, c.v, c.n, p->u.alias.name, l.v);
        return l;
    }
    case NK_Join: {
        AttrList l = plan_output(an, p->kids[0]);
        AttrList r = plan_output(an, p->kids[1]);
        switch (p->u.join.type) {
        case JOIN_LEFT_SEMI:
        case JOIN_LEFT_ANTI: return l;
        case JOIN_LEFT_OUTER: return concat(an, l, with_nullable(an, r));
        case JOIN_RIGHT_OUTER: return concat(an, with_nullable(an, l), r);
        case JOIN_FULL_OUTER: return concat(an, with_nullable(an, l), with_nullable(an, r));
        default: return concat(an, l, r);
        }
    }
    case NK_LateralJoin: {
        AttrList l = plan_output(an, p->kids[0]);
        AttrList r = plan_output(an, p->exprs[0]->u.subq.plan);
        if (p->u.join.type == JOIN_LEFT_OUTER) r = with_nullable(an, r);
        return concat(an, l, r);
    }
    case NK_Union: {
        /* the first child's attributes, nullable if nullable in any child */
        AttrList first = plan_output(an, p->kids[0]);
        AttrList l = {first.n, ARENA_ARRAY(an->arena, Node *, first.n + 1)};
        if (first.n) mem_copy(l.v, first.v, sizeof(Node *) * first.n);
        for (uint32_t k = 1; k < p->nkids; k++) {
            AttrList o = plan_output(an, p->kids[k]);
            for (uint32_t i = 0; i < l.n && i < o.n; i++)
                if (expr_nullable(o.v[i])) l.v[i] = attr_with_nullable(an, l.v[i], true);
        }
        return l;
    }
    case NK_Intersect: {
        AttrList l = plan_output(an, p->kids[0]);
        AttrList r = plan_output(an, p->kids[1]);
        AttrList o = {l.n, ARENA_ARRAY(an->arena, Node *, l.n + 1)};
        for (uint32_t i = 0; i < l.n; i++)
            o.v[i] = (i < r.n && !expr_nullable(r.v[i])) ? attr_with_nullable(an, l.v[i], false) : l.v[i];
        return o;
    }
    case NK_Generate: {
        AttrList g = {p->nexprs - 1, node_exprs_from(p, 1)};
        return concat(an, plan_output(an, p->kids[0]), g);
    }
    case NK_WithCTE: return plan_output(an, p->kids[p->nkids - 1]);
    case NK_CTERelationDef:
    case NK_Filter:
    case NK_Sort:
    case NK_GlobalLimit:
    case NK_LocalLimit:
    case NK_Offset:
    case NK_Tail:
    case NK_Except:
    case NK_Distinct:
    case NK_Deduplicate:
    case NK_RepartitionByExpression:
    case NK_Repartition:
    case NK_Sample:
    case NK_UnresolvedHint:
    case NK_ResolvedHint:
    case NK_UnresolvedHaving:
    case NK_WithWindowDefinition:
    case NK_PipeOperator:
        return p->nkids ? plan_output(an, p->kids[0]) : none;
    default: return none;
    }
}

AttrList plan_output(Analysis *an, const Node *plan) {
    if (plan->out && plan->out->attrs_done) return plan->out->attrs;
    AttrList l = compute_output(an, plan);
    struct OutputCache *c = output_cache(an, plan);
    c->attrs = l;
    c->attrs.index = &c->index;
    c->attrs_done = true;
    return c->attrs;
}

static bool is_leaf_plan(const Node *p) { return p->nkids == 0; }

static AttrList compute_metadata_output(Analysis *an, const Node *p) {
    AttrList none = {0, NULL};
    switch (p->kind) {
    case NK_Project:
        if (p->u.project.has_hidden) return (AttrList){p->u.project.nhidden, p->u.project.hidden};
        return p->nkids ? plan_metadata_output(an, p->kids[0]) : none;
    /* operators that end the propagation (their metadataOutput is Nil) */
    case NK_Aggregate:
    case NK_Union:
    case NK_Intersect:
    case NK_Except:
    case NK_View:
        return none;
    case NK_SubqueryAlias: {
        /* only through a chain of aliases over a leaf, and never the
           qualified-access-only columns */
        const Node *c = p->kids[0];
        if (!is_leaf_plan(c) && c->kind != NK_SubqueryAlias) return none;
        AttrList m = plan_metadata_output(an, c);
        AttrList l = {0, ARENA_ARRAY(an->arena, Node *, m.n + 1)};
        for (uint32_t i = 0; i < m.n; i++)
            if (!m.v[i]->u.attr.metadata_col) l.v[l.n++] = attr_with_qualifier(an, m.v[i], p->u.alias.name);
        return l;
    }
    case NK_Join:
        if (p->u.join.type == JOIN_LEFT_SEMI || p->u.join.type == JOIN_LEFT_ANTI)
            return plan_metadata_output(an, p->kids[0]);
        /* fall through */
    default: {
        if (p->nkids == 0) return none;
        if (p->nkids == 1) return plan_metadata_output(an, p->kids[0]);
        AttrList l = none;
        for (uint32_t i = 0; i < p->nkids; i++) {
            AttrList m = plan_metadata_output(an, p->kids[i]);
            if (m.n) l = l.n ? concat(an, l, m) : m;
        }
        return l;
    }
    }
}

AttrList plan_metadata_output(Analysis *an, const Node *plan) {
    if (plan->out && plan->out->meta_done) return plan->out->meta;
    AttrList l = compute_metadata_output(an, plan);
    struct OutputCache *c = output_cache(an, plan);
    c->meta = l;
    c->meta_done = true;
    return l;
}

typedef struct KindSearch {
    KindMask kinds;
    bool found;
} KindSearch;

static WalkResult find_kind(const Node *n, void *ctx) {
    KindSearch *s = ctx;
    if (!kind_mask_any(n->mask, s->kinds)) return WALK_PRUNE;
    if (kind_mask_has(s->kinds, n->kind)) {
        s->found = true;
        return WALK_ABORT;
    }
    return WALK_CONTINUE;
}

/* Masks include subquery plans, so the mask test alone only rules kinds out;
   a walk that stays out of subqueries gives the precise answer. */
bool expr_has_kind(const Node *e, KindMask m) {
    if (!kind_mask_any(e->mask, m)) return false;
    KindSearch s = {m, false};
    node_walk(e, 0, find_kind, &s);
    return s.found;
}


/* A generator call (explode, ...) outside subqueries: ExtractGenerator still
   has to turn it into a Generate (Spark's Project.resolved). */
static bool has_generator(const Node *e) {
    /* the flag covers the subtree: without it no walk (a body inlined n deep is
       asked at each of its n levels) */
    if (!(e->flags & NF_GENERATOR_CALL)) return false;
    if (e->kind == NK_Call && e->u.call.def && call_sig(e)->kind == FK_GENERATOR) return true;
    if (!kind_mask_has(e->mask, NK_Call) || e->kind == NK_ScalarSubquery || e->kind == NK_Exists ||
        e->kind == NK_InSubquery || e->kind == NK_ListQuery || e->kind == NK_LateralSubquery)
        return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (has_generator(e->kids[i])) return true;
    return false;
}

bool plan_is_resolved(const Node *p) {
    if (!node_resolved(p)) return false;
    switch (p->kind) {
    case NK_Project: {
        KindMask special = KIND_MASK(NK_AggregateExpression, NK_WindowExpression);
        for (uint32_t i = 0; i < p->nexprs; i++)
            if (expr_has_kind(p->exprs[i], special) || has_generator(p->exprs[i])) return false;
        return true;
    }
    case NK_Aggregate: {
        /* windows in the aggregate list are still to be extracted (Spark looks at aggregateExpressions only) */
        KindMask special = KIND_MASK(NK_WindowExpression);
        for (uint32_t i = p->u.aggregate.ngroup; i < p->nexprs; i++)
            if (expr_has_kind(p->exprs[i], special)) return false;
        return true;
    }
    case NK_Join:
        /* USING / NATURAL joins are resolved only once rewritten (their output changes) */
        return !p->u.join.natural && p->u.join.nusing == 0;
    default: return true;
    }
}
