#include "catalog.h"

#include "core/output.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool name_eq(const char *a, const char *b) { return ident_equal_ci(a, b); }

static TableDef *table_append(Catalog *c, TableDef *t);

/* ---- the table index ---- */

static uint32_t table_key_hash(const char *ns, const char *name) {
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)ns; *p; p++)
        h = (h ^ (uint32_t)(*p >= 'A' && *p <= 'Z' ? *p | 32 : *p)) * 16777619u;
    h = (h ^ 0xffu) * 16777619u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ (uint32_t)(*p >= 'A' && *p <= 'Z' ? *p | 32 : *p)) * 16777619u;
    return h;
}

static void index_insert(Catalog *c, int pos) {
    const TableDef *t = c->tables[pos];
    uint32_t mask = c->index_cap - 1, h = table_key_hash(t->ns, t->name) & mask;
    while (c->index[h] >= 0) h = (h + 1) & mask;
    c->index[h] = pos;
}

/* Rebuilds the index for the tables there are now (after a drop, or when
 * it grows past half full). */
static void index_rebuild(Catalog *c) {
    uint32_t cap = 16;
    while (cap < (uint32_t)c->ntables * 2 + 2) cap *= 2;
    if (cap != c->index_cap) {
        free(c->index);
        c->index = malloc(sizeof(int32_t) * cap);
        if (!c->index) abort();
        c->index_cap = cap;
    }
    memset(c->index, 0xff, sizeof(int32_t) * cap);
    for (int i = 0; i < c->ntables; i++)
        if (!c->tables[i]->v2) index_insert(c, i);
}

static void udf_index_rebuild(Catalog *c) {
    uint32_t cap = 16;
    while (cap < (uint32_t)c->nudfs * 2 + 2) cap *= 2;
    if (cap != c->udf_index_cap) {
        free(c->udf_index);
        c->udf_index = malloc(sizeof(int32_t) * cap);
        if (!c->udf_index) abort();
        c->udf_index_cap = cap;
    }
    memset(c->udf_index, 0xff, sizeof(int32_t) * cap);
    for (int i = 0; i < c->nudfs; i++) {
        uint32_t mask = cap - 1, h = table_key_hash("", c->udfs[i].name) & mask;
        while (c->udf_index[h] >= 0) h = (h + 1) & mask;
        c->udf_index[h] = i;
    }
}

static int udf_find(const Catalog *c, const char *name) {
    if (!c->udf_index_cap) return -1;
    uint32_t mask = c->udf_index_cap - 1, h = table_key_hash("", name) & mask;
    for (int32_t pos; (pos = c->udf_index[h]) >= 0; h = (h + 1) & mask)
        if (name_eq(c->udfs[pos].name, name)) return pos;
    return -1;
}

/* The position of the session catalog's table ns.name, or -1. */
static int index_find(const Catalog *c, const char *ns, const char *name) {
    if (!c->index_cap) return -1;
    uint32_t mask = c->index_cap - 1, h = table_key_hash(ns, name) & mask;
    for (int32_t pos; (pos = c->index[h]) >= 0; h = (h + 1) & mask) {
        const TableDef *t = c->tables[pos];
        if (name_eq(t->ns, ns) && name_eq(t->name, name)) return pos;
    }
    return -1;
}

Catalog *catalog_new(void) {
    Catalog *c = calloc(1, sizeof *c);
    if (!c) abort();
    atomic_init(&c->refs, 1);
    c->arena = arena_new(4096);
    catalog_add_namespace(c, "default");
    return c;
}

void catalog_retain(Catalog *c) { atomic_fetch_add(&c->refs, 1); }

void catalog_release(Catalog *c) {
    if (!c) return;
    if (atomic_fetch_sub(&c->refs, 1) == 1) {
        free(c->namespaces);
        free(c->tables);
        free(c->udfs);
        free(c->v2ns);
        free(c->index);
        free(c->udf_index);
        arena_free(c->arena);
        free(c);
    }
}

static NameParts parts_copy(Arena *a, NameParts p) {
    const char **v = ARENA_ARRAY(a, const char *, p.n + 1);
    for (uint32_t i = 0; i < p.n; i++) v[i] = arena_strdup(a, p.v[i]);
    return (NameParts){p.n, v};
}

static TableDef *table_copy(Arena *a, const TableDef *t) {
    TableDef *n = ARENA_NEW(a, TableDef);
    n->catalog = arena_strdup(a, t->catalog);
    n->ns = arena_strdup(a, t->ns);
    n->ns_parts = parts_copy(a, t->ns_parts);
    n->v2 = t->v2;
    n->name = arena_strdup(a, t->name);
    n->ncols = t->ncols;
    n->cols = ARENA_ARRAY(a, ColumnDef, t->ncols ? t->ncols : 1);
    for (int i = 0; i < t->ncols; i++) {
        n->cols[i].name = arena_strdup(a, t->cols[i].name);
        n->cols[i].type = type_copy(a, t->cols[i].type);
        n->cols[i].nullable = t->cols[i].nullable;
        n->cols[i].name_hash = attr_name_hash(n->cols[i].name);
    }
    n->provider = t->provider ? arena_strdup(a, t->provider) : NULL;
    n->has_default_collation = t->has_default_collation;
    n->default_collation = t->default_collation;
    n->is_view = t->is_view;
    n->view_text = t->view_text ? arena_strdup(a, t->view_text) : NULL;
    n->nview_cols = t->nview_cols;
    if (t->nview_cols) {
        n->view_cols = ARENA_ARRAY(a, const char *, t->nview_cols);
        for (int i = 0; i < t->nview_cols; i++) n->view_cols[i] = arena_strdup(a, t->view_cols[i]);
    }
    n->view_mode = t->view_mode ? arena_strdup(a, t->view_mode) : NULL;
    n->nview_query_cols = t->nview_query_cols;
    if (t->nview_query_cols) {
        n->view_query_cols = ARENA_ARRAY(a, const char *, t->nview_query_cols);
        for (int i = 0; i < t->nview_query_cols; i++) n->view_query_cols[i] = arena_strdup(a, t->view_query_cols[i]);
    }
    n->npartitions = t->npartitions;
    n->partitions_unknown = t->partitions_unknown;
    if (t->npartitions) {
        n->partitions = ARENA_ARRAY(a, const char *, t->npartitions);
        for (int i = 0; i < t->npartitions; i++) n->partitions[i] = arena_strdup(a, t->partitions[i]);
    }
    n->npart_cols = t->npart_cols;
    if (t->npart_cols) {
        n->part_cols = ARENA_ARRAY(a, const char *, t->npart_cols);
        for (int i = 0; i < t->npart_cols; i++) n->part_cols[i] = arena_strdup(a, t->part_cols[i]);
    }
    return n;
}

Catalog *catalog_clone(const Catalog *c) {
    Catalog *n = calloc(1, sizeof *n);
    if (!n) abort();
    atomic_init(&n->refs, 1);
    n->arena = arena_new(4096);
    for (int i = 0; i < c->nnamespaces; i++) catalog_add_namespace(n, c->namespaces[i]);
    n->tables = calloc((size_t)c->ntables + 1, sizeof(TableDef *));
    n->tables_cap = c->ntables + 1;
    if (!n->tables) abort();
    for (int i = 0; i < c->ntables; i++) n->tables[i] = table_copy(n->arena, c->tables[i]);
    n->ntables = c->ntables;
    index_rebuild(n);
    /* UDF definitions are immutable and live as long as the session that
       registered them (see session.c), so versions share them. */
    if (c->nudfs) {
        n->udfs = calloc((size_t)c->nudfs, sizeof(UdfDef));
        if (!n->udfs) abort();
        for (int i = 0; i < c->nudfs; i++) {
            n->udfs[i].name = arena_strdup(n->arena, c->udfs[i].name);
            n->udfs[i].def = c->udfs[i].def;
        }
        n->nudfs = c->nudfs;
        n->udfs_cap = c->nudfs;
        udf_index_rebuild(n);
    }
    for (int i = 0; i < c->nv2ns; i++) catalog_v2_add_namespace(n, c->v2ns[i].catalog, c->v2ns[i].parts);
    return n;
}

bool catalog_has_namespace(const Catalog *c, const char *ns) {
    for (int i = 0; i < c->nnamespaces; i++)
        if (name_eq(c->namespaces[i], ns)) return true;
    return false;
}

const TableDef *catalog_find_table(const Catalog *c, const char *ns, const char *name) {
    int pos = index_find(c, ns, name);
    return pos >= 0 ? c->tables[pos] : NULL;
}

const struct FuncDef *catalog_find_udf(const Catalog *c, const char *name) {
    int pos = udf_find(c, name);
    return pos >= 0 ? c->udfs[pos].def : NULL;
}

void catalog_add_namespace(Catalog *c, const char *ns) {
    if (catalog_has_namespace(c, ns)) return;
    const char **a = realloc(c->namespaces, sizeof(char *) * (size_t)(c->nnamespaces + 1));
    if (!a) abort();
    c->namespaces = a;
    c->namespaces[c->nnamespaces++] = arena_strdup(c->arena, ns);
}

bool catalog_drop_namespace(Catalog *c, const char *ns, bool cascade) {
    bool has_tables = false;
    for (int i = 0; i < c->ntables; i++)
        if (!c->tables[i]->v2 && name_eq(c->tables[i]->ns, ns)) has_tables = true;
    if (has_tables && !cascade) return false;
    for (int i = 0; i < c->ntables;) {
        if (!c->tables[i]->v2 && name_eq(c->tables[i]->ns, ns)) c->tables[i] = c->tables[--c->ntables];
        else i++;
    }
    index_rebuild(c);
    for (int i = 0; i < c->nnamespaces; i++)
        if (name_eq(c->namespaces[i], ns)) {
            memmove(&c->namespaces[i], &c->namespaces[i + 1], sizeof(char *) * (size_t)(c->nnamespaces - i - 1));
            c->nnamespaces--;
            break;
        }
    return true;
}

TableDef *catalog_put_table(Catalog *c, const char *ns, const char *name, int ncols, const ColumnDef *cols) {
    TableDef tmp = {.catalog = "spark_catalog", .ns = ns, .name = name, .ncols = ncols, .cols = (ColumnDef *)cols,
                    .provider = "parquet"};
    TableDef *t = table_copy(c->arena, &tmp);
    int pos = index_find(c, ns, name);
    if (pos >= 0) return c->tables[pos] = t;
    return table_append(c, t);
}

TableDef *catalog_put_table_def(Catalog *c, const TableDef *def) {
    TableDef *t = table_copy(c->arena, def);
    t->catalog = "spark_catalog";
    t->v2 = false;
    int pos = index_find(c, t->ns, t->name);
    if (pos >= 0) return c->tables[pos] = t;
    return table_append(c, t);
}

/* Appends t; the array and the index grow geometrically. */
static TableDef *table_append(Catalog *c, TableDef *t) {
    if (c->ntables >= c->tables_cap) {
        int cap = c->tables_cap ? c->tables_cap * 2 : 8;
        TableDef **a = realloc(c->tables, sizeof(TableDef *) * (size_t)cap);
        if (!a) abort();
        c->tables = a;
        c->tables_cap = cap;
    }
    c->tables[c->ntables++] = t;
    if (!t->v2) {
        if ((uint32_t)c->ntables * 2 + 2 > c->index_cap) index_rebuild(c);
        else index_insert(c, c->ntables - 1);
    }
    return t;
}

bool catalog_drop_table(Catalog *c, const char *ns, const char *name) {
    for (int i = 0; i < c->ntables; i++)
        if (!c->tables[i]->v2 && name_eq(c->tables[i]->ns, ns) && name_eq(c->tables[i]->name, name)) {
            memmove(&c->tables[i], &c->tables[i + 1], sizeof(TableDef *) * (size_t)(c->ntables - i - 1));
            c->ntables--;
            index_rebuild(c);
            return true;
        }
    return false;
}

void catalog_put_udf(Catalog *c, const char *name, const struct FuncDef *def) {
    int pos = udf_find(c, name);
    if (pos >= 0) {
        c->udfs[pos].def = def;
        return;
    }
    if (c->nudfs >= c->udfs_cap) {
        int cap = c->udfs_cap ? c->udfs_cap * 2 : 8;
        UdfDef *a = realloc(c->udfs, sizeof(UdfDef) * (size_t)cap);
        if (!a) abort();
        c->udfs = a;
        c->udfs_cap = cap;
    }
    c->udfs[c->nudfs].name = arena_strdup(c->arena, name);
    c->udfs[c->nudfs].def = def;
    c->nudfs++;
    if ((uint32_t)c->nudfs * 2 + 2 > c->udf_index_cap) udf_index_rebuild(c);
    else {
        uint32_t mask = c->udf_index_cap - 1, h = table_key_hash("", name) & mask;
        while (c->udf_index[h] >= 0) h = (h + 1) & mask;
        c->udf_index[h] = c->nudfs - 1;
    }
}

/* ---- v2 catalogs ---- */

/* Spark's quoteIfNeeded: a part other than [A-Za-z0-9_]+ (or all digits) is backquoted. */
static void put_part(StrBuf *sb, const char *p) {
    bool plain = *p != 0, digits = true;
    for (const char *c = p; *c; c++) {
        bool word = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_';
        if (!word) plain = false;
        if (*c < '0' || *c > '9') digits = false;
    }
    if (plain && !digits) sb_puts(sb, p);
    else sb_put_quoted_ident(sb, p);
}

const char *catalog_namespace_key(Arena *a, NameParts ns) {
    StrBuf sb;
    sb_init(&sb, a, 32);
    for (uint32_t i = 0; i < ns.n; i++) {
        if (i) sb_putc(&sb, '.');
        put_part(&sb, ns.v[i]);
    }
    return sb_str(&sb);
}

static bool parts_eq(NameParts a, NameParts b) {
    if (a.n != b.n) return false;
    for (uint32_t i = 0; i < a.n; i++)
        if (strcmp(a.v[i], b.v[i])) return false;
    return true;
}

/* prefix is ns or one of its ancestors */
static bool parts_start_with(NameParts ns, NameParts prefix) {
    if (prefix.n > ns.n) return false;
    for (uint32_t i = 0; i < prefix.n; i++)
        if (strcmp(ns.v[i], prefix.v[i])) return false;
    return true;
}

bool catalog_v2_namespace_exists(const Catalog *c, const char *catalog, NameParts ns) {
    for (int i = 0; i < c->nv2ns; i++)
        if (!strcmp(c->v2ns[i].catalog, catalog) && parts_start_with(c->v2ns[i].parts, ns)) return true;
    for (int i = 0; i < c->ntables; i++)
        if (c->tables[i]->v2 && !strcmp(c->tables[i]->catalog, catalog) && parts_start_with(c->tables[i]->ns_parts, ns))
            return true;
    return false;
}

static void add_child(Arena *a, NameParts of, NameParts ns, NameParts **out, int *n, int *cap) {
    if (ns.n <= of.n || !parts_start_with(ns, of)) return;
    NameParts child = {of.n + 1, ns.v};
    for (int i = 0; i < *n; i++)
        if (parts_eq((*out)[i], child)) return;
    if (*n == *cap) {
        int ncap = *cap ? *cap * 2 : 8;
        NameParts *g = ARENA_ARRAY(a, NameParts, ncap);
        if (*n) mem_copy(g, *out, sizeof(NameParts) * (size_t)*n);
        *out = g;
        *cap = ncap;
    }
    (*out)[(*n)++] = child;
}

int catalog_v2_child_namespaces(const Catalog *c, Arena *a, const char *catalog, NameParts ns, NameParts **out) {
    int n = 0, cap = 0;
    *out = NULL;
    for (int i = 0; i < c->nv2ns; i++)
        if (!strcmp(c->v2ns[i].catalog, catalog)) add_child(a, ns, c->v2ns[i].parts, out, &n, &cap);
    for (int i = 0; i < c->ntables; i++)
        if (c->tables[i]->v2 && !strcmp(c->tables[i]->catalog, catalog))
            add_child(a, ns, c->tables[i]->ns_parts, out, &n, &cap);
    return n;
}

const TableDef *catalog_v2_find_table(const Catalog *c, const char *catalog, NameParts ns, const char *name) {
    for (int i = 0; i < c->ntables; i++) {
        const TableDef *t = c->tables[i];
        if (t->v2 && !strcmp(t->catalog, catalog) && parts_eq(t->ns_parts, ns) && !strcmp(t->name, name)) return t;
    }
    return NULL;
}

void catalog_v2_add_namespace(Catalog *c, const char *catalog, NameParts ns) {
    for (int i = 0; i < c->nv2ns; i++)
        if (!strcmp(c->v2ns[i].catalog, catalog) && parts_eq(c->v2ns[i].parts, ns)) return;
    V2Namespace *g = realloc(c->v2ns, sizeof(V2Namespace) * (size_t)(c->nv2ns + 1));
    if (!g) abort();
    c->v2ns = g;
    V2Namespace *n = &c->v2ns[c->nv2ns++];
    n->catalog = arena_strdup(c->arena, catalog);
    n->parts = parts_copy(c->arena, ns);
    n->key = catalog_namespace_key(c->arena, n->parts);
}

bool catalog_v2_drop_namespace(Catalog *c, const char *catalog, NameParts ns, bool cascade) {
    bool below = false;
    for (int i = 0; i < c->ntables; i++)
        if (c->tables[i]->v2 && !strcmp(c->tables[i]->catalog, catalog) && parts_start_with(c->tables[i]->ns_parts, ns))
            below = true;
    for (int i = 0; i < c->nv2ns; i++)
        if (!strcmp(c->v2ns[i].catalog, catalog) && c->v2ns[i].parts.n > ns.n && parts_start_with(c->v2ns[i].parts, ns))
            below = true;
    if (below && !cascade) return false;
    for (int i = 0; i < c->ntables;) {
        const TableDef *t = c->tables[i];
        if (t->v2 && !strcmp(t->catalog, catalog) && parts_start_with(t->ns_parts, ns)) c->tables[i] = c->tables[--c->ntables];
        else i++;
    }
    index_rebuild(c);
    for (int i = 0; i < c->nv2ns;) {
        if (!strcmp(c->v2ns[i].catalog, catalog) && parts_start_with(c->v2ns[i].parts, ns))
            c->v2ns[i] = c->v2ns[--c->nv2ns];
        else i++;
    }
    return true;
}

TableDef *catalog_v2_put_table(Catalog *c, const char *catalog, NameParts ns, const char *name, int ncols,
                               const ColumnDef *cols) {
    TableDef tmp = {.catalog = catalog, .ns = catalog_namespace_key(c->arena, ns), .ns_parts = ns, .v2 = true,
                    .name = name, .ncols = ncols, .cols = (ColumnDef *)cols};
    TableDef *t = table_copy(c->arena, &tmp);
    for (int i = 0; i < c->ntables; i++)
        if (c->tables[i]->v2 && !strcmp(c->tables[i]->catalog, catalog) && parts_eq(c->tables[i]->ns_parts, ns) &&
            !strcmp(c->tables[i]->name, name)) {
            c->tables[i] = t;
            return t;
        }
    return table_append(c, t);
}

bool catalog_v2_drop_table(Catalog *c, const char *catalog, NameParts ns, const char *name) {
    for (int i = 0; i < c->ntables; i++) {
        const TableDef *t = c->tables[i];
        if (t->v2 && !strcmp(t->catalog, catalog) && parts_eq(t->ns_parts, ns) && !strcmp(t->name, name)) {
            memmove(&c->tables[i], &c->tables[i + 1], sizeof(TableDef *) * (size_t)(c->ntables - i - 1));
            c->ntables--;
            index_rebuild(c);
            return true;
        }
    }
    return false;
}
