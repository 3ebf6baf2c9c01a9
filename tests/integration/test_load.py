#!/usr/bin/env python3
"""h2load bursts against the real daemon: every request must succeed (checked
through /metrics, since h2load sees only HTTP status 200 and not the gRPC
status in trailers). Prints the figures as TAP comments: requests/s, p50/p99
latency (from h2load's per-request log), RSS at rest and under load. With
--tpch instead of the simple query: TPC-H Q1 from the shared corpus with its
schema inline (a separate meson test that exits 77, meson's SKIP, without
../shared)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import corpus  # noqa: E402

TPCH = "--tpch" in sys.argv[1:]
if TPCH:
    corpus.require("daemon-load-tpch")

from daemon import Client, Daemon, Tap, grpc, load_stubs, skip_all  # noqa: E402



def skip(why):
    """The TPC-H variant runs with meson's exit-code protocol: 77 is its skip."""
    if TPCH:
        print("SKIP: " + why)
        sys.exit(77)
    skip_all(why)


if not shutil.which("h2load"):
    skip("h2load (nghttp2-client) not installed")
if grpc is None:
    skip("python3-grpcio not importable")

pb, hpb = load_stubs()
t = Tap()
REQUESTS = int(os.environ.get("CZ_LOAD_REQUESTS", "20000"))


def metrics(d):
    return urllib.request.urlopen("http://127.0.0.1:%d/metrics" % d.http_port, timeout=10).read().decode()


def count(body, method, status):
    m = re.search(r'catalyzer_requests_total\{method="%s",status="%s"\} (\d+)' % (method, status), body)
    return int(m.group(1)) if m else 0


def burst(d, req, label, n=REQUESTS, clients=16, streams=8):
    data = tempfile.NamedTemporaryFile(delete=False, suffix=".bin")
    body = req.SerializeToString()
    data.write(b"\x00" + len(body).to_bytes(4, "big") + body)
    data.close()
    log = tempfile.NamedTemporaryFile(delete=False, suffix=".log")
    log.close()
    before = count(metrics(d), "Analyze", "OK")
    peak = [d.rss_kib()]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], d.rss_kib())
            time.sleep(0.05)

    th = threading.Thread(target=sample)
    th.start()
    r = subprocess.run(["h2load", "-N", "30s", "-n", str(n), "-c", str(clients), "-m", str(streams), "-d", data.name,
                        "-H", "content-type: application/grpc", "-H", "te: trailers", "--log-file", log.name,
                        "http://127.0.0.1:%d/catalyzer.v1.Analyzer/Analyze" % d.grpc_port],
                       capture_output=True, text=True, timeout=600)
    stop.set()
    th.join()
    os.unlink(data.name)
    lat = []
    with open(log.name) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3:
                lat.append(int(parts[2]))  # microseconds: start, status, duration
    os.unlink(log.name)
    lat.sort()
    out = r.stdout
    m = re.search(r"finished in ([\d.]+)(m?s), ([\d.]+) req/s", out)
    rps = float(m.group(3)) if m else 0.0
    ok2xx = re.search(r"status codes: (\d+) 2xx", out)
    after = count(metrics(d), "Analyze", "OK")

    def pct(p):
        return lat[min(len(lat) - 1, int(len(lat) * p))] / 1000.0 if lat else -1

    print("# figure %s: %d requests, %d clients x %d streams: %.0f req/s, p50 %.3f ms, p99 %.3f ms, "
          "max %.3f ms, RSS peak %d KiB" % (label, n, clients, streams, rps, pct(0.5), pct(0.99), pct(1.0) if lat else -1,
                                            peak[0]))
    return {"rps": rps, "ok2xx": int(ok2xx.group(1)) if ok2xx else 0, "grpc_ok": after - before, "peak": peak[0],
            "out": out, "p50": pct(0.5), "p99": pct(0.99)}


d = Daemon("--log-level", "warn", "--queue", "4096")
c = Client(d.grpc_addr, pb, hpb)
c.good_call()
rest = d.rss_kib()
print("# figure RSS at rest (after one call): %d KiB" % rest)

if not TPCH:
    res = burst(d, pb.AnalyzeRequest(sql=pb.SqlQuery(query="SELECT 1 AS a")), "simple SELECT 1 AS a")
    t.ok(res["ok2xx"] == REQUESTS and res["grpc_ok"] == REQUESTS,
         "h2load burst (simple analysis): all %d succeed (2xx %d, gRPC OK %d)" % (REQUESTS, res["ok2xx"], res["grpc_ok"]),
         res["out"])
else:
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
    res2 = burst(d, req, "TPC-H Q1 (schema inline, stateless)", n=min(REQUESTS, 5000))
    t.ok(res2["ok2xx"] == res2["grpc_ok"] == min(REQUESTS, 5000), "h2load burst (TPC-H Q1): all succeed", res2["out"])

after_kib = d.rss_kib()
print("# figure RSS after the bursts: %d KiB" % after_kib)
t.ok(after_kib < rest + 256 * 1024, "memory returns near rest after the bursts (%d → %d KiB)" % (rest, after_kib))
t.ok(d.alive(), "daemon alive after the bursts")
c.close()
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0")
t.ok("AddressSanitizer" not in d.log() and "LeakSanitizer" not in d.log() and "runtime error" not in d.log(),
     "no sanitizer reports", d.log()[-4000:])
t.done()
