#!/usr/bin/env python3
"""SIGTERM drains: health turns NOT_SERVING (Watch sees it), in-flight calls
finish, new calls get UNAVAILABLE, the daemon exits 0 (and, in the ASan
build, without leak reports). Also: a slow reader costs bounded memory (the
worker waits on HTTP/2 flow control instead of buffering)."""
import signal
import threading
import time
import urllib.request

from daemon import Client, Daemon, RawH2, Tap, frame, grpc, grpc_headers, grpc_msg, hpack, load_stubs, skip_all

if grpc is None:
    skip_all("python3-grpcio not importable (use Debian's /usr/bin/python3)")

pb, hpb = load_stubs()
t = Tap()


def heavy(n):
    return "SELECT " + ", ".join("%d + %d AS c%d" % (i, i, i) for i in range(n))


def metric(d, name):
    body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % d.http_port, timeout=10).read().decode()
    for line in body.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


ANALYZE = "/catalyzer.v1.Analyzer/Analyze"
d = Daemon("--workers", "2", "--stream-buffer-bytes", "16384", "--drain-timeout-ms", "20000")
c = Client(d.grpc_addr, pb, hpb)
req = pb.AnalyzeRequest(sql=pb.SqlQuery(query=heavy(6000)), trace_level=pb.TRACE_LEVEL_ALL, trace_plans=True)


def slow_reader(port):
    """A raw HTTP/2 client that grants a 1 KiB window and then stops reading."""
    h = RawH2(port, initial_window=1024)
    h.read_frames(timeout=0.3)  # the server's SETTINGS (1 MiB stream window)
    body = grpc_msg(req.SerializeToString())
    chunks = [body[i:i + 16384] for i in range(0, len(body), 16384)]  # default max frame size
    out = frame(1, 0x4, 1, hpack(grpc_headers(ANALYZE)))
    for k, ch in enumerate(chunks):
        out += frame(0, 0x1 if k == len(chunks) - 1 else 0, 1, ch)
    h.send(out)
    return h


c.good_call()
rest_kib = d.rss_kib()
slow = slow_reader(d.grpc_port)
time.sleep(1.5)
running = metric(d, "catalyzer_jobs_running")
t.ok(running == 1, "a slow reader blocks its worker on flow control (jobs running = %s)" % running)
grown = d.rss_kib() - rest_kib
# The worker waiting (above) is what bounds the buffer; RSS here mostly measures
# the analysis itself (and MALLOC_PERTURB_ under meson keeps freed pages resident).
t.ok(grown < 128 * 1024, "memory stays bounded while the reader is slow (+%d KiB)" % grown)
c.good_call()
t.ok(True, "other calls are served meanwhile")



def rst_releases_worker():
    h = slow_reader(d.grpc_port)
    time.sleep(1.0)
    assert metric(d, "catalyzer_jobs_running") == 2, "a second slow reader blocks the second worker"
    h.send(frame(3, 0, 1, (8).to_bytes(4, "big")))  # RST_STREAM CANCEL
    deadline = time.time() + 5
    while time.time() < deadline and metric(d, "catalyzer_jobs_running") != 1:
        time.sleep(0.05)
    h.close()
    assert metric(d, "catalyzer_jobs_running") == 1, "RST_STREAM released its worker (the first slow reader still waits)"
    body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % d.http_port, timeout=10).read().decode()
    assert 'catalyzer_requests_total{method="Analyze",status="CANCELLED"}' in body
    c.good_call()


t.check("RST_STREAM cancels a running job (its blocked worker is released at once)", rst_releases_worker)

w = c.watch(hpb.HealthCheckRequest(), timeout=60)
t.ok(next(w).status == hpb.HealthCheckResponse.SERVING, "Watch: SERVING before SIGTERM")

d.proc.send_signal(signal.SIGTERM)
time.sleep(0.5)


def watch_not_serving():
    m = next(w)
    assert m.status == hpb.HealthCheckResponse.NOT_SERVING, m
    try:
        next(w)
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.UNAVAILABLE, e.code()
    except StopIteration:
        pass


t.check("SIGTERM: Watch sees NOT_SERVING", watch_not_serving)


def new_call_unavailable():
    c2 = Client(d.grpc_addr, pb, hpb)
    try:
        c2.good_call()
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.UNAVAILABLE, e.code()
        return True
    finally:
        c2.close()
    raise AssertionError("a new call during the drain must be UNAVAILABLE")


t.check("SIGTERM: new calls get UNAVAILABLE", new_call_unavailable)


def in_flight_finishes():
    msgs, clean = slow.read_stream(1, timeout=60)
    slow.close()
    assert clean, "stream ended with trailers"
    last = pb.AnalyzeResponse.FromString(msgs[-1])
    assert last.WhichOneof("kind") == "result" and last.result.ok, last
    assert len(msgs) > 2


t.check("SIGTERM: the in-flight (slow) call finishes with its full result", in_flight_finishes)
c.close()
rc = d.stop(timeout=30)
t.ok(rc == 0, "exit status 0 after the drain (%s)" % rc, d.log()[-2000:])
t.ok('"msg":"stopped"' in d.log(), "logged a clean stop")
t.ok("ERROR: LeakSanitizer" not in d.log() and "AddressSanitizer" not in d.log() and "runtime error" not in d.log(),
     "no sanitizer reports", d.log()[-4000:])

# Idle daemon: SIGINT too, immediately.
d2 = Daemon()
rc2 = d2.stop(sig=signal.SIGINT)
t.ok(rc2 == 0, "SIGINT on an idle daemon: exit 0")

# Drain timeout: a reader that never reads is cut off and the daemon still exits 0.
d3 = Daemon("--stream-buffer-bytes", "16384", "--drain-timeout-ms", "500")
stuck = slow_reader(d3.grpc_port)
time.sleep(0.5)
t0 = time.time()
rc3 = d3.stop(timeout=15)
el = time.time() - t0
t.ok(rc3 == 0 and 0.4 < el < 10, "drain timeout cancels a stuck call; exit 0 (%s, %.1fs)" % (rc3, el), d3.log()[-2000:])
t.ok("AddressSanitizer" not in d3.log() and "LeakSanitizer" not in d3.log(), "no sanitizer reports after a forced drain",
     d3.log()[-4000:])
stuck.close()

import subprocess
from daemon import CATALYZERD
h = subprocess.run([CATALYZERD, "--help"], capture_output=True, text=True)
t.ok(h.returncode == 0 and "--max-plan-depth" in h.stdout and "CATALYZERD_MAX_PLAN_DEPTH" in h.stdout,
     "--help lists every flag with its environment variable")
bad = subprocess.run([CATALYZERD, "--queue", "lots"], capture_output=True, text=True)
t.ok(bad.returncode == 2 and "--queue" in bad.stderr, "a bad flag value exits 2 with a message")
env = subprocess.run([CATALYZERD, "--grpc", "127.0.0.1:0"], capture_output=True, text=True,
                     env={"CATALYZERD_WORKERS": "x"})
t.ok(env.returncode == 2 and "CATALYZERD_WORKERS" in env.stderr, "a bad environment value exits 2 with a message")
t.done()
