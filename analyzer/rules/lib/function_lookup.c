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
    return error_make(an->arena, "UNRESOLVED_ROUTINE", f, "routineName", sql_id_parts(an->arena, f->u.un.name),
                      "searchPath", "[`system`.`builtin`, `system`.`session`, `spark_catalog`.`default`]", NULL);
}

const FuncDef *lookup_function(Analysis *an, const Node *f) {
    NameParts n = f->u.un.name;
    const char *name = n.v[n.n - 1];
    if (f->u.un.is_operator) return func_lookup_builtin(name);
    if (n.n >= 2 && an->session && catalog_is_registered(an->session, n.v[0])) {
        /* catalog.ns.f(...): FunctionCatalog.loadFunction of a v2 catalog the provider loads */
        CatalogRef cat;
        if (!catalog_lookup(an->arena, an->session, n.v[0], &cat) && !cat.is_session &&
            external_catalog_handles(an->session, cat.plugin)) {
            ExternalFunction xf;
            bool found = false;
            NameParts ns = {n.n - 2, n.v + 1};
            ErrorInfo *e = external_load_function(an->arena, an->session, &cat, ns, name, an->deadline_ns,
                                                  an->cancel, &xf, &found);
            if (e) { /* the provider failed: that is the error, not UNRESOLVED_ROUTINE */
                if (e->start < 0) e->start = f->start, e->stop = f->stop;
                an_fail(an, e);
            }
            return found ? func_make_external(an->arena, xf.name, xf.nargs, xf.arg_types, xf.result,
                                              xf.deterministic, xf.aggregate)
                         : NULL;
        }
    }
    if (n.n == 1 && an->catalog) {
        const FuncDef *udf = catalog_find_udf(an->catalog, name);
        if (udf) return udf;
    }
    bool builtin_path = n.n == 1 || (n.n == 2 && strcasecmp(n.v[0], "builtin") == 0) ||
                        (n.n == 3 && strcasecmp(n.v[0], "system") == 0 && strcasecmp(n.v[1], "builtin") == 0);
    return builtin_path ? func_lookup_builtin(name) : NULL;
}
