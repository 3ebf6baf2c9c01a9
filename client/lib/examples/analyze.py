#!/usr/bin/env python3
"""A Python engine talking to catalyzerd with stock grpcio: a session Execute,
then a streamed Analyze (trace events as rules fire, then the result).

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
    subprocess.run(["protoc", "--proto_path=" + proto_dir, "--python_out=" + out,
                    os.path.join(proto_dir, "catalyzer.proto")], check=True)
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


if __name__ == "__main__":
    main()
