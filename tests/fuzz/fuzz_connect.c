/* libFuzzer target: a spark.connect request message (ExecutePlan,
 * AnalyzePlan, Config, ReleaseExecute, ReleaseSession) through rpc_run, as
 * the gRPC transport hands it to a worker: wire check, protobuf-c decode,
 * plan decode (plan_decode.c), analysis, response. The first byte picks the
 * method; the rest is the message. The session exists (the transport checks
 * the UUID and finds or creates it before the job runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > FUZZ_MAX_INPUT) return 0;
    static const RpcMethod M[] = {RPC_CONNECT_ANALYZE_PLAN, RPC_CONNECT_EXECUTE_PLAN, RPC_CONNECT_CONFIG,
                                  RPC_CONNECT_ANALYZE_PLAN, RPC_CONNECT_EXECUTE_PLAN, RPC_CONNECT_CONFIG,
                                  RPC_CONNECT_RELEASE_EXECUTE, RPC_CONNECT_RELEASE_SESSION};
    RpcMethod m = M[data[0] & 7];
    Job *j = job_new(fuzz_server(), m, JOB_GRPC);
    j->req_len = size - 1;
    j->req = malloc(j->req_len ? j->req_len : 1);
    memcpy(j->req, data + 1, j->req_len);
    Session *s = fuzz_session_new("00112233-4455-6677-8899-aabbccddeeff");
    j->session = s;
    snprintf(j->session_id, sizeof j->session_id, "%s", s->id);
    fuzz_run_job(j);
    job_unref(j);
    fuzz_session_free(s);
    return 0;
}
