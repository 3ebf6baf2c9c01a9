/* Session-registered user-defined function signatures: a FuncDef in the
 * caller's arena, typed by ty_udf (arguments cast to the declared types). */
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"
#include "core/func_sig.h"

const FuncDef *func_make_udf(Arena *a, const char *name, int nargs, const DataType *const *arg_types,
                             const DataType *result, bool deterministic) {
    FuncDef *d = ARENA_NEW(a, FuncDef);
    d->name = arena_strdup(a, name);
    d->kind = FK_SCALAR;
    d->min_args = (int8_t)(nargs < 0 ? 0 : nargs > 127 ? 127 : nargs);
    d->max_args = (int8_t)(nargs < 0 ? -1 : d->min_args);
    d->in = "?";
    d->typer = ty_udf;
    d->flags = FD_NULLABLE | (deterministic ? 0 : FD_NONDET);
    /* TimeWindowing and ResolveGroupingAnalytics match their calls by name: one by a UDF of that name too */
    if (!strcasecmp(name, "window") || !strcasecmp(name, "session_window")) d->flags |= FD_TIME_WINDOW;
    if (!strcasecmp(name, "grouping") || !strcasecmp(name, "grouping_id")) d->flags |= FD_GROUPING; /* likewise */
    if (arg_types && nargs > 0) {
        const DataType **v = ARENA_ARRAY(a, const DataType *, nargs);
        for (int i = 0; i < nargs; i++) v[i] = arg_types[i];
        d->udf_args = v;
    }
    d->udf_result = result;
    return d;
}

const FuncDef *func_make_external(Arena *a, const char *name, int nargs, const DataType *const *arg_types,
                                  const DataType *result, bool deterministic, bool aggregate) {
    FuncDef *d = (FuncDef *)func_make_udf(a, name, nargs, arg_types, result, deterministic);
    if (aggregate) d->kind = FK_AGGREGATE;
    return d;
}
