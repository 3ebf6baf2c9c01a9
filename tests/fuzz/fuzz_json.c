/* libFuzzer target: the JSON endpoint's request body, as http1.c takes it:
 * POST bodies through json_loadb, the {"sql": "..."} shorthand,
 * pb_from_json and rpc_run with a JSON (or NDJSON) response; GET query
 * strings through http_query_request. The first byte picks the method, the
 * format and GET; the rest is the body (or the query string). An inline
 * catalog (RegisterCatalog, or `catalog` of Analyze/Execute) comes this way. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "http_query.h"
#include "pb_json.h"
#include "rpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > FUZZ_MAX_INPUT) return 0;
    static const RpcMethod M[] = {RPC_ANALYZE, RPC_EXECUTE, RPC_REGISTER_CATALOG, RPC_ANALYZE};
    RpcMethod m = M[data[0] & 3];
    bool ndjson = m == RPC_ANALYZE && (data[0] & 4);
    bool get = (data[0] & 8) && m == RPC_ANALYZE;
    Server *srv = fuzz_server();
    char err[512];
    json_t *body;
    if (get) {
        char *q = malloc(size);
        memcpy(q, data + 1, size - 1);
        q[size - 1] = '\0';
        body = http_query_request(q, err, sizeof err);
        free(q);
    } else {
        json_error_t jerr;
        body = json_loadb((const char *)data + 1, size - 1, JSON_REJECT_DUPLICATES, &jerr);
    }
    if (!body || !json_is_object(body)) {
        json_decref(body);
        return 0;
    }
    json_t *sql = json_object_get(body, "sql");
    if (m == RPC_ANALYZE && json_is_string(sql)) json_object_set_new(body, "sql", json_pack("{s:O}", "query", sql));
    const ProtobufCMessageDescriptor *desc = rpc_request_descriptor(m);
    ProtobufCMessage *msg = pb_from_json(body, desc, srv->cfg.max_plan_depth * 4 + 16, err, sizeof err);
    json_decref(body);
    if (!msg) return 0;
    Job *j = job_new(srv, m, ndjson ? JOB_NDJSON : JOB_JSON);
    j->req_msg = msg;
    const ProtobufCFieldDescriptor *sf = protobuf_c_message_descriptor_get_field_by_name(desc, "session_id");
    const char *sid = sf ? *(char **)((char *)msg + sf->offset) : NULL;
    Session *s = NULL;
    if ((sid && *sid) || m == RPC_REGISTER_CATALOG) {
        s = fuzz_session_new("fuzz-session");
        j->session = s;
        snprintf(j->session_id, sizeof j->session_id, "%s", s->id);
    }
    fuzz_run_job(j);
    job_unref(j);
    fuzz_session_free(s);
    return 0;
}
