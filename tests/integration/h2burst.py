"""h2load bursts against a real catalyzerd, shared by test_load.py (a simple
query) and test_load_tpch.py (TPC-H Q1 from the shared corpus): every
request must succeed (checked through /metrics, since h2load sees only HTTP
status 200 and not the gRPC status in trailers); the figures (requests/s,
p50/p99 latency from h2load's per-request log, RSS at rest and at peak) are
printed as TAP comments."""
import os
import re
import subprocess
import tempfile
import threading
import time
import urllib.request

from daemon import Client, Daemon

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


def run(t, pb, hpb, bursts):
    """Starts a daemon, measures RSS at rest, calls bursts(daemon, client), then
    checks that memory returns near rest and the daemon stops cleanly."""
    d = Daemon("--log-level", "warn", "--queue", "4096")
    c = Client(d.grpc_addr, pb, hpb)
    c.good_call()
    rest = d.rss_kib()
    print("# figure RSS at rest (after one call): %d KiB" % rest)
    bursts(d, c)
    after_kib = d.rss_kib()
    print("# figure RSS after the bursts: %d KiB" % after_kib)
    t.ok(after_kib < rest + 256 * 1024, "memory returns near rest after the bursts (%d → %d KiB)" % (rest, after_kib))
    t.ok(d.alive(), "daemon alive after the bursts")
    c.close()
    rc = d.stop()
    t.ok(rc == 0, "SIGTERM: exit 0")
    t.ok("AddressSanitizer" not in d.log() and "LeakSanitizer" not in d.log() and "runtime error" not in d.log(),
         "no sanitizer reports", d.log()[-4000:])
