#!/usr/bin/env python3
"""catalyzer-load against a real daemon on TPC-H from the shared corpus, a
few seconds at concurrency 1, 2 and 8: percentiles reported, no error. Runs
with meson's exit-code protocol: exits 77 (SKIP) without ../shared."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import corpus  # noqa: E402

corpus.require("client-load-tpch")

from czdaemon import Daemon, Tap, load, sane_latency as sane  # noqa: E402

t = Tap()
d = Daemon("--log-level", "warn")
try:
    tpch = corpus.path("workloads", "tpch")
    for conc in (1, 2, 8):
        rc, out, err = load("--daemon", d.addr, "--workload", tpch, "--concurrency", str(conc), "--duration", "3",
                            "--json")
        j = json.loads(out) if out.strip() else {}
        t.ok(rc == 0 and j.get("ok", 0) > 0 and j.get("errors") == {} and sane(j) and j.get("queries") == 22,
             "TPC-H, concurrency %d, 3 s: percentiles reported" % conc, out + err)
        if j:
            lat = j["latency_us"]
            t.note("TPC-H c=%d: %.0f req/s, p50 %.0f us, p90 %.0f us, p99 %.0f us, p99.9 %.0f us, max %.0f us"
                   % (conc, j["throughput_rps"], lat["p50"], lat["p90"], lat["p99"], lat["p99.9"], lat["max"]))
    # TPC-H as Spark Connect plans: the SQL as Relation{sql} and the structured DataFrame plans
    # (bench/workloads/tpch-connect), through AnalyzePlan and through catalyzer.v1 Analyze
    structured = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "workloads",
                              "tpch-connect")
    schema = os.path.join(tpch, "schema.sql")
    for service, wl, what in (("connect", tpch, "Relation{sql}"), ("connect", structured, "structured plans"),
                              ("catalyzer", structured, "structured plans")):
        rc, out, err = load("--daemon", d.addr, "--workload", wl, "--schema", schema, "--service", service,
                            "--concurrency", "2", "--requests", "220", "--json")
        j = json.loads(out) if out.strip() else {}
        t.ok(rc == 0 and j.get("ok") == 220 and j.get("errors") == {} and j.get("analysis_errors") == 0
             and j.get("queries") == 22 and j.get("service") == service and sane(j),
             "TPC-H %s through --service %s: 22 queries, 220 calls, no error" % (what, service), out + err)
finally:
    rc = d.stop()
t.ok(rc == 0, "daemon stopped cleanly", rc)
t.done()
