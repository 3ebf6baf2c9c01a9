/* Lookup over the family tables (table_*.c). The tables are static const;
 * lookup is a case-insensitive scan, done once per call site resolution. */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "functions.h"
#include "registry.h"

static const FuncDef *const FAMILIES[] = {
    FUNCS_OPERATORS, FUNCS_MATH, FUNCS_STRING, FUNCS_DATETIME, FUNCS_COLLECTION, FUNCS_AGGREGATE,
    FUNCS_WINDOW, FUNCS_GENERATOR, FUNCS_MISC, FUNCS_FORMATS,
};
#define NFAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

/* Name index: an open-addressing hash over the lower-cased names, built once
 * (pthread_once) from the constant tables and read-only afterwards. Each
 * slot lists the rows of one name in table order (unary and binary `-`). */
enum { INDEX_SLOTS = 2048, ROWS_PER_NAME = 4, MAX_NAME = 64 };
typedef struct NameSlot {
    const char *name;
    const FuncDef *rows[ROWS_PER_NAME];
} NameSlot;
static NameSlot g_index[INDEX_SLOTS];
static pthread_once_t g_index_once = PTHREAD_ONCE_INIT;

static uint32_t name_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (uint8_t)tolower((unsigned char)*s)) * 16777619u;
    return h;
}

static void build_index(void) {
    for (size_t f = 0; f < NFAMILIES; f++)
        for (const FuncDef *d = FAMILIES[f]; d->name; d++) {
            uint32_t i = name_hash(d->name) & (INDEX_SLOTS - 1);
            while (g_index[i].name && strcasecmp(g_index[i].name, d->name) != 0) i = (i + 1) & (INDEX_SLOTS - 1);
            g_index[i].name = d->name;
            for (int k = 0; k < ROWS_PER_NAME; k++)
                if (!g_index[i].rows[k]) {
                    g_index[i].rows[k] = d;
                    break;
                }
        }
}

static const NameSlot *find_slot(const char *name) {
    if (!name || strlen(name) > MAX_NAME) return NULL;
    pthread_once(&g_index_once, build_index);
    uint32_t i = name_hash(name) & (INDEX_SLOTS - 1);
    while (g_index[i].name) {
        if (strcasecmp(g_index[i].name, name) == 0) return &g_index[i];
        i = (i + 1) & (INDEX_SLOTS - 1);
    }
    return NULL;
}

const FuncDef *func_lookup_builtin(const char *name) {
    const NameSlot *s = find_slot(name);
    return s ? s->rows[0] : NULL;
}

/* The row of that name whose arity fits (unary and binary `-`). */
const FuncDef *func_lookup_arity(const char *name, int nargs) {
    const NameSlot *s = find_slot(name);
    for (int k = 0; s && k < ROWS_PER_NAME && s->rows[k]; k++) {
        const FuncDef *d = s->rows[k];
        if (nargs >= d->min_args && (d->max_args < 0 || nargs <= d->max_args)) return d;
    }
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

/* Callable by name: word-like, not an operator symbol, internal row or
 * multi-word LIKE form; listed once. */
static bool is_function_name(const FuncDef *d) {
    if (!isalpha((unsigned char)d->name[0]) || strchr(d->name, ' ')) return false;
    return func_lookup_builtin(d->name) == d;
}

static void build_names(void) {
    int k = 0;
    for (size_t f = 0; f < NFAMILIES; f++)
        for (const FuncDef *d = FAMILIES[f]; d->name; d++)
            if (is_function_name(d) && k < MAX_NAMES) g_names[k++] = d->name;
    g_nnames = k;
}

int func_builtin_names(const char *const **names) {
    pthread_once(&g_names_once, build_names);
    *names = g_names;
    return g_nnames;
}
