/* libFuzzer target: a catalyzer.v1 request message as the gRPC transport
 * hands it to a worker (wire check, protobuf-c decode, validation, catalog,
 * conf, analysis, response encoding: rpc_run). The first byte picks the
 * method and whether the call has a session; the rest is the message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > FUZZ_MAX_INPUT) return 0;
    static const RpcMethod M[] = {RPC_ANALYZE, RPC_EXECUTE, RPC_REGISTER_CATALOG, RPC_DROP_SESSION};
    RpcMethod m = M[data[0] & 3];
    bool with_session = (data[0] & 4) || m == RPC_REGISTER_CATALOG;
    Job *j = job_new(fuzz_server(), m, JOB_GRPC);
    j->req_len = size - 1;
    j->req = malloc(j->req_len ? j->req_len : 1);
    memcpy(j->req, data + 1, j->req_len);
    Session *s = with_session ? fuzz_session_new("fuzz-session") : NULL;
    if (s) {
        j->session = s;
        snprintf(j->session_id, sizeof j->session_id, "%s", s->id);
    }
    fuzz_run_job(j);
    job_unref(j);
    fuzz_session_free(s);
    return 0;
}
