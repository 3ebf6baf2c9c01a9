/* Spark's CollationTypeCoercion (CollationTypeCasts in the type coercion
 * batch): the expressions that compare or combine strings bring their string
 * arguments to one collation, the one that wins by strength.
 *
 *   strength   EXPLICIT  x COLLATE name (Collate)
 *              IMPLICIT  a column, an alias, a subquery, a session variable
 *              DEFAULT   a literal, or an expression none of whose children
 *                        is a string (cast(1 as string), current_user())
 *              otherwise the strongest of the children's, the expression's
 *              own type (substring(c, 1) is as strong as c)
 *
 *   two EXPLICIT that differ                → COLLATION_MISMATCH.EXPLICIT
 *   two IMPLICIT (or two DEFAULT) that differ → COLLATION_MISMATCH.IMPLICIT
 *
 * Before / after, c1 STRING COLLATE UTF8_LCASE:
 *   c1 = 'a'                      (c1#1 = cast(a as string collate UTF8_LCASE))
 *   c1 = 'a' collate unicode      (cast(c1#1 as string collate UNICODE) = collate(a, unicode))
 *
 * A context is the expression's whole type with each string in it annotated
 * (SPARK-50405): arrays, maps and structs merge place by place, and an
 * argument is cast to the merged type. A cast is implicit when its child
 * has a string, default otherwise (SPARK-50523). The expressions and which
 * of their arguments take part are Spark's list (CollationTypeCoercion.apply). The string functions
 * whose result is their input's string type (Upper, Substring, StringTrim,
 * Concat, StringSplit...) carry the collation into the result type. */
#include <string.h>
#include <strings.h>

#include "core/collation.h"
#include "functions.h"
#include "print/printer.h"
#include "registry.h"

enum { ST_NONE = 0, ST_DEFAULT = 1, ST_IMPLICIT = 2, ST_EXPLICIT = 3 };

static bool has_string(const DataType *t) {
    switch (t->id) {
    case T_STRING: return true;
    case T_ARRAY: return has_string(t->elem);
    case T_MAP: return has_string(t->elem) || has_string(t->value);
    case T_STRUCT:
        for (int i = 0; i < t->nfields; i++)
            if (has_string(t->fields[i].type)) return true;
        return false;
    default: return false;
    }
}

/* extractStringType: a string, or the strings of (nested) arrays. */
static const DataType *string_of(const DataType *t) {
    while (t->id == T_ARRAY) t = t->elem;
    return t->id == T_STRING ? t : NULL;
}

static bool is_collate(const Node *e) {
    return e->kind == NK_Call && e->u.call.def && strcmp(func_name(e->u.call.def), "collate") == 0;
}

/* ---- context types (StringTypeWithContext) ----
 * A collation context is the expression's type with every string in it
 * annotated with its strength: a private string node whose `length` holds
 * the strength (real string types have length 0). They never leave this
 * file: mergeTypes turns them back into ordinary string types. */

static bool is_ctx(const DataType *t) { return t->id == T_STRING && t->length > 0; }

static const DataType *ctx_string(Arena *a, int32_t coll, int strength) {
    DataType *t = ARENA_NEW(a, DataType);
    t->id = T_STRING;
    t->collation = coll;
    t->length = strength;
    return t;
}

/* addContextToStringType */
static const DataType *with_ctx(Arena *a, const DataType *t, int strength) {
    switch (t->id) {
    case T_STRING: return ctx_string(a, t->collation, strength);
    case T_ARRAY: return type_array(a, with_ctx(a, t->elem, strength), t->contains_null);
    case T_MAP: return type_map(a, with_ctx(a, t->elem, strength), with_ctx(a, t->value, strength), t->contains_null);
    case T_STRUCT: {
        StructField *f = ARENA_ARRAY(a, StructField, t->nfields ? t->nfields : 1);
        for (int i = 0; i < t->nfields; i++) {
            f[i] = t->fields[i];
            f[i].type = with_ctx(a, t->fields[i].type, strength);
        }
        return type_struct(a, t->nfields, f);
    }
    default: return t;
    }
}

typedef struct Merge {
    Analysis *an;
    const Node *at;
    bool apply;   /* mergeTypes (a real type out) rather than mergeWinner */
    bool failed;  /* a COLLATION_MISMATCH was raised */
} Merge;

static bool fail_mismatch(Merge *m, bool explicit_, const DataType *l, const DataType *r) {
    Arena *a = m->an->arena;
    const DataType *lt = type_string_collated(a, l->collation), *rt = type_string_collated(a, r->collation);
    const char *types = arena_printf(a, "%s, %s", sql_type_quoted(a, lt), sql_type_quoted(a, rt));
    an_fail(m->an, error_make(a, explicit_ ? "COLLATION_MISMATCH.EXPLICIT" : "COLLATION_MISMATCH.IMPLICIT", m->at,
                              explicit_ ? "explicitTypes" : "implicitTypes", types, NULL));
    m->failed = true;
    return false;
}

/* getWinningStringType: the stronger; the same strength must agree */
static const DataType *winning_string(Merge *m, const DataType *l, const DataType *r) {
    if (l->length == r->length) {
        if (l->collation == r->collation) return l;
        fail_mismatch(m, l->length == ST_EXPLICIT, l, r);
        return NULL;
    }
    return l->length > r->length ? l : r;
}

/* mergeStructurally with the base case of mergeWinner or mergeTypes */
static const DataType *merge(Merge *m, const DataType *l, const DataType *r) {
    Arena *a = m->an->arena;
    if (m->apply) {
        if (l->id == T_STRING && !is_ctx(l) && is_ctx(r)) return type_string_collated(a, r->collation);
    } else {
        if (is_ctx(l) && is_ctx(r)) return winning_string(m, l, r);
        if (l->id == T_STRING && !is_ctx(l) && is_ctx(r)) return r;
    }
    if (l == r || (type_equal(l, r) && is_ctx(l) == is_ctx(r) && (!is_ctx(l) || l->length == r->length))) return l;
    if (l->id == T_ARRAY && r->id == T_ARRAY) {
        const DataType *e = merge(m, l->elem, r->elem);
        return e ? type_array(a, e, l->contains_null) : NULL;
    }
    if (l->id == T_MAP && r->id == T_MAP) {
        const DataType *k = merge(m, l->elem, r->elem);
        const DataType *v = k ? merge(m, l->value, r->value) : NULL;
        return v ? type_map(a, k, v, l->contains_null) : NULL;
    }
    if (l->id == T_ARRAY) {
        const DataType *e = merge(m, l->elem, r);
        return e ? type_array(a, e, l->contains_null) : NULL;
    }
    if (r->id == T_ARRAY) return merge(m, l, r->elem);
    if (l->id == T_STRUCT && r->id == T_STRUCT) {
        if (l->nfields != r->nfields) return NULL;
        StructField *f = ARENA_ARRAY(a, StructField, l->nfields ? l->nfields : 1);
        for (int i = 0; i < l->nfields; i++) {
            f[i] = l->fields[i];
            f[i].type = merge(m, l->fields[i].type, r->fields[i].type);
            if (!f[i].type) return NULL;
        }
        return type_struct(a, l->nfields, f);
    }
    return NULL;
}

static const DataType *merge_winner(Merge *m, const DataType *l, const DataType *r) {
    m->apply = false;
    return merge(m, l, r);
}

/* mergeWinners: the contexts folded into `start`; NULL if one does not fit */
static const DataType *merge_winners(Merge *m, const DataType *start, const DataType *const *ctx, int n) {
    const DataType *acc = start;
    for (int i = 0; i < n && acc; i++) acc = merge_winner(m, acc, ctx[i]);
    return acc;
}

static const DataType *context(Merge *m, const Node *e);

static bool kid_has_string(const Node *e) {
    for (uint32_t i = 0; i < e->nkids; i++)
        if (e->kids[i]->type && has_string(e->kids[i]->type)) return true;
    return false;
}

/* findCollationContext: the expression's type annotated with strengths, or
 * NULL (None): no string in it, or contexts that do not merge. */
static const DataType *context(Merge *m, const Node *e) {
    Arena *a = m->an->arena;
    if (!e->type || m->failed) return NULL;
    /* WindowSpecDefinition and WindowFrame are metadata */
    if (e->kind == NK_WindowSpecDefinition || e->kind == NK_SpecifiedWindowFrame || e->kind == NK_SortOrder)
        return NULL;
    if (!has_string(e->type)) return NULL;
    if (is_collate(e)) return with_ctx(a, e->type, ST_EXPLICIT);
    switch (e->kind) {
    case NK_Cast:
        /* SPARK-50523: a cast of a string is implicit, of anything else default */
        return with_ctx(a, e->type, e->nkids && e->kids[0]->type && has_string(e->kids[0]->type) ? ST_IMPLICIT
                                                                                                  : ST_DEFAULT);
    case NK_Alias: case NK_AttributeReference: case NK_OuterReference: case NK_VariableReference:
    case NK_ScalarSubquery: case NK_ListQuery: case NK_Exists: case NK_LateralColumnAliasReference:
    case NK_NamedLambdaVariable:
        return with_ctx(a, e->type, ST_IMPLICIT);
    case NK_Literal: return with_ctx(a, e->type, ST_DEFAULT);
    default: break;
    }
    if (!kid_has_string(e)) return with_ctx(a, e->type, ST_DEFAULT);
    const char *name = e->kind == NK_Call && e->u.call.def ? func_name(e->u.call.def) : "";
    if (e->kind == NK_GetStructField) {
        const DataType *c = context(m, e->kids[0]);
        int i = e->u.field.ordinal;
        if (!c || c->id != T_STRUCT || i < 0 || i >= c->nfields) return NULL;
        return c->fields[i].type;
    }
    if (!strcmp(name, "@subscript") && e->kids[0]->type && e->kids[0]->type->id == T_MAP) {
        const DataType *c = context(m, e->kids[0]);
        if (!c || c->id != T_MAP) return NULL;
        return merge_winner(m, e->type, c->value);
    }
    if (!strcmp(name, "named_struct") || !strcmp(name, "struct")) {
        /* CreateNamedStruct: its fields take their values' contexts */
        const DataType *t = e->type;
        if (t->id != T_STRUCT) return NULL;
        bool named = !strcmp(name, "named_struct");
        StructField *f = ARENA_ARRAY(a, StructField, t->nfields ? t->nfields : 1);
        for (int i = 0; i < t->nfields; i++) {
            uint32_t k = named ? 2u * (uint32_t)i + 1 : (uint32_t)i;
            f[i] = t->fields[i];
            const DataType *c = k < e->nkids ? context(m, e->kids[k]) : NULL;
            if (m->failed) return NULL;
            if (c) f[i].type = c;
        }
        return t->nfields ? type_struct(a, t->nfields, f) : NULL;
    }
    if (!strcmp(name, "map")) {
        /* CreateMap: every key and value must have a context */
        const DataType *t = e->type;
        if (t->id != T_MAP || e->nkids % 2) return NULL;
        int n = (int)e->nkids / 2;
        const DataType **ks = ARENA_ARRAY(a, const DataType *, n + 1), **vs = ARENA_ARRAY(a, const DataType *, n + 1);
        for (int i = 0; i < n; i++) {
            ks[i] = context(m, e->kids[2 * i]);
            vs[i] = context(m, e->kids[2 * i + 1]);
            if (!ks[i] || !vs[i]) return NULL;
        }
        const DataType *k = merge_winners(m, t->elem, ks, n);
        const DataType *v = k ? merge_winners(m, t->value, vs, n) : NULL;
        return v ? type_map(a, k, v, t->contains_null) : NULL;
    }
    const DataType **cs = ARENA_ARRAY(a, const DataType *, e->nkids + 1);
    int n = 0;
    for (uint32_t i = 0; i < e->nkids; i++) {
        const DataType *c = context(m, e->kids[i]);
        if (m->failed) return NULL;
        if (c) cs[n++] = c;
    }
    return merge_winners(m, e->type, cs, n);
}

/* collateToSingleType over args[idx[0..n)]; false on a mismatch. */
static bool collate_to_single(Analysis *an, Node **args, const int *idx_in, int n_in, const Node *at) {
    /* only the arguments with a string in their type take part (a NULL or a
       number among them does not end the search) */
    int idx[256];
    int n = 0;
    for (int i = 0; i < n_in && n < 256; i++)
        if (args[idx_in[i]]->type && has_string(args[idx_in[i]]->type)) idx[n++] = idx_in[i];
    bool any = false;
    for (int i = 0; i < n; i++) any = any || type_has_collated_string(args[idx[i]]->type);
    if (!any) return true;
    Merge m = {an, at, false, false};
    /* findLeastCommonStringType: a fold that ends with None at the first
       argument without a context or whose context does not merge */
    const DataType *lct = context(&m, args[idx[0]]);
    for (int i = 1; i < n && lct && !m.failed; i++) {
        const DataType *c = context(&m, args[idx[i]]);
        lct = c ? merge_winner(&m, lct, c) : NULL;
    }
    if (m.failed) return false;
    if (!lct) return true;
    for (int i = 0; i < n; i++) {
        Node *e = args[idx[i]];
        m.apply = true;
        const DataType *t = merge(&m, e->type, lct);
        if (t && !type_equal(t, e->type)) args[idx[i]] = fn_mk_cast(an, e, t);
    }
    return true;
}

/* Which arguments of which expressions take part (CollationTypeCoercion.apply):
 *   "*" every argument, "t" all but the first, "K" map keys and values apart,
 *   else a list of argument positions. */
typedef struct CollRule {
    const char *name;
    const char *args;
} CollRule;

static const CollRule RULES[] = {
    {"=", "*"}, {"==", "*"}, {"<=>", "*"}, {"!=", "*"}, {"<>", "*"}, {"<", "*"}, {"<=", "*"}, {">", "*"},
    {">=", "*"}, {"equal_null", "*"},
    {"concat", "*"}, {"||", "*"}, {"concat_ws", "*"}, {"array", "*"}, {"array_join", "*"}, {"greatest", "*"},
    {"least", "*"}, {"coalesce", "*"}, {"nvl", "*"}, {"ifnull", "*"}, {"array_contains", "*"},
    {"array_except", "*"}, {"array_append", "*"}, {"array_intersect", "*"}, {"array_position", "*"},
    {"array_remove", "*"}, {"array_union", "*"}, {"arrays_overlap", "*"}, {"mask", "*"}, {"replace", "*"},
    {"translate", "*"}, {"trim", "*"}, {"ltrim", "*"}, {"rtrim", "*"}, {"btrim", "*"}, {"contains", "*"},
    {"startswith", "*"}, {"endswith", "*"}, {"find_in_set", "*"}, {"instr", "*"}, {"to_number", "*"},
    {"try_to_number", "*"}, {"str_to_map", "*"}, {"nullif", "*"},
    {"locate", "01"}, {"position", "01"}, {"substring_index", "01"}, {"overlay", "01"}, {"split_part", "01"},
    {"levenshtein", "01"}, {"regexp_replace", "02"}, {"lpad", "02"}, {"rpad", "02"}, {"lag", "02"},
    {"lead", "02"}, {"if", "12"}, {"nvl2", "12"}, {"elt", "t"}, {"map", "K"},
    {NULL, NULL},
};

static const CollRule *rule_for(const char *name) {
    for (const CollRule *r = RULES; r->name; r++)
        if (!strcasecmp(r->name, name)) return r;
    return NULL;
}

static bool apply_rule(Analysis *an, const CollRule *r, Node **args, int nargs, const Node *at) {
    int idx[256];
    int n = 0;
    if (nargs > 256) return true;
    if (!strcmp(r->args, "*")) {
        for (int i = 0; i < nargs; i++) idx[n++] = i;
        return collate_to_single(an, args, idx, n, at);
    }
    if (!strcmp(r->args, "t")) {
        for (int i = 1; i < nargs; i++) idx[n++] = i;
        return collate_to_single(an, args, idx, n, at);
    }
    if (!strcmp(r->args, "K")) {
        if (nargs % 2) return true;
        for (int i = 0; i < nargs; i += 2) idx[n++] = i;
        if (!collate_to_single(an, args, idx, n, at)) return false;
        n = 0;
        for (int i = 1; i < nargs; i += 2) idx[n++] = i;
        return collate_to_single(an, args, idx, n, at);
    }
    for (const char *p = r->args; *p; p++)
        if (*p - '0' < nargs) idx[n++] = *p - '0';
    return collate_to_single(an, args, idx, n, at);
}

static bool any_collated(Node *const *args, int nargs) {
    for (int i = 0; i < nargs; i++)
        if (args[i] && args[i]->type && type_has_collated_string(args[i]->type)) return true;
    return false;
}

bool fn_collation_coerce_call(Analysis *an, const char *name, Node **args, int nargs, const Node *at) {
    if (!any_collated(args, nargs)) return true; /* the common case: nothing to look up */
    const CollRule *r = rule_for(name);
    return r ? apply_rule(an, r, args, nargs, at) : true;
}

bool fn_collation_coerce_all(Analysis *an, Node **args, int nargs, const Node *at) {
    static const CollRule all = {"", "*"};
    return apply_rule(an, &all, args, nargs, at);
}

/* The string functions whose type is that of a string argument (Upper's
 * child.dataType, Substring's str.dataType, ...): position of the argument,
 * and whether the result is an array of it (StringSplit, RegExpExtractAll). */
typedef struct ResultRule {
    const char *name;
    int arg;
    bool array;
} ResultRule;

static const ResultRule RESULTS[] = {
    {"upper", 0, false}, {"lower", 0, false}, {"ucase", 0, false}, {"lcase", 0, false}, {"initcap", 0, false},
    {"substr", 0, false}, {"substring", 0, false}, {"left", 0, false}, {"right", 0, false},
    {"substring_index", 0, false}, {"replace", 0, false}, {"translate", 0, false}, {"overlay", 0, false},
    {"lpad", 0, false}, {"rpad", 0, false}, {"repeat", 0, false}, {"reverse", 0, false},
    {"split_part", 0, false}, {"trim", 0, false}, {"ltrim", 0, false}, {"rtrim", 0, false}, {"btrim", 0, false},
    {"concat", 0, false}, {"||", 0, false}, {"concat_ws", 0, false}, {"elt", 1, false},
    {"regexp_replace", 0, false}, {"regexp_extract", 0, false}, {"regexp_substr", 0, false},
    {"format_string", 0, false}, {"printf", 0, false}, {"mask", 0, false},
    {"split", 0, true}, {"regexp_extract_all", 0, true},
    {NULL, 0, false},
};

const DataType *fn_collation_result_type(Analysis *an, const char *name, Node *const *args, int nargs,
                                         const DataType *result) {
    if (!result || !any_collated(args, nargs)) return result;
    const DataType *rs = string_of(result);
    if (!rs || rs->collation != COLLATION_UTF8_BINARY) return result;
    for (const ResultRule *r = RESULTS; r->name; r++) {
        if (strcasecmp(r->name, name) != 0) continue;
        if (r->arg >= nargs || !args[r->arg]->type) return result;
        const DataType *at = args[r->arg]->type;
        if (at->id != T_STRING || at->collation == COLLATION_UTF8_BINARY) return result;
        if (r->array ? (result->id != T_ARRAY || result->elem->id != T_STRING) : result->id != T_STRING)
            return result;
        return r->array ? type_array(an->arena, at, result->contains_null) : at;
    }
    return result;
}

/* The expressions whose subject is StringTypeBinaryLcase: UTF8_BINARY or
 * UTF8_LCASE, no trimming (StringRegexExpression, ILike, MultiLikeBase,
 * StringSplit and the regexp_* functions). */
static const char *const BINARY_LCASE[] = {
    "like", "ilike", "rlike", "regexp", "regexp_like", "like any", "like all", "not like any", "not like all",
    "ilike any", "ilike all", "not ilike any", "not ilike all", "regexp_replace", "regexp_extract",
    "regexp_extract_all", "regexp_count", "regexp_substr", "regexp_instr", "split", NULL,
};

/* The expressions that search with ICU's StringSearch take no case-sensitive,
 * accent-insensitive collation (StringTypeNonCSAICollation, SPARK-49667). */
static const char *const NON_CS_AI[] = {
    "contains", "startswith", "endswith", "instr", "locate", "position", "replace", "substring_index",
    "split_part", NULL,
};

static bool listed(const char *const *list, const char *name) {
    for (const char *const *p = list; *p; p++)
        if (!strcasecmp(*p, name)) return true;
    return false;
}

bool fn_collation_arg_supported(const char *name, int i, const DataType *t) {
    if (!t || t->id != T_STRING || t->collation == COLLATION_UTF8_BINARY) return true;
    if (i == 0 && t->collation != COLLATION_UTF8_LCASE && listed(BINARY_LCASE, name)) return false;
    if (collation_is_icu(t->collation) && collation_is_accent_insensitive(t->collation) &&
        !collation_is_case_insensitive(t->collation) && listed(NON_CS_AI, name))
        return false;
    return true;
}

/* The collation the strings of `e` and of a subquery's output column must
 * share for `e IN (SELECT col ...)` (InSubquery: the subquery is IMPLICIT);
 * NULL when nothing is to change, false on a mismatch. */
bool fn_collation_in_subquery(Analysis *an, const Node *value, const DataType *col, const Node *at,
                              const DataType **out) {
    *out = NULL;
    if (!value->type || !has_string(value->type) || !has_string(col)) return true;
    if (!type_has_collated_string(value->type) && !type_has_collated_string(col)) return true;
    Merge m = {an, at, false, false};
    const DataType *l = context(&m, value);
    if (m.failed) return false;
    if (!l) return true;
    const DataType *w = merge_winner(&m, l, with_ctx(an->arena, col, ST_IMPLICIT));
    if (m.failed) return false;
    if (w && string_of(w)) *out = type_string_collated(an->arena, string_of(w)->collation);
    return true;
}

/* BETWEEN's input against each bound (the replacement's two comparisons),
 * for the mismatch errors only: the arguments print as written. */
bool fn_collation_check_pairs(Analysis *an, Node *const *args, int nargs, const Node *at) {
    for (int i = 1; i < nargs; i++) {
        Node *pair[2] = {args[0], args[i]};
        static const int both[2] = {0, 1};
        if (!collate_to_single(an, pair, both, 2, at)) return false;
    }
    return true;
}
