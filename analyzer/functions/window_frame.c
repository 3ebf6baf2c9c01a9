/* The frames window functions impose (WindowFunction.frame in Spark) and the
 * default frame (ResolveWindowFrame), as SpecifiedWindowFrame nodes whose
 * kids are FrameBoundary nodes or offset literals. */
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"

static Node *bound(Analysis *an, FrameBoundType t) {
    Node *b = node_new(an->arena, NK_FrameBoundary, -1, -1);
    b->u.bound.type = t;
    b->type = &TYPE_NULL;
    return node_finish(b);
}

static Node *frame(Analysis *an, FrameType t, Node *lo, Node *hi) {
    Node *f = node_new(an->arena, NK_SpecifiedWindowFrame, -1, -1);
    Node *kids[2] = {lo, hi};
    node_set_kids(an->arena, f, kids, 2);
    f->u.frame.type = t;
    f->type = &TYPE_NULL;
    return node_finish(f);
}

Node *func_default_window_frame(Analysis *an, bool has_order) {
    if (has_order) return frame(an, FRAME_RANGE, bound(an, BOUND_UNBOUNDED_PRECEDING), bound(an, BOUND_CURRENT_ROW));
    return frame(an, FRAME_ROWS, bound(an, BOUND_UNBOUNDED_PRECEDING), bound(an, BOUND_UNBOUNDED_FOLLOWING));
}

Node *func_window_frame(Analysis *an, const Node *fn) {
    if (fn->kind == NK_AggregateExpression || fn->kind != NK_Call || !fn->u.call.def) return NULL;
    const char *n = fn->u.call.def->name;
    if (!strcasecmp(n, "row_number") || !strcasecmp(n, "rank") || !strcasecmp(n, "dense_rank") ||
        !strcasecmp(n, "percent_rank") || !strcasecmp(n, "ntile"))
        return frame(an, FRAME_ROWS, bound(an, BOUND_UNBOUNDED_PRECEDING), bound(an, BOUND_CURRENT_ROW));
    if (!strcasecmp(n, "cume_dist"))
        return frame(an, FRAME_RANGE, bound(an, BOUND_UNBOUNDED_PRECEDING), bound(an, BOUND_CURRENT_ROW));
    bool lag = !strcasecmp(n, "lag");
    if (lag || !strcasecmp(n, "lead")) {
        int64_t off = 1;
        const Node *o = fn->nkids > 1 ? fn->kids[1] : NULL;
        while (o && o->kind == NK_Cast && o->nkids) o = o->kids[0];
        if (o && o->kind == NK_Literal && !o->u.lit.v.is_null && type_is_integral(o->type)) off = o->u.lit.v.u.i;
        if (lag) off = -off;
        return frame(an, FRAME_ROWS, fn_mk_int_lit(an->arena, off, &TYPE_INT), fn_mk_int_lit(an->arena, off, &TYPE_INT));
    }
    return NULL;
}
