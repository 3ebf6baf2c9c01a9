/* See corpus.h. Records point into the parsed JSON (jansson), kept until
 * corpus_free; workload statements into copies of the scripts. */
#include "corpus.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalyzer.h"

/* What the records point into: JSON documents and script texts. */
typedef struct Owned {
    json_t **docs;
    size_t ndocs, capdocs;
    char **texts;
    size_t ntexts, captexts;
} Owned;

static Owned *owned(Corpus *c) {
    if (!c->owned) c->owned = calloc(1, sizeof(Owned));
    return c->owned;
}

static void keep_doc(Corpus *c, json_t *doc) {
    Owned *o = owned(c);
    if (o->ndocs == o->capdocs) {
        o->capdocs = o->capdocs ? o->capdocs * 2 : 1024;
        o->docs = realloc(o->docs, o->capdocs * sizeof *o->docs);
    }
    o->docs[o->ndocs++] = doc;
}

static char *keep_text(Corpus *c, char *text) {
    Owned *o = owned(c);
    if (o->ntexts == o->captexts) {
        o->captexts = o->captexts ? o->captexts * 2 : 64;
        o->texts = realloc(o->texts, o->captexts * sizeof *o->texts);
    }
    o->texts[o->ntexts++] = text;
    return text;
}

static CorpusRecord *push(Corpus *c) {
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 1024;
        c->v = realloc(c->v, c->cap * sizeof *c->v);
    }
    CorpusRecord *r = &c->v[c->n++];
    memset(r, 0, sizeof *r);
    return r;
}

static bool exists(const char *dir, const char *rel, bool want_dir) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    return stat(path, &st) == 0 && (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

static const char *const NEEDED_FILES[] = {"conformance/spark-visible.jsonl", "conformance/spark-functions.jsonl"};
static const char *const WORKLOAD_DIRS[] = {"workloads/tpch", "workloads/tpcds", "workloads/tpcds-v2.7.0"};

const char *corpus_shared_dir(void) {
    const char *d = getenv("CATALYZER_SHARED");
    if (!d || !*d) return NULL;
    for (size_t i = 0; i < sizeof NEEDED_FILES / sizeof *NEEDED_FILES; i++)
        if (!exists(d, NEEDED_FILES[i], false)) return NULL;
    for (size_t i = 0; i < sizeof WORKLOAD_DIRS / sizeof *WORKLOAD_DIRS; i++)
        if (!exists(d, WORKLOAD_DIRS[i], true)) return NULL;
    return d;
}

void corpus_require(void) {
    if (corpus_shared_dir()) return;
    const char *d = getenv("CATALYZER_SHARED");
    printf("SKIP: this test reads Spark's corpus from ../shared beside the clone (CATALYZER_SHARED=%s), "
           "which is not there: skipped, not passed\n",
           d && *d ? d : "(unset)");
    fflush(stdout);
    exit(77);
}

static const char *str(json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

static void fill(CorpusRecord *r, json_t *o) {
    r->file = str(o, "file");
    r->index = (long)json_integer_value(json_object_get(o, "index"));
    r->sql = str(o, "sql");
    r->kind = str(o, "kind");
    r->expect = str(o, "expect");
    r->error_class = str(o, "error_class");
    r->error_phase = str(o, "error_phase");
    r->schema = str(o, "schema");
    r->analyzed_plan = str(o, "analyzed_plan");
    r->plan_redacted = json_is_true(json_object_get(o, "plan_redacted"));
    r->function = str(o, "function");
    json_t *mp = json_object_get(o, "message_parameters");
    r->param_error = str(mp, "error");
    r->param_hint = str(mp, "hint");
    json_t *set = json_object_get(json_object_get(o, "file_config"), "set");
    size_t n = json_array_size(set);
    if (!n) return;
    r->conf_keys = calloc(n, sizeof *r->conf_keys);
    r->conf_values = calloc(n, sizeof *r->conf_values);
    for (size_t i = 0; i < n; i++) {
        json_t *kv = json_array_get(set, i);
        const char *k = json_string_value(json_array_get(kv, 0)), *v = json_string_value(json_array_get(kv, 1));
        if (!k || !v) continue;
        r->conf_keys[r->nconf] = k;
        r->conf_values[r->nconf++] = v;
    }
}

bool corpus_load_jsonl(Corpus *c, const char *name) {
    const char *shared = corpus_shared_dir();
    if (!shared) return false;
    char path[4096];
    snprintf(path, sizeof path, "%s/conformance/%s", shared, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "corpus: cannot read %s\n", path);
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    bool ok = true;
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (strspn(line, " \t\r\n") == (size_t)len) continue;
        json_error_t je;
        json_t *o = json_loadb(line, (size_t)len, 0, &je);
        if (!json_is_object(o) || !str(o, "sql") || !str(o, "file")) {
            fprintf(stderr, "corpus: %s:%ld: not a record (%s)\n", path, lineno, o ? "no sql or file" : je.text);
            json_decref(o);
            ok = false;
            break;
        }
        keep_doc(c, o);
        fill(push(c), o);
    }
    free(line);
    fclose(f);
    return ok;
}

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 14, n = 0, k;
    char *b = malloc(cap);
    while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) b = realloc(b, cap *= 2);
    }
    fclose(f);
    b[n] = 0;
    *len = n;
    return b;
}

typedef struct Split {
    Corpus *c;
    const char *file, *text;
} Split;

static void on_statement(void *ctx, const char *stmt, size_t len, size_t offset) {
    Split *s = ctx;
    long line = 1;
    for (size_t i = 0; i < offset; i++) line += s->text[i] == '\n';
    CorpusRecord *r = push(s->c);
    r->file = s->file;
    r->index = line;
    r->sql = keep_text(s->c, strndup(stmt, len));
    r->expect = "ok";
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

bool corpus_load_workloads(Corpus *c) {
    const char *shared = corpus_shared_dir();
    if (!shared) return false;
    for (size_t w = 0; w < sizeof WORKLOAD_DIRS / sizeof *WORKLOAD_DIRS; w++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", shared, WORKLOAD_DIRS[w]);
        DIR *d = opendir(dir);
        if (!d) {
            fprintf(stderr, "corpus: cannot read %s\n", dir);
            return false;
        }
        char **names = NULL;
        size_t n = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (l <= 4 || strcmp(e->d_name + l - 4, ".sql")) continue;
            if (n == cap) names = realloc(names, (cap = cap ? cap * 2 : 128) * sizeof *names);
            names[n++] = strdup(e->d_name);
        }
        closedir(d);
        qsort(names, n, sizeof *names, cmp_names);
        const char *label = WORKLOAD_DIRS[w] + strlen("workloads/");
        for (size_t i = 0; i < n; i++) {
            char path[8192], file[1024];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            snprintf(file, sizeof file, "%s/%s", label, names[i]);
            size_t len;
            char *text = read_all(path, &len);
            if (text) {
                Split s = {c, keep_text(c, strdup(file)), keep_text(c, text)};
                cz_split_statements(text, len, on_statement, &s);
            }
            free(names[i]);
        }
        free(names);
    }
    return true;
}

bool corpus_same_file(const CorpusRecord *a, const CorpusRecord *b) {
    return a && b && a->file && b->file && !strcmp(a->file, b->file);
}

void corpus_free(Corpus *c) {
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].conf_keys);
        free(c->v[i].conf_values);
    }
    free(c->v);
    Owned *o = c->owned;
    if (o) {
        for (size_t i = 0; i < o->ndocs; i++) json_decref(o->docs[i]);
        for (size_t i = 0; i < o->ntexts; i++) free(o->texts[i]);
        free(o->docs);
        free(o->texts);
        free(o);
    }
    memset(c, 0, sizeof *c);
}
