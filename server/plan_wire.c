/* IR → wire bytes (see plan_wire.h). Each function mirrors its plan_encode.c
 * counterpart (which fields, when present) and its plan_pack.c packer (field
 * order, back to front: last field first, repeated fields last element
 * first). A change to one of those three needs the same change here; the
 * plan-pack test compares the bytes. */
#include "plan_wire.h"

#include <string.h>

#include "plan_encode.h"
#include "plan_pack_put.h"
#include "print/printer.h"

/* Catalyst's node names and their lengths: no strlen per node. */
static const struct {
    const char *name;
    uint8_t len;
} KIND[NK_COUNT_] = {
#define X(name, cat, flags) [NK_##name] = {#name, sizeof #name - 1},
#include "core/node_kinds.def"
#undef X
};

typedef struct WireCtx {
    PbRevWriter *w;
    Arena *a;
    bool details;
    StrBuf scratch; /* literals, joined names, descriptions: printed, copied, reused */
} WireCtx;

static inline void put_kind(PbRevWriter *w, unsigned id, NodeKind k) {
    if ((unsigned)k < NK_COUNT_) put_bytes(w, id, KIND[k].name, KIND[k].len);
    else put_bytes(w, id, "?", 1);
}

/* plan_encode.c's name_strings packed as a repeated string field: NULL parts
 * as empty strings. */
static void put_name_parts(PbRevWriter *w, unsigned id, NameParts np) {
    for (uint32_t i = np.n; i-- > 0;) put_string_always(w, id, np.v[i] ? np.v[i] : "");
}

/* plan_pack.c's qualifier cache, keyed by the IR's array. */
static void put_qualifier(PbRevWriter *w, unsigned id, NameParts np) {
    if (!np.n) return;
    size_t slot = ((uintptr_t)np.v >> 3) & (PB_TYPE_CACHE_SLOTS - 1);
    if (w->qualifier_cache[slot].key == (char *const *)np.v && w->qualifier_cache[slot].n == np.n &&
        w->qualifier_cache[slot].gen == w->gen) {
        put_copy(w, w->qualifier_cache[slot].end, w->qualifier_cache[slot].len);
        return;
    }
    size_t since = written(w);
    put_name_parts(w, id, np);
    w->qualifier_cache[slot].key = (char *const *)np.v;
    w->qualifier_cache[slot].gen = w->gen;
    w->qualifier_cache[slot].n = np.n;
    w->qualifier_cache[slot].end = written(w);
    w->qualifier_cache[slot].len = written(w) - since;
}

static inline uint8_t *varint14(uint8_t *p, uint32_t v) { /* v < 0x4000 */
    if (v < 0x80) {
        *p++ = (uint8_t)v;
        return p;
    }
    *p++ = (uint8_t)(v | 0x80);
    *p++ = (uint8_t)(v >> 7);
    return p;
}

/* A node's Origin (start >= 0): a one-level message. Returns its depth. */
static unsigned put_origin(PbRevWriter *w, unsigned id, const Node *n) {
    if (n->start < 0) return 0;
    uint32_t start = (uint32_t)n->start, stop = (uint32_t)n->stop;
    if (start - 1 < 0x3fff && stop - 1 < 0x3fff) {
        /* both in 1..16383 (offsets in a statement below 16 KB): written in
           one go, forwards, at the place their size says */
        size_t k = 4 + (start >= 0x80) + (stop >= 0x80);
        if (!reserve(w, k + 2)) return 1;
        uint8_t *p = w->buf + w->pos - k - 2;
        w->pos -= k + 2;
        *p++ = (uint8_t)(id << 3 | WT_LEN);
        *p++ = (uint8_t)k;
        *p++ = 1 << 3 | WT_VARINT;
        p = varint14(p, start);
        *p++ = 2 << 3 | WT_VARINT;
        varint14(p, stop);
        return 1;
    }
    size_t since = written(w);
    put_int32(w, 2, n->stop);
    put_int32(w, 1, n->start);
    if (!reserve(w, 2)) return 1;
    w->buf[--w->pos] = (uint8_t)(written(w) - since);
    w->buf[--w->pos] = (uint8_t)(id << 3 | WT_LEN);
    return 1;
}

static unsigned prepend_data_type(WireCtx *c, const DataType *t);


static inline bool type_is_nested(const DataType *t) {
    return t->id == T_ARRAY || t->id == T_MAP || t->id == T_STRUCT;
}

/* A scalar type's payload: copied from an equal type's when one was packed. */
static unsigned put_scalar_type(WireCtx *c, const DataType *t) {
    PbRevWriter *w = c->w;
    size_t slot = ((unsigned)t->id * 31u + t->precision * 7u + t->scale + (unsigned)t->length +
                   (unsigned)t->collation * 13u + t->start_field * 3u + t->end_field) &
                  (PB_IR_SCALAR_CACHE_SLOTS - 1);
    struct PbScalarTypeSlot *e = &w->ir_scalar_cache[slot];
    if (e->gen == w->gen && e->id == (int32_t)t->id && e->length == t->length && e->collation == t->collation &&
        e->precision == t->precision && e->scale == t->scale && e->start_field == t->start_field &&
        e->end_field == t->end_field && e->contains_null == t->contains_null) {
        put_copy(w, e->end, e->len);
        return 1;
    }
    size_t since = written(w);
    unsigned depth = prepend_data_type(c, t);
    e->gen = w->gen;
    e->id = (int32_t)t->id;
    e->length = t->length;
    e->collation = t->collation;
    e->precision = t->precision;
    e->scale = t->scale;
    e->start_field = t->start_field;
    e->end_field = t->end_field;
    e->contains_null = t->contains_null;
    e->end = written(w);
    e->len = written(w) - since;
    return depth;
}

/* A DataType field (datatype_encode's message: present even for a NULL
 * type, then empty). Returns its depth. A type packed before is copied: as
 * the whole field (tag and length too) when it was last the same field. */
static unsigned put_data_type(WireCtx *c, unsigned id, const DataType *t) {
    PbRevWriter *w = c->w;
    size_t slot = ((uintptr_t)t >> 4) & (PB_IR_TYPE_CACHE_SLOTS - 1);
    if (t && w->ir_type_cache[slot].key == t && w->ir_type_cache[slot].gen == w->gen) {
        if (w->ir_type_cache[slot].field_id == id) {
            put_copy(w, w->ir_type_cache[slot].field_end, w->ir_type_cache[slot].field_len);
            return w->ir_type_cache[slot].depth;
        }
        size_t since = written(w);
        put_copy(w, w->ir_type_cache[slot].end, w->ir_type_cache[slot].len);
        close_len_field(w, id, since);
        w->ir_type_cache[slot].field_id = id;
        w->ir_type_cache[slot].field_end = written(w);
        w->ir_type_cache[slot].field_len = written(w) - since;
        return w->ir_type_cache[slot].depth;
    }
    size_t since = written(w);
    unsigned depth = t && !type_is_nested(t) ? put_scalar_type(c, t) : prepend_data_type(c, t);
    size_t end = written(w), len = written(w) - since;
    close_len_field(w, id, since);
    if (t) {
        w->ir_type_cache[slot].key = t;
        w->ir_type_cache[slot].gen = w->gen;
        w->ir_type_cache[slot].end = end;
        w->ir_type_cache[slot].len = len;
        w->ir_type_cache[slot].depth = depth;
        w->ir_type_cache[slot].field_id = id;
        w->ir_type_cache[slot].field_end = written(w);
        w->ir_type_cache[slot].field_len = written(w) - since;
    }
    return depth;
}

static unsigned prepend_data_type(WireCtx *c, const DataType *t) {
    PbRevWriter *w = c->w;
    if (!t) return 1;
    unsigned deepest = 0;
    put_string(w, 11, type_catalog_string(c->a, t));
    if (t->id == T_STRUCT && t->nfields > 0) {
        for (int i = t->nfields; i-- > 0;) {
            const StructField *f = &t->fields[i];
            size_t since = written(w);
            put_bool(w, 3, f->nullable);
            unsigned d = put_data_type(c, 2, f->type) + 1;
            if (d > deepest) deepest = d;
            put_string(w, 1, f->name);
            close_len_field(w, 10, since);
        }
    }
    put_bool(w, 9, t->contains_null);
    if (t->id == T_MAP) {
        unsigned d = put_data_type(c, 8, t->value);
        if (d > deepest) deepest = d;
    }
    if (t->id == T_ARRAY || t->id == T_MAP) {
        unsigned d = put_data_type(c, 7, t->elem);
        if (d > deepest) deepest = d;
    }
    put_int32(w, 6, t->end_field);
    put_int32(w, 5, t->start_field);
    put_int32(w, 4, t->length);
    put_int32(w, 3, t->scale);
    put_int32(w, 2, t->precision);
    put_int32(w, 1, (int32_t)datatype_kind(t->id));
    return deepest + 1;
}

static bool is_subquery_kind(NodeKind k) {
    return k == NK_ScalarSubquery || k == NK_Exists || k == NK_ListQuery || k == NK_InSubquery || k == NK_LateralSubquery;
}

static unsigned prepend_plan(WireCtx *c, const Node *p);

static const char *scratch_string(WireCtx *c) {
    return sb_str(&c->scratch);
}

/* encode_expr + pb_prepend_resolved_expression */
static unsigned prepend_expr(WireCtx *c, const Node *e) {
    PbRevWriter *w = c->w;
    unsigned deepest = put_origin(w, 10, e);
    if (is_subquery_kind(e->kind) && e->u.subq.plan) {
        size_t since = written(w);
        unsigned d = prepend_plan(c, e->u.subq.plan);
        close_len_field(w, 9, since);
        if (d > deepest) deepest = d;
    }
    if (e->kind == NK_Literal) {
        sb_truncate(&c->scratch, 0);
        value_print_sql(&c->scratch, &e->u.lit.v);
        put_string(w, 8, scratch_string(c));
    }
    for (uint32_t i = e->nkids; i-- > 0;) {
        size_t since = written(w);
        unsigned d = prepend_expr(c, e->kids[i]);
        close_len_field(w, 7, since);
        if (d > deepest) deepest = d;
    }
    const char *name = NULL;
    int64_t expr_id = 0;
    switch (e->kind) {
    case NK_AttributeReference:
    case NK_Alias:
    case NK_NamedLambdaVariable:
    case NK_VariableReference:
        put_qualifier(w, 6, e->u.attr.qualifier);
        name = e->u.attr.name;
        expr_id = (int64_t)e->u.attr.id;
        break;
    case NK_Call: name = e->u.call.name; break;
    case NK_UnresolvedAttribute:
    case NK_UnresolvedFunction:
    case NK_UnresolvedStar:
    case NK_UnresolvedRelation: {
        NameParts np = e->u.un.name;
        sb_truncate(&c->scratch, 0);
        for (uint32_t i = 0; i < np.n; i++) {
            if (i) sb_putc(&c->scratch, '.');
            sb_puts(&c->scratch, np.v[i] ? np.v[i] : "");
        }
        name = scratch_string(c);
        break;
    }
    case NK_GetStructField: name = e->u.field.name; break;
    case NK_NamedArgument: name = e->u.named.name; break;
    default: break;
    }
    if (is_subquery_kind(e->kind)) expr_id = (int64_t)e->u.subq.id;
    put_bool(w, 5, (e->flags & NF_NULLABLE) != 0);
    if (e->type || e->kind == NK_Literal) {
        unsigned d = put_data_type(c, 4, e->type ? e->type : e->u.lit.v.type);
        if (d > deepest) deepest = d;
    }
    put_int64(w, 3, expr_id);
    put_string(w, 2, name);
    put_kind(w, 1, e->kind);
    return deepest + 1;
}

/* encode_output's Attribute + pb_prepend_attribute, its fields only. */
static unsigned prepend_attribute(WireCtx *c, const Node *e, NameParts qual) {
    PbRevWriter *w = c->w;
    bool named = e->kind == NK_AttributeReference || e->kind == NK_Alias;
    if (named) put_name_parts(w, 5, qual.n ? qual : e->u.attr.qualifier);
    const Node *te = (e->kind == NK_Alias && !e->type && e->nkids) ? e->kids[0] : e;
    put_bool(w, 4, (te->flags & NF_NULLABLE) != 0);
    unsigned deepest = te->type ? put_data_type(c, 3, te->type) : 0;
    if (named) {
        put_int64(w, 2, (int64_t)e->u.attr.id);
        put_string(w, 1, e->u.attr.name);
    } else {
        put_string(w, 1, expr_auto_name(c->a, e));
    }
    return deepest + 1;
}

/* encode_plan + pb_prepend_resolved_plan */
static unsigned prepend_plan(WireCtx *c, const Node *p) {
    PbRevWriter *w = c->w;
    unsigned deepest = 0;
    if (c->details) {
        sb_truncate(&c->scratch, 0);
        plan_node_print(&c->scratch, p);
        put_string(w, 8, scratch_string(c));
        size_t n = 0;
        const Node **out = plan_output_exprs(c->a, p, &n);
        NameParts qual = {0};
        if (p->kind == NK_SubqueryAlias) qual = p->u.alias.name;
        for (size_t i = n; i-- > 0;) {
            size_t since = written(w);
            unsigned d = prepend_attribute(c, out[i], qual);
            close_len_field(w, 7, since);
            if (d > deepest) deepest = d;
        }
    }
    unsigned d = put_origin(w, 6, p);
    if (d > deepest) deepest = d;
    if (p->plan_id >= 0) {
        put_varint(w, (uint64_t)(int64_t)p->plan_id);
        put_tag(w, 5, WT_VARINT);
    }
    switch (p->kind) {
    case NK_Relation: put_name_parts(w, 4, p->u.relation.name); break;
    case NK_SubqueryAlias: put_name_parts(w, 4, p->u.alias.name); break;
    case NK_View: put_name_parts(w, 4, p->u.view.name); break;
    case NK_UnresolvedRelation: put_name_parts(w, 4, p->u.un.name); break;
    case NK_CTERelationDef:
    case NK_CTERelationRef:
        if (p->u.cte.name) put_string_always(w, 4, p->u.cte.name);
        break;
    default:
        if (node_kind_is_command(p->kind)) put_name_parts(w, 4, p->u.ddl.name);
        break;
    }
    for (uint32_t i = p->nexprs; i-- > 0;) {
        size_t since = written(w);
        d = prepend_expr(c, p->exprs[i]);
        close_len_field(w, 3, since);
        if (d > deepest) deepest = d;
    }
    for (uint32_t i = p->nkids; i-- > 0;) {
        size_t since = written(w);
        d = prepend_plan(c, p->kids[i]);
        close_len_field(w, 2, since);
        if (d > deepest) deepest = d;
    }
    put_kind(w, 1, p->kind);
    return deepest + 1;
}

unsigned plan_wire_prepend_plan(PbRevWriter *w, Arena *a, const Node *plan, bool details) {
    WireCtx c = {.w = w, .a = a, .details = details};
    sb_init(&c.scratch, a, 256);
    return prepend_plan(&c, plan);
}

unsigned plan_wire_prepend_output(PbRevWriter *w, Arena *a, const Node *plan, size_t *n) {
    WireCtx c = {.w = w, .a = a};
    const Node **out = plan_output_exprs(a, plan, n);
    /* A SubqueryAlias on top requalifies its output (encode_output). */
    NameParts qual = {0};
    if (plan && plan->kind == NK_SubqueryAlias) qual = plan->u.alias.name;
    unsigned deepest = 0;
    for (size_t i = *n; i-- > 0;) {
        unsigned d = prepend_attribute(&c, out[i], qual);
        if (d > deepest) deepest = d;
    }
    return deepest;
}

Catalyzer__V1__Attribute **plan_wire_output(Arena *a, const Node *plan, size_t *n, unsigned *depth) {
    PbRevWriter w;
    pb_rev_writer_init(&w);
    WireCtx c = {.w = &w, .a = a};
    const Node **out = plan_output_exprs(a, plan, n);
    NameParts qual = {0};
    if (plan && plan->kind == NK_SubqueryAlias) qual = plan->u.alias.name;
    /* all in one writer (its caches shared), each one's bytes noted by their
       distance from the end, then each carried */
    size_t *from = ARENA_ARRAY(a, size_t, *n + 1);
    *depth = 0;
    from[*n] = 0;
    for (size_t i = *n; i-- > 0;) {
        unsigned d = prepend_attribute(&c, out[i], qual);
        if (d > *depth) *depth = d;
        from[i] = written(&w);
    }
    Catalyzer__V1__Attribute **v = w.failed ? NULL : ARENA_ARRAY(a, Catalyzer__V1__Attribute *, *n ? *n : 1);
    const uint8_t *end = w.buf ? w.buf + w.cap : NULL; /* no attribute: nothing written */
    for (size_t i = 0; i < *n && v; i++) {
        v[i] = attribute_carrier(a, end - from[i], from[i] - from[i + 1]);
        if (!v[i]) v = NULL;
    }
    pb_rev_writer_free(&w);
    return v;
}
