/* IR → protobuf encoder (see plan_encode.h). Generic over node kinds: the
 * kind name comes from node_kinds.def, so new kinds need no change here. */
#include "plan_encode.h"

#include <stdint.h>
#include <string.h>

#include "print/printer.h"

#define NEW(T, INIT)                      \
    ({                                    \
        T *p_ = arena_alloc(a, sizeof(T)); \
        *p_ = (T)INIT;                    \
        p_;                               \
    })

static const char *S(const char *s) { return s ? s : ""; }

static char **name_strings(Arena *a, NameParts np, size_t *n) {
    *n = np.n;
    if (!np.n) return NULL;
    /* The IR's own array when it has no NULL: messages are only read, and
     * attributes copied from one another share it (plan_pack.c then copies
     * its packed bytes). */
    uint32_t k = 0;
    while (k < np.n && np.v[k]) k++;
    if (k == np.n) return (char **)np.v;
    char **v = ARENA_ARRAY(a, char *, np.n);
    for (uint32_t i = 0; i < np.n; i++) v[i] = (char *)S(np.v[i]);
    return v;
}

/* One encoding's state. Each expression carries its type, and printing a
 * type's catalog string dominated the encoder; types are shared by many
 * nodes, so every distinct DataType is encoded once and its message shared
 * (packing only reads the messages, so the bytes do not change). */
enum { TYPE_MEMO_SLOTS = 512 }; /* a power of two; a full table just stops caching */
typedef struct EncodeCtx {
    Arena *a;
    bool details;
    const DataType *memo_key[TYPE_MEMO_SLOTS];
    Catalyzer__V1__DataType *memo_val[TYPE_MEMO_SLOTS];
} EncodeCtx;

static Catalyzer__V1__DataType *datatype_encode_memo(EncodeCtx *c, const DataType *t) {
    if (!t) return datatype_encode(c->a, t);
    size_t h = ((uintptr_t)t >> 4) & (TYPE_MEMO_SLOTS - 1);
    for (size_t probe = 0; probe < TYPE_MEMO_SLOTS; probe++, h = (h + 1) & (TYPE_MEMO_SLOTS - 1)) {
        if (c->memo_key[h] == t) return c->memo_val[h];
        if (!c->memo_key[h]) {
            c->memo_key[h] = t;
            c->memo_val[h] = datatype_encode(c->a, t);
            return c->memo_val[h];
        }
    }
    return datatype_encode(c->a, t);
}

Catalyzer__V1__DataType__Kind datatype_kind(TypeId id) {
    static const Catalyzer__V1__DataType__Kind K[T_COUNT_] = {
        [T_NULL] = CATALYZER__V1__DATA_TYPE__KIND__KIND_NULL,
        [T_BOOLEAN] = CATALYZER__V1__DATA_TYPE__KIND__KIND_BOOLEAN,
        [T_BYTE] = CATALYZER__V1__DATA_TYPE__KIND__KIND_BYTE,
        [T_SHORT] = CATALYZER__V1__DATA_TYPE__KIND__KIND_SHORT,
        [T_INT] = CATALYZER__V1__DATA_TYPE__KIND__KIND_INTEGER,
        [T_LONG] = CATALYZER__V1__DATA_TYPE__KIND__KIND_LONG,
        [T_FLOAT] = CATALYZER__V1__DATA_TYPE__KIND__KIND_FLOAT,
        [T_DOUBLE] = CATALYZER__V1__DATA_TYPE__KIND__KIND_DOUBLE,
        [T_DECIMAL] = CATALYZER__V1__DATA_TYPE__KIND__KIND_DECIMAL,
        [T_STRING] = CATALYZER__V1__DATA_TYPE__KIND__KIND_STRING,
        [T_CHAR] = CATALYZER__V1__DATA_TYPE__KIND__KIND_CHAR,
        [T_VARCHAR] = CATALYZER__V1__DATA_TYPE__KIND__KIND_VARCHAR,
        [T_BINARY] = CATALYZER__V1__DATA_TYPE__KIND__KIND_BINARY,
        [T_DATE] = CATALYZER__V1__DATA_TYPE__KIND__KIND_DATE,
        [T_TIMESTAMP] = CATALYZER__V1__DATA_TYPE__KIND__KIND_TIMESTAMP,
        [T_TIMESTAMP_NTZ] = CATALYZER__V1__DATA_TYPE__KIND__KIND_TIMESTAMP_NTZ,
        [T_YM_INTERVAL] = CATALYZER__V1__DATA_TYPE__KIND__KIND_YEAR_MONTH_INTERVAL,
        [T_DT_INTERVAL] = CATALYZER__V1__DATA_TYPE__KIND__KIND_DAY_TIME_INTERVAL,
        [T_CALENDAR_INTERVAL] = CATALYZER__V1__DATA_TYPE__KIND__KIND_CALENDAR_INTERVAL,
        [T_ARRAY] = CATALYZER__V1__DATA_TYPE__KIND__KIND_ARRAY,
        [T_MAP] = CATALYZER__V1__DATA_TYPE__KIND__KIND_MAP,
        [T_STRUCT] = CATALYZER__V1__DATA_TYPE__KIND__KIND_STRUCT,
        [T_VARIANT] = CATALYZER__V1__DATA_TYPE__KIND__KIND_VARIANT,
    };
    return id < T_COUNT_ ? K[id] : CATALYZER__V1__DATA_TYPE__KIND__KIND_UNSPECIFIED;
}

Catalyzer__V1__DataType *datatype_encode(Arena *a, const DataType *t) {
    Catalyzer__V1__DataType *o = NEW(Catalyzer__V1__DataType, CATALYZER__V1__DATA_TYPE__INIT);
    if (!t) return o;
    o->kind = datatype_kind(t->id);
    o->precision = t->precision;
    o->scale = t->scale;
    o->length = t->length;
    o->start_field = t->start_field;
    o->end_field = t->end_field;
    o->contains_null = t->contains_null;
    if (t->id == T_ARRAY || t->id == T_MAP) o->element_type = datatype_encode(a, t->elem);
    if (t->id == T_MAP) o->value_type = datatype_encode(a, t->value);
    if (t->id == T_STRUCT && t->nfields > 0) {
        o->n_fields = (size_t)t->nfields;
        o->fields = ARENA_ARRAY(a, Catalyzer__V1__DataType__StructField *, t->nfields);
        for (int i = 0; i < t->nfields; i++) {
            Catalyzer__V1__DataType__StructField *f =
                NEW(Catalyzer__V1__DataType__StructField, CATALYZER__V1__DATA_TYPE__STRUCT_FIELD__INIT);
            f->name = (char *)S(t->fields[i].name);
            f->type = datatype_encode(a, t->fields[i].type);
            f->nullable = t->fields[i].nullable;
            o->fields[i] = f;
        }
    }
    o->catalog_string = (char *)type_catalog_string(a, t);
    return o;
}

static Catalyzer__V1__Origin *origin(Arena *a, const Node *n) {
    if (n->start < 0) return NULL;
    Catalyzer__V1__Origin *o = NEW(Catalyzer__V1__Origin, CATALYZER__V1__ORIGIN__INIT);
    o->start = n->start;
    o->stop = n->stop;
    return o;
}

static bool is_subquery_kind(NodeKind k) {
    return k == NK_ScalarSubquery || k == NK_Exists || k == NK_ListQuery || k == NK_InSubquery || k == NK_LateralSubquery;
}

static Catalyzer__V1__ResolvedPlan *encode_plan(EncodeCtx *c, const Node *p);
static Catalyzer__V1__Attribute **encode_output(EncodeCtx *c, const Node *plan, size_t *n);

static Catalyzer__V1__ResolvedExpression *encode_expr(EncodeCtx *c, const Node *e) {
    Arena *a = c->a;
    Catalyzer__V1__ResolvedExpression *o = NEW(Catalyzer__V1__ResolvedExpression, CATALYZER__V1__RESOLVED_EXPRESSION__INIT);
    o->kind = (char *)node_kind_name(e->kind);
    o->origin = origin(a, e);
    if (e->type) o->type = datatype_encode_memo(c, e->type);
    o->nullable = (e->flags & NF_NULLABLE) != 0;
    switch (e->kind) {
    case NK_AttributeReference:
    case NK_Alias:
    case NK_NamedLambdaVariable:
    case NK_VariableReference:
        o->name = (char *)S(e->u.attr.name);
        o->expr_id = (int64_t)e->u.attr.id;
        o->qualifier = name_strings(a, e->u.attr.qualifier, &o->n_qualifier);
        break;
    case NK_Call: o->name = (char *)S(e->u.call.name ? e->u.call.name : NULL); break;
    case NK_Literal: {
        StrBuf sb;
        sb_init(&sb, a, 32);
        value_print_sql(&sb, &e->u.lit.v);
        o->value = (char *)sb_str(&sb);
        if (!o->type) o->type = datatype_encode_memo(c, e->u.lit.v.type);
        break;
    }
    case NK_UnresolvedAttribute:
    case NK_UnresolvedFunction:
    case NK_UnresolvedStar:
    case NK_UnresolvedRelation: {
        size_t n;
        char **parts = name_strings(a, e->u.un.name, &n);
        StrBuf sb;
        sb_init(&sb, a, 32);
        for (size_t i = 0; i < n; i++) {
            if (i) sb_putc(&sb, '.');
            sb_puts(&sb, parts[i]);
        }
        o->name = (char *)sb_str(&sb);
        break;
    }
    case NK_GetStructField: o->name = (char *)S(e->u.field.name); break;
    case NK_NamedArgument: o->name = (char *)S(e->u.named.name); break;
    default: break;
    }
    if (is_subquery_kind(e->kind)) {
        o->expr_id = (int64_t)e->u.subq.id;
        if (e->u.subq.plan) o->subquery = encode_plan(c, e->u.subq.plan);
    }
    if (e->nkids) {
        o->n_children = e->nkids;
        o->children = ARENA_ARRAY(a, Catalyzer__V1__ResolvedExpression *, e->nkids);
        for (uint32_t i = 0; i < e->nkids; i++) o->children[i] = encode_expr(c, e->kids[i]);
    }
    return o;
}

static EncodeCtx *encode_ctx_new(Arena *a, bool details) {
    EncodeCtx *c = arena_alloc(a, sizeof *c);
    memset(c, 0, sizeof *c);
    c->a = a;
    c->details = details;
    return c;
}

Catalyzer__V1__ResolvedExpression *expr_encode(Arena *a, const Node *e) { return encode_expr(encode_ctx_new(a, false), e); }

static Catalyzer__V1__ResolvedPlan *encode_plan(EncodeCtx *c, const Node *p) {
    Arena *a = c->a;
    bool details = c->details;
    Catalyzer__V1__ResolvedPlan *o = NEW(Catalyzer__V1__ResolvedPlan, CATALYZER__V1__RESOLVED_PLAN__INIT);
    o->kind = (char *)node_kind_name(p->kind);
    o->origin = origin(a, p);
    if (p->plan_id >= 0) {
        o->plan_id_present_case = CATALYZER__V1__RESOLVED_PLAN__PLAN_ID_PRESENT_PLAN_ID;
        o->plan_id = p->plan_id;
    }
    switch (p->kind) {
    case NK_Relation: o->name = name_strings(a, p->u.relation.name, &o->n_name); break;
    case NK_SubqueryAlias: o->name = name_strings(a, p->u.alias.name, &o->n_name); break;
    case NK_View: o->name = name_strings(a, p->u.view.name, &o->n_name); break;
    case NK_UnresolvedRelation: o->name = name_strings(a, p->u.un.name, &o->n_name); break;
    case NK_CTERelationDef:
    case NK_CTERelationRef:
        if (p->u.cte.name) {
            o->n_name = 1;
            o->name = ARENA_ARRAY(a, char *, 1);
            o->name[0] = (char *)p->u.cte.name;
        }
        break;
    default:
        if (node_kind_is_command(p->kind)) o->name = name_strings(a, p->u.ddl.name, &o->n_name);
        break;
    }
    if (p->nkids) {
        o->n_children = p->nkids;
        o->children = ARENA_ARRAY(a, Catalyzer__V1__ResolvedPlan *, p->nkids);
        for (uint32_t i = 0; i < p->nkids; i++) o->children[i] = encode_plan(c, p->kids[i]);
    }
    if (p->nexprs) {
        o->n_expressions = p->nexprs;
        o->expressions = ARENA_ARRAY(a, Catalyzer__V1__ResolvedExpression *, p->nexprs);
        for (uint32_t i = 0; i < p->nexprs; i++) o->expressions[i] = encode_expr(c, p->exprs[i]);
    }
    if (details) {
        o->output = encode_output(c, p, &o->n_output);
        StrBuf sb;
        sb_init(&sb, a, 64);
        plan_node_print(&sb, p);
        o->description = (char *)sb_str(&sb);
    }
    return o;
}

Catalyzer__V1__ResolvedPlan *plan_encode(Arena *a, const Node *p) { return encode_plan(encode_ctx_new(a, false), p); }

Catalyzer__V1__ResolvedPlan *plan_encode_detailed(Arena *a, const Node *p) { return encode_plan(encode_ctx_new(a, true), p); }

/* ---------------------------------------------------------------- output */

typedef struct OutList {
    const Node **v;
    size_t n, cap;
} OutList;

static void out_push(Arena *a, OutList *l, const Node *e) {
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 16;
        const Node **nv = ARENA_ARRAY(a, const Node *, nc);
        if (l->n) memcpy(nv, l->v, l->n * sizeof *nv);
        l->v = nv;
        l->cap = nc;
    }
    l->v[l->n++] = e;
}

static void collect_output(Arena *a, const Node *p, OutList *out, int depth) {
    if (!p || depth > 10000) return;
    switch (p->kind) {
    case NK_Project:
        for (uint32_t i = 0; i < p->nexprs; i++) out_push(a, out, p->exprs[i]);
        return;
    case NK_Aggregate:
        for (uint32_t i = p->u.aggregate.ngroup; i < p->nexprs; i++) out_push(a, out, p->exprs[i]);
        return;
    case NK_Window:
        if (p->nkids) collect_output(a, p->kids[0], out, depth + 1);
        for (uint32_t i = 0; i < p->u.window.nwindow && i < p->nexprs; i++) out_push(a, out, p->exprs[i]);
        return;
    case NK_Relation:
    case NK_LocalRelation:
    case NK_Range:
    case NK_CTERelationRef:
    case NK_View:
        if (p->kind == NK_View && p->nkids && !p->nexprs) break;
        for (uint32_t i = 0; i < p->nexprs; i++) out_push(a, out, p->exprs[i]);
        return;
    case NK_Expand:
        for (uint32_t i = 0; i < p->u.expand.noutput && i < p->nexprs; i++) out_push(a, out, p->exprs[i]);
        return;
    case NK_Join:
        if (p->nkids == 2) {
            collect_output(a, p->kids[0], out, depth + 1);
            if (p->u.join.type != JOIN_LEFT_SEMI && p->u.join.type != JOIN_LEFT_ANTI)
                collect_output(a, p->kids[1], out, depth + 1);
        }
        return;
    case NK_Generate:
        if (p->nkids) collect_output(a, p->kids[0], out, depth + 1);
        for (uint32_t i = 1; i < p->nexprs; i++) out_push(a, out, p->exprs[i]);
        return;
    case NK_WithCTE:
        if (p->nkids) collect_output(a, p->kids[p->nkids - 1], out, depth + 1);
        return;
    case NK_OneRowRelation: return;
    default: break;
    }
    if (node_kind_is_command(p->kind)) return;
    if (p->nkids) collect_output(a, p->kids[0], out, depth + 1); /* Filter, Sort, Limit, SubqueryAlias, Union, ... */
}

Catalyzer__V1__Attribute **plan_output_encode(Arena *a, const Node *plan, size_t *n) {
    return encode_output(encode_ctx_new(a, false), plan, n);
}

const Node **plan_output_exprs(Arena *a, const Node *plan, size_t *n) {
    OutList l = {0};
    collect_output(a, plan, &l, 0);
    *n = l.n;
    return l.v;
}

static Catalyzer__V1__Attribute **encode_output(EncodeCtx *c, const Node *plan, size_t *n) {
    Arena *a = c->a;
    OutList l = {0};
    l.v = plan_output_exprs(a, plan, &l.n);
    /* A SubqueryAlias on top requalifies its output. */
    NameParts qual = {0};
    if (plan && plan->kind == NK_SubqueryAlias) qual = plan->u.alias.name;
    Catalyzer__V1__Attribute **v = ARENA_ARRAY(a, Catalyzer__V1__Attribute *, l.n ? l.n : 1);
    for (size_t i = 0; i < l.n; i++) {
        const Node *e = l.v[i];
        Catalyzer__V1__Attribute *at = NEW(Catalyzer__V1__Attribute, CATALYZER__V1__ATTRIBUTE__INIT);
        if (e->kind == NK_AttributeReference || e->kind == NK_Alias) {
            at->name = (char *)S(e->u.attr.name);
            at->expr_id = (int64_t)e->u.attr.id;
            at->qualifier = name_strings(a, qual.n ? qual : e->u.attr.qualifier, &at->n_qualifier);
        } else {
            at->name = (char *)expr_auto_name(a, e);
        }
        const Node *te = (e->kind == NK_Alias && !e->type && e->nkids) ? e->kids[0] : e;
        if (te->type) at->type = datatype_encode_memo(c, te->type);
        at->nullable = (te->flags & NF_NULLABLE) != 0;
        v[i] = at;
    }
    *n = l.n;
    return v;
}


unsigned pb_message_depth(const ProtobufCMessage *m) {
    if (!m) return 0;
    const ProtobufCMessageDescriptor *d = m->descriptor;
    unsigned deepest = 0;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->type != PROTOBUF_C_TYPE_MESSAGE) continue;
        const char *at = (const char *)m + f->offset;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)((const char *)m + f->quantifier_offset);
            ProtobufCMessage *const *v = *(ProtobufCMessage *const *const *)at;
            for (size_t k = 0; k < n; k++) {
                unsigned x = pb_message_depth(v[k]);
                if (x > deepest) deepest = x;
            }
            continue;
        }
        if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
            *(const uint32_t *)((const char *)m + f->quantifier_offset) != f->id)
            continue;
        unsigned x = pb_message_depth(*(ProtobufCMessage *const *)at);
        if (x > deepest) deepest = x;
    }
    return deepest + 1;
}
