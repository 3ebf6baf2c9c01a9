/* Binding column references in an expression, in Spark's order
 * (ColumnResolutionHelper): the operator's input, then the CURRENT_DATE-like
 * literal functions, then (left alone) lateral column aliases, then outer
 * references in the enclosing query, then session variables. */
#include <string.h>
#include <strings.h>

#include "builders.h"
#include "column_refs.h"
#include "scope.h"
#include "variables.h"
#include "catalog/conf.h"
#include "core/output.h"
#include "core/walk.h"

typedef struct RefCtx {
    Analysis *an;
    AttrList input;
    /* the select list being resolved (Project / Aggregate), for the lateral
       alias precedence: a name an earlier item defines is not an outer
       reference or a variable */
    Node *const *select_list;
    uint32_t select_upto;
    bool allow_outer;
    const Node *root;   /* the expression being resolved: only a whole-item
                           reference to a nested field keeps the field's alias */
} RefCtx;

static bool defined_earlier(const RefCtx *c, const char *name) {
    if (!c->select_list || !c->an->conf->lateral_alias) return false;
    for (uint32_t i = 0; i < c->select_upto; i++) {
        const Node *e = c->select_list[i];
        if (e->kind == NK_Alias && ident_eq(c->an, e->u.attr.name, name)) return true;
    }
    return false;
}

Node *make_outer_reference(Analysis *an, Node *resolved) {
    /* outer(a) — or for a nested field, the extraction over outer(a) */
    if (resolved->kind == NK_AttributeReference) {
        Node *o = node_new(an->arena, NK_OuterReference, resolved->start, resolved->stop);
        o->type = resolved->type;
        o->flags |= resolved->flags & NF_NULLABLE;
        node_set_kids(an->arena, o, &resolved, 1);
        return node_finish(o);
    }
    return resolved;
}

Node *resolve_outer_name(Analysis *an, const Node *at, NameParts name) {
    /* Spark 4 resolves outer references against the immediately enclosing
       query only; then (HAVING, alias-in-subquery) the scope's second list */
    OuterScope *s = an->outer;
    for (int pass = 0; s && pass < 2; pass++) {
        AttrList attrs = pass == 0 ? s->attrs : s->aliases;
        if (!attrs.n) continue;
        Node *found = NULL;
        ErrorInfo *before = an->error;
        ResolveStatus st = resolve_name(an, at, name, attrs, &found);
        if (st == RS_AMBIGUOUS) {
            /* Spark's resolveOuterRef swallows the ambiguity: the name stays
               unresolved (UNRESOLVED_COLUMN against the subquery's input) */
            an->error = before;
            return NULL;
        }
        if (st == RS_FOUND) {
            if (found->kind == NK_Alias) {
                /* nested field of an outer column: rebuild over outer(col) */
                Node *base = found->kids[0];
                while (base->kind == NK_GetStructField) base = base->kids[0];
                Node *outer = make_outer_reference(an, base);
                Node *e = extract_fields(an, at, outer, name.v + (name.n - 1), 1);
                return e ? make_alias(an, e, name.v[name.n - 1], false) : NULL;
            }
            return make_outer_reference(an, found);
        }
    }
    return NULL;
}

/* Spark's resolveLiteralFunction: CURRENT_DATE and friends written without
 * parentheses, when no column has that name. */
static Node *literal_function(Analysis *an, const Node *e) {
    static const char *const names[] = {"current_date", "current_timestamp", "current_user", "user",
                                        "session_user", "current_time"};
    if (e->u.un.name.n != 1) return NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcasecmp(e->u.un.name.v[0], names[i]) != 0) continue;
        return make_unresolved_call(an, name_parts1(an->arena, names[i]), false, NULL, 0, e->start, e->stop);
    }
    return NULL;
}

static Node *resolve_attr(Node *e, void *ctx) {
    RefCtx *c = ctx;
    Analysis *an = c->an;
    if (an_failed(an) || e->kind != NK_UnresolvedAttribute) return e;
    Node *found = NULL;
    ResolveStatus st = resolve_name(an, e, e->u.un.name, c->input, &found);
    if (st == RS_FOUND && found->kind == NK_Alias && e != c->root && found->nkids == 1 &&
        found->kids[0]->kind == NK_GetStructField)
        found = found->kids[0]; /* `min(s.f)`: inside an expression the field is not named (Spark trims it) */
    if (st == RS_FOUND) {
        found = visible_attr(an, found);
        if (found->kind == NK_AttributeReference && (found->start != e->start || found->stop != e->stop)) {
            /* keep the reference's own position for error contexts */
            Node *p = node_copy(an->arena, found);
            p->start = e->start;
            p->stop = e->stop;
            found = node_finish(p);
        }
        return found;
    }
    if (st == RS_AMBIGUOUS) return e;
    Node *lf = literal_function(an, e);
    if (lf && e == c->root && c->select_list) {
        /* a select item: named as the function prints (Spark's Alias(func, toPrettySQL(func))) */
        Node *ua = node_new(an->arena, NK_UnresolvedAlias, e->start, e->stop);
        node_set_kids(an->arena, ua, &lf, 1);
        return node_finish(ua);
    }
    if (lf) return lf;
    if (defined_earlier(c, e->u.un.name.v[0])) return e; /* a lateral column alias */
    if (c->allow_outer && an->outer) {
        Node *o = resolve_outer_name(an, e, e->u.un.name);
        if (o || an_failed(an)) return o ? o : e;
    }
    Node *v = resolve_variable(an, e);
    return v ? v : e;
}

static KindMask ref_kinds(void) { return KIND_MASK(NK_UnresolvedAttribute); }

/* A star expanded over the input; `t.*` naming the enclosing query's
   relation (a LATERAL subquery) expands to outer references (SPARK-35618). */
static bool expand_arg_star(RefCtx *c, const Node *star, AttrList *out) {
    Analysis *an = c->an;
    if (expand_star(an, star, c->input, out)) return true;
    if (!an->outer || !star->u.un.name.n || star->u.un.regex) return false;
    ErrorInfo *local = an->error;
    an->error = NULL;
    if (!expand_star(an, star, an->outer->attrs, out)) {
        an->error = local;
        return false;
    }
    for (uint32_t k = 0; k < out->n; k++)
        if (out->v[k]->kind == NK_AttributeReference) out->v[k] = make_outer_reference(an, out->v[k]);
    return true;
}

/* `v IN (*)`: the list's stars expand (Spark's expandStarExpression, In). */
static Node *expand_in_stars(RefCtx *c, Node *e) {
    bool any = false;
    for (uint32_t i = 1; i < e->nkids; i++) any = any || e->kids[i]->kind == NK_UnresolvedStar;
    if (!any) return e;
    uint32_t cap = e->nkids + c->input.n * 2 + 4, n = 0;
    Node **kids = ARENA_ARRAY(c->an->arena, Node *, cap);
    for (uint32_t i = 0; i < e->nkids; i++) {
        Node *k = e->kids[i];
        if (i > 0 && k->kind == NK_UnresolvedStar) {
            AttrList out;
            if (!expand_arg_star(c, k, &out)) return e;
            for (uint32_t j = 0; j < out.n; j++) {
                if (n == cap) return e;
                kids[n++] = out.v[j];
            }
            continue;
        }
        if (n == cap) return e;
        kids[n++] = k;
    }
    Node *r = node_copy(c->an->arena, e);
    node_set_kids(c->an->arena, r, kids, n);
    return node_finish(r);
}

/* A star among a function's arguments (struct(*), concat(t.*)) stands for the
   columns it expands to (Spark's expandStarExpression); count(*) is count(1). */
static Node *expand_arg_stars(Node *e, void *ctx) {
    RefCtx *c = ctx;
    if (an_failed(c->an)) return e;
    if (e->kind == NK_In) return expand_in_stars(c, e);
    if (e->kind != NK_UnresolvedFunction) return e;
    bool any = false;
    for (uint32_t i = 0; i < e->u.un.nargs; i++) any = any || e->kids[i]->kind == NK_UnresolvedStar;
    if (!any) return e;
    const char *fn = e->u.un.name.n ? e->u.un.name.v[e->u.un.name.n - 1] : "";
    /* count(*) is count(1) (the parser's special case: not with DISTINCT) */
    if (e->u.un.nargs == 1 && ident_equal_ci(fn, "count") && e->kids[0]->u.un.name.n == 0 && !e->kids[0]->u.un.regex &&
        !(e->flags & NF_DISTINCT))
        return e;
    /* count(t.*) would count rows with a null column differently from count(*) */
    if (e->u.un.nargs == 1 && ident_equal_ci(fn, "count") && e->kids[0]->u.un.name.n > 0 && !e->kids[0]->u.un.regex &&
        !conf_get_bool(c->an->conf, "spark.sql.legacy.allowStarWithSingleTableIdentifierInCount", false)) {
        const NameParts *q = &e->kids[0]->u.un.name;
        StrBuf sb;
        sb_init(&sb, c->an->arena, 16);
        for (uint32_t i = 0; i < q->n; i++) sb_printf(&sb, "%s%s", i ? "." : "", q->v[i]);
        an_fail(c->an, error_make(c->an->arena, "_LEGACY_ERROR_TEMP_1021", e, "targetString", sb_str(&sb), NULL));
        return e;
    }
    uint32_t cap = e->nkids + c->input.n * 2 + 4, n = 0;
    Node **kids = ARENA_ARRAY(c->an->arena, Node *, cap);
    uint32_t nargs = 0;
    for (uint32_t i = 0; i < e->nkids; i++) {
        Node *k = e->kids[i];
        if (i < e->u.un.nargs && k->kind == NK_UnresolvedStar) {
            AttrList out;
            if (!expand_arg_star(c, k, &out)) return e;
            for (uint32_t j = 0; j < out.n; j++) {
                if (n == cap) return e;
                kids[n++] = out.v[j];
                nargs++;
            }
            continue;
        }
        if (n == cap) return e;
        kids[n++] = k;
        if (i < e->u.un.nargs) nargs++;
    }
    Node *r = node_copy(c->an->arena, e);
    node_set_kids(c->an->arena, r, kids, n);
    r->u.un.nargs = nargs;
    return node_finish(r);
}

Node *resolve_expr_refs(Analysis *an, Node *e, AttrList input, Node *const *select_list, uint32_t upto) {
    RefCtx c = {an, input, select_list, upto, true, e};
    if (kind_mask_has(e->mask, NK_UnresolvedStar)) {
        Node *x = transform(an->arena, e, TX_SKIP_RESOLVED, KIND_MASK(NK_UnresolvedFunction, NK_In), expand_arg_stars, &c);
        if (!x || an_failed(an)) return e;
        e = x;
    }
    return transform(an->arena, e, TX_SKIP_RESOLVED, ref_kinds(), resolve_attr, &c);
}
