/* Journal records and replay (see journal.h). */
#include "journal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void journal_sql(Buf *jr, const char *sql, size_t len, const CzRunOptions *o) {
    if (!jr) return;
    buf_u8(jr, JOURNAL_SQL);
    buf_bytes(jr, sql, len);
    int nn = o ? o->nnamed_params : 0, np = o ? o->npos_params : 0;
    buf_u32(jr, (uint32_t)nn);
    for (int i = 0; i < nn; i++) {
        buf_str(jr, o->param_names[i]);
        buf_str(jr, o->param_values_sql[i]);
    }
    buf_u32(jr, (uint32_t)np);
    for (int i = 0; i < np; i++) buf_str(jr, o->pos_params_sql[i]);
}

void journal_conf_set(Buf *jr, const char *key, const char *value) {
    if (!jr) return;
    buf_u8(jr, JOURNAL_CONF_SET);
    buf_str(jr, key);
    buf_str(jr, value);
}

void journal_conf_unset(Buf *jr, const char *key) {
    if (!jr) return;
    buf_u8(jr, JOURNAL_CONF_UNSET);
    buf_str(jr, key);
}

static void put_packed(Buf *jr, uint8_t kind, const ProtobufCMessage *m) {
    size_t n = protobuf_c_message_get_packed_size(m);
    buf_u8(jr, kind);
    buf_u32(jr, (uint32_t)n);
    buf_reserve(jr, n);
    if (jr->failed) return;
    protobuf_c_message_pack(m, jr->data + jr->len);
    jr->len += n;
}

bool journal_create_table(Buf *jr, CzSession *s, const Catalyzer__V1__Table *t, char *err, size_t errlen) {
    size_t n = t->n_columns;
    const char **names = calloc(n + 1, sizeof *names), **types = calloc(n + 1, sizeof *types);
    bool *nullable = calloc(n + 1, sizeof *nullable);
    bool ok = names && types && nullable;
    for (size_t k = 0; ok && k < n; k++) {
        names[k] = t->columns[k]->name;
        types[k] = t->columns[k]->type;
        nullable[k] = !t->columns[k]->not_null;
    }
    char e[256] = "";
    ok = ok && cz_session_create_table(s, t->name, (int)n, names, types, nullable, e, sizeof e);
    free(names);
    free(types);
    free(nullable);
    if (!ok) {
        snprintf(err, errlen, "catalog table \"%s\": %s", t->name, *e ? e : "rejected");
        return false;
    }
    if (jr) put_packed(jr, JOURNAL_TABLE, &t->base);
    return true;
}

bool journal_register_function(Buf *jr, CzSession *s, const Catalyzer__V1__Function *f, char *err, size_t errlen) {
    char e[256] = "";
    if (!cz_session_register_function(s, f->name, (int)f->n_argument_types, (const char *const *)f->argument_types,
                                      f->result_type, !f->nondeterministic, e, sizeof e)) {
        snprintf(err, errlen, "catalog function \"%s\": %s", f->name, *e ? e : "rejected");
        return false;
    }
    if (jr) put_packed(jr, JOURNAL_FUNCTION, &f->base);
    return true;
}

/* ---------------------------------------------------------------- conf diff */

struct ConfSnap {
    int n;
    char **keys, **values;
};

ConfSnap *journal_conf_snapshot(const CzSession *s) {
    const char *const *keys;
    int n = cz_session_conf_keys(s, &keys);
    ConfSnap *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->keys = calloc((size_t)n + 1, sizeof *c->keys);
    c->values = calloc((size_t)n + 1, sizeof *c->values);
    if (!c->keys || !c->values) n = 0;
    for (int i = 0; i < n; i++) {
        const char *v = cz_session_get_conf(s, keys[i]);
        c->keys[i] = strdup(keys[i]);
        c->values[i] = strdup(v ? v : "");
    }
    c->n = n;
    return c;
}

void journal_conf_diff(Buf *jr, ConfSnap *before, const CzSession *s) {
    if (!before) return;
    if (jr) {
        const char *const *keys;
        int n = cz_session_conf_keys(s, &keys);
        for (int i = 0; i < before->n; i++) { /* removed keys */
            bool still = false;
            for (int k = 0; k < n && !still; k++) still = strcmp(keys[k], before->keys[i]) == 0;
            if (!still) journal_conf_unset(jr, before->keys[i]);
        }
        for (int k = 0; k < n; k++) { /* new or changed keys */
            const char *v = cz_session_get_conf(s, keys[k]);
            int i = 0;
            while (i < before->n && strcmp(before->keys[i], keys[k]) != 0) i++;
            if (i == before->n || strcmp(before->values[i], v ? v : "") != 0) journal_conf_set(jr, keys[k], v ? v : "");
        }
    }
    for (int i = 0; i < before->n; i++) {
        free(before->keys[i]);
        free(before->values[i]);
    }
    free(before->keys);
    free(before->values);
    free(before);
}

/* ---------------------------------------------------------------- replay */

static char *rd_strdup(Rd *r) {
    size_t n;
    const uint8_t *p = rd_bytes(r, &n);
    char *s = malloc(n + 1);
    if (!s) return NULL;
    if (n) memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

static bool replay_sql(CzSession *s, Rd *r, const CzRunOptions *base, char *err, size_t errlen) {
    size_t len;
    const uint8_t *sql = rd_bytes(r, &len);
    uint32_t nn = rd_u32(r);
    if (r->bad || nn > (uint32_t)(r->end - r->p)) return false;
    char **names = calloc(nn + 1, sizeof *names), **values = calloc(nn + 1, sizeof *values);
    for (uint32_t i = 0; i < nn && names && values; i++) {
        names[i] = rd_strdup(r);
        values[i] = rd_strdup(r);
    }
    uint32_t np = rd_u32(r);
    char **pos = NULL;
    if (!r->bad && np <= (uint32_t)(r->end - r->p)) pos = calloc(np + 1, sizeof *pos);
    for (uint32_t i = 0; pos && i < np; i++) pos[i] = rd_strdup(r);
    bool ok = !r->bad && names && values && pos;
    if (ok) {
        CzRunOptions o = *base;
        o.trace = NULL;
        o.want_tree = false;
        o.nnamed_params = (int)nn;
        o.param_names = (const char *const *)names;
        o.param_values_sql = (const char *const *)values;
        o.npos_params = (int)np;
        o.pos_params_sql = (const char *const *)pos;
        CzResult *res = cz_run_sql(s, (const char *)sql, len, &o);
        ok = cz_result_status(res) == CZ_OK;
        if (!ok) {
            const CzError *e = cz_result_error(res);
            snprintf(err, errlen, "replayed statement failed: %s", e && e->error_class ? e->error_class : "error");
        }
        cz_result_free(res);
    }
    for (uint32_t i = 0; i < nn && names && values; i++) {
        free(names[i]);
        free(values[i]);
    }
    for (uint32_t i = 0; pos && i < np; i++) free(pos[i]);
    free(names);
    free(values);
    free(pos);
    return ok;
}

bool journal_replay(CzSession *s, const uint8_t *p, size_t len, const CzRunOptions *base, char *err, size_t errlen) {
    Rd r = {p, p + len, false};
    snprintf(err, errlen, "malformed journal record");
    while (r.p < r.end) {
        uint8_t kind = rd_u8(&r);
        switch (kind) {
        case JOURNAL_SQL:
            if (!replay_sql(s, &r, base, err, errlen)) return false;
            break;
        case JOURNAL_CONF_SET: {
            char *k = rd_strdup(&r), *v = rd_strdup(&r);
            bool ok = !r.bad && k && v && cz_session_set_conf(s, k, v);
            if (!ok) snprintf(err, errlen, "replayed configuration %s refused", k ? k : "");
            free(k);
            free(v);
            if (!ok) return false;
            break;
        }
        case JOURNAL_CONF_UNSET: {
            char *k = rd_strdup(&r);
            bool ok = !r.bad && k;
            if (ok) cz_session_unset_conf(s, k);
            free(k);
            if (!ok) return false;
            break;
        }
        case JOURNAL_TABLE:
        case JOURNAL_FUNCTION: {
            size_t n;
            const uint8_t *m = rd_bytes(&r, &n);
            if (r.bad) return false;
            bool ok;
            if (kind == JOURNAL_TABLE) {
                Catalyzer__V1__Table *t = catalyzer__v1__table__unpack(NULL, n, m);
                ok = t && journal_create_table(NULL, s, t, err, errlen);
                if (t) catalyzer__v1__table__free_unpacked(t, NULL);
            } else {
                Catalyzer__V1__Function *f = catalyzer__v1__function__unpack(NULL, n, m);
                ok = f && journal_register_function(NULL, s, f, err, errlen);
                if (f) catalyzer__v1__function__free_unpacked(f, NULL);
            }
            if (!ok) return false;
            break;
        }
        default: return false;
        }
        if (r.bad) return false;
    }
    err[0] = '\0';
    return true;
}

int journal_count(const uint8_t *p, size_t len) {
    Rd r = {p, p + len, false};
    int n = 0;
    size_t k;
    while (r.p < r.end && !r.bad) {
        switch (rd_u8(&r)) {
        case JOURNAL_SQL: {
            rd_bytes(&r, &k);
            uint32_t nn = rd_u32(&r);
            for (uint32_t i = 0; i < nn && !r.bad; i++) {
                rd_bytes(&r, &k);
                rd_bytes(&r, &k);
            }
            uint32_t np = rd_u32(&r);
            for (uint32_t i = 0; i < np && !r.bad; i++) rd_bytes(&r, &k);
            break;
        }
        case JOURNAL_CONF_SET: rd_bytes(&r, &k); rd_bytes(&r, &k); break;
        case JOURNAL_CONF_UNSET: rd_bytes(&r, &k); break;
        case JOURNAL_TABLE:
        case JOURNAL_FUNCTION: rd_bytes(&r, &k); break;
        default: return -1;
        }
        n++;
    }
    return r.bad ? -1 : n;
}
