/* Loads the parser's test corpus. Spark's test harness substitutes
 * ${var} from earlier SET statements of the same file before parsing (its
 * session does it); we do the same so those statements parse. */
#include "corpus.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"

const char *corpus_shared_dir(void) {
    const char *d = getenv("CATALYZER_SHARED");
    if (!d || !*d) return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/conformance/spark-visible.jsonl", d);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    fclose(f);
    return d;
}

static CorpusStmt *push(Corpus *c, const char *where, const char *sql, size_t len, const char *cls) {
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 1024;
        c->v = realloc(c->v, c->cap * sizeof *c->v);
    }
    CorpusStmt *s = &c->v[c->n++];
    s->where = strdup(where);
    s->sql = malloc(len + 1);
    memcpy(s->sql, sql, len);
    s->sql[len] = 0;
    s->len = len;
    s->error_class = cls ? strdup(cls) : NULL;
    s->error_param = s->hint_param = NULL;
    return s;
}

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    size_t k = fread(b, 1, (size_t)n, f);
    fclose(f);
    b[k] = 0;
    *len = k;
    return b;
}

/* Session variables of one file, for ${name} substitution. */
typedef struct Vars {
    char file[256];
    char names[16][64];
    char values[16][256];
    int n;
} Vars;

static void note_set(Vars *v, const char *sql) {
    /* SET [hivevar:]name = value */
    if (strncasecmp(sql, "SET ", 4) != 0) return;
    const char *k = sql + 4;
    while (*k == ' ') k++;
    if (strncasecmp(k, "hivevar:", 8) == 0) k += 8;
    const char *e = k;
    while (*e && *e != '=' && *e != ' ') e++;
    const char *eq = strchr(e, '=');
    if (!eq || v->n >= 16 || (size_t)(e - k) >= 64) return;
    const char *val = eq + 1;
    while (*val == ' ') val++;
    snprintf(v->names[v->n], 64, "%.*s", (int)(e - k), k);
    snprintf(v->values[v->n], 256, "%s", val);
    v->n++;
}

static char *substitute(const Vars *v, const char *sql) {
    if (!strstr(sql, "${")) return NULL;
    size_t cap = strlen(sql) + 1024, n = 0;
    char *out = malloc(cap);
    for (const char *p = sql; *p;) {
        if (p[0] == '$' && p[1] == '{') {
            const char *e = strchr(p, '}');
            if (e) {
                const char *name = p + 2;
                if (strncasecmp(name, "hivevar:", 8) == 0) name += 8;
                for (int i = 0; i < v->n; i++)
                    if (strlen(v->names[i]) == (size_t)(e - name) && !strncmp(v->names[i], name, (size_t)(e - name))) {
                        size_t l = strlen(v->values[i]);
                        if (n + l + 1 < cap) memcpy(out + n, v->values[i], l), n += l;
                        p = e + 1;
                        goto next;
                    }
            }
        }
        if (n + 2 < cap) out[n++] = *p;
        p++;
    next:;
    }
    out[n] = 0;
    return out;
}

static bool load_jsonl(Corpus *c, const char *path, const char *label) {
    size_t len;
    char *text = read_all(path, &len);
    if (!text) return false;
    Vars vars;
    memset(&vars, 0, sizeof vars);
    size_t i = 0;
    int line = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && text[j] != '\n') j++;
        if (j > i) {
            json_error_t je;
            json_t *o = json_loadb(text + i, j - i, 0, &je);
            if (o) {
                const char *sql = json_string_value(json_object_get(o, "sql"));
                const char *file = json_string_value(json_object_get(o, "file"));
                const char *phase = json_string_value(json_object_get(o, "error_phase"));
                const char *cls = json_string_value(json_object_get(o, "error_class"));
                json_int_t idx = json_integer_value(json_object_get(o, "index"));
                if (file && strcmp(file, vars.file) != 0) {
                    memset(&vars, 0, sizeof vars);
                    snprintf(vars.file, sizeof vars.file, "%s", file);
                }
                if (sql) {
                    note_set(&vars, sql);
                    /* the functions table is markdown: `|` is written &#124; there */
                    char *unesc = NULL;
                    if (strstr(sql, "&#124;")) {
                        unesc = strdup(sql);
                        char *q;
                        while ((q = strstr(unesc, "&#124;"))) {
                            *q = '|';
                            memmove(q + 1, q + 6, strlen(q + 6) + 1);
                        }
                        sql = unesc;
                    }
                    char *sub = substitute(&vars, sql);
                    char where[512];
                    snprintf(where, sizeof where, "%s:%s#%lld", label, file ? file : "?", (long long)idx);
                    const char *s = sub ? sub : sql;
                    CorpusStmt *st = push(c, where, s, strlen(s), phase && !strcmp(phase, "parse") ? cls : NULL);
                    json_t *mp = json_object_get(o, "message_parameters");
                    if (st->error_class && json_is_object(mp)) {
                        const char *ep = json_string_value(json_object_get(mp, "error"));
                        const char *hp = json_string_value(json_object_get(mp, "hint"));
                        st->error_param = ep ? strdup(ep) : NULL;
                        st->hint_param = hp ? strdup(hp) : NULL;
                    }
                    free(sub);
                    free(unesc);
                }
                json_decref(o);
            }
        }
        line++;
        i = j + 1;
    }
    free(text);
    return true;
}

typedef struct SplitCtx {
    Corpus *c;
    const char *file;
    const char *text;
} SplitCtx;

static void on_stmt(void *ctx, const char *stmt, size_t len, size_t offset) {
    SplitCtx *sc = ctx;
    int line = 1;
    for (size_t i = 0; i < offset; i++)
        if (sc->text[i] == '\n') line++;
    char where[512];
    snprintf(where, sizeof where, "%s:%d", sc->file, line);
    push(sc->c, where, stmt, len, NULL);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool load_sql_dir(Corpus *c, const char *dir, const char *label) {
    DIR *d = opendir(dir);
    if (!d) return false;
    char *names[512];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".sql")) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int i = 0; i < n; i++) {
        char path[8192], file[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(file, sizeof file, "%s/%s", label, names[i]);
        size_t len;
        char *text = read_all(path, &len);
        if (text) {
            SplitCtx sc = {c, file, text};
            cz_split_statements(text, len, on_stmt, &sc);
            free(text);
        }
        free(names[i]);
    }
    return true;
}

bool corpus_load(Corpus *c, const char *shared) {
    char path[4096];
    memset(c, 0, sizeof *c);
    snprintf(path, sizeof path, "%s/conformance/spark-visible.jsonl", shared);
    if (!load_jsonl(c, path, "spark-visible")) return false;
    snprintf(path, sizeof path, "%s/conformance/spark-functions.jsonl", shared);
    if (!load_jsonl(c, path, "spark-functions")) return false;
    static const char *const dirs[] = {"tpch", "tpcds", "tpcds-v2.7.0"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/workloads/%s", shared, dirs[i]);
        if (!load_sql_dir(c, path, dirs[i])) return false;
    }
    return true;
}

void corpus_free(Corpus *c) {
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].where);
        free(c->v[i].sql);
        free(c->v[i].error_class);
        free(c->v[i].error_param);
        free(c->v[i].hint_param);
    }
    free(c->v);
    memset(c, 0, sizeof *c);
}
