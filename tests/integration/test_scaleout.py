#!/usr/bin/env python3
"""The scale-out topology of docker/compose.yaml with processes: three
catalyzerd replicas (--session-store redis://, --drain-delay-ms) behind
HAProxy 2.6 (docker/haproxy.cfg, unchanged) with one redis-server, all on
loopback, no docker. The scenario is scaleout.run_scenario: sessions that
move between replicas (gRPC and the JSON endpoint over h2c and HTTP/1.1), a
replica drained by SIGTERM and one killed by SIGKILL under catalyzer-load
with sessions, the figures printed. test_docker_failover.py runs the same
scenario against the containers."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from daemon import CATALYZERD, Tap, grpc, skip_all  # noqa: E402
import scaleout  # noqa: E402

if grpc is None:
    skip_all("python3-grpcio is not installed")
if not scaleout.have("haproxy", "redis-server", "curl"):
    skip_all("haproxy, redis-server or curl is not installed (scripts/install-deps.sh installs them)")

tmp = tempfile.mkdtemp(prefix="cz-scaleout-")


class Processes:
    def __init__(self):
        self.ports = scaleout.Ports()
        self.procs = {}
        self.logs = {}
        self.env = dict(os.environ)
        self.env.update(self.ports.env())
        self.start("redis", ["redis-server", "--port", str(self.ports.redis), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--loglevel", "warning"])
        if not scaleout.wait_tcp(self.ports.redis):
            raise RuntimeError("redis-server did not start")
        for r in scaleout.REPLICAS:
            self.start_replica(r)
        self.start("haproxy", ["haproxy", "-db", "-f", scaleout.HAPROXY_CFG])
        if not scaleout.wait_tcp(self.ports.lb):
            raise RuntimeError("haproxy did not start: " + self.log())

    def start(self, name, cmd):
        log = open(os.path.join(tmp, name + ".log"), "a")
        self.logs[name] = log.name
        self.procs[name] = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env)

    def start_replica(self, r):
        self.start(r, ["nice", CATALYZERD, "--grpc", "127.0.0.1:%d" % self.ports.grpc[r],
                       "--http", "127.0.0.1:%d" % self.ports.http[r], "--workers", "1",
                       "--session-store", "redis://127.0.0.1:%d" % self.ports.redis,
                       "--drain-delay-ms", "1500", "--drain-timeout-ms", "10000", "--log-level", "warn"])

    def signal(self, r, sig):
        self.procs[r].send_signal(sig)

    def restart(self, r):
        try:
            self.procs[r].wait(20)
        except subprocess.TimeoutExpired:
            self.procs[r].kill()
            self.procs[r].wait()
        self.start_replica(r)

    def log(self):
        out = []
        for name, path in self.logs.items():
            with open(path) as f:
                out.append("== %s\n%s" % (name, "".join(f.readlines()[-15:])))
        return "\n".join(out)

    def stop(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.terminate()
        for p in self.procs.values():
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


t = Tap()


def drain_delay():
    """--drain-delay-ms by itself: after SIGTERM health says NOT_SERVING at
    once (gRPC and /healthz) while calls, on old and new connections, are
    still served; the daemon exits 0 when the delay and the drain are over."""
    import signal
    import time
    import urllib.error
    import urllib.request
    from daemon import Client, Daemon, load_stubs
    pb, hpb = load_stubs()
    d = Daemon("--workers", "1", "--drain-delay-ms", "1500")
    c = Client(d.grpc_addr, pb, hpb)
    c.good_call()
    t0 = time.time()
    d.proc.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    st = c.check(hpb.HealthCheckRequest(), timeout=5).status
    try:
        code = urllib.request.urlopen("http://127.0.0.1:%d/healthz" % d.http_port, timeout=5).status
    except urllib.error.HTTPError as e:
        code = e.code
    c.good_call()  # the old connection
    c2 = Client(d.grpc_addr, pb, hpb)
    c2.good_call()  # a new one: still accepted
    alive = d.alive()
    rc = d.proc.wait(20)  # (d.stop would signal again: a second signal drains at once)
    took = time.time() - t0
    c.close()
    c2.close()
    assert st == hpb.HealthCheckResponse.NOT_SERVING and code == 503 and alive, (st, code, alive)
    assert rc == 0 and 1.4 < took < 15, (rc, took)
    return True


t.check("--drain-delay-ms: SIGTERM turns health NOT_SERVING (gRPC, /healthz) while calls on old and new "
        "connections are still served, then it drains and exits 0", drain_delay)
topo = None
try:
    topo = Processes()
    scaleout.run_scenario(t, topo)
except Exception:  # noqa: BLE001
    import traceback
    t.ok(False, "the process topology ran", traceback.format_exc() + (topo.log() if topo else ""))
finally:
    if topo:
        topo.stop()
t.done()
