/* RPC handlers, run on a worker thread: decode and check the request, run
 * the analyzer, encode the response (gRPC messages or one JSON body), and
 * finish the job with a gRPC status. */
#ifndef CZ_RPC_H
#define CZ_RPC_H

#include "job.h"

void rpc_run(Job *j);

/* The message descriptor of a method's request. */
const ProtobufCMessageDescriptor *rpc_request_descriptor(RpcMethod m);

#endif
