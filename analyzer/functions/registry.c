/* Lookup over the family tables (table_*.c). The tables are static const;
 * lookup is a case-insensitive scan, done once per call site resolution. */
#include <pthread.h>
#include <string.h>
#include <strings.h>

#include "registry.h"

static const FuncDef *const FAMILIES[] = {
    FUNCS_OPERATORS, FUNCS_MATH, FUNCS_STRING, FUNCS_DATETIME, FUNCS_COLLECTION, FUNCS_AGGREGATE,
    FUNCS_WINDOW, FUNCS_GENERATOR, FUNCS_MISC, FUNCS_FORMATS,
};
#define NFAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

const FuncDef *func_lookup_builtin(const char *name) {
    if (!name) return NULL;
    for (size_t f = 0; f < NFAMILIES; f++)
        for (const FuncDef *d = FAMILIES[f]; d->name; d++)
            if (strcasecmp(d->name, name) == 0) return d;
    return NULL;
}

/* Another row with the same name whose arity fits (unary and binary `-`). */
const FuncDef *func_lookup_arity(const char *name, int nargs) {
    for (size_t f = 0; f < NFAMILIES; f++)
        for (const FuncDef *d = FAMILIES[f]; d->name; d++)
            if (strcasecmp(d->name, name) == 0 && nargs >= d->min_args && (d->max_args < 0 || nargs <= d->max_args))
                return d;
    return NULL;
}

const char *func_family(const FuncDef *def) {
    static const char *const NAMES[] = {"operators", "math", "string", "datetime", "collection", "aggregate",
                                        "window", "generator", "misc", "formats"};
    for (size_t f = 0; f < NFAMILIES; f++)
        for (const FuncDef *d = FAMILIES[f]; d->name; d++)
            if (d == def) return NAMES[f];
    return "udf";
}

FuncKind func_kind(const FuncDef *def) { return def->kind; }
const char *func_name(const FuncDef *def) { return def->name; }
EmptyResult func_empty_result(const FuncDef *def) { return def->empty; }

/* Every built-in name except operators, for suggestions. Built once
 * (pthread_once) from the constant tables and read-only afterwards. */
enum { MAX_NAMES = 1024 };
static const char *g_names[MAX_NAMES];
static int g_nnames;
static pthread_once_t g_names_once = PTHREAD_ONCE_INIT;

static void build_names(void) {
    int k = 0;
    for (size_t f = 0; f < NFAMILIES; f++)
        for (const FuncDef *d = FAMILIES[f]; d->name; d++)
            if (!(d->flags & FD_OPERATOR) && k < MAX_NAMES) g_names[k++] = d->name;
    g_nnames = k;
}

int func_builtin_names(const char *const **names) {
    pthread_once(&g_names_once, build_names);
    *names = g_names;
    return g_nnames;
}
