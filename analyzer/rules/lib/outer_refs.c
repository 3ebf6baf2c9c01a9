/* Outer references: undoing them where an expression moves back into the
 * outer query (Spark's SubExprUtils.stripOuterReference). */
#include "outer_refs.h"
#include "core/walk.h"


static Node *strip_one(Node *e, void *ctx) {
    (void)ctx;
    return e->kind == NK_OuterReference ? e->kids[0] : e;
}

Node *strip_outer_references(Analysis *an, Node *e) {
    return transform(an->arena, e, 0, KIND_MASK(NK_OuterReference), strip_one, NULL);
}
