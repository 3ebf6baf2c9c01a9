/* The constant evaluator's core: expressions by kind, and the plans a
 * constant query is made of (OneRowRelation, LocalRelation, Project, Filter,
 * Aggregate, Union, Join, Sort, limits, CTEs), row by row. Functions are in
 * consteval_funcs.c, casts in consteval_cast.c. Anything that reads a table
 * or is not implemented is "not constant" (EV_NOTCONST), never an error. */
#include <string.h>

#include "consteval_int.h"
#include "core/output.h"

/* ---- values ---- */

Value v_null(const DataType *t) { return (Value){.type = t ? t : &TYPE_NULL, .is_null = true}; }
Value v_bool(bool b) { return (Value){.type = &TYPE_BOOLEAN, .u.b = b}; }
Value v_long(const DataType *t, int64_t i) { return (Value){.type = t, .u.i = i}; }
Value v_double(const DataType *t, double d) { return (Value){.type = t, .u.d = d}; }
Value v_dec(const DataType *t, __int128 unscaled) { return (Value){.type = t, .u.dec = unscaled}; }

Value v_string(Arena *a, const char *p, uint32_t len) {
    char *c = arena_alloc(a, len + 1);
    if (len) mem_copy(c, p, len);
    c[len] = 0;
    Value v = {.type = &TYPE_STRING};
    v.u.s.p = c;
    v.u.s.len = len;
    return v;
}

__int128 pow10_i128(int n) {
    __int128 r = 1;
    for (int i = 0; i < n && i < 38; i++) r *= 10;
    return r;
}

__int128 dec_rescale(__int128 v, int from, int to) {
    if (to >= from) {
        /* saturates on overflow: the result then fails every precision check */
        __int128 r;
        if (to - from > 38 || __builtin_mul_overflow(v, pow10_i128(to - from), &r))
            return v < 0 ? -(((__int128)1 << 126) - 1) * 2 : (((__int128)1 << 126) - 1) * 2;
        return r;
    }
    if (from - to > 38) return 0; /* below half a unit of the target scale */
    __int128 d = pow10_i128(from - to);
    __int128 q = v / d, r = v % d;
    if (r < 0) r = -r;
    if (r * 2 >= d) q += v < 0 ? -1 : 1; /* HALF_UP */
    return q;
}

bool dec_fits(__int128 v, int precision) {
    if (v < 0) v = -v;
    return v < pow10_i128(precision);
}

double value_as_double(const Value *v) {
    switch (v->type->id) {
    case T_BOOLEAN: return v->u.b;
    case T_BYTE:
    case T_SHORT:
    case T_INT:
    case T_LONG: return (double)v->u.i;
    case T_FLOAT:
    case T_DOUBLE: return v->u.d;
    case T_DECIMAL: return (double)v->u.dec / (double)pow10_i128(v->type->scale);
    default: return 0;
    }
}

static int cmp_double(double a, double b) {
    /* Spark orders NaN above everything and equal to itself */
    bool an = a != a, bn = b != b;
    if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
    return a < b ? -1 : a > b ? 1 : 0;
}

int value_cmp(const Value *a, const Value *b) {
    if (a->is_null || b->is_null) return a->is_null == b->is_null ? 0 : (a->is_null ? -1 : 1);
    const DataType *t = a->type;
    switch (t->id) {
    case T_BOOLEAN: return (int)a->u.b - (int)b->u.b;
    case T_BYTE:
    case T_SHORT:
    case T_INT:
    case T_LONG:
    case T_DATE:
    case T_TIMESTAMP:
    case T_TIMESTAMP_NTZ:
    case T_YM_INTERVAL: return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
    case T_DT_INTERVAL: return a->u.iv.micros < b->u.iv.micros ? -1 : a->u.iv.micros > b->u.iv.micros;
    case T_FLOAT:
    case T_DOUBLE: return cmp_double(a->u.d, b->u.d);
    case T_DECIMAL: {
        int sa = a->type->scale, sb = b->type->scale;
        __int128 x = a->u.dec, y = b->u.dec;
        if (sa < sb) x = dec_rescale(x, sa, sb);
        else if (sb < sa) y = dec_rescale(y, sb, sa);
        return x < y ? -1 : x > y;
    }
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR:
    case T_BINARY: {
        uint32_t n = a->u.s.len < b->u.s.len ? a->u.s.len : b->u.s.len;
        int c = n ? memcmp(a->u.s.p, b->u.s.p, n) : 0;
        if (c) return c;
        return a->u.s.len < b->u.s.len ? -1 : a->u.s.len > b->u.s.len;
    }
    case T_CALENDAR_INTERVAL:
        if (a->u.iv.months != b->u.iv.months) return a->u.iv.months < b->u.iv.months ? -1 : 1;
        if (a->u.iv.days != b->u.iv.days) return a->u.iv.days < b->u.iv.days ? -1 : 1;
        return a->u.iv.micros < b->u.iv.micros ? -1 : a->u.iv.micros > b->u.iv.micros;
    case T_ARRAY:
    case T_STRUCT:
    case T_MAP: {
        uint32_t na = t->id == T_MAP ? a->u.list.n * 2 : a->u.list.n;
        uint32_t nb = t->id == T_MAP ? b->u.list.n * 2 : b->u.list.n;
        for (uint32_t i = 0; i < na && i < nb; i++) {
            int c = value_cmp(&a->u.list.items[i], &b->u.list.items[i]);
            if (c) return c;
        }
        return na < nb ? -1 : na > nb;
    }
    default: return 0;
    }
}

bool value_same(const Value *a, const Value *b) {
    if (a->is_null || b->is_null) return a->is_null && b->is_null;
    return value_cmp(a, b) == 0;
}

EvStatus ev_fail(Eval *ev, ErrorInfo *err) {
    err->phase = "execution";
    an_fail(ev->an, err);
    return EV_ERROR;
}

/* ---- expressions ---- */

static const Value *lookup_attr(const Eval *ev, ExprId id, bool outer_only) {
    const EvalEnv *env = ev->env;
    if (outer_only && env) env = env->outer;
    for (; env; env = env->outer)
        for (uint32_t i = 0; i < env->attrs.n; i++)
            if (env->attrs.v[i]->u.attr.id == id) return &env->row[i];
    return NULL;
}

static EvStatus eval_case(Eval *ev, const Node *e, Value *out) {
    uint32_t n = e->nkids, pairs = e->u.casew.has_else ? (n - 1) / 2 : n / 2;
    for (uint32_t i = 0; i < pairs; i++) {
        Value c;
        EvStatus st = ev_expr(ev, e->kids[2 * i], &c);
        if (st) return st;
        if (!c.is_null && c.u.b) return ev_expr(ev, e->kids[2 * i + 1], out);
    }
    if (e->u.casew.has_else) return ev_expr(ev, e->kids[n - 1], out);
    *out = v_null(e->type);
    return EV_OK;
}

/* v IN (list): true, false, or null when no match and a null was seen. */
static EvStatus eval_in_values(const Value *v, const Value *list, uint32_t n, const DataType *t, Value *out) {
    (void)t;
    if (v->is_null) {
        *out = v_null(&TYPE_BOOLEAN);
        return EV_OK;
    }
    bool saw_null = false;
    for (uint32_t i = 0; i < n; i++) {
        if (list[i].is_null) {
            saw_null = true;
            continue;
        }
        if (value_cmp(v, &list[i]) == 0) {
            *out = v_bool(true);
            return EV_OK;
        }
    }
    *out = saw_null ? v_null(&TYPE_BOOLEAN) : v_bool(false);
    return EV_OK;
}

static EvStatus eval_subquery_rows(Eval *ev, const Node *e, Rows *r) {
    if (ev->depth > EV_MAX_DEPTH) return EV_NOTCONST;
    ev->depth++;
    EvStatus st = ev_plan(ev, e->u.subq.plan, r);
    ev->depth--;
    return st;
}

static EvStatus eval_struct_field(Eval *ev, const Node *e, Value *out) {
    Value s;
    EvStatus st = ev_expr(ev, e->kids[0], &s);
    if (st) return st;
    if (s.is_null) {
        *out = v_null(e->type);
        return EV_OK;
    }
    int32_t i = e->u.field.ordinal;
    if (i < 0 || (uint32_t)i >= s.u.list.n) return EV_NOTCONST;
    *out = s.u.list.items[i];
    if (out->is_null) *out = v_null(e->type);
    return EV_OK;
}

EvStatus ev_expr(Eval *ev, const Node *e, Value *out) {
    if (an_failed(ev->an)) return EV_ERROR;
    /* evaluation is the request's work like the rules': a cancel or the
       deadline stops it (rows of constant relations, folds over arrays) */
    if ((++ev->ticks & 1023) == 0 && an_out_of_time(ev->an)) return EV_ERROR;
    switch (e->kind) {
    case NK_Literal:
        *out = e->u.lit.v;
        if (!out->type) out->type = e->type ? e->type : &TYPE_NULL;
        return EV_OK;
    case NK_VariableReference:
        if (!e->u.attr.value || e->u.attr.value->unknown) return EV_NOTCONST;
        *out = *e->u.attr.value;
        if (out->is_null) out->type = e->type ? e->type : out->type;
        return EV_OK;
    case NK_Alias: return ev_expr(ev, e->kids[0], out);
    case NK_AttributeReference: {
        const Value *v = lookup_attr(ev, e->u.attr.id, false);
        if (!v) return EV_NOTCONST;
        *out = *v;
        return EV_OK;
    }
    case NK_OuterReference: {
        const Node *a = e->kids[0];
        const Value *v = a->kind == NK_AttributeReference ? lookup_attr(ev, a->u.attr.id, true) : NULL;
        if (!v) return EV_NOTCONST;
        *out = *v;
        return EV_OK;
    }
    case NK_Cast: {
        Value in;
        EvStatus st = ev_expr(ev, e->kids[0], &in);
        if (st) return st;
        if (e->u.cast.try_) {
            /* try_cast: null instead of an error */
            ErrorInfo *saved = ev->an->error;
            st = ev_cast(ev, &in, e->type, e, out);
            if (st == EV_ERROR) {
                ev->an->error = saved;
                *out = v_null(e->type);
                return EV_OK;
            }
            return st;
        }
        return ev_cast(ev, &in, e->type, e, out);
    }
    case NK_Call: return ev_call(ev, e, out);
    case NK_CaseWhen: return eval_case(ev, e, out);
    case NK_In: {
        Value v;
        EvStatus st = ev_expr(ev, e->kids[0], &v);
        if (st) return st;
        uint32_t n = e->nkids - 1;
        Value *list = ARENA_ARRAY(ev->an->arena, Value, n + 1);
        for (uint32_t i = 0; i < n; i++)
            if ((st = ev_expr(ev, e->kids[i + 1], &list[i]))) return st;
        return eval_in_values(&v, list, n, e->kids[0]->type, out);
    }
    case NK_GetStructField: return eval_struct_field(ev, e, out);
    case NK_ScalarSubquery: {
        Rows r;
        EvStatus st = eval_subquery_rows(ev, e, &r);
        if (st) return st;
        if (r.n > 1)
            return ev_fail(ev, error_make(ev->an->arena, "SCALAR_SUBQUERY_TOO_MANY_ROWS", e, NULL));
        if (r.n == 0 || r.ncols == 0) *out = v_null(e->type);
        else {
            *out = r.v[0];
            if (out->is_null) out->type = e->type;
        }
        return EV_OK;
    }
    case NK_Exists: {
        Rows r;
        EvStatus st = eval_subquery_rows(ev, e, &r);
        if (st) return st;
        *out = v_bool(r.n > 0);
        return EV_OK;
    }
    case NK_InSubquery: {
        uint32_t nv = e->u.subq.nvalues;
        Value *vals = ARENA_ARRAY(ev->an->arena, Value, nv + 1);
        EvStatus st;
        for (uint32_t i = 0; i < nv; i++)
            if ((st = ev_expr(ev, e->kids[i], &vals[i]))) return st;
        Rows r;
        if ((st = eval_subquery_rows(ev, e, &r))) return st;
        if (nv == 1 && r.ncols == 1) {
            return eval_in_values(&vals[0], r.v, r.n, e->kids[0]->type, out);
        }
        return EV_NOTCONST;
    }
    case NK_AggregateExpression: return ev_aggregate(ev, e, out);
    case NK_ExprList: {
        /* a row value: a struct of its items */
        Value *items = ARENA_ARRAY(ev->an->arena, Value, e->nkids + 1);
        for (uint32_t i = 0; i < e->nkids; i++) {
            EvStatus st = ev_expr(ev, e->kids[i], &items[i]);
            if (st) return st;
        }
        *out = (Value){.type = e->type ? e->type : &TYPE_NULL};
        out->u.list.items = items;
        out->u.list.n = e->nkids;
        return EV_OK;
    }
    default: return EV_NOTCONST;
    }
}

/* ---- plans ---- */

static EvStatus rows_alloc(Eval *ev, Rows *r, uint32_t n, uint32_t ncols) {
    if (n > EV_MAX_ROWS || (uint64_t)n * ncols > 10 * (uint64_t)EV_MAX_ROWS) return EV_NOTCONST;
    r->n = n;
    r->ncols = ncols;
    r->v = ARENA_ARRAY(ev->an->arena, Value, (size_t)n * ncols + 1);
    return EV_OK;
}

/* Evaluates exprs for each row of child (rows laid out as child's output). */
static EvStatus project_rows(Eval *ev, Node *const *exprs, uint32_t n, AttrList in, const Rows *child, Rows *out) {
    EvStatus st = rows_alloc(ev, out, child->n, n);
    if (st) return st;
    const EvalEnv *saved = ev->env;
    for (uint32_t r = 0; r < child->n; r++) {
        EvalEnv env = {in, child->v + (size_t)r * child->ncols, saved};
        ev->env = &env;
        for (uint32_t c = 0; c < n; c++) {
            st = ev_expr(ev, exprs[c], &out->v[(size_t)r * n + c]);
            if (st) {
                ev->env = saved;
                return st;
            }
        }
    }
    ev->env = saved;
    return EV_OK;
}

static EvStatus filter_rows(Eval *ev, const Node *cond, AttrList in, const Rows *child, Rows *out) {
    EvStatus st = rows_alloc(ev, out, child->n, child->ncols);
    if (st) return st;
    out->n = 0;
    const EvalEnv *saved = ev->env;
    for (uint32_t r = 0; r < child->n; r++) {
        const Value *row = child->v + (size_t)r * child->ncols;
        EvalEnv env = {in, row, saved};
        ev->env = &env;
        Value c;
        st = ev_expr(ev, cond, &c);
        ev->env = saved;
        if (st) return st;
        if (!c.is_null && c.u.b) {
            mem_copy(out->v + (size_t)out->n * child->ncols, row, sizeof(Value) * child->ncols);
            out->n++;
        }
    }
    return EV_OK;
}

static bool row_same(const Value *a, const Value *b, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (!value_same(&a[i], &b[i])) return false;
    return true;
}

static EvStatus distinct_rows(Eval *ev, const Rows *in, Rows *out) {
    if (in->n > EV_MAX_QUADRATIC) return EV_NOTCONST;
    EvStatus st = rows_alloc(ev, out, in->n, in->ncols);
    if (st) return st;
    out->n = 0;
    for (uint32_t r = 0; r < in->n; r++) {
        const Value *row = in->v + (size_t)r * in->ncols;
        bool dup = false;
        for (uint32_t k = 0; k < out->n && !dup; k++) dup = row_same(row, out->v + (size_t)k * in->ncols, in->ncols);
        if (!dup) mem_copy(out->v + (size_t)out->n++ * in->ncols, row, sizeof(Value) * in->ncols);
    }
    return EV_OK;
}

static EvStatus aggregate_rows(Eval *ev, const Node *p, const Rows *child, Rows *out) {
    Analysis *an = ev->an;
    AttrList in = plan_output(an, p->kids[0]);
    uint32_t ng = p->u.aggregate.ngroup, na = p->nexprs - ng;
    if (ng && child->n > EV_MAX_QUADRATIC) return EV_NOTCONST; /* grouping is quadratic here */
    /* group keys */
    uint32_t *group_of = ARENA_ARRAY(an->arena, uint32_t, child->n + 1);
    uint32_t ngroups = 0;
    Value *keys = ARENA_ARRAY(an->arena, Value, (size_t)(child->n + 1) * (ng + 1));
    const EvalEnv *saved = ev->env;
    EvStatus st = EV_OK;
    for (uint32_t r = 0; r < child->n; r++) {
        EvalEnv env = {in, child->v + (size_t)r * child->ncols, saved};
        ev->env = &env;
        Value *k = keys + (size_t)ngroups * (ng + 1);
        for (uint32_t g = 0; g < ng && !st; g++) st = ev_expr(ev, p->exprs[g], &k[g]);
        ev->env = saved;
        if (st) return st;
        uint32_t gi = 0;
        while (gi < ngroups && !row_same(keys + (size_t)gi * (ng + 1), k, ng)) gi++;
        if (gi == ngroups) ngroups++;
        group_of[r] = gi;
    }
    /* a global aggregate has one group even over no rows */
    bool global = ng == 0;
    uint32_t nout = global ? 1 : ngroups;
    if ((st = rows_alloc(ev, out, nout, na))) return st;
    Value *grows = ARENA_ARRAY(an->arena, Value, (size_t)child->n * child->ncols + 1);
    EvalEnv genv = {in, NULL, saved};
    for (uint32_t g = 0; g < nout; g++) {
        uint32_t m = 0, first = UINT32_MAX;
        for (uint32_t r = 0; r < child->n; r++)
            if (group_of[r] == g) {
                if (first == UINT32_MAX) first = r;
                mem_copy(grows + (size_t)m++ * child->ncols, child->v + (size_t)r * child->ncols,
                       sizeof(Value) * child->ncols);
            }
        Value *nullrow = NULL;
        if (first == UINT32_MAX) {
            nullrow = ARENA_ARRAY(an->arena, Value, in.n + 1);
            for (uint32_t i = 0; i < in.n; i++) nullrow[i] = v_null(in.v[i]->type);
        }
        EvalEnv env = {in, first == UINT32_MAX ? nullrow : child->v + (size_t)first * child->ncols, saved};
        const EvalEnv *sg = ev->group_env;
        const Value *sr = ev->group_rows;
        uint32_t sn = ev->group_nrows;
        ev->group_env = &genv;
        ev->group_rows = grows;
        ev->group_nrows = m;
        ev->env = &env;
        for (uint32_t c = 0; c < na && !st; c++) st = ev_expr(ev, p->exprs[ng + c], &out->v[(size_t)g * na + c]);
        ev->env = saved;
        ev->group_env = sg;
        ev->group_rows = sr;
        ev->group_nrows = sn;
        if (st) return st;
    }
    return EV_OK;
}

static EvStatus join_rows(Eval *ev, const Node *p, const Rows *l, const Rows *r, Rows *out) {
    Analysis *an = ev->an;
    JoinType jt = p->u.join.type;
    AttrList la = plan_output(an, p->kids[0]), ra = plan_output(an, p->kids[1]);
    bool semi = jt == JOIN_LEFT_SEMI || jt == JOIN_LEFT_ANTI;
    uint32_t nc = semi ? l->ncols : l->ncols + r->ncols;
    size_t cap = (size_t)l->n * (r->n + 1) + r->n + 1;
    if (cap > EV_MAX_ROWS) return EV_NOTCONST;
    EvStatus st = rows_alloc(ev, out, (uint32_t)cap, nc);
    if (st) return st;
    out->n = 0;
    AttrList both = {la.n + ra.n, ARENA_ARRAY(an->arena, Node *, la.n + ra.n + 1)};
    mem_copy(both.v, la.v, sizeof(Node *) * la.n);
    mem_copy(both.v + la.n, ra.v, sizeof(Node *) * ra.n);
    bool *rmatched = ARENA_ARRAY(an->arena, bool, r->n + 1);
    Value *tmp = ARENA_ARRAY(an->arena, Value, l->ncols + r->ncols + 1);
    const EvalEnv *saved = ev->env;
    for (uint32_t i = 0; i < l->n; i++) {
        const Value *lrow = l->v + (size_t)i * l->ncols;
        bool matched = false;
        for (uint32_t j = 0; j < r->n; j++) {
            const Value *rrow = r->v + (size_t)j * r->ncols;
            mem_copy(tmp, lrow, sizeof(Value) * l->ncols);
            mem_copy(tmp + l->ncols, rrow, sizeof(Value) * r->ncols);
            bool ok = true;
            if (p->nexprs) {
                EvalEnv env = {both, tmp, saved};
                ev->env = &env;
                Value c;
                st = ev_expr(ev, p->exprs[0], &c);
                ev->env = saved;
                if (st) return st;
                ok = !c.is_null && c.u.b;
            }
            if (!ok) continue;
            matched = true;
            rmatched[j] = true;
            if (semi) break;
            mem_copy(out->v + (size_t)out->n++ * nc, tmp, sizeof(Value) * nc);
        }
        if ((jt == JOIN_LEFT_SEMI && matched) || (jt == JOIN_LEFT_ANTI && !matched)) {
            mem_copy(out->v + (size_t)out->n++ * nc, lrow, sizeof(Value) * nc);
        } else if (!matched && (jt == JOIN_LEFT_OUTER || jt == JOIN_FULL_OUTER)) {
            Value *o = out->v + (size_t)out->n++ * nc;
            mem_copy(o, lrow, sizeof(Value) * l->ncols);
            for (uint32_t c = 0; c < r->ncols; c++) o[l->ncols + c] = v_null(ra.v[c]->type);
        }
    }
    if (jt == JOIN_RIGHT_OUTER || jt == JOIN_FULL_OUTER)
        for (uint32_t j = 0; j < r->n; j++)
            if (!rmatched[j]) {
                Value *o = out->v + (size_t)out->n++ * nc;
                for (uint32_t c = 0; c < l->ncols; c++) o[c] = v_null(la.v[c]->type);
                mem_copy(o + l->ncols, r->v + (size_t)j * r->ncols, sizeof(Value) * r->ncols);
            }
    return EV_OK;
}

static EvStatus sort_rows(Eval *ev, const Node *p, const Rows *in, Rows *out) {
    Analysis *an = ev->an;
    if (in->n > EV_MAX_QUADRATIC) return EV_NOTCONST;
    AttrList attrs = plan_output(an, p->kids[0]);
    uint32_t nk = p->nexprs;
    Value *keys = ARENA_ARRAY(an->arena, Value, (size_t)in->n * nk + 1);
    const EvalEnv *saved = ev->env;
    for (uint32_t r = 0; r < in->n; r++) {
        EvalEnv env = {attrs, in->v + (size_t)r * in->ncols, saved};
        ev->env = &env;
        for (uint32_t k = 0; k < nk; k++) {
            const Node *so = p->exprs[k];
            EvStatus st = ev_expr(ev, so->kind == NK_SortOrder ? so->kids[0] : so, &keys[(size_t)r * nk + k]);
            if (st) {
                ev->env = saved;
                return st;
            }
        }
    }
    ev->env = saved;
    uint32_t *idx = ARENA_ARRAY(an->arena, uint32_t, in->n + 1);
    for (uint32_t i = 0; i < in->n; i++) idx[i] = i;
    /* insertion sort: stable, and constant relations are small */
    for (uint32_t i = 1; i < in->n; i++) {
        uint32_t x = idx[i];
        uint32_t j = i;
        while (j > 0) {
            uint32_t y = idx[j - 1];
            int c = 0;
            for (uint32_t k = 0; k < nk && !c; k++) {
                const Node *so = p->exprs[k];
                bool desc = so->kind == NK_SortOrder && so->u.sort_order.descending;
                bool nf = so->kind == NK_SortOrder ? so->u.sort_order.nulls_first : !desc;
                const Value *a = &keys[(size_t)y * nk + k], *b = &keys[(size_t)x * nk + k];
                if (a->is_null || b->is_null) {
                    if (a->is_null != b->is_null) c = (a->is_null ? -1 : 1) * (nf ? 1 : -1);
                } else {
                    c = value_cmp(a, b) * (desc ? -1 : 1);
                }
            }
            if (c <= 0) break;
            idx[j] = y;
            j--;
        }
        idx[j] = x;
    }
    EvStatus st = rows_alloc(ev, out, in->n, in->ncols);
    if (st) return st;
    for (uint32_t i = 0; i < in->n; i++)
        mem_copy(out->v + (size_t)i * in->ncols, in->v + (size_t)idx[i] * in->ncols, sizeof(Value) * in->ncols);
    return EV_OK;
}

static EvStatus limit_value(Eval *ev, const Node *e, int64_t *n) {
    Value v;
    EvStatus st = ev_expr(ev, e, &v);
    if (st) return st;
    if (v.is_null || !type_is_integral(v.type)) return EV_NOTCONST;
    *n = v.u.i < 0 ? 0 : v.u.i;
    return EV_OK;
}

static EvStatus cte_def_rows(Eval *ev, const Node *def) {
    CteRows *c = ARENA_NEW(ev->an->arena, CteRows);
    c->id = def->u.cte.id;
    Rows r;
    EvStatus st = ev_plan(ev, def->kids[0], &r);
    if (st == EV_ERROR) return st;
    if (st == EV_NOTCONST) c->notconst = true;
    else {
        c->nrows = r.n;
        c->ncols = r.ncols;
        c->rows = r.v;
    }
    c->next = ev->ctes;
    ev->ctes = c;
    return EV_OK;
}

EvStatus ev_plan(Eval *ev, const Node *p, Rows *out) {
    Analysis *an = ev->an;
    if (an_failed(an)) return EV_ERROR;
    if (++ev->depth > EV_MAX_DEPTH * 4) {
        ev->depth--;
        return EV_NOTCONST;
    }
    EvStatus st = EV_OK;
    Rows a, b;
    switch (p->kind) {
    case NK_OneRowRelation: st = rows_alloc(ev, out, 1, 0); break;
    case NK_LocalRelation: {
        uint32_t nc = p->nexprs, nr = p->u.local.nrows;
        if ((st = rows_alloc(ev, out, nr, nc))) break;
        if (p->u.local.row_exprs) {
            for (uint32_t r = 0; r < nr && !st; r++) {
                const Node *row = p->u.local.row_exprs[r];
                for (uint32_t c = 0; c < nc && !st; c++) {
                    st = c < row->nkids ? ev_expr(ev, row->kids[c], &out->v[(size_t)r * nc + c]) : EV_NOTCONST;
                    if (!st && out->v[(size_t)r * nc + c].is_null) out->v[(size_t)r * nc + c].type = p->exprs[c]->type;
                }
            }
        } else if (p->u.local.rows) {
            mem_copy(out->v, p->u.local.rows, sizeof(Value) * nr * nc);
        } else if (nr) st = EV_NOTCONST;
        break;
    }
    case NK_Range: {
        int64_t s = p->u.range.start, e = p->u.range.end, step = p->u.range.step;
        if (step == 0) {
            st = EV_NOTCONST;
            break;
        }
        /* in 128 bits: range(-9223372036854775808, 9223372036854775807) has 2^64 - 1 rows */
        __int128 d = step > 0 ? (__int128)e - s : (__int128)s - e, k = step > 0 ? step : -(__int128)step;
        __int128 n = d > 0 ? (d + k - 1) / k : 0;
        if (n > EV_MAX_ROWS) {
            st = EV_NOTCONST;
            break;
        }
        if ((st = rows_alloc(ev, out, (uint32_t)n, 1))) break;
        for (int64_t i = 0; i < (int64_t)n; i++) out->v[i] = v_long(&TYPE_LONG, (int64_t)((__int128)s + (__int128)i * step));
        break;
    }
    case NK_Project:
        if (!(st = ev_plan(ev, p->kids[0], &a)))
            st = project_rows(ev, p->exprs, p->nexprs, plan_output(an, p->kids[0]), &a, out);
        break;
    case NK_Filter:
        if (!(st = ev_plan(ev, p->kids[0], &a))) st = filter_rows(ev, p->exprs[0], plan_output(an, p->kids[0]), &a, out);
        break;
    case NK_SubqueryAlias:
    case NK_RepartitionByExpression: st = ev_plan(ev, p->kids[0], out); break;
    case NK_View:
        if (!p->nkids) {
            st = EV_NOTCONST;
            break;
        }
        st = ev_plan(ev, p->kids[0], out);
        if (!st && out->ncols != p->nexprs) st = EV_NOTCONST;
        break;
    case NK_GlobalLimit:
    case NK_LocalLimit:
    case NK_Offset:
    case NK_Tail: {
        int64_t n;
        if ((st = ev_plan(ev, p->kids[0], out)) || (st = limit_value(ev, p->exprs[0], &n))) break;
        if (p->kind == NK_Offset) {
            uint32_t skip = n > out->n ? out->n : (uint32_t)n;
            out->v += (size_t)skip * out->ncols;
            out->n -= skip;
        } else if (p->kind == NK_Tail) {
            if ((uint64_t)n < out->n) {
                out->v += (size_t)(out->n - (uint32_t)n) * out->ncols;
                out->n = (uint32_t)n;
            }
        } else if ((uint64_t)n < out->n) out->n = (uint32_t)n;
        break;
    }
    case NK_Distinct:
    case NK_Deduplicate:
        if (!(st = ev_plan(ev, p->kids[0], &a))) st = distinct_rows(ev, &a, out);
        break;
    case NK_Union: {
        uint32_t total = 0, nc = 0;
        Rows *parts = ARENA_ARRAY(an->arena, Rows, p->nkids + 1);
        for (uint32_t i = 0; i < p->nkids && !st; i++) {
            st = ev_plan(ev, p->kids[i], &parts[i]);
            total += parts[i].n;
            nc = parts[i].ncols;
        }
        if (st || (st = rows_alloc(ev, &a, total, nc))) break;
        size_t at = 0;
        for (uint32_t i = 0; i < p->nkids; i++) {
            if (parts[i].ncols != nc) {
                st = EV_NOTCONST;
                break;
            }
            mem_copy(a.v + at, parts[i].v, sizeof(Value) * parts[i].n * nc);
            at += (size_t)parts[i].n * nc;
        }
        if (st) break;
        if (p->u.setop.is_all) *out = a;
        else st = distinct_rows(ev, &a, out);
        break;
    }
    case NK_Intersect:
    case NK_Except: {
        if ((st = ev_plan(ev, p->kids[0], &a)) || (st = ev_plan(ev, p->kids[1], &b))) break;
        if (b.n > EV_MAX_QUADRATIC) {
            st = EV_NOTCONST;
            break;
        }
        Rows d;
        if ((st = distinct_rows(ev, &a, &d)) || (st = rows_alloc(ev, out, d.n, d.ncols))) break;
        out->n = 0;
        bool keep_if_found = p->kind == NK_Intersect;
        for (uint32_t i = 0; i < d.n; i++) {
            const Value *row = d.v + (size_t)i * d.ncols;
            bool found = false;
            for (uint32_t j = 0; j < b.n && !found; j++) found = row_same(row, b.v + (size_t)j * b.ncols, d.ncols);
            if (found == keep_if_found) mem_copy(out->v + (size_t)out->n++ * d.ncols, row, sizeof(Value) * d.ncols);
        }
        break;
    }
    case NK_Aggregate:
        if (!(st = ev_plan(ev, p->kids[0], &a))) st = aggregate_rows(ev, p, &a, out);
        break;
    case NK_Sort:
        if (!(st = ev_plan(ev, p->kids[0], &a))) st = sort_rows(ev, p, &a, out);
        break;
    case NK_Join:
        if (!(st = ev_plan(ev, p->kids[0], &a)) && !(st = ev_plan(ev, p->kids[1], &b))) st = join_rows(ev, p, &a, &b, out);
        break;
    case NK_WithCTE: {
        CteRows *saved = ev->ctes;
        for (uint32_t i = 0; i + 1 < p->nkids && !st; i++) st = cte_def_rows(ev, p->kids[i]);
        if (!st) st = ev_plan(ev, p->kids[p->nkids - 1], out);
        ev->ctes = saved;
        break;
    }
    case NK_CTERelationRef: {
        const CteRows *c = ev->ctes;
        while (c && c->id != p->u.cte.id) c = c->next;
        if (!c || c->notconst || c->ncols != p->nexprs) {
            st = EV_NOTCONST;
            break;
        }
        out->n = c->nrows;
        out->ncols = c->ncols;
        out->v = c->rows;
        break;
    }
    default: st = EV_NOTCONST; break;
    }
    ev->depth--;
    return st;
}

/* ---- public API ---- */

bool const_eval(Analysis *an, const Node *e, Value *out) {
    Eval ev = {.an = an};
    if (!e || !node_resolved(e)) return false;
    return ev_expr(&ev, e, out) == EV_OK;
}

int const_eval_rows(Analysis *an, const Node *plan, int max_rows, Value **rows, uint32_t *ncols) {
    Eval ev = {.an = an};
    Rows r;
    if (!plan || !node_resolved(plan)) return -1;
    if (ev_plan(&ev, plan, &r) != EV_OK) return -1;
    *rows = r.v;
    *ncols = r.ncols;
    if (max_rows >= 0 && r.n > (uint32_t)max_rows) return max_rows + 1;
    return (int)r.n;
}

bool const_cast_value(Analysis *an, const Value *in, const DataType *to, const Node *at, Value *out) {
    Eval ev = {.an = an};
    return ev_cast(&ev, in, to, at, out) == EV_OK;
}

bool expr_is_constant(const Node *e) {
    switch (e->kind) {
    case NK_AttributeReference:
    case NK_OuterReference:
    case NK_LateralColumnAliasReference:
    case NK_ScalarSubquery:
    case NK_Exists:
    case NK_InSubquery:
    case NK_ListQuery:
    case NK_LateralSubquery:
    case NK_AggregateExpression:
    case NK_WindowExpression:
    case NK_NamedLambdaVariable: return false;
    default: break;
    }
    if (node_kind_is_unresolved(e->kind)) return false;
    if (e->flags & NF_NONDETERMINISTIC) return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (!expr_is_constant(e->kids[i])) return false;
    return true;
}

const char *const_value_text(Arena *a, const Value *v) {
    if (v->is_null) return NULL;
    uint32_t n;
    return value_to_text(a, v, &n);
}
