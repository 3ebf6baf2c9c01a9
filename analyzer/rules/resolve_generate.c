/* ResolveGenerate + ExtractGenerator — Spark's Analyzer.ResolveGenerate and
 * Analyzer.ExtractGenerator: a generator (explode, posexplode, inline, stack,
 * json_tuple, ...; the function library types it as a struct of its output
 * columns) becomes a Generate operator whose output attributes take the
 * struct's field names (col, pos, key, value, col1, c0, ...) unless aliased.
 *  - LATERAL VIEW [OUTER] f(args) t [AS c1, ...]: the UnresolvedGenerate
 *    becomes Generate(f, outer, t, [c1, ...]) over its child.
 *  - SELECT ..., f(args) [AS x | AS (x, y)], ...: the Project becomes
 *    Project [..., generator output, ...] over Generate over its child.
 * The `_outer` variants are the base generator with outer = true. Errors:
 * UNSUPPORTED_GENERATOR.{NOT_GENERATOR, NESTED_IN_EXPRESSIONS,
 * MULTI_GENERATOR, OUTSIDE_SELECT}, UDTF_ALIAS_NUMBER_MISMATCH,
 * MULTI_ALIAS_WITHOUT_GENERATOR.
 *
 *   Project [explode(arr#1) AS col#2]          Project [col#3]
 *   +- Relation t[arr#1]                 =>    +- Generate explode(arr#1), false, [col#3]
 *                                                 +- Relation t[arr#1]
 */
#include <string.h>
#include <strings.h>

#include "rule.h"
#include "rules.h"
#include "core/func_sig.h"
#include "core/output.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/builders.h"
#include "rules/lib/plan_inputs.h"
#include "core/walk.h"

/* memcpy that accepts an empty (possibly NULL) source */
#define MEMCPY(d, s, n) \
    do { \
        if ((n) != 0) mem_copy((d), (s), (n)); \
    } while (0)

static bool is_generator(const Node *e) {
    return e->kind == NK_Call && e->u.call.def && func_kind(e->u.call.def) == FK_GENERATOR;
}

/* A generator call, or one ResolveFunctions is about to resolve (its
 * arguments are): Spark finds nested and misplaced generators before the
 * expressions around them are typed. */
static bool is_generator_like(const Node *e) {
    if (is_generator(e)) return true;
    if (e->kind != NK_UnresolvedFunction || e->u.un.is_operator || e->u.un.name.n != 1) return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (!node_resolved(e->kids[i])) return false;
    const FuncDef *def = func_lookup_builtin(e->u.un.name.v[0]);
    return def && func_kind(def) == FK_GENERATOR;
}

/* a generator call, or an unresolved function that may turn out to be one */
static bool may_hold_call(const Node *e) {
    return (e->flags & NF_GENERATOR_CALL) || kind_mask_has(e->mask, NK_UnresolvedFunction);
}

static bool has_generator(const Node *e) {
    if (!may_hold_call(e)) return false;
    if (is_generator_like(e)) return true;
    if (e->kind == NK_ScalarSubquery || e->kind == NK_Exists || e->kind == NK_InSubquery || e->kind == NK_ListQuery ||
        e->kind == NK_LateralSubquery)
        return false;
    for (uint32_t i = 0; i < e->nkids; i++)
        if (has_generator(e->kids[i])) return true;
    return false;
}

/* The generator a select item is (possibly aliased), or NULL. */
static Node *item_generator_like(const Node *item) {
    const Node *e = item;
    if (e->kind == NK_Alias || e->kind == NK_UnresolvedAlias || e->kind == NK_MultiAlias) e = e->kids[0];
    return is_generator_like(e) ? (Node *)e : NULL;
}

static Node *item_generator(const Node *item) {
    Node *g = item_generator_like(item);
    return g && is_generator(g) ? g : NULL;
}

static Node *trim_alias(Node *item) {
    if (item->kind == NK_Alias || item->kind == NK_UnresolvedAlias || item->kind == NK_MultiAlias) return item->kids[0];
    return item;
}

static bool nested_generator(const Node *item) {
    Node *g = item_generator_like(item);
    if (!g) return has_generator(item);
    for (uint32_t i = 0; i < g->nkids; i++)
        if (has_generator(g->kids[i])) return true;
    return false;
}

/* explode_outer(x) → explode(x) with outer set. */
static Node *base_generator(Analysis *an, Node *g, bool *outer) {
    const char *name = func_name(g->u.call.def);
    size_t n = strlen(name);
    if (n > 6 && !strcasecmp(name + n - 6, "_outer")) {
        char *base = arena_strndup(an->arena, name, n - 6);
        const FuncDef *def = func_lookup_builtin(base);
        *outer = true;
        if (def) {
            Node *c = node_copy(an->arena, g);
            c->u.call.def = def;
            c->u.call.name = func_name(def);
            return node_finish(c);
        }
    }
    return g;
}

/* makeGeneratorOutput: one attribute per field of the generator's struct type. */
static bool generator_output(Analysis *an, const Node *g, const char *const *names, uint32_t nnames, NameParts qual,
                             bool outer, AttrList *out) {
    const DataType *t = g->type;
    if (!t || t->id != T_STRUCT) {
        an_fail(an, error_make(an->arena, "INTERNAL_ERROR", g, "message", "generator without a struct type", NULL));
        return false;
    }
    uint32_t nf = (uint32_t)t->nfields;
    if (nnames && nnames != nf) {
        StrBuf sb;
        sb_init(&sb, an->arena, 32);
        for (uint32_t i = 0; i < nnames; i++) {
            if (i) sb_putc(&sb, ',');
            sb_puts(&sb, names[i]);
        }
        an_fail(an, error_make(an->arena, "UDTF_ALIAS_NUMBER_MISMATCH", g, "aliasesSize",
                               arena_printf(an->arena, "%u", nf), "aliasesNames", sb_str(&sb), NULL));
        return false;
    }
    out->n = nf;
    out->v = ARENA_ARRAY(an->arena, Node *, nf + 1);
    for (uint32_t i = 0; i < nf; i++) {
        const StructField *f = &t->fields[i];
        out->v[i] = attr_new(an, nnames ? names[i] : f->name, f->type, f->nullable || outer, 0, qual, g->start, g->stop);
    }
    return true;
}

static Node *make_generate(Analysis *an, Node *g, bool outer, NameParts qual, AttrList attrs, Node *child,
                           const Node *pos) {
    Node *gen = node_new(an->arena, NK_Generate, pos->start, pos->stop);
    gen->u.generate.outer = outer;
    gen->u.generate.qualifier = qual;
    Node **ex = ARENA_ARRAY(an->arena, Node *, attrs.n + 1);
    ex[0] = g;
    MEMCPY(ex + 1, attrs.v, sizeof(Node *) * attrs.n);
    node_set_exprs(an->arena, gen, ex, attrs.n + 1);
    node_set_kids(an->arena, gen, &child, 1);
    return node_finish(gen);
}

static const char *generator_list(Analysis *an, Node *const *items, uint32_t n) {
    StrBuf sb;
    sb_init(&sb, an->arena, 64);
    bool first = true;
    for (uint32_t i = 0; i < n; i++) {
        if (!has_generator(items[i])) continue;
        if (!first) sb_puts(&sb, ", ");
        first = false;
        sb_puts(&sb, expr_sql_quoted(an->arena, trim_alias(items[i])));
    }
    return sb_str(&sb);
}

/* LATERAL VIEW */
static Node *resolve_lateral_view(Analysis *an, Node *p) {
    if (!children_resolved(p) || !p->nexprs || !node_resolved(p->exprs[0])) return p;
    Node *g = p->exprs[0];
    if (!is_generator(g)) {
        const char *name = g->kind == NK_Call && g->u.call.def ? func_name(g->u.call.def) : "";
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_GENERATOR.NOT_GENERATOR", g, "functionName",
                                      sql_ident(an->arena, name), "classCanonicalName", name, NULL));
    }
    for (uint32_t i = 0; i < g->nkids; i++)
        if (has_generator(g->kids[i]))
            return an_fail(an, error_make(an->arena, "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS", g, "expression",
                                          expr_sql_quoted(an->arena, g), NULL));
    bool outer = p->u.generate.outer;
    g = base_generator(an, g, &outer);
    AttrList attrs;
    if (!generator_output(an, g, p->u.generate.cols, p->u.generate.ncols, p->u.generate.qualifier, outer, &attrs))
        return p;
    return make_generate(an, g, outer, p->u.generate.qualifier, attrs, p->kids[0], p);
}

/* A generator in the SELECT list (ExtractGenerator's Project case). */
static Node *extract_from_project(Analysis *an, Node *p) {
    uint32_t count = 0;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        if (nested_generator(p->exprs[i]))
            return an_fail(an, error_make(an->arena, "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS", p->exprs[i],
                                          "expression", expr_sql_quoted(an->arena, trim_alias(p->exprs[i])), NULL));
        if (has_generator(p->exprs[i])) count++;
    }
    if (count > 1)
        return an_fail(an, error_make(an->arena, "UNSUPPORTED_GENERATOR.MULTI_GENERATOR", p, "num",
                                      arena_printf(an->arena, "%u", count), "generators",
                                      generator_list(an, p->exprs, p->nexprs), NULL));
    if (!children_resolved(p)) return p;
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (expr_has_kind(p->exprs[i], KIND_MASK(NK_LateralColumnAliasReference))) return p;
    for (uint32_t i = 0; i < p->nexprs; i++) {
        Node *item = p->exprs[i];
        Node *g = item_generator(item);
        if (!g || !node_resolved(g)) continue;
        /* an automatic name is no alias: the generator's own column names apply */
        const char *one = NULL;
        const char *const *names = NULL;
        uint32_t nnames = 0;
        if (item->kind == NK_Alias && !(item->flags & NF_GENERATED_ALIAS)) {
            one = item->u.attr.name;
            names = &one;
            nnames = 1;
        } else if (item->kind == NK_MultiAlias) {
            names = item->u.cols.cols;
            nnames = item->u.cols.ncols;
        }
        bool outer = false;
        Node *bg = base_generator(an, g, &outer);
        AttrList attrs;
        if (!generator_output(an, bg, names, nnames, (NameParts){0, NULL}, outer, &attrs)) return p;
        Node *gen = make_generate(an, bg, outer, (NameParts){0, NULL}, attrs, p->kids[0], p);
        Node **list = ARENA_ARRAY(an->arena, Node *, p->nexprs + attrs.n);
        uint32_t m = 0;
        for (uint32_t k = 0; k < p->nexprs; k++) {
            if (k == i) {
                MEMCPY(list + m, attrs.v, sizeof(Node *) * attrs.n);
                m += attrs.n;
            } else list[m++] = p->exprs[k];
        }
        Node *np = node_copy(an->arena, p);
        node_set_exprs(an->arena, np, list, m);
        node_set_kids(an->arena, np, &gen, 1);
        return node_finish(np);
    }
    return p;
}

/* An Aggregate's aggregate list (after its grouping expressions); NULL for
 * none (exprs may be NULL: no pointer arithmetic on it). */
static Node *const *agg_items(const Node *p) { return node_exprs_from(p, p->u.aggregate.ngroup); }

/* ExtractGenerator's Aggregate case: the generator moves to a Project above
 * the aggregation; its non-constant inputs are computed by the Aggregate as
 * _gen_input_0, ... */
static Node *extract_from_aggregate(Analysis *an, Node *p) {
    uint32_t ng = p->u.aggregate.ngroup, na = p->nexprs - ng;
    Node *const *aggs = agg_items(p);
    int gi = -1;
    for (uint32_t i = 0; i < na; i++) {
        Node *g = item_generator(aggs[i]);
        if (g) {
            if (!node_resolved(g)) return p;
            gi = (int)i;
        } else if (!node_resolved(aggs[i])) return p;
    }
    if (gi < 0 || !children_resolved(p)) return p;
    Node *item = aggs[gi];
    Node *g = item_generator(item);
    Node **list = ARENA_ARRAY(an->arena, Node *, ng + na + g->nkids + 1);
    MEMCPY(list, p->exprs, sizeof(Node *) * ng);
    uint32_t m = ng;
    Node **proj = ARENA_ARRAY(an->arena, Node *, na + 1);
    for (uint32_t i = 0; i < na; i++) {
        if ((int)i != gi) {
            list[m++] = aggs[i];
            proj[i] = to_attribute(an, aggs[i]);
            continue;
        }
        Node **kids = ARENA_ARRAY(an->arena, Node *, g->nkids + 1);
        for (uint32_t k = 0; k < g->nkids; k++) {
            Node *c = g->kids[k];
            if (c->kind == NK_Literal) {
                kids[k] = c;
                continue;
            }
            Node *al = make_alias(an, c, arena_printf(an->arena, "_gen_input_%u", k), false);
            list[m++] = al;
            kids[k] = to_attribute(an, al);
        }
        Node *ng2 = node_copy(an->arena, g);
        node_set_kids(an->arena, ng2, kids, g->nkids);
        ng2 = node_finish(ng2);
        if (item->kind == NK_Alias && !(item->flags & NF_GENERATED_ALIAS)) {
            Node *al = node_copy(an->arena, item);
            node_set_kids(an->arena, al, &ng2, 1);
            al->type = ng2->type;
            proj[i] = node_finish(al);
        } else if (item->kind == NK_MultiAlias) {
            proj[i] = node_with_kid(an->arena, item, 0, ng2);
        } else {
            Node *u = node_new(an->arena, NK_UnresolvedAlias, item->start, item->stop);
            node_set_kids(an->arena, u, &ng2, 1);
            proj[i] = node_finish(u);
        }
    }
    Node *agg = node_copy(an->arena, p);
    node_set_exprs(an->arena, agg, list, m);
    agg = node_finish(agg);
    return make_project(an, agg, proj, na);
}

/* `expr AS (a, b)` names the columns of a generator only (Spark's ResolveAliases). */
static bool check_multi_alias(Analysis *an, Node *const *items, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        const Node *it = items[i];
        if (it->kind != NK_MultiAlias || !it->nkids || !node_resolved(it->kids[0]) || is_generator(it->kids[0]))
            continue;
        StrBuf sb;
        sb_init(&sb, an->arena, 32);
        for (uint32_t k = 0; k < it->u.cols.ncols; k++) {
            if (k) sb_puts(&sb, ", ");
            sb_puts(&sb, it->u.cols.cols[k]);
        }
        an_fail(an, error_make(an->arena, "MULTI_ALIAS_WITHOUT_GENERATOR", it, "names", sb_str(&sb), "expr",
                               expr_sql_quoted(an->arena, it->kids[0]), NULL));
        return false;
    }
    return true;
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an)) return p;
    if ((p->kind == NK_Project && !check_multi_alias(an, p->exprs, p->nexprs)) ||
        (p->kind == NK_Aggregate &&
         !check_multi_alias(an, agg_items(p), p->nexprs - p->u.aggregate.ngroup)))
        return p;
    switch (p->kind) {
    case NK_UnresolvedGenerate: return resolve_lateral_view(an, p);
    case NK_Project: return extract_from_project(an, p);
    case NK_Generate: return p;
    case NK_Aggregate: {
        uint32_t count = 0;
        for (uint32_t i = p->u.aggregate.ngroup; i < p->nexprs; i++) {
            if (nested_generator(p->exprs[i]))
                return an_fail(an, error_make(an->arena, "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS", p->exprs[i],
                                              "expression", expr_sql_quoted(an->arena, trim_alias(p->exprs[i])),
                                              NULL));
            if (has_generator(p->exprs[i])) count++;
        }
        if (count > 1)
            return an_fail(an, error_make(an->arena, "UNSUPPORTED_GENERATOR.MULTI_GENERATOR", p, "num",
                                          arena_printf(an->arena, "%u", count), "generators",
                                          generator_list(an, agg_items(p),
                                                         p->nexprs - p->u.aggregate.ngroup),
                                          NULL));
        return extract_from_aggregate(an, p);
    }
    default:
        for (uint32_t i = 0; i < p->nexprs; i++)
            if (has_generator(p->exprs[i])) {
                StrBuf sb;
                sb_init(&sb, an->arena, 64);
                plan_node_print(&sb, p);
                return an_fail(an, error_make(an->arena, "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT", p->exprs[i], "plan",
                                              sb_str(&sb), NULL));
            }
        return p;
    }
}

static Node *apply(Analysis *an, Node *plan) {
    KindMask kinds = KIND_MASK(NK_Call, NK_UnresolvedFunction, NK_UnresolvedGenerate, NK_MultiAlias);
    /* every rewrite needs a generator (or a function that may be one) or a MultiAlias */
    if (!(plan->flags & NF_GENERATOR_CALL) &&
        !kind_mask_any(plan->mask, KIND_MASK(NK_UnresolvedFunction, NK_UnresolvedGenerate, NK_MultiAlias)))
        return plan;
    return transform(an->arena, plan, 0, kinds, rewrite, an);
}

const Rule RULE_RESOLVE_GENERATE = {
    .name = "ResolveGenerate",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveGenerate",
    .kinds = {NK_Call, NK_UnresolvedFunction, NK_UnresolvedGenerate, NK_MultiAlias},
    .nkinds = 4,
    .apply = apply,
};
