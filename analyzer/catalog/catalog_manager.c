#include "catalog_manager.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"

#include "external_catalog.h"

#define CATALOG_CONF_PREFIX "spark.sql.catalog."
#define GLOBAL_TEMP_DATABASE "global_temp" /* spark.sql.globalTempDatabase, a static conf */

/* Spark's in-memory catalogs (its connector test catalogs: namespaces and
 * tables kept by the catalog itself), the only plugins Catalyzer can load. */
static const char *const KNOWN_PLUGINS[] = {
    "org.apache.spark.sql.connector.catalog.InMemoryCatalog",
    "org.apache.spark.sql.connector.catalog.InMemoryTableCatalog",
};

bool catalog_plugin_known(const char *plugin_class) {
    for (size_t i = 0; i < sizeof KNOWN_PLUGINS / sizeof KNOWN_PLUGINS[0]; i++)
        if (!strcmp(plugin_class, KNOWN_PLUGINS[i])) return true;
    return false;
}

static const char *plugin_of(const SessionState *s, const char *name) {
    for (int i = 0; i < s->conf.nentries; i++) {
        const char *k = s->conf.keys[i];
        if (!strncmp(k, CATALOG_CONF_PREFIX, strlen(CATALOG_CONF_PREFIX)) &&
            !strcmp(k + strlen(CATALOG_CONF_PREFIX), name))
            return s->conf.values[i];
    }
    return NULL;
}

bool catalog_is_registered(const SessionState *s, const char *name) {
    return !strcasecmp(name, SESSION_CATALOG) || plugin_of(s, name) != NULL;
}

ErrorInfo *catalog_lookup(Arena *a, const SessionState *s, const char *name, CatalogRef *out) {
    if (!strcasecmp(name, SESSION_CATALOG)) {
        *out = (CatalogRef){SESSION_CATALOG, true, NULL};
        return NULL;
    }
    const char *plugin = plugin_of(s, name);
    if (!plugin) {
        const char *key = arena_printf(a, CATALOG_CONF_PREFIX "%s", name);
        return error_make(a, "CATALOG_NOT_FOUND", NULL, "catalogName", sql_ident(a, name), "config",
                          sql_conf(a, key), NULL);
    }
    if (!catalog_plugin_known(plugin) && !external_catalog_handles(s, plugin))
        return error_make(a, "_LEGACY_ERROR_TEMP_2215", NULL, "name", name, "pluginClassName", plugin, NULL);
    *out = (CatalogRef){name, false, plugin};
    return NULL;
}

static const char *default_catalog(const SessionState *s) {
    const char *d = state_get_conf(s, "spark.sql.defaultCatalog");
    return d && *d ? d : SESSION_CATALOG;
}

ErrorInfo *catalog_current(Arena *a, const SessionState *s, CatalogRef *out) {
    return catalog_lookup(a, s, s->current_catalog ? s->current_catalog : default_catalog(s), out);
}

NameParts catalog_current_namespace(Arena *a, const SessionState *s, const CatalogRef *current) {
    if (current->is_session) return name_parts1(a, s->current_ns ? s->current_ns : "default");
    if (s->has_v2_ns) return s->current_v2_ns;
    return (NameParts){0, NULL}; /* CatalogPlugin.defaultNamespace() */
}

static NameParts slice(NameParts n, uint32_t from, uint32_t to) { return (NameParts){to - from, n.v + from}; }

/* catalogManager.catalog(head), with CatalogNotFoundException told apart from other failures. */
static ErrorInfo *lookup_head(Arena *a, const SessionState *s, const char *head, CatalogRef *out, bool *found) {
    *found = false;
    if (!catalog_is_registered(s, head)) return NULL;
    ErrorInfo *e = catalog_lookup(a, s, head, out);
    if (!e) *found = true;
    return e;
}

ErrorInfo *catalog_split_identifier(Arena *a, const SessionState *s, NameParts name, QualifiedName *out) {
    memset(out, 0, sizeof *out);
    if (name.n == 0) return error_make(a, "PARSE_SYNTAX_ERROR", NULL, "error", "end of input", "hint", "", NULL);
    out->name = name.v[name.n - 1];
    if (name.n == 1) {
        ErrorInfo *e = catalog_current(a, s, &out->catalog);
        if (e) return e;
        out->ns = catalog_current_namespace(a, s, &out->catalog);
        return NULL;
    }
    if (!strcasecmp(name.v[0], GLOBAL_TEMP_DATABASE)) {
        /* global temporary views live in a reserved namespace of the session catalog */
        out->catalog = (CatalogRef){SESSION_CATALOG, true, NULL};
        out->ns = slice(name, 0, name.n - 1);
        return NULL;
    }
    bool found;
    ErrorInfo *e = lookup_head(a, s, name.v[0], &out->catalog, &found);
    if (e) return e;
    if (found) {
        out->ns = slice(name, 1, name.n - 1);
        return NULL;
    }
    e = catalog_current(a, s, &out->catalog);
    if (e) return e;
    out->ns = slice(name, 0, name.n - 1);
    return NULL;
}

ErrorInfo *catalog_split_namespace(Arena *a, const SessionState *s, NameParts name, QualifiedName *out) {
    memset(out, 0, sizeof *out);
    if (name.n) {
        bool found;
        ErrorInfo *e = lookup_head(a, s, name.v[0], &out->catalog, &found);
        if (e) return e;
        if (found) {
            out->ns = slice(name, 1, name.n);
            return NULL;
        }
    }
    ErrorInfo *e = catalog_current(a, s, &out->catalog);
    if (e) return e;
    out->ns = name;
    return NULL;
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

int catalog_names(Arena *a, const SessionState *s, const char ***out) {
    const char **names = ARENA_ARRAY(a, const char *, s->conf.nentries + 2);
    int n = 0;
    names[n++] = SESSION_CATALOG;
    for (int i = 0; i < s->conf.nentries; i++) {
        const char *k = s->conf.keys[i];
        if (strncmp(k, CATALOG_CONF_PREFIX, strlen(CATALOG_CONF_PREFIX))) continue;
        const char *name = k + strlen(CATALOG_CONF_PREFIX);
        if (!*name || strchr(name, '.') || !strcasecmp(name, SESSION_CATALOG)) continue; /* options, not catalogs */
        names[n++] = name;
    }
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    *out = names;
    return n;
}

void state_set_current(SessionState *s, const char *catalog, const NameParts *ns) {
    const char *current = s->current_catalog ? s->current_catalog : default_catalog(s);
    bool session = !strcasecmp(catalog, SESSION_CATALOG);
    if (strcmp(current, catalog) && !(session && !strcasecmp(current, SESSION_CATALOG))) {
        s->current_catalog = arena_strdup(s->arena, catalog);
        s->has_v2_ns = false;
        s->current_v2_ns = (NameParts){0, NULL};
        s->current_ns = "default"; /* the session catalog's database goes back to spark.sql.defaultDatabase */
    }
    if (!ns) return;
    if (session) {
        if (ns->n) s->current_ns = arena_strdup(s->arena, ns->v[0]);
        return;
    }
    const char **v = ARENA_ARRAY(s->arena, const char *, ns->n + 1);
    for (uint32_t i = 0; i < ns->n; i++) v[i] = arena_strdup(s->arena, ns->v[i]);
    s->current_v2_ns = (NameParts){ns->n, v};
    s->has_v2_ns = true;
}
