/* Higher-order functions: the types of their lambda variables (so the rule
 * engine can bind them before resolving the body) and their result types.
 * A LambdaFunction node has kids[0] = body, kids[1..] = NamedLambdaVariable. */
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"
#include "core/func_sig.h"

static const Node *lambda_body(const Node *l) {
    return l && l->kind == NK_LambdaFunction && l->nkids ? l->kids[0] : NULL;
}

static const DataType *body_type(TypeCtx *c, int i) {
    const Node *b = i < c->nargs ? lambda_body(c->args[i]) : NULL;
    return b && b->type ? b->type : &TYPE_NULL;
}

static bool need(TypeCtx *c, int i, TypeId id) {
    if (c->args[i]->type->id == id) return true;
    fn_typer_error(c, i, id == T_ARRAY ? 'A' : 'm');
    return false;
}

bool ty_transform(TypeCtx *c) {
    if (!need(c, 0, T_ARRAY)) return false;
    const Node *b = lambda_body(c->args[1]);
    c->result = type_array(c->an->arena, body_type(c, 1), b ? fn_expr_nullable(b) : true);
    return true;
}

/* filter, array_sort(arr, cmp), map_filter: the input's type */
bool ty_same_as_input(TypeCtx *c) {
    c->result = c->args[0]->type;
    return true;
}

/* a predicate lambda (functionType BooleanType, checked by ExpectsInputTypes
 * without implicit casts) */
static bool need_boolean_lambda(TypeCtx *c, int i) {
    if (i >= c->nargs || body_type(c, i)->id == T_BOOLEAN) return true;
    fn_typer_error_type(c, i, &TYPE_BOOLEAN);
    return false;
}

/* filter(array, x -> boolean) */
bool ty_filter(TypeCtx *c) {
    if (!need(c, 0, T_ARRAY) || !need_boolean_lambda(c, 1)) return false;
    c->result = c->args[0]->type;
    return true;
}

/* map_filter(map, (k, v) -> boolean) */
bool ty_map_filter(TypeCtx *c) {
    if (!need(c, 0, T_MAP) || !need_boolean_lambda(c, 1)) return false;
    c->result = c->args[0]->type;
    return true;
}

/* array_sort(array[, (l, r) -> int]) */
bool ty_array_sort(TypeCtx *c) {
    if (!need(c, 0, T_ARRAY)) return false;
    if (c->nargs > 1 && lambda_body(c->args[1]) && body_type(c, 1)->id != T_INT) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.UNEXPECTED_RETURN_TYPE", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "functionName", "`lambdafunction`", "expectedType",
                                  "\"INT\"", "actualType", sql_type_quoted(a, body_type(c, 1)), NULL));
        return false;
    }
    c->result = c->args[0]->type;
    return true;
}

bool ty_exists(TypeCtx *c) {
    if (!need(c, 0, T_ARRAY) || !need_boolean_lambda(c, 1)) return false;
    c->result = &TYPE_BOOLEAN;
    return true;
}

static Node *identity_lambda(Analysis *an, const DataType *t) {
    Arena *a = an->arena;
    Node *v = node_new(a, NK_NamedLambdaVariable, -1, -1);
    v->u.attr.name = "id";
    v->u.attr.id = an_new_id(an);
    v->type = t;
    v->flags |= NF_NULLABLE;
    node_finish(v);
    Node *l = node_new(a, NK_LambdaFunction, -1, -1);
    Node *kids[2] = {v, v};
    node_set_kids(a, l, kids, 2);
    l->type = t;
    return node_finish(l);
}

/* Spark's DataType.equalsStructurally(ignoreNullability = true): field
 * names do not matter */
static bool same_structure(const DataType *x, const DataType *y) {
    if (x->id != y->id) return false;
    switch (x->id) {
    case T_ARRAY: return same_structure(x->elem, y->elem);
    case T_MAP: return same_structure(x->elem, y->elem) && same_structure(x->value, y->value);
    case T_STRUCT:
        if (x->nfields != y->nfields) return false;
        for (int i = 0; i < x->nfields; i++)
            if (!same_structure(x->fields[i].type, y->fields[i].type)) return false;
        return true;
    default: return type_same(x, y);
    }
}

/* aggregate/reduce(arr, zero, merge[, finish]) */
bool ty_aggregate(TypeCtx *c) {
    if (!need(c, 0, T_ARRAY)) return false;
    if (c->nargs == 3) {
        Node **v = ARENA_ARRAY(c->an->arena, Node *, 4);
        memcpy(v, c->args, sizeof(Node *) * 3);
        v[3] = identity_lambda(c->an, c->args[1]->type);
        c->args = v;
        c->nargs = 4;
    }
    /* functionTypes = zero.dataType :: AnyDataType: the merge lambda returns
       the accumulator's type */
    const DataType *zero = c->args[1]->type;
    if (!same_structure(zero, body_type(c, 2))) {
        fn_typer_error_type(c, 2, zero);
        return false;
    }
    c->result = body_type(c, 3);
    c->nullable = 1;
    return true;
}

bool ty_zip_with(TypeCtx *c) {
    if (!need(c, 0, T_ARRAY) || !need(c, 1, T_ARRAY)) return false;
    c->result = type_array(c->an->arena, body_type(c, 2), true);
    return true;
}

bool ty_transform_keys(TypeCtx *c) {
    if (!need(c, 0, T_MAP)) return false;
    const DataType *m = c->args[0]->type;
    c->result = type_map(c->an->arena, body_type(c, 1), m->value, m->contains_null);
    return true;
}

bool ty_transform_values(TypeCtx *c) {
    if (!need(c, 0, T_MAP)) return false;
    const DataType *m = c->args[0]->type;
    const Node *b = lambda_body(c->args[1]);
    c->result = type_map(c->an->arena, m->elem, body_type(c, 1), b ? fn_expr_nullable(b) : true);
    return true;
}

/* MapZipWithCoercion: two maps whose key types differ are cast to maps
 * keyed by the wider type, unless the cast could make a key null
 * (Cast.forceNullable: a string key beside a number, date, timestamp):
 *     map_zip_with(map<tinyint,..> a, map<smallint,..> b, f)
 *       → map_zip_with(cast(a as map<smallint,..>), b, f)
 * Runs before the lambda is bound, so `k` has the wider type. */
/* The key type map_zip_with's maps are cast to (MapZipWithCoercion: the
 * wider type without string promotion), NULL if none. */
static const DataType *zip_key_type(Arena *a, const DataType *l, const DataType *r) {
    return type_same(l, r) ? l : fn_wider_no_string(a, l, r);
}

void fn_map_zip_with_coerce(Analysis *an, Node **args, int nargs) {
    if (nargs < 2 || !args[0]->type || !args[1]->type || args[0]->type->id != T_MAP || args[1]->type->id != T_MAP)
        return;
    const DataType *l = args[0]->type, *r = args[1]->type;
    if (type_same(l->elem, r->elem)) return;
    if (type_is_string(l->elem) != type_is_string(r->elem)) return;
    const DataType *k = coerce_wider_type(an->arena, l->elem, r->elem);
    if (!k) return;
    for (int i = 0; i < 2; i++) {
        const DataType *t = args[i]->type;
        if (!type_same(t->elem, k))
            args[i] = fn_mk_cast(an, args[i], type_map(an->arena, k, t->value, t->contains_null));
    }
}

bool ty_map_zip_with(TypeCtx *c) {
    if (!need(c, 0, T_MAP) || !need(c, 1, T_MAP)) return false;
    fn_map_zip_with_coerce(c->an, c->args, c->nargs);
    const DataType *lk = c->args[0]->type->elem, *rk = c->args[1]->type->elem;
    if (!type_same(lk, rk)) {
        Arena *a = c->an->arena;
        an_fail(c->an, error_make(a, "DATATYPE_MISMATCH.MAP_ZIP_WITH_DIFF_TYPES", c->orig, "sqlExpr",
                                  fn_call_sql_quoted(c), "functionName", sql_ident(a, "map_zip_with"), "leftType",
                                  sql_type_quoted(a, lk), "rightType", sql_type_quoted(a, rk), NULL));
        return false;
    }
    c->result = type_map(c->an->arena, lk, body_type(c, 2), true);
    return true;
}

static int set_types(const DataType **out, int max, const DataType *a, const DataType *b, const DataType *c3, int n) {
    const DataType *v[3] = {a, b, c3};
    int k = n < max ? n : max;
    for (int i = 0; i < k; i++) out[i] = v[i];
    return n;
}

int func_lambda_arg_types(Analysis *an, const FuncDef *def, Node *const *args, int nargs, int i,
                          const DataType **types, int max) {
    (void)an;
    if (!def || !(def->flags & FD_LAMBDA) || i >= nargs || i == 0) return -1;
    const DataType *t0 = args[0]->type ? args[0]->type : &TYPE_NULL;
    const DataType *e = t0->id == T_ARRAY ? t0->elem : &TYPE_NULL;
    const DataType *k = t0->id == T_MAP ? t0->elem : &TYPE_NULL;
    const DataType *v = t0->id == T_MAP ? t0->value : &TYPE_NULL;
    const char *n = def->name;
    if (!strcasecmp(n, "transform") || !strcasecmp(n, "filter"))
        return set_types(types, max, e, &TYPE_INT, NULL, 2);
    if (!strcasecmp(n, "exists") || !strcasecmp(n, "forall")) return set_types(types, max, e, NULL, NULL, 1);
    if (!strcasecmp(n, "array_sort")) return set_types(types, max, e, e, NULL, 2);
    if (!strcasecmp(n, "aggregate") || !strcasecmp(n, "reduce")) {
        const DataType *acc = nargs > 1 && args[1]->type ? args[1]->type : &TYPE_NULL;
        if (i == 2) return set_types(types, max, acc, e, NULL, 2);
        /* the finish lambda's accumulator is the zero's type (bindInternal) */
        if (i == 3) return set_types(types, max, acc, NULL, NULL, 1);
        return -1;
    }
    if (!strcasecmp(n, "zip_with")) {
        const DataType *t1 = nargs > 1 && args[1]->type && args[1]->type->id == T_ARRAY ? args[1]->type->elem : &TYPE_NULL;
        return i == 2 ? set_types(types, max, e, t1, NULL, 2) : -1;
    }
    if (!strcasecmp(n, "map_filter") || !strcasecmp(n, "transform_keys") || !strcasecmp(n, "transform_values"))
        return set_types(types, max, k, v, NULL, 2);
    if (!strcasecmp(n, "map_zip_with")) {
        const DataType *v2 = nargs > 1 && args[1]->type && args[1]->type->id == T_MAP ? args[1]->type->value : &TYPE_NULL;
        if (nargs > 1 && args[1]->type && args[1]->type->id == T_MAP && k) {
            const DataType *w = zip_key_type(an->arena, k, args[1]->type->elem);
            if (w) k = w;
        }
        return i == 2 ? set_types(types, max, k, v, v2, 3) : -1;
    }
    return -1;
}
