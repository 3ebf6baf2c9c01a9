/* Which function a call names: session UDFs first, then built-ins (the
 * `system.builtin` path), and Spark's UNRESOLVED_ROUTINE when none. Shared by
 * ResolveFunctions and CheckAnalysis. */
#include <string.h>
#include <strings.h>

#include "function_lookup.h"
#include "catalog/catalog.h"
#include "catalog/catalog_manager.h"
#include "catalog/external_catalog.h"
#include "functions/functions.h"

ErrorInfo *unresolved_routine(Analysis *an, const Node *f) {
    const char *path = "[`system`.`builtin`, `system`.`session`, `spark_catalog`.`default`]";
    CatalogRef cur;
    if (an->session && !an->view_ns && !catalog_current(an->arena, an->session, &cur) && !cur.is_session) {
        /* a v2 catalog is current: its current namespace is the search path's last entry */
        NameParts ns = catalog_current_namespace(an->arena, an->session, &cur);
        const char **parts = ARENA_ARRAY(an->arena, const char *, ns.n + 1);
        parts[0] = cur.name;
        for (uint32_t i = 0; i < ns.n; i++) parts[i + 1] = ns.v[i];
        path = arena_printf(an->arena, "[`system`.`builtin`, `system`.`session`, %s]",
                            sql_id_parts(an->arena, (NameParts){ns.n + 1, parts}));
    }
    return error_make(an->arena, "UNRESOLVED_ROUTINE", f, "routineName", sql_id_parts(an->arena, f->u.un.name),
                      "searchPath", path, NULL);
}

/* FunctionCatalog.loadFunction of cat.ns.name when the session's provider
 * loads cat; *asked says whether it does. A provider failure is recorded
 * as the analysis' error (it, not UNRESOLVED_ROUTINE, is what is reported). */
static const FuncDef *external_function(Analysis *an, const Node *f, const CatalogRef *cat, NameParts ns,
                                        const char *name, bool *asked) {
    *asked = !cat->is_session && external_catalog_handles(an->session, cat->plugin);
    if (!*asked) return NULL;
    ExternalFunction xf;
    bool found = false;
    ErrorInfo *e = external_load_function(an->arena, an->session, cat, ns, name, an->deadline_ns, an->cancel, &xf,
                                          &found);
    if (e) {
        if (e->start < 0) e->start = f->start, e->stop = f->stop;
        an_fail(an, e);
    }
    return found ? func_make_external(an->arena, xf.name, xf.nargs, xf.arg_types, xf.result, xf.deterministic,
                                      xf.aggregate)
                 : NULL;
}

const FuncDef *lookup_function(Analysis *an, const Node *f) {
    NameParts n = f->u.un.name;
    const char *name = n.v[n.n - 1];
    if (f->u.un.is_operator) return func_lookup_builtin(name);
    bool asked = false;
    if (n.n >= 2 && an->session && catalog_is_registered(an->session, n.v[0])) {
        /* catalog.ns.f(...): a v2 catalog the provider loads */
        CatalogRef cat;
        if (!catalog_lookup(an->arena, an->session, n.v[0], &cat)) {
            const FuncDef *d = external_function(an, f, &cat, (NameParts){n.n - 2, n.v + 1}, name, &asked);
            if (asked) return d;
        }
    }
    if (n.n == 1 && an->catalog) {
        const FuncDef *udf = catalog_find_udf(an->catalog, name);
        if (udf) return udf;
    }
    bool builtin_path = n.n == 1 || (n.n == 2 && strcasecmp(n.v[0], "builtin") == 0) ||
                        (n.n == 3 && strcasecmp(n.v[0], "system") == 0 && strcasecmp(n.v[1], "builtin") == 0);
    const FuncDef *d = builtin_path ? func_lookup_builtin(name) : NULL;
    if (d || !an->session || an->view_ns || (n.n >= 2 && catalog_is_registered(an->session, n.v[0])) ||
        (n.n == 2 && strcasecmp(n.v[0], "builtin") == 0) || (n.n == 3 && strcasecmp(n.v[0], "system") == 0))
        return d;
    /* Spark's expandIdentifier: f(...) and ns.f(...) name a function of the
     * current catalog (its current namespace for f), which an external one
     * loads (ResolveFunctions' resolveV2Function) */
    CatalogRef cur;
    if (catalog_current(an->arena, an->session, &cur)) return NULL;
    NameParts ns = n.n == 1 ? catalog_current_namespace(an->arena, an->session, &cur) : (NameParts){n.n - 1, n.v};
    return external_function(an, f, &cur, ns, name, &asked);
}
