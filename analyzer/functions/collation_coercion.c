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
 * Only a string or an array of strings is cast (castStringType); a map or a
 * struct keeps its type. The expressions and which of their arguments take
 * part are Spark's list (CollationTypeCoercion.apply). The string functions
 * whose result is their input's string type (Upper, Substring, StringTrim,
 * Concat, StringSplit...) carry the collation into the result type. */
#include <string.h>
#include <strings.h>

#include "core/collation.h"
#include "functions.h"
#include "print/printer.h"
#include "registry.h"

enum { ST_NONE = 0, ST_DEFAULT = 1, ST_IMPLICIT = 2, ST_EXPLICIT = 3 };

typedef struct CollCtx {
    const DataType *type; /* the expression's type */
    int strength;         /* ST_NONE: no collation context */
} CollCtx;

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

static bool fail_mismatch(Analysis *an, const Node *at, bool explicit_, const DataType *l, const DataType *r) {
    Arena *a = an->arena;
    const char *types = arena_printf(a, "%s, %s", sql_type_quoted(a, l), sql_type_quoted(a, r));
    an_fail(an, error_make(a, explicit_ ? "COLLATION_MISMATCH.EXPLICIT" : "COLLATION_MISMATCH.IMPLICIT", at,
                           explicit_ ? "explicitTypes" : "implicitTypes", types, NULL));
    return false;
}

/* collationPrecedenceWinner */
static bool winner(Analysis *an, const Node *at, CollCtx l, CollCtx r, CollCtx *out) {
    const DataType *ls = string_of(l.type), *rs = string_of(r.type);
    if (!ls && !rs) {
        out->strength = ST_NONE;
        return true;
    }
    if (!rs) return *out = l, true;
    if (!ls) return *out = r, true;
    bool differ = ls->collation != rs->collation;
    if (l.strength == ST_EXPLICIT && r.strength == ST_EXPLICIT && differ) return fail_mismatch(an, at, true, ls, rs);
    if (l.strength == ST_EXPLICIT) return *out = l, true;
    if (r.strength == ST_EXPLICIT) return *out = r, true;
    if (l.strength == ST_IMPLICIT && r.strength == ST_IMPLICIT && differ) return fail_mismatch(an, at, false, ls, rs);
    if (l.strength == ST_IMPLICIT) return *out = l, true;
    if (r.strength == ST_IMPLICIT) return *out = r, true;
    if (differ) return fail_mismatch(an, at, false, ls, rs);
    return *out = l, true;
}

static bool context(Analysis *an, const Node *e, const Node *at, CollCtx *out);

static bool fold_kids(Analysis *an, const Node *const *kids, uint32_t n, const Node *at, CollCtx *out) {
    CollCtx acc = {NULL, ST_NONE};
    for (uint32_t i = 0; i < n; i++) {
        CollCtx k;
        if (!context(an, kids[i], at, &k)) return false;
        if (k.strength == ST_NONE) continue;
        if (acc.strength == ST_NONE) acc = k;
        else if (!winner(an, at, acc, k, &acc)) return false;
    }
    *out = acc;
    return true;
}

/* findCollationContext */
static bool context(Analysis *an, const Node *e, const Node *at, CollCtx *out) {
    out->type = e->type;
    out->strength = ST_NONE;
    if (!e->type || !has_string(e->type)) return true;
    if (is_collate(e)) return out->strength = ST_EXPLICIT, true;
    switch (e->kind) {
    case NK_Alias: case NK_AttributeReference: case NK_OuterReference: case NK_VariableReference:
    case NK_ScalarSubquery: case NK_ListQuery: case NK_Exists: case NK_LateralColumnAliasReference:
    case NK_NamedLambdaVariable:
        out->strength = ST_IMPLICIT;
        return true;
    case NK_Literal: out->strength = ST_DEFAULT; return true;
    default: break;
    }
    bool kid_strings = false;
    for (uint32_t i = 0; i < e->nkids; i++) kid_strings = kid_strings || (e->kids[i]->type && has_string(e->kids[i]->type));
    if (!kid_strings) return out->strength = ST_DEFAULT, true;
    CollCtx w;
    const char *name = e->kind == NK_Call && e->u.call.def ? func_name(e->u.call.def) : "";
    if (e->kind == NK_GetStructField || !strcmp(name, "@subscript") || !strcmp(name, "@array_field")) {
        /* ExtractValue: the context of what is extracted from */
        if (!context(an, e->kids[0], at, &w)) return false;
    } else if (!strcmp(name, "map")) {
        return true; /* CreateMap: no precedence for maps */
    } else if (!strcmp(name, "named_struct")) {
        /* CreateNamedStruct: the values only */
        const Node *vals[64];
        uint32_t nv = 0;
        for (uint32_t i = 1; i < e->nkids && nv < 64; i += 2) vals[nv++] = e->kids[i];
        if (!fold_kids(an, vals, nv, at, &w)) return false;
    } else if (!fold_kids(an, (const Node *const *)e->kids, e->nkids, at, &w)) {
        return false;
    }
    if (w.strength == ST_NONE) return true;
    out->strength = w.strength;
    /* a string result takes the expression's own type, anything else keeps the winner's */
    if (!string_of(e->type)) out->type = w.type;
    return true;
}

/* castStringType: a string or an array of strings in another collation */
static const DataType *retyped(Arena *a, const DataType *t, int32_t coll) {
    if (t->id == T_STRING) return t->collation != coll ? type_string_collated(a, coll) : NULL;
    if (t->id == T_ARRAY) {
        const DataType *e = retyped(a, t->elem, coll);
        return e ? type_array(a, e, t->contains_null) : NULL;
    }
    return NULL;
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
    for (int i = 0; i < n; i++) any = any || (args[idx[i]]->type && type_has_collated_string(args[idx[i]]->type));
    if (!any) return true;
    CollCtx acc = {NULL, ST_NONE};
    for (int i = 0; i < n; i++) {
        CollCtx k;
        if (!context(an, args[idx[i]], at, &k)) return false;
        if (i == 0) acc = k;
        else if (k.strength == ST_NONE) acc.strength = ST_NONE;
        else if (!winner(an, at, acc, k, &acc)) return false;
        /* foldLeft: an argument without a context (not a string) ends it */
        if (acc.strength == ST_NONE) return true;
    }
    if (acc.strength == ST_NONE) return true;
    const DataType *st = string_of(acc.type);
    if (!st) return true;
    for (int i = 0; i < n; i++) {
        Node *e = args[idx[i]];
        const DataType *t = e->type ? retyped(an->arena, e->type, st->collation) : NULL;
        if (t) args[idx[i]] = fn_mk_cast(an, e, t);
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

bool fn_collation_coerce_call(Analysis *an, const char *name, Node **args, int nargs, const Node *at) {
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
    if (!result) return result;
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
    CollCtx l, r = {col, ST_IMPLICIT}, w;
    if (!context(an, value, at, &l)) return false;
    if (l.strength == ST_NONE) return true;
    if (!winner(an, at, l, r, &w)) return false;
    if (w.strength != ST_NONE) *out = string_of(w.type);
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
