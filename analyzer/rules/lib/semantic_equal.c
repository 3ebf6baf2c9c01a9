/* Semantic equality of resolved expressions (lib/semantic_equal.h). */
#include <string.h>

#include "semantic_equal.h"

static bool value_equal(const Value *a, const Value *b) {
    if (a->is_null != b->is_null || !type_equal(a->type, b->type)) return false;
    if (a->is_null) return true;
    switch (a->type->id) {
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR:
    case T_BINARY: return a->u.s.len == b->u.s.len && memcmp(a->u.s.p, b->u.s.p, a->u.s.len) == 0;
    case T_FLOAT:
    case T_DOUBLE: return a->u.d == b->u.d;
    case T_DECIMAL: return a->u.dec == b->u.dec;
    case T_BOOLEAN: return a->u.b == b->u.b;
    case T_CALENDAR_INTERVAL:
        return a->u.iv.months == b->u.iv.months && a->u.iv.days == b->u.iv.days && a->u.iv.micros == b->u.iv.micros;
    case T_DT_INTERVAL: return a->u.iv.micros == b->u.iv.micros;
    case T_ARRAY:
    case T_MAP:
    case T_STRUCT: return false;
    default: return a->u.i == b->u.i;
    }
}

bool expr_semantic_equal(const Node *a, const Node *b) {
    if (a == b) return true;
    if (a->kind != b->kind || a->nkids != b->nkids) return false;
    if ((a->flags & (NF_DISTINCT | NF_HAS_FILTER)) != (b->flags & (NF_DISTINCT | NF_HAS_FILTER))) return false;
    if (a->type && b->type && !type_equal(a->type, b->type)) return false;
    switch (a->kind) {
    case NK_AttributeReference:
    case NK_NamedLambdaVariable: return a->u.attr.id == b->u.attr.id;
    case NK_Alias:
        if (strcmp(a->u.attr.name, b->u.attr.name) != 0) return false;
        break;
    case NK_Literal: return value_equal(&a->u.lit.v, &b->u.lit.v);
    case NK_Call:
        if (a->u.call.def != b->u.call.def) return false;
        break;
    case NK_Cast:
        if (a->u.cast.try_ != b->u.cast.try_) return false;
        break;
    case NK_SortOrder:
        if (a->u.sort_order.descending != b->u.sort_order.descending ||
            a->u.sort_order.nulls_first != b->u.sort_order.nulls_first)
            return false;
        break;
    case NK_GetStructField:
        if (a->u.field.ordinal != b->u.field.ordinal) return false;
        break;
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_ListQuery:
    case NK_InSubquery:
    case NK_LateralSubquery: return a->u.subq.id && a->u.subq.id == b->u.subq.id;
    case NK_VariableReference: return strcmp(a->u.attr.name, b->u.attr.name) == 0;
    case NK_SpecifiedWindowFrame:
        if (a->u.frame.type != b->u.frame.type) return false;
        break;
    case NK_FrameBoundary: return a->u.bound.type == b->u.bound.type;
    case NK_WindowSpecDefinition:
        if (a->u.wspec.npartition != b->u.wspec.npartition || a->u.wspec.norder != b->u.wspec.norder) return false;
        break;
    default:
        if (node_kind_is_unresolved(a->kind)) return false;
        break;
    }
    for (uint32_t i = 0; i < a->nkids; i++)
        if (!expr_semantic_equal(a->kids[i], b->kids[i])) return false;
    return true;
}
