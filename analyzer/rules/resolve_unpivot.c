/* ResolveUnpivot — Spark's Analyzer.ResolveUnpivot with TypeCoercion's
 * UnpivotCoercion: once the value columns are resolved, the id columns are
 * the child's other columns; each value set becomes one projection of an
 * Expand (ids, the set's alias or column names joined by `_`, its values),
 * the values of one position cast to their wider common type.
 *
 *   'Unpivot None, [[y2020], [y2021]], v, [amount]       Expand [[item#1, y2020, y2020#2], [item#1, y2021, y2021#3]],
 *   +- Relation t[item#1,y2020#2,y2021#3]         =>             [item#1, v#4, amount#5]
 *                                                        +- Relation t[item#1,y2020#2,y2021#3]
 */
#include <string.h>

#include "rule.h"
#include "rules.h"
#include "core/output.h"
#include "core/walk.h"
#include "functions/functions.h"
#include "print/printer.h"
#include "rules/lib/plan_inputs.h"

static Node *str_literal(Analysis *an, const char *s) {
    Node *n = node_new(an->arena, NK_Literal, -1, -1);
    n->u.lit.v.type = &TYPE_STRING;
    n->u.lit.v.u.s.p = s;
    n->u.lit.v.u.s.len = (uint32_t)strlen(s);
    n->type = &TYPE_STRING;
    return node_finish(n);
}

static Node *rewrite(Node *p, void *ctx) {
    Analysis *an = ctx;
    if (an_failed(an) || p->kind != NK_Unpivot || !children_resolved(p)) return p;
    for (uint32_t i = 0; i < p->nexprs; i++)
        if (!node_resolved(p->exprs[i])) return p;
    Arena *a = an->arena;
    uint32_t nsets = p->nexprs, nv = p->u.unpivot.nvalue_cols;
    if (!nsets) return an_fail(an, error_make(a, "UNPIVOT_REQUIRES_VALUE_COLUMNS", p, NULL));
    for (uint32_t s = 0; s < nsets; s++) {
        const Node *set = p->exprs[s];
        for (uint32_t k = 0; k < set->nkids; k++)
            if (set->kids[k]->kind != NK_AttributeReference) return p; /* Spark waits for attributes */
        if (set->nkids != nv)
            return an_fail(an, error_make(a, "UNPIVOT_VALUE_SIZE_MISMATCH", p, "names",
                                          arena_printf(a, "%u", nv), NULL));
    }
    /* ids: the child's columns that are no value */
    AttrList out = plan_output(an, p->kids[0]);
    Node **ids = ARENA_ARRAY(a, Node *, out.n + 1);
    uint32_t nid = 0;
    for (uint32_t i = 0; i < out.n; i++) {
        bool value = false;
        for (uint32_t s = 0; s < nsets && !value; s++)
            for (uint32_t k = 0; k < p->exprs[s]->nkids; k++)
                if (p->exprs[s]->kids[k]->u.attr.id == out.v[i]->u.attr.id) value = true;
        if (!value) ids[nid++] = out.v[i];
    }
    /* UnpivotCoercion: one type per value position */
    const DataType **types = ARENA_ARRAY(a, const DataType *, nv + 1);
    bool *nullable = ARENA_ARRAY(a, bool, nv + 1);
    for (uint32_t k = 0; k < nv; k++) {
        const DataType **ts = ARENA_ARRAY(a, const DataType *, nsets);
        nullable[k] = false;
        for (uint32_t s = 0; s < nsets; s++) {
            ts[s] = p->exprs[s]->kids[k]->type;
            if (expr_nullable(p->exprs[s]->kids[k])) nullable[k] = true;
        }
        types[k] = coerce_wider_type_n(a, ts, (int)nsets);
        if (!types[k]) {
            StrBuf sb;
            sb_init(&sb, a, 64);
            for (uint32_t s = 0; s < nsets; s++) {
                if (s) sb_puts(&sb, ", ");
                const Node *v = p->exprs[s]->kids[k];
                sb_printf(&sb, "%s %s", sql_ident(a, v->u.attr.name), type_catalog_string(a, v->type));
            }
            return an_fail(an, error_make(a, "UNPIVOT_VALUE_DATA_TYPE_MISMATCH", p, "types", sb_str(&sb), NULL));
        }
    }
    uint32_t width = nid + 1 + nv;
    Node **exprs = ARENA_ARRAY(a, Node *, width + nsets + 1);
    for (uint32_t i = 0; i < nid; i++) exprs[i] = ids[i];
    exprs[nid] = attr_new(an, p->u.unpivot.var_name, &TYPE_STRING, false, 0, (NameParts){0, NULL}, -1, -1);
    for (uint32_t k = 0; k < nv; k++)
        exprs[nid + 1 + k] = attr_new(an, p->u.unpivot.value_cols[k], types[k], nullable[k], 0, (NameParts){0, NULL},
                                      -1, -1);
    for (uint32_t s = 0; s < nsets; s++) {
        const Node *set = p->exprs[s];
        Node **row = ARENA_ARRAY(a, Node *, width + 1);
        for (uint32_t i = 0; i < nid; i++) row[i] = ids[i];
        const char *alias = p->u.unpivot.aliases ? p->u.unpivot.aliases[s] : NULL;
        if (!alias) {
            StrBuf sb;
            sb_init(&sb, a, 32);
            for (uint32_t k = 0; k < nv; k++) {
                if (k) sb_putc(&sb, '_');
                sb_puts(&sb, set->kids[k]->u.attr.name);
            }
            alias = sb_str(&sb);
        }
        row[nid] = str_literal(an, alias);
        for (uint32_t k = 0; k < nv; k++) row[nid + 1 + k] = coerce_cast(an, set->kids[k], types[k]);
        Node *l = node_new(a, NK_ExprList, -1, -1);
        l->type = &TYPE_NULL;
        node_set_kids(a, l, row, width);
        exprs[width + s] = node_finish(l);
    }
    Node *expand = node_new(a, NK_Expand, p->start, p->stop);
    expand->u.expand.noutput = width;
    expand->u.expand.nprojections = nsets;
    node_set_exprs(a, expand, exprs, width + nsets);
    node_set_kids(a, expand, &p->kids[0], 1);
    return node_finish(expand);
}

static Node *apply(Analysis *an, Node *plan) {
    return transform(an->arena, plan, TX_SKIP_RESOLVED, KIND_MASK(NK_Unpivot), rewrite, an);
}

const Rule RULE_RESOLVE_UNPIVOT = {
    .name = "ResolveUnpivot",
    .spark_rule = "org.apache.spark.sql.catalyst.analysis.Analyzer$ResolveUnpivot",
    .kinds = {NK_Unpivot},
    .nkinds = 1,
    .apply = apply,
};
