/* The gRPC methods catalyzerd serves (see grpc_methods.h). The services and
 * their streaming types are those of proto/catalyzer.proto, proto/health.proto
 * and proto/spark/connect/base.proto. */
#include "grpc_methods.h"

#include <string.h>

static const GrpcMethodInfo INFO[] = {
    [RPC_ANALYZE] = {"catalyzer.v1.Analyzer", "Analyze", "server_stream"},
    [RPC_EXECUTE] = {"catalyzer.v1.Analyzer", "Execute", "unary"},
    [RPC_REGISTER_CATALOG] = {"catalyzer.v1.Analyzer", "RegisterCatalog", "unary"},
    [RPC_DROP_SESSION] = {"catalyzer.v1.Analyzer", "DropSession", "unary"},
    [RPC_HEALTH_CHECK] = {"grpc.health.v1.Health", "Check", "unary"},
    [RPC_HEALTH_WATCH] = {"grpc.health.v1.Health", "Watch", "server_stream"},
    [RPC_LIST_FUNCTIONS] = {"catalyzer.v1.Analyzer", "ListFunctions", "unary"},
    [RPC_INVALIDATE_TABLE] = {"catalyzer.v1.Analyzer", "InvalidateTable", "unary"},
    [RPC_CONNECT_EXECUTE_PLAN] = {"spark.connect.SparkConnectService", "ExecutePlan", "server_stream"},
    [RPC_CONNECT_ANALYZE_PLAN] = {"spark.connect.SparkConnectService", "AnalyzePlan", "unary"},
    [RPC_CONNECT_CONFIG] = {"spark.connect.SparkConnectService", "Config", "unary"},
    [RPC_CONNECT_RELEASE_EXECUTE] = {"spark.connect.SparkConnectService", "ReleaseExecute", "unary"},
    [RPC_CONNECT_RELEASE_SESSION] = {"spark.connect.SparkConnectService", "ReleaseSession", "unary"},
    [RPC_REFLECTION_V1] = {"grpc.reflection.v1.ServerReflection", "ServerReflectionInfo", "bidi_stream"},
    [RPC_REFLECTION_V1ALPHA] = {"grpc.reflection.v1alpha.ServerReflection", "ServerReflectionInfo", "bidi_stream"},
};
_Static_assert(sizeof INFO / sizeof INFO[0] == RPC_COUNT_, "wire names for every method");

const GrpcMethodInfo *grpc_method_info(RpcMethod m) { return m < RPC_COUNT_ ? &INFO[m] : NULL; }

RpcMethod grpc_method_by_path(const char *path, size_t len) {
    if (len < 1 || path[0] != '/') return RPC_COUNT_;
    for (int m = 0; m < RPC_COUNT_; m++) {
        size_t sl = strlen(INFO[m].service), ml = strlen(INFO[m].method);
        if (len == 1 + sl + 1 + ml && memcmp(path + 1, INFO[m].service, sl) == 0 && path[1 + sl] == '/' &&
            memcmp(path + 2 + sl, INFO[m].method, ml) == 0)
            return (RpcMethod)m;
    }
    return RPC_COUNT_;
}
