#!/usr/bin/env python3
"""h2load bursts of a simple analysis against the real daemon (h2burst.py):
all must succeed; figures printed. TPC-H: test_load_tpch.py."""
import shutil

from daemon import Tap, grpc, load_stubs, skip_all
import h2burst

if not shutil.which("h2load"):
    skip_all("h2load (nghttp2-client) not installed")
if grpc is None:
    skip_all("python3-grpcio not importable")

pb, hpb = load_stubs()
t = Tap()
N = h2burst.REQUESTS


def bursts(d, c):
    res = h2burst.burst(d, pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1 AS a")), "simple SELECT 1 AS a")
    t.ok(res["ok2xx"] == N and res["grpc_ok"] == N,
         "h2load burst (simple analysis): all %d succeed (2xx %d, gRPC OK %d)" % (N, res["ok2xx"], res["grpc_ok"]),
         res["out"])


h2burst.run(t, pb, hpb, bursts)
t.done()
