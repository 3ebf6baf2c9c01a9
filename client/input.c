#include "input.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalyzer.h"
#include "source.h"

static void push(StatementList *l, const char *sql, size_t len) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, sizeof(Statement) * l->cap);
        if (!l->v) abort();
    }
    l->v[l->n++] = (Statement){sql, len};
}

static void on_stmt(void *ctx, const char *stmt, size_t len, size_t offset) {
    (void)offset;
    push(ctx, stmt, len);
}

int statements_read(const char *path, StatementList *out) {
    memset(out, 0, sizeof *out);
    size_t len;
    out->text = source_slurp(path, &len);
    if (!out->text) {
        fprintf(stderr, "catalyzer: cannot read %s\n", path);
        return -1;
    }
    if (!source_is_jsonl(path)) {
        cz_split_statements(out->text, len, on_stmt, out);
        return 0;
    }
    size_t cap_owned = 0;
    char *line = out->text;
    int lineno = 0;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        lineno++;
        const char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\r') p++;
        if (*p) {
            json_error_t err;
            json_t *j = json_loads(p, 0, &err);
            json_t *sql = j ? json_object_get(j, "sql") : NULL;
            if (!j || !json_is_string(sql)) {
                fprintf(stderr, "catalyzer: %s:%d: expected {\"sql\": \"...\"}\n", path, lineno);
                json_decref(j);
                return -1;
            }
            size_t n = json_string_length(sql);
            char *copy = malloc(n + 1);
            if (!copy) abort();
            memcpy(copy, json_string_value(sql), n);
            copy[n] = 0;
            if (out->nowned == cap_owned) {
                cap_owned = cap_owned ? cap_owned * 2 : 64;
                out->owned = realloc(out->owned, sizeof(char *) * cap_owned);
                if (!out->owned) abort();
            }
            out->owned[out->nowned++] = copy;
            push(out, copy, n);
            json_decref(j);
        }
        line = nl ? nl + 1 : NULL;
    }
    return 0;
}

void statements_free(StatementList *l) {
    for (size_t i = 0; i < l->nowned; i++) free(l->owned[i]);
    free(l->owned);
    free(l->v);
    free(l->text);
}
