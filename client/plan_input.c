/* Spark Connect plans as the CLI's input (see plan_input.h). */
#include "plan_input.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pb_check.h"
#include "pb_json.h"
#include "plan_decode.h"
#include "source.h"

enum { PLAN_MAX_DEPTH = 20000 }; /* the CLI's parser limit (cz_run_sql's default) */

static int add_plan(PlanList *l, json_t *j, const char *path, size_t line) {
    json_t *p = json_is_object(j) && json_object_get(j, "plan") ? json_object_get(j, "plan") : j;
    char err[512];
    ProtobufCMessage *m = pb_from_json(p, &spark__connect__relation__descriptor, PLAN_MAX_DEPTH, err, sizeof err);
    if (!m || !pb_validate(m, err, sizeof err)) {
        fprintf(stderr, "catalyzer: %s:%zu: not a spark.connect.Relation: %s\n", path, line, err);
        if (m) protobuf_c_message_free_unpacked(m, NULL);
        return 2;
    }
    Spark__Connect__Relation **v = realloc(l->v, (l->n + 1) * sizeof *v);
    if (!v) {
        protobuf_c_message_free_unpacked(m, NULL);
        return 2;
    }
    l->v = v;
    l->v[l->n++] = (Spark__Connect__Relation *)m;
    return 0;
}

int plans_read(const char *path, PlanList *out) {
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = source_slurp(path, &len);
    if (!text) {
        fprintf(stderr, "catalyzer: cannot read %s\n", path);
        return 2;
    }
    json_error_t je;
    json_t *whole = json_loadb(text, len, 0, &je);
    int rc = 0;
    if (whole) { /* one JSON value: a plan (or a list of plans) */
        if (json_is_array(whole))
            for (size_t i = 0; i < json_array_size(whole) && !rc; i++)
                rc = add_plan(out, json_array_get(whole, i), path, i + 1);
        else
            rc = add_plan(out, whole, path, 1);
        json_decref(whole);
        free(text);
        if (rc) plans_free(out);
        return rc;
    }
    size_t no = 0;
    for (char *line = text; !rc && line < text + len;) { /* JSON Lines */
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        size_t k = nl ? (size_t)(nl - line) : (size_t)(text + len - line);
        char *next = nl ? nl + 1 : text + len;
        no++;
        while (k && (line[k - 1] == '\r' || line[k - 1] == ' ')) k--;
        if (k) {
            json_t *j = json_loadb(line, k, 0, &je);
            if (!j) {
                fprintf(stderr, "catalyzer: %s:%zu: %s\n", path, no, je.text);
                rc = 2;
                break;
            }
            rc = add_plan(out, j, path, no);
            json_decref(j);
        }
        line = next;
    }
    free(text);
    if (rc) plans_free(out);
    return rc;
}

void plans_free(PlanList *l) {
    for (size_t i = 0; i < l->n; i++) protobuf_c_message_free_unpacked(&l->v[i]->base, NULL);
    free(l->v);
    memset(l, 0, sizeof *l);
}

CzResult *plan_analyse(CzSession *s, const Spark__Connect__Relation *rel, const CzRunOptions *o, char *err,
                       size_t errlen) {
    CzResult *r = cz_result_prepare();
    const char *ansi = cz_session_get_conf(s, "spark.sql.ansi.enabled");
    DecodeOptions dopt = {.ansi = !ansi || strcasecmp(ansi, "false") != 0};
    DecodeLimits lim = {o && o->max_depth ? o->max_depth : PLAN_MAX_DEPTH, 0};
    DecodeResult dr;
    Node *plan = plan_decode(cz_result_arena(r), rel, &lim, &dopt, &dr);
    if (!plan) {
        snprintf(err, errlen, "%s", dr.message);
        cz_result_free(r);
        return NULL;
    }
    cz_run_plan(s, r, plan, NULL, o);
    return r;
}

char *plan_error_json(int index, const char *message) {
    json_t *o = json_pack("{s:i,s:s,s:s}", "index", index, "status", "error", "message", message ? message : "");
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}
