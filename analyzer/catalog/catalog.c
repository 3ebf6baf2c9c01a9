#include "catalog.h"

#include "core/output.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool name_eq(const char *a, const char *b) { return ident_equal_ci(a, b); }

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
        arena_free(c->arena);
        free(c);
    }
}

static TableDef *table_copy(Arena *a, const TableDef *t) {
    TableDef *n = ARENA_NEW(a, TableDef);
    n->catalog = arena_strdup(a, t->catalog);
    n->ns = arena_strdup(a, t->ns);
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
    n->is_view = t->is_view;
    n->view_text = t->view_text ? arena_strdup(a, t->view_text) : NULL;
    n->nview_cols = t->nview_cols;
    if (t->nview_cols) {
        n->view_cols = ARENA_ARRAY(a, const char *, t->nview_cols);
        for (int i = 0; i < t->nview_cols; i++) n->view_cols[i] = arena_strdup(a, t->view_cols[i]);
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
    if (!n->tables) abort();
    for (int i = 0; i < c->ntables; i++) n->tables[i] = table_copy(n->arena, c->tables[i]);
    n->ntables = c->ntables;
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
    }
    return n;
}

bool catalog_has_namespace(const Catalog *c, const char *ns) {
    for (int i = 0; i < c->nnamespaces; i++)
        if (name_eq(c->namespaces[i], ns)) return true;
    return false;
}

const TableDef *catalog_find_table(const Catalog *c, const char *ns, const char *name) {
    for (int i = 0; i < c->ntables; i++)
        if (name_eq(c->tables[i]->ns, ns) && name_eq(c->tables[i]->name, name)) return c->tables[i];
    return NULL;
}

const struct FuncDef *catalog_find_udf(const Catalog *c, const char *name) {
    for (int i = 0; i < c->nudfs; i++)
        if (name_eq(c->udfs[i].name, name)) return c->udfs[i].def;
    return NULL;
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
        if (name_eq(c->tables[i]->ns, ns)) has_tables = true;
    if (has_tables && !cascade) return false;
    for (int i = 0; i < c->ntables;) {
        if (name_eq(c->tables[i]->ns, ns)) c->tables[i] = c->tables[--c->ntables];
        else i++;
    }
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
    for (int i = 0; i < c->ntables; i++)
        if (name_eq(c->tables[i]->ns, ns) && name_eq(c->tables[i]->name, name)) {
            c->tables[i] = t;
            return t;
        }
    TableDef **a = realloc(c->tables, sizeof(TableDef *) * (size_t)(c->ntables + 1));
    if (!a) abort();
    c->tables = a;
    c->tables[c->ntables++] = t;
    return t;
}

bool catalog_drop_table(Catalog *c, const char *ns, const char *name) {
    for (int i = 0; i < c->ntables; i++)
        if (name_eq(c->tables[i]->ns, ns) && name_eq(c->tables[i]->name, name)) {
            memmove(&c->tables[i], &c->tables[i + 1], sizeof(TableDef *) * (size_t)(c->ntables - i - 1));
            c->ntables--;
            return true;
        }
    return false;
}

void catalog_put_udf(Catalog *c, const char *name, const struct FuncDef *def) {
    for (int i = 0; i < c->nudfs; i++)
        if (name_eq(c->udfs[i].name, name)) {
            c->udfs[i].def = def;
            return;
        }
    UdfDef *a = realloc(c->udfs, sizeof(UdfDef) * (size_t)(c->nudfs + 1));
    if (!a) abort();
    c->udfs = a;
    c->udfs[c->nudfs].name = arena_strdup(c->arena, name);
    c->udfs[c->nudfs].def = def;
    c->nudfs++;
}
