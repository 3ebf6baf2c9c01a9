#include "scope.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/conf.h"
#include "core/jregex.h"
#include "core/output.h"
#include "core/suggest.h"
#include "print/printer.h"
#include "rules/lib/builders.h"

bool ident_eq(const Analysis *an, const char *a, const char *b) {
    return an->conf->case_sensitive ? strcmp(a, b) == 0 : ident_equal_ci(a, b);
}

Node *extract_fields(Analysis *an, const Node *at, Node *base, const char *const *fields, uint32_t n) {
    Node *e = base;
    for (uint32_t i = 0; i < n; i++) {
        const DataType *t = e->type;
        if (t->id != T_STRUCT) {
            return an_fail(an, error_make(an->arena, "INVALID_EXTRACT_BASE_FIELD_TYPE", at, "base",
                                          expr_sql_quoted(an->arena, e), "other", sql_type_quoted(an->arena, t), NULL));
        }
        int found = -1, count = 0;
        for (int f = 0; f < t->nfields; f++)
            if (ident_eq(an, t->fields[f].name, fields[i])) {
                if (found < 0) found = f;
                count++;
            }
        if (found < 0) {
            return an_fail(an, error_make(an->arena, "FIELD_NOT_FOUND", at, "fieldName", sql_ident(an->arena, fields[i]),
                                          "fields", "", NULL));
        }
        if (count > 1) {
            return an_fail(an, error_make(an->arena, "AMBIGUOUS_REFERENCE_TO_FIELDS", at, "field",
                                          sql_ident(an->arena, fields[i]), "count", arena_printf(an->arena, "%d", count),
                                          NULL));
        }
        Node *g = node_new(an->arena, NK_GetStructField, at->start, at->stop);
        g->u.field.ordinal = found;
        g->u.field.name = t->fields[found].name;
        g->type = t->fields[found].type;
        if (t->fields[found].nullable || expr_nullable(e)) g->flags |= NF_NULLABLE;
        node_set_kids(an->arena, g, &e, 1);
        e = node_finish(g);
    }
    return e;
}

/* Does the attribute's qualifier end with parts[0..n)? */
static bool qualifier_ends_with(const Analysis *an, const Node *attr, const char *const *parts, uint32_t n) {
    NameParts q = attr->u.attr.qualifier;
    if (n > q.n) return false;
    for (uint32_t i = 0; i < n; i++)
        if (!ident_eq(an, q.v[q.n - n + i], parts[i])) return false;
    return true;
}

static const char *qualified_sql_name(Analysis *an, const Node *attr) {
    NameParts q = attr->u.attr.qualifier;
    const char *parts[5];
    uint32_t n = 0;
    for (uint32_t i = 0; i < q.n && n < 4; i++) parts[n++] = q.v[i];
    parts[n++] = attr->u.attr.name;
    return sql_id_parts(an->arena, (NameParts){n, parts});
}

Node *visible_attr(Analysis *an, Node *a) {
    if (a->kind != NK_AttributeReference || !a->u.attr.metadata_col) return a;
    Node *c = node_copy(an->arena, a);
    c->u.attr.metadata_col = false;
    return node_finish(c);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Positions of the attributes named `name`: through the list's hash index
 * when it has one, else by a scan. Calls fn for each match in list order. */
typedef struct NameMatch {
    const AttrIndex *ix;
    int32_t pos;   /* index chain position, or scan position */
    uint32_t scan;
    uint32_t hash; /* of the name looked for */
} NameMatch;

static Node *next_named(Analysis *an, AttrList attrs, const char *name, NameMatch *m) {
    if (m->ix) {
        while (m->pos >= 0) {
            Node *a = attrs.v[m->pos];
            m->pos = m->ix->next[m->pos];
            if (a->kind != NK_AttributeReference) continue;
            if (a->u.attr.name_hash && a->u.attr.name_hash != m->hash) continue;
            if (ident_eq(an, a->u.attr.name, name)) return a;
        }
        return NULL;
    }
    while (m->scan < attrs.n) {
        Node *a = attrs.v[m->scan++];
        if (a->kind != NK_AttributeReference) continue;
        if (a->u.attr.name_hash && a->u.attr.name_hash != m->hash) continue;
        if (ident_eq(an, a->u.attr.name, name)) return a;
    }
    return NULL;
}

static NameMatch match_start(const AttrIndex *ix, const char *name) {
    NameMatch m = {ix, -1, 0, attr_name_hash(name)};
    if (ix) m.pos = ix->head[m.hash & ix->mask];
    return m;
}

/* Candidate matches: almost always one or two, so a small stack array that
 * grows in the arena only when a name really matches many columns. */
typedef struct Cands {
    Node **v;
    uint32_t n, cap;
    Node *stack[8];
} Cands;

static void cands_push(Analysis *an, Cands *c, Node *a) {
    if (c->n == c->cap) {
        uint32_t cap = c->cap * 2;
        Node **v = ARENA_ARRAY(an->arena, Node *, cap);
        mem_copy(v, c->v, sizeof(Node *) * c->n);
        c->v = v;
        c->cap = cap;
    }
    c->v[c->n++] = a;
}

ResolveStatus resolve_name(Analysis *an, const Node *at, NameParts name, AttrList attrs, Node **out) {
    Cands cl = {.n = 0, .cap = 8};
    cl.v = cl.stack;
    uint32_t nested_from = 0;
    const AttrIndex *ix = attr_index(an, attrs);
    /* qualified: the first i parts are the end of the qualifier, part i the name */
    for (uint32_t i = name.n > 1 ? (name.n - 1 < 3 ? name.n - 1 : 3) : 0; i >= 1 && cl.n == 0; i--) {
        NameMatch m = match_start(ix, name.v[i]);
        for (Node *a; (a = next_named(an, attrs, name.v[i], &m));)
            if (qualifier_ends_with(an, a, name.v, i)) cands_push(an, &cl, a);
        nested_from = i + 1;
    }
    if (cl.n == 0) {
        NameMatch m = match_start(ix, name.v[0]);
        for (Node *a; (a = next_named(an, attrs, name.v[0], &m));)
            if (!a->u.attr.metadata_col) cands_push(an, &cl, a);
        nested_from = 1;
    }
    if (cl.n == 0) {
        /* then the hidden columns (Spark: output, then metadataOutput) */
        if (attrs.hidden) return resolve_name(an, at, name, *attrs.hidden, out);
        return RS_NOT_FOUND;
    }
    if (cl.n > 1) {
        /* the same attribute reachable twice is not ambiguous */
        bool same = true;
        for (uint32_t k = 1; k < cl.n; k++)
            if (cl.v[k]->u.attr.id != cl.v[0]->u.attr.id) same = false;
        if (!same) {
            const char **names = ARENA_ARRAY(an->arena, const char *, cl.n);
            for (uint32_t k = 0; k < cl.n; k++) names[k] = qualified_sql_name(an, cl.v[k]);
            qsort(names, cl.n, sizeof(char *), cmp_str);
            StrBuf sb;
            sb_init(&sb, an->arena, 64);
            sb_putc(&sb, '[');
            for (uint32_t k = 0; k < cl.n; k++) {
                if (k) sb_puts(&sb, ", ");
                sb_puts(&sb, names[k]);
            }
            sb_putc(&sb, ']');
            an_fail(an, error_make(an->arena, "AMBIGUOUS_REFERENCE", at, "name", sql_id_parts(an->arena, name),
                                   "referenceNames", sb_str(&sb), NULL));
            return RS_AMBIGUOUS;
        }
    }
    Node *a = cl.v[0];
    /* the column takes the name as written (Spark's collectMatches: a.withName(name)) */
    const char *written = name.v[nested_from - 1];
    if (a->kind == NK_AttributeReference && strcmp(a->u.attr.name, written) != 0) {
        Node *c = node_copy(an->arena, a);
        c->u.attr.name = written;
        a = node_finish(c);
    }
    if (nested_from >= name.n) {
        *out = a;
        return RS_FOUND;
    }
    Node *e = extract_fields(an, at, a, name.v + nested_from, name.n - nested_from);
    if (!e) return RS_AMBIGUOUS; /* error recorded */
    Node *alias = node_new(an->arena, NK_Alias, at->start, at->stop);
    alias->u.attr.name = name.v[name.n - 1];
    alias->u.attr.id = an_new_id(an);
    alias->type = e->type;
    alias->flags |= (e->flags & NF_NULLABLE);
    node_set_kids(an->arena, alias, &e, 1);
    *out = node_finish(alias);
    return RS_FOUND;
}

/* ---- * EXCEPT: Spark's UnresolvedStarExcept.expand ----
 * Each excepted name is resolved against the expanded columns and split into
 * its root column and the path of struct fields under it; a column excepted
 * whole is dropped, one excepted in part is rebuilt as named_struct of the
 * fields that remain (recursively). */
typedef struct ExceptPair {
    ExprId root;           /* the id of the column it names */
    const char **path;     /* nested fields below it */
    uint32_t npath;
    const Node *written;   /* the name as written, for errors */
} ExceptPair;

static Node *str_literal(Analysis *an, const char *s) {
    Node *n = node_new(an->arena, NK_Literal, -1, -1);
    n->u.lit.v.type = &TYPE_STRING;
    n->u.lit.v.u.s.p = s;
    n->u.lit.v.u.s.len = (uint32_t)strlen(s);
    n->type = &TYPE_STRING;
    return node_finish(n);
}

static const char *except_name(Analysis *an, const Node *e) {
    StrBuf sb;
    sb_init(&sb, an->arena, 32);
    NameParts np = e->u.un.name;
    for (uint32_t i = 0; i < np.n; i++) {
        if (i) sb_putc(&sb, '.');
        sb_puts(&sb, np.v[i]);
    }
    return sb_str(&sb);
}

/* EXCEPT_OVERLAPPING_COLUMNS names the whole EXCEPT list as written, not
 * only the overlapping names (selectExcept.sql, pipe-operators.sql) */
static bool except_overlap(Analysis *an, const Node *star, const ExceptPair *ps, uint32_t np) {
    StrBuf sb;
    sb_init(&sb, an->arena, 64);
    for (uint32_t i = 0; i < np; i++) {
        if (i) sb_puts(&sb, ", ");
        sb_puts(&sb, except_name(an, ps[i].written));
    }
    an_fail(an, error_make(an->arena, "EXCEPT_OVERLAPPING_COLUMNS", star, "columns", sb_str(&sb), NULL));
    return false;
}

/* cols: named expressions (the star's expansion, or a struct's extracted
 * fields as Alias(GetStructField)); the result replaces r. */
static bool except_filter(Analysis *an, const Node *star, AttrList cols, ExceptPair *ps, uint32_t np, AttrList *r) {
    AttrList kept = {0, ARENA_ARRAY(an->arena, Node *, cols.n + 1)};
    uint32_t *grp = ARENA_ARRAY(an->arena, uint32_t, np + 1);
    for (uint32_t k = 0; k < cols.n; k++) {
        Node *col = cols.v[k];
        ExprId id = named_expr_id(col);
        uint32_t ng = 0;
        bool whole = false;
        for (uint32_t i = 0; i < np; i++)
            if (ps[i].root == id) {
                grp[ng++] = i;
                if (!ps[i].npath) whole = true;
            }
        if (!ng) {
            kept.v[kept.n++] = col;
            continue;
        }
        if (whole) {
            if (ng > 1) return except_overlap(an, star, ps, np);
            continue;
        }
        /* fields excepted: rebuild the struct from the others */
        Node *base = col->kind == NK_Alias ? col->kids[0] : col;
        const DataType *t = base->type;
        AttrList fields = {0, ARENA_ARRAY(an->arena, Node *, (uint32_t)t->nfields + 1)};
        for (int f = 0; f < t->nfields; f++) {
            const char *fname = t->fields[f].name;
            Node *g = extract_fields(an, star, base, &fname, 1);
            if (!g) return false;
            Node *alias = node_new(an->arena, NK_Alias, star->start, star->stop);
            alias->u.attr.name = fname;
            alias->u.attr.id = an_new_id(an);
            alias->type = g->type;
            alias->flags |= g->flags & NF_NULLABLE;
            node_set_kids(an->arena, alias, &g, 1);
            fields.v[fields.n++] = node_finish(alias);
        }
        ExceptPair *sub = ARENA_ARRAY(an->arena, ExceptPair, ng);
        for (uint32_t i = 0; i < ng; i++) {
            ExceptPair e = ps[grp[i]];
            sub[i] = e;
            sub[i].root = 0;
            for (uint32_t f = 0; f < fields.n; f++)
                if (ident_eq(an, fields.v[f]->u.attr.name, e.path[0])) {
                    sub[i].root = fields.v[f]->u.attr.id;
                    break;
                }
            sub[i].path = e.path + 1;
            sub[i].npath = e.npath - 1;
        }
        AttrList rest;
        if (!except_filter(an, star, fields, sub, ng, &rest)) return false;
        Node **args = ARENA_ARRAY(an->arena, Node *, 2 * rest.n + 1);
        for (uint32_t i = 0; i < rest.n; i++) {
            Node *v = rest.v[i];
            args[2 * i] = str_literal(an, named_expr_name(v));
            args[2 * i + 1] = v->kind == NK_Alias ? v->kids[0] : v;
        }
        Node *ns = make_call(an, "named_struct", false, args, 2 * rest.n, star->start, star->stop);
        if (!ns) return false;
        Node *alias = node_new(an->arena, NK_Alias, star->start, star->stop);
        alias->u.attr.name = named_expr_name(col);
        alias->u.attr.id = an_new_id(an);
        alias->type = ns->type;
        alias->flags |= ns->flags & NF_NULLABLE;
        node_set_kids(an->arena, alias, &ns, 1);
        kept.v[kept.n++] = node_finish(alias);
    }
    *r = kept;
    return true;
}

static bool star_except(Analysis *an, const Node *star, AttrList *r) {
    /* the expanded columns as attributes, unqualified, to resolve the names against */
    AttrList cols = {0, ARENA_ARRAY(an->arena, Node *, r->n + 1)};
    for (uint32_t k = 0; k < r->n; k++) {
        Node *a = to_attribute(an, r->v[k]);
        if (a) cols.v[cols.n++] = a;
    }
    bool replace = (star->flags & NF_IMPLICIT) != 0;
    uint32_t np = replace ? star->nkids / 2 : star->nkids;
    ExceptPair *ps = ARENA_ARRAY(an->arena, ExceptPair, np);
    for (uint32_t i = 0; i < np; i++) {
        const Node *ex = star->kids[i];
        Node *res = NULL;
        ResolveStatus st = resolve_name(an, star, ex->u.un.name, cols, &res);
        if (st == RS_AMBIGUOUS || an_failed(an)) return false;
        if (st == RS_NOT_FOUND) {
            /* the expanded columns' names in their order (not an inputSet) */
            NameParts *names = ARENA_ARRAY(an->arena, NameParts, cols.n + 1);
            for (uint32_t k = 0; k < cols.n; k++) names[k] = name_parts1(an->arena, cols.v[k]->u.attr.name);
            an_fail(an, error_make(an->arena, "UNRESOLVED_COLUMN.WITH_SUGGESTION", star, "objectName",
                                   sql_id_parts(an->arena, ex->u.un.name), "proposal",
                                   suggest_columns_ordered(an->arena, ex->u.un.name, names, cols.n), NULL));
            return false;
        }
        /* the root column and the fields below it */
        const char **path = ARENA_ARRAY(an->arena, const char *, ex->u.un.name.n + 1);
        uint32_t n = 0;
        Node *e = res->kind == NK_Alias ? res->kids[0] : res;
        while (e->kind == NK_GetStructField) {
            path[n++] = e->u.field.name;
            e = e->kids[0];
        }
        if (e->kind != NK_AttributeReference) {
            an_fail(an, error_make(an->arena, "EXCEPT_NESTED_COLUMN_INVALID_TYPE", star, "columnName",
                                   sql_id_parts(an->arena, ex->u.un.name), "dataType",
                                   sql_type_quoted(an->arena, e->type), NULL));
            return false;
        }
        for (uint32_t a = 0, b = n ? n - 1 : 0; a < b; a++, b--) {
            const char *t = path[a];
            path[a] = path[b];
            path[b] = t;
        }
        ps[i] = (ExceptPair){e->u.attr.id, path, n, ex};
    }
    if (replace) {
        /* |> SET: each named column replaced in place by its new expression */
        AttrList out = {r->n, ARENA_ARRAY(an->arena, Node *, r->n + 1)};
        for (uint32_t k = 0; k < r->n; k++) {
            out.v[k] = r->v[k];
            for (uint32_t i = 0; i < np; i++)
                if (ps[i].root == named_expr_id(r->v[k])) out.v[k] = star->kids[np + i];
        }
        *r = out;
        return true;
    }
    return except_filter(an, star, *r, ps, np, r);
}

/* Spark's UnresolvedRegex.expand: the input columns whose name matches the
 * pattern whole (`(?i)` unless case-sensitive), of the table if one is named
 * (the last part of the column's qualifier). */
static bool expand_regex(Analysis *an, const Node *star, AttrList attrs, AttrList *out) {
    AttrList r = {0, ARENA_ARRAY(an->arena, Node *, attrs.n + 1)};
    JRegex *re = jregex_compile(an->arena, star->u.un.regex, !star->u.un.regex_case_sensitive, NULL);
    NameParts table = star->u.un.name;
    for (uint32_t k = 0; k < attrs.n; k++) {
        const Node *a = attrs.v[k];
        if (a->u.attr.metadata_col) continue;
        if (table.n) {
            NameParts q = a->u.attr.qualifier;
            if (!q.n || !ident_eq(an, q.v[q.n - 1], table.v[table.n - 1])) continue;
        }
        if (jregex_matches(re, a->u.attr.name, strlen(a->u.attr.name))) r.v[r.n++] = attrs.v[k];
    }
    *out = r;
    return true;
}

bool expand_star(Analysis *an, const Node *star, AttrList attrs, AttrList *out) {
    if (star->u.un.regex) return expand_regex(an, star, attrs, out);
    NameParts target = star->u.un.name;
    AttrList r = {0, ARENA_ARRAY(an->arena, Node *, attrs.n + 1)};
    if (target.n == 0) {
        for (uint32_t k = 0; k < attrs.n; k++)
            if (!attrs.v[k]->u.attr.metadata_col) r.v[r.n++] = attrs.v[k];
    } else {
        /* `t.*` names the hidden columns too (a USING/NATURAL join's other
           keys): Spark's UnresolvedStar.expand takes hidden ++ output */
        AttrList hidden = attrs.hidden ? *attrs.hidden : (AttrList){0, NULL};
        r.v = ARENA_ARRAY(an->arena, Node *, attrs.n + hidden.n + 1);
        for (uint32_t k = 0; k < hidden.n; k++)
            if (qualifier_ends_with(an, hidden.v[k], target.v, target.n)) r.v[r.n++] = visible_attr(an, hidden.v[k]);
        for (uint32_t k = 0; k < attrs.n; k++)
            if (qualifier_ends_with(an, attrs.v[k], target.v, target.n)) r.v[r.n++] = visible_attr(an, attrs.v[k]);
        if (r.n == 0) {
            /* a struct column: s.* */
            Node *col = NULL;
            ResolveStatus st = resolve_name(an, star, target, attrs, &col);
            if (st == RS_AMBIGUOUS) return false;
            if (st == RS_FOUND && col->type->id == T_STRUCT) {
                Node *base = col->kind == NK_Alias ? col->kids[0] : col;
                const DataType *t = base->type;
                r.v = ARENA_ARRAY(an->arena, Node *, t->nfields + 1);
                for (int f = 0; f < t->nfields; f++) {
                    const char *fname = t->fields[f].name;
                    Node *g = extract_fields(an, star, base, &fname, 1);
                    Node *alias = node_new(an->arena, NK_Alias, star->start, star->stop);
                    alias->u.attr.name = fname;
                    alias->u.attr.id = an_new_id(an);
                    alias->type = g->type;
                    alias->flags |= g->flags & NF_NULLABLE;
                    node_set_kids(an->arena, alias, &g, 1);
                    r.v[r.n++] = node_finish(alias);
                }
            } else {
                StrBuf sb;
                sb_init(&sb, an->arena, 64);
                for (uint32_t k = 0; k < attrs.n; k++) {
                    if (k) sb_puts(&sb, ", ");
                    sb_put_quoted_ident(&sb, attrs.v[k]->u.attr.name);
                }
                an_fail(an, error_make(an->arena, "CANNOT_RESOLVE_STAR_EXPAND", star, "targetString",
                                       sql_id_parts(an->arena, target), "columns", sb_str(&sb), NULL));
                return false;
            }
        }
    }
    /* * EXCEPT (a, b) */
    if (star->nkids && !star_except(an, star, &r)) return false;
    *out = r;
    return true;
}

/* AttributeSet.toSeq: one attribute an expression id, sorted by name
 * (String.compareTo; byte order on UTF-8 is code point order) and then id. */
static int cmp_attr_set(const void *x, const void *y) {
    const Node *a = *(const Node *const *)x, *b = *(const Node *const *)y;
    int c = strcmp(a->u.attr.name, b->u.attr.name);
    if (c) return c;
    return a->u.attr.id < b->u.attr.id ? -1 : a->u.attr.id > b->u.attr.id;
}

const char *suggest_columns(Analysis *an, NameParts name, AttrList attrs) {
    const Node **set = ARENA_ARRAY(an->arena, const Node *, attrs.n + 1);
    uint32_t n = 0;
    for (uint32_t k = 0; k < attrs.n; k++) {
        const Node *a = attrs.v[k];
        if (a->kind != NK_AttributeReference) continue;
        bool dup = false;
        for (uint32_t j = 0; j < n && !dup; j++) dup = set[j]->u.attr.id == a->u.attr.id;
        if (!dup) set[n++] = a;
    }
    qsort(set, n, sizeof *set, cmp_attr_set);
    /* attr.qualifier :+ attr.name */
    NameParts *cands = ARENA_ARRAY(an->arena, NameParts, n + 1);
    for (uint32_t k = 0; k < n; k++) {
        NameParts q = set[k]->u.attr.qualifier;
        const char **v = ARENA_ARRAY(an->arena, const char *, q.n + 1);
        for (uint32_t j = 0; j < q.n; j++) v[j] = q.v[j];
        v[q.n] = set[k]->u.attr.name;
        cands[k] = (NameParts){q.n + 1, v};
    }
    return suggest_columns_ordered(an->arena, name, cands, n);
}

ErrorInfo *unresolved_column_error(Analysis *an, const Node *at, NameParts name, AttrList input) {
    const char *object = sql_id_parts(an->arena, name);
    const char *proposal = suggest_columns(an, name, input);
    if (!*proposal)
        return error_make(an->arena, "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION", at, "objectName", object, NULL);
    return error_make(an->arena, "UNRESOLVED_COLUMN.WITH_SUGGESTION", at, "objectName", object, "proposal", proposal,
                      NULL);
}
