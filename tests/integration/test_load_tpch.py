#!/usr/bin/env python3
"""h2load bursts of TPC-H Q1 from the shared corpus, its schema inline (a
stateless request), against the real daemon (h2burst.py): it analyses, and
every request of the burst succeeds; figures printed. Runs with meson's
exit-code protocol: exits 77 (SKIP) without ../shared or without h2load or
grpcio."""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import corpus  # noqa: E402

corpus.require("daemon-load-tpch")

from daemon import Tap, grpc, load_stubs  # noqa: E402
import h2burst  # noqa: E402

for missing, why in [(not shutil.which("h2load"), "h2load (nghttp2-client) not installed"),
                     (grpc is None, "python3-grpcio not importable")]:
    if missing:
        print("daemon-load-tpch: SKIP: " + why)
        sys.exit(77)

pb, hpb = load_stubs()
t = Tap()


def bursts(d, c):
    schema = corpus.path("workloads", "tpch", "schema.sql")
    q1 = corpus.path("workloads", "tpch", "q1.sql")
    tables = []
    for name, cols in re.findall(r"CREATE TABLE (\w+) \((.*?)\);", open(schema).read(), re.S):
        tb = pb.Table(name=name)
        for col in cols.split(",\n"):
            col = col.strip().rstrip(",")
            if col:
                cn, ct = col.split(None, 1)
                tb.columns.add(name=cn, type=ct)
        tables.append(tb)
    req = pb.AnalyzeRequest(sql=pb.SqlQuery(query=open(q1).read().strip().rstrip(";")),
                            catalog=pb.Catalog(tables=tables))
    first = list(c.analyze(req, timeout=30))[-1].result
    t.ok(first.ok, "TPC-H Q1 analyses through the daemon (%s)" % (first.schema or first.error.error_class),
         str(first.error))
    n = min(h2burst.REQUESTS, 5000)
    res2 = h2burst.burst(d, req, "TPC-H Q1 (schema inline, stateless)", n=n)
    t.ok(res2["ok2xx"] == res2["grpc_ok"] == n, "h2load burst (TPC-H Q1): all succeed", res2["out"])


h2burst.run(t, pb, hpb, bursts)
t.done()
