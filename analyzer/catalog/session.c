#include "session.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "conf.h"

Value value_copy(Arena *a, const Value *v) {
    Value c = *v;
    c.type = type_copy(a, v->type);
    if (v->is_null) return c;
    switch (v->type->id) {
    case T_STRING:
    case T_CHAR:
    case T_VARCHAR:
    case T_BINARY: {
        char *p = arena_alloc(a, v->u.s.len + 1);
        if (v->u.s.len) mem_copy(p, v->u.s.p, v->u.s.len);
        p[v->u.s.len] = 0;
        c.u.s.p = p;
        break;
    }
    case T_ARRAY:
    case T_MAP:
    case T_STRUCT: {
        uint32_t n = v->type->id == T_MAP ? v->u.list.n * 2 : v->u.list.n;
        Value *items = ARENA_ARRAY(a, Value, n ? n : 1);
        for (uint32_t i = 0; i < n; i++) items[i] = value_copy(a, &v->u.list.items[i]);
        c.u.list.items = items;
        break;
    }
    default: break;
    }
    return c;
}

static SqlFunction func_copy(Arena *a, const SqlFunction *f);
static void func_index_rebuild(SessionState *s);

SessionState *state_new(void) {
    SessionState *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->arena = arena_new(4096);
    conf_init_defaults(&s->conf);
    s->current_ns = "default";
    return s;
}

SessionState *state_clone(const SessionState *o) {
    SessionState *s = calloc(1, sizeof *s);
    if (!s) abort();
    Arena *a = s->arena = arena_new(4096);
    s->conf = o->conf;
    s->conf.keys = ARENA_ARRAY(a, const char *, o->conf.nentries + 1);
    s->conf.values = ARENA_ARRAY(a, const char *, o->conf.nentries + 1);
    for (int i = 0; i < o->conf.nentries; i++) {
        s->conf.keys[i] = arena_strdup(a, o->conf.keys[i]);
        s->conf.values[i] = arena_strdup(a, o->conf.values[i]);
    }
    s->nbase = o->nbase;
    s->base_keys = ARENA_ARRAY(a, const char *, o->nbase + 1);
    s->base_values = ARENA_ARRAY(a, const char *, o->nbase + 1);
    for (int i = 0; i < o->nbase; i++) {
        s->base_keys[i] = arena_strdup(a, o->base_keys[i]);
        s->base_values[i] = arena_strdup(a, o->base_values[i]);
    }
    s->current_ns = arena_strdup(a, o->current_ns);
    s->current_catalog = o->current_catalog ? arena_strdup(a, o->current_catalog) : NULL;
    s->has_v2_ns = o->has_v2_ns;
    s->catalog_provider = o->catalog_provider;
    s->external_memo = o->external_memo;
    s->default_time_zone = o->default_time_zone ? arena_strdup(a, o->default_time_zone) : NULL;
    const char **ns = ARENA_ARRAY(a, const char *, o->current_v2_ns.n + 1);
    for (uint32_t i = 0; i < o->current_v2_ns.n; i++) ns[i] = arena_strdup(a, o->current_v2_ns.v[i]);
    s->current_v2_ns = (NameParts){o->current_v2_ns.n, ns};
    s->nviews = o->nviews;
    s->views = ARENA_ARRAY(a, TempView, o->nviews + 1);
    for (int i = 0; i < o->nviews; i++) {
        const TempView *v = &o->views[i];
        TempView *n = &s->views[i];
        n->name = arena_strdup(a, v->name);
        n->sql = v->sql ? arena_strdup(a, v->sql) : NULL;
        n->ncols = v->ncols;
        n->cols = ARENA_ARRAY(a, const char *, v->ncols + 1);
        for (int j = 0; j < v->ncols; j++) n->cols[j] = arena_strdup(a, v->cols[j]);
        n->plan = v->plan; /* decoded plans are kept by the session that registered them */
        n->provider = v->provider ? arena_strdup(a, v->provider) : NULL;
        n->nout = v->nout;
        n->out_names = ARENA_ARRAY(a, const char *, v->nout + 1);
        n->out_types = ARENA_ARRAY(a, const DataType *, v->nout + 1);
        for (int j = 0; j < v->nout; j++) {
            n->out_names[j] = arena_strdup(a, v->out_names[j]);
            n->out_types[j] = type_copy(a, v->out_types[j]);
        }
    }
    s->nvars = o->nvars;
    s->vars = ARENA_ARRAY(a, Variable, o->nvars + 1);
    for (int i = 0; i < o->nvars; i++) {
        const Variable *v = &o->vars[i];
        Variable *n = &s->vars[i];
        n->name = arena_strdup(a, v->name);
        n->type = type_copy(a, v->type);
        n->value = value_copy(a, &v->value);
        n->default_sql = v->default_sql ? arena_strdup(a, v->default_sql) : NULL;
    }
    /* the names are distinct already: copied in order, indexed once */
    s->func_cap = o->nfuncs > 8 ? o->nfuncs : 8;
    s->funcs = ARENA_ARRAY(a, SqlFunction, s->func_cap);
    for (int i = 0; i < o->nfuncs; i++) s->funcs[i] = func_copy(a, &o->funcs[i]);
    s->nfuncs = o->nfuncs;
    func_index_rebuild(s);
    return s;
}

static bool func_is(const SqlFunction *f, const char *ns, const char *name) {
    if ((f->ns == NULL) != (ns == NULL)) return false;
    if (ns && strcasecmp(f->ns, ns) != 0) return false;
    return strcasecmp(f->name, name) == 0;
}

/* FNV-1a over the case-folded name, then the database (a temporary
   function, ns NULL, hashes apart from one of the database "") */
static uint32_t func_hash(const char *ns, const char *name) {
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ (uint32_t)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p)) * 16777619u;
    if (!ns) return h;
    h = (h ^ 0xffu) * 16777619u;
    for (const unsigned char *p = (const unsigned char *)ns; *p; p++)
        h = (h ^ (uint32_t)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p)) * 16777619u;
    return h;
}

static void func_index_add(SessionState *s, int i) {
    uint32_t b = func_hash(s->funcs[i].ns, s->funcs[i].name) & s->func_mask;
    s->func_next[i] = s->func_head[b];
    s->func_head[b] = i;
}

/* buckets for twice the capacity; next for the capacity */
static void func_index_rebuild(SessionState *s) {
    uint32_t buckets = 16;
    while (buckets < (uint32_t)s->func_cap * 2) buckets *= 2;
    s->func_mask = buckets - 1;
    s->func_head = ARENA_ARRAY(s->arena, int32_t, buckets);
    s->func_next = ARENA_ARRAY(s->arena, int32_t, s->func_cap);
    for (uint32_t b = 0; b < buckets; b++) s->func_head[b] = -1;
    for (int i = 0; i < s->nfuncs; i++) func_index_add(s, i);
}

static SqlFunction func_copy(Arena *a, const SqlFunction *f) {
    SqlFunction n = *f;
    n.name = arena_strdup(a, f->name);
    n.ns = f->ns ? arena_strdup(a, f->ns) : NULL;
    n.param_names = ARENA_ARRAY(a, const char *, f->nparams + 1);
    n.param_types = ARENA_ARRAY(a, const DataType *, f->nparams + 1);
    n.param_defaults = ARENA_ARRAY(a, const char *, f->nparams + 1);
    for (int j = 0; j < f->nparams; j++) {
        n.param_names[j] = arena_strdup(a, f->param_names[j]);
        n.param_types[j] = type_copy(a, f->param_types[j]);
        n.param_defaults[j] = f->param_defaults && f->param_defaults[j] ? arena_strdup(a, f->param_defaults[j]) : NULL;
    }
    n.ret_type = f->ret_type ? type_copy(a, f->ret_type) : NULL;
    n.body = arena_strdup(a, f->body ? f->body : "");
    return n;
}

static int func_position(const SessionState *s, const char *ns, const char *name) {
    if (!s->nfuncs) return -1;
    for (int32_t i = s->func_head[func_hash(ns, name) & s->func_mask]; i >= 0; i = s->func_next[i])
        if (func_is(&s->funcs[i], ns, name)) return i;
    return -1;
}

/* By the index: a query calling n functions of a session with n of them (a
   chain f_n -> f_n-1 -> ...) looks them up in O(n), not O(n^2). */
const SqlFunction *state_find_func(const SessionState *s, const char *ns, const char *name) {
    int i = func_position(s, ns, name);
    return i >= 0 ? &s->funcs[i] : NULL;
}

void state_put_func(SessionState *s, const SqlFunction *f) {
    SqlFunction n = func_copy(s->arena, f);
    int i = func_position(s, f->ns, f->name);
    if (i >= 0) {
        s->funcs[i] = n;
        return;
    }
    if (s->nfuncs == s->func_cap) {
        int cap = s->func_cap ? s->func_cap * 2 : 8;
        SqlFunction *v = ARENA_ARRAY(s->arena, SqlFunction, cap);
        if (s->nfuncs) mem_copy(v, s->funcs, sizeof(SqlFunction) * (size_t)s->nfuncs);
        s->funcs = v;
        s->func_cap = cap;
        func_index_rebuild(s);
    }
    s->funcs[s->nfuncs] = n;
    func_index_add(s, s->nfuncs++);
}

bool state_drop_func(SessionState *s, const char *ns, const char *name) {
    for (int i = 0; i < s->nfuncs; i++)
        if (func_is(&s->funcs[i], ns, name)) {
            s->funcs[i] = s->funcs[--s->nfuncs];
            func_index_rebuild(s); /* positions moved; a DROP is rare */
            return true;
        }
    return false;
}

void state_free(SessionState *s) {
    if (!s) return;
    arena_free(s->arena);
    free(s);
}

bool state_set_conf(SessionState *s, const char *key, const char *value) {
    if (!conf_apply(&s->conf, key, value)) return false;
    Conf *c = &s->conf;
    for (int i = 0; i < c->nentries; i++)
        if (strcasecmp(c->keys[i], key) == 0) {
            c->values[i] = arena_strdup(s->arena, value);
            return true;
        }
    /* grow: arrays live in the state arena (states are small and short-lived) */
    const char **k = ARENA_ARRAY(s->arena, const char *, c->nentries + 1);
    const char **v = ARENA_ARRAY(s->arena, const char *, c->nentries + 1);
    if (c->nentries) {
        mem_copy(k, c->keys, sizeof(char *) * (size_t)c->nentries);
        mem_copy(v, c->values, sizeof(char *) * (size_t)c->nentries);
    }
    k[c->nentries] = arena_strdup(s->arena, key);
    v[c->nentries] = arena_strdup(s->arena, value);
    c->keys = k;
    c->values = v;
    c->nentries++;
    return true;
}

bool state_unset_conf(SessionState *s, const char *key) {
    Conf *c = &s->conf;
    int nentries = c->nentries;
    const char **keys = c->keys, **values = c->values;
    /* Back to the defaults, then the keys still set, in their order. */
    conf_init_defaults(c);
    c->keys = ARENA_ARRAY(s->arena, const char *, nentries + 1);
    c->values = ARENA_ARRAY(s->arena, const char *, nentries + 1);
    for (int i = 0; i < nentries; i++) {
        if (strcasecmp(keys[i], key) == 0) continue;
        conf_apply(c, keys[i], values[i]);
        c->keys[c->nentries] = keys[i];
        c->values[c->nentries] = values[i];
        c->nentries++;
    }
    return true;
}

bool state_set_base_conf(SessionState *s, const char *key, const char *value) {
    if (!state_set_conf(s, key, value)) return false;
    for (int i = 0; i < s->nbase; i++)
        if (strcasecmp(s->base_keys[i], key) == 0) {
            s->base_values[i] = arena_strdup(s->arena, value);
            return true;
        }
    const char **k = ARENA_ARRAY(s->arena, const char *, s->nbase + 1);
    const char **v = ARENA_ARRAY(s->arena, const char *, s->nbase + 1);
    if (s->nbase) {
        mem_copy(k, s->base_keys, sizeof(char *) * (size_t)s->nbase);
        mem_copy(v, s->base_values, sizeof(char *) * (size_t)s->nbase);
    }
    k[s->nbase] = arena_strdup(s->arena, key);
    v[s->nbase] = arena_strdup(s->arena, value);
    s->base_keys = k;
    s->base_values = v;
    s->nbase++;
    return true;
}

void state_reset_conf(SessionState *s, const char *key) {
    state_unset_conf(s, key);
    for (int i = 0; i < s->nbase; i++)
        if (strcasecmp(s->base_keys[i], key) == 0) state_set_conf(s, s->base_keys[i], s->base_values[i]);
}

void state_reset_all_conf(SessionState *s) {
    conf_init_defaults(&s->conf);
    for (int i = 0; i < s->nbase; i++) state_set_conf(s, s->base_keys[i], s->base_values[i]);
}

const char *state_get_conf(const SessionState *s, const char *key) {
    for (int i = 0; i < s->conf.nentries; i++)
        if (strcasecmp(s->conf.keys[i], key) == 0) return s->conf.values[i];
    return NULL;
}

const TempView *state_find_view(const SessionState *s, const char *name) {
    for (int i = 0; i < s->nviews; i++)
        if (strcasecmp(s->views[i].name, name) == 0) return &s->views[i];
    return NULL;
}

void state_put_view(SessionState *s, const TempView *v) {
    Arena *a = s->arena;
    TempView n = {.name = arena_strdup(a, v->name), .sql = v->sql ? arena_strdup(a, v->sql) : NULL,
                  .ncols = v->ncols, .plan = v->plan};
    n.cols = ARENA_ARRAY(a, const char *, v->ncols + 1);
    for (int j = 0; j < v->ncols; j++) n.cols[j] = arena_strdup(a, v->cols[j]);
    n.provider = v->provider ? arena_strdup(a, v->provider) : NULL;
    n.nout = v->nout;
    n.out_names = ARENA_ARRAY(a, const char *, v->nout + 1);
    n.out_types = ARENA_ARRAY(a, const DataType *, v->nout + 1);
    for (int j = 0; j < v->nout; j++) {
        n.out_names[j] = arena_strdup(a, v->out_names[j]);
        n.out_types[j] = type_copy(a, v->out_types[j]);
    }
    for (int i = 0; i < s->nviews; i++)
        if (strcasecmp(s->views[i].name, v->name) == 0) {
            s->views[i] = n;
            return;
        }
    TempView *views = ARENA_ARRAY(a, TempView, s->nviews + 1);
    if (s->nviews) mem_copy(views, s->views, sizeof(TempView) * (size_t)s->nviews);
    views[s->nviews++] = n;
    s->views = views;
}

bool state_drop_view(SessionState *s, const char *name) {
    for (int i = 0; i < s->nviews; i++)
        if (strcasecmp(s->views[i].name, name) == 0) {
            s->views[i] = s->views[--s->nviews];
            return true;
        }
    return false;
}

const Variable *state_find_var(const SessionState *s, const char *name) {
    for (int i = 0; i < s->nvars; i++)
        if (strcasecmp(s->vars[i].name, name) == 0) return &s->vars[i];
    return NULL;
}

void state_put_var(SessionState *s, const char *name, const DataType *type, const Value *value, const char *default_sql) {
    Arena *a = s->arena;
    Variable n = {.name = arena_strdup(a, name), .type = type_copy(a, type), .value = value_copy(a, value),
                  .default_sql = default_sql ? arena_strdup(a, default_sql) : NULL};
    for (int i = 0; i < s->nvars; i++)
        if (strcasecmp(s->vars[i].name, name) == 0) {
            s->vars[i] = n;
            return;
        }
    Variable *vars = ARENA_ARRAY(a, Variable, s->nvars + 1);
    if (s->nvars) mem_copy(vars, s->vars, sizeof(Variable) * (size_t)s->nvars);
    vars[s->nvars++] = n;
    s->vars = vars;
}

bool state_drop_var(SessionState *s, const char *name) {
    for (int i = 0; i < s->nvars; i++)
        if (strcasecmp(s->vars[i].name, name) == 0) {
            s->vars[i] = s->vars[--s->nvars];
            return true;
        }
    return false;
}
