/* What each RpcMethod is on the gRPC wire: its service, its method name and
 * its streaming type. One table, read by the HTTP/2 dispatcher (":path"
 * matching) and by the grpc_server_* metrics (their grpc_service,
 * grpc_method and grpc_type labels). */
#ifndef CZ_GRPC_METHODS_H
#define CZ_GRPC_METHODS_H

#include <stddef.h>

#include "job.h"

typedef struct GrpcMethodInfo {
    const char *service; /* "catalyzer.v1.Analyzer" */
    const char *method;  /* "Analyze" */
    const char *type;    /* go-grpc-prometheus's grpc_type: "unary", "server_stream", "bidi_stream" */
} GrpcMethodInfo;

/* NULL for RPC_COUNT_ and beyond. */
const GrpcMethodInfo *grpc_method_info(RpcMethod m);

/* The method whose ":path" is "/service/method"; RPC_COUNT_ if none. */
RpcMethod grpc_method_by_path(const char *path, size_t len);

#endif
