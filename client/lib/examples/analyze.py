#!/usr/bin/env python3
"""A Python engine talking to catalyzerd with stock grpcio: a session Execute,
then a streamed Analyze (trace events as rules fire, then the result), then
a Spark Connect plan (spark.connect.Relation, what a DataFrame API builds)
through the same Analyze and through SparkConnectService/AnalyzePlan.

    python3 analyze.py HOST:PORT [PROTO_DIR]

Message classes come from protoc --python_out (no grpc_tools needed): the
calls go through channel.unary_unary / unary_stream by method path. With
grpc_tools installed, `python3 -m grpc_tools.protoc --grpc_python_out` gives
an AnalyzerStub doing the same."""
import os
import subprocess
import sys
import tempfile

import grpc


def stubs(proto_dir):
    out = tempfile.mkdtemp(prefix="cz-py-")
    connect = os.path.join(proto_dir, "spark", "connect")
    subprocess.run(["protoc", "--proto_path=" + proto_dir, "--python_out=" + out, os.path.join(proto_dir, "catalyzer.proto")]
                   + sorted(os.path.join(connect, f) for f in os.listdir(connect) if f.endswith(".proto")), check=True)
    sys.path.insert(0, out)
    import catalyzer_pb2
    return catalyzer_pb2


def main():
    addr = sys.argv[1]
    proto_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "..", "proto")
    pb = stubs(proto_dir)
    ch = grpc.insecure_channel(addr)
    execute = ch.unary_unary("/catalyzer.v1.Analyzer/Execute", request_serializer=pb.ExecuteRequest.SerializeToString,
                             response_deserializer=pb.ExecuteResponse.FromString)
    analyze = ch.unary_stream("/catalyzer.v1.Analyzer/Analyze", request_serializer=pb.AnalyzeRequest.SerializeToString,
                              response_deserializer=pb.AnalyzeResponse.FromString)
    session = "py-%d" % os.getpid()
    r = execute(pb.ExecuteRequest(session_id=session, sql="CREATE TABLE orders (id BIGINT, amount DECIMAL(10,2)); "
                                                          "DECLARE VARIABLE threshold INT DEFAULT 100"), timeout=10)
    print("execute:", [res.ok for res in r.results])
    req = pb.AnalyzeRequest(session_id=session, sql=pb.SqlQuery(query="SELECT id, sum(amount) AS total FROM orders "
                                                                      "GROUP BY id HAVING total > threshold"),
                            trace_level=pb.TRACE_LEVEL_EFFECTIVE)
    for msg in analyze(req, timeout=10):
        if msg.WhichOneof("kind") == "trace_event":
            ev = msg.trace_event
            print("event %d: %s/%s iteration %d changed %s" % (ev.sequence, ev.batch, ev.rule, ev.iteration,
                                                               ev.changed_kinds))
        else:
            res = msg.result
            print("result:", res.schema if res.ok else res.error.error_class)
            print(res.tree_string)

    # df = spark.table("orders").select(col("id"), (col("amount") * 2).alias("doubled")), as Connect sends it
    import uuid
    from spark.connect import base_pb2 as B, expressions_pb2 as E, relations_pb2 as R
    X = E.Expression
    read = R.Relation(common=R.RelationCommon(plan_id=0),
                      read=R.Read(named_table=R.Read.NamedTable(unparsed_identifier="orders")))
    col = lambda name: X(unresolved_attribute=X.UnresolvedAttribute(unparsed_identifier=name, plan_id=0))  # noqa: E731
    df = R.Relation(common=R.RelationCommon(plan_id=1), project=R.Project(input=read, expressions=[
        col("id"), X(alias=X.Alias(name=["doubled"], expr=X(unresolved_function=X.UnresolvedFunction(
            function_name="*", arguments=[col("amount"), X(literal=X.Literal(integer=2))]))))]))
    res = list(analyze(pb.AnalyzeRequest(session_id=session, plan=df), timeout=10))[-1].result
    print("plan:", res.schema if res.ok else res.error.error_class)
    # The same daemon is a Spark Connect server; its session ids are UUIDs.
    config = ch.unary_unary("/spark.connect.SparkConnectService/Config",
                            request_serializer=B.ConfigRequest.SerializeToString,
                            response_deserializer=B.ConfigResponse.FromString)
    analyze_plan = ch.unary_unary("/spark.connect.SparkConnectService/AnalyzePlan",
                                  request_serializer=B.AnalyzePlanRequest.SerializeToString,
                                  response_deserializer=B.AnalyzePlanResponse.FromString)
    sid, user = str(uuid.uuid4()), B.UserContext(user_id="py-engine")
    r = config(B.ConfigRequest(session_id=sid, user_context=user, operation=B.ConfigRequest.Operation(
        get=B.ConfigRequest.Get(keys=["spark.sql.ansi.enabled"]))), timeout=10)
    print("connect config:", [(p.key, p.value) for p in r.pairs])
    q = R.Relation(sql=R.SQL(query="SELECT 1 AS id, 'x' AS name"))
    r = analyze_plan(B.AnalyzePlanRequest(session_id=sid, user_context=user, tree_string=B.AnalyzePlanRequest.TreeString(
        plan=B.Plan(root=q))), timeout=10)
    print("connect tree_string:")
    print(r.tree_string.tree_string, end="")


if __name__ == "__main__":
    main()
