"""Scale-out topology checks shared by test_scaleout.py (processes:
catalyzerd x3 + haproxy + redis-server started directly) and
test_docker_failover.py (the same topology from docker/compose.yaml). Both
use docker/haproxy.cfg, on loopback ports picked here.

The scenario (run_scenario):
* HAProxy sees three replicas UP (its stats page);
* one session through HAProxy: Execute (a view, a variable) lands on one
  replica, the Analyze calls after it on the others (HAProxy's
  x-catalyzer-replica header names the replica), and every one sees the
  session; the same through the JSON endpoint over h2c and HTTP/1.1;
* a SIGTERM'd replica (catalyzerd --drain-delay-ms) mid-run under
  catalyzer-load with sessions: not one request fails or loses its session;
* a SIGKILL'd replica mid-run: no session is lost (no analysis error), no
  request fails before or after, and the failures while it dies are at most
  the calls that can be in flight on it (each of the load's streams has one
  call at a time): requests, errors, p99 before/during/after printed."""
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

from daemon import Client, grpc, load_stubs

SOURCE = os.environ.get("CATALYZER_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("CATALYZER_BUILD", os.path.join(SOURCE, "build"))
LOAD = os.environ.get("CATALYZER_LOAD", os.path.join(BUILD, "client", "load", "catalyzer-load"))
CATALYZER = os.environ.get("CATALYZER", os.path.join(BUILD, "client", "catalyzer"))
HAPROXY_CFG = os.path.join(SOURCE, "docker", "haproxy.cfg")
WORKLOAD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scaleout_workload")
REPLICAS = ("r1", "r2", "r3")
# catalyzer-load's shape in the failover runs: CONNS x STREAMS calls in flight at most
CONNS, STREAMS = 2, 4


def free_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


class Ports:
    """The loopback ports of one topology: HAProxy's front and stats, Redis,
    each replica's gRPC and JSON port."""

    def __init__(self):
        p = free_ports(3 + 2 * len(REPLICAS))
        self.lb, self.stats, self.redis = p[0], p[1], p[2]
        self.grpc = dict(zip(REPLICAS, p[3::2]))
        self.http = dict(zip(REPLICAS, p[4::2]))

    def env(self):
        e = {"CZ_LB": "127.0.0.1:%d" % self.lb, "CZ_LB_STATS": "127.0.0.1:%d" % self.stats,
             "CZ_REDIS_PORT": str(self.redis)}
        for i, r in enumerate(REPLICAS, 1):
            e["CZ_R%d_HOST" % i] = "127.0.0.1"
            e["CZ_R%d_GRPC_PORT" % i] = str(self.grpc[r])
            e["CZ_R%d_HTTP_PORT" % i] = str(self.http[r])
        return e


def wait_tcp(port, timeout=20.0):
    end = time.time() + timeout
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def stats(ports):
    """HAProxy's view: {(backend, server): status}."""
    with urllib.request.urlopen("http://127.0.0.1:%d/stats;csv" % ports.stats, timeout=3) as r:
        lines = r.read().decode().splitlines()
    head = lines[0].lstrip("# ").split(",")
    out = {}
    for line in lines[1:]:
        f = dict(zip(head, line.split(",")))
        if f.get("pxname", "").startswith("replicas_"):
            out[(f["pxname"], f["svname"])] = f["status"]
    return out


def wait_status(ports, want, timeout=30.0):
    """Waits until the gRPC backend's servers have the statuses in want
    ({"r1": "UP", ...}); returns the last view."""
    end = time.time() + timeout
    got = {}
    while time.time() < end:
        try:
            got = stats(ports)
            if all(got.get(("replicas_grpc", r), "").startswith(s) for r, s in want.items()):
                return True, got
        except OSError:
            pass
        time.sleep(0.1)
    return False, got


def replica_of(call):
    for k, v in call.initial_metadata() or ():
        if k == "x-catalyzer-replica":
            return v
    return "?"


def session_moves(t, pb, hpb, lb, session="scaleout-moves"):
    """Execute on a session through HAProxy, then Analyze on it through
    HAProxy: the calls land on different replicas and each sees the session."""
    c = Client(lb, pb, hpb)
    req = pb.ExecuteRequest(session_id=session,
                            sql="CREATE TEMPORARY VIEW sv AS SELECT 1 AS a, 'x' AS b; DECLARE VARIABLE k = 42")
    resp, call = c.execute.with_call(req, timeout=30)
    first = replica_of(call)
    seen, schemas = [], set()
    for _ in range(6):
        it = c.analyze(pb.AnalyzeRequest(session_id=session, sql=pb.SqlQuery(query="SELECT a, b, k FROM sv")),
                       timeout=30)
        msgs = list(it)
        seen.append(replica_of(it))
        r = msgs[-1].result
        schemas.add(r.schema if r.ok else r.error.error_class)
    c.channel.close()
    others = [r for r in seen if r != first]
    t.ok(schemas == {"struct<a:int,b:string,k:int>"} and len(others) >= 2 and len(set(seen)) >= 2,
         "gRPC through HAProxy: Execute on %s, then Analyze on %s: every one sees the session (%s)"
         % (first, ",".join(seen), ",".join(sorted(schemas))), "replicas %r %r" % (first, seen))
    return session


def curl_json(lb, path, body, h2):
    cmd = ["curl", "-sS", "-i", "--max-time", "20", "-H", "Content-Type: application/json", "-d", json.dumps(body),
           "http://127.0.0.1:%d%s" % (lb, path)]
    cmd.insert(1, "--http2-prior-knowledge" if h2 else "--http1.1")
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout
    head, _, payload = out.replace("\r\n", "\n").partition("\n\n")
    status = head.split("\n", 1)[0]
    replica, hop = "", ""
    for line in head.split("\n"):
        if line.lower().startswith("x-catalyzer-replica:"):
            replica = line.split(":", 1)[1].strip()
        if line.lower().startswith("x-catalyzer-protocol:"):  # the replica saw HTTP/2
            hop = line.split(":", 1)[1].strip()
    try:
        doc = json.loads(payload)
    except ValueError:
        doc = {"raw": payload[:300]}
    doc["_hop"] = hop
    return status, replica, doc


def json_session_moves(t, lb):
    """The JSON endpoint through HAProxy, h2c (prior knowledge) and HTTP/1.1:
    execute on one replica, analyze on the others. Either way HAProxy's hop
    to the replica is HTTP/2 (docker/haproxy.cfg: proto h2): the replica says
    so in x-catalyzer-protocol."""
    for h2 in (True, False):
        sid = "scaleout-json-" + ("h2" if h2 else "h1")
        hops = set()
        st, first, d0 = curl_json(lb, "/v1/execute", {"sessionId": sid, "sql": "CREATE TEMPORARY VIEW jv AS SELECT 2 AS z"},
                                 h2)
        hops.add(d0.pop("_hop"))
        seen, schemas, statuses = [], set(), {st.split()[0] if st else "?"}
        for _ in range(4):
            st, rep, doc = curl_json(lb, "/v1/analyze", {"sessionId": sid, "sql": {"query": "SELECT z FROM jv"}}, h2)
            seen.append(rep)
            hops.add(doc.pop("_hop"))
            statuses.add(st.split()[0] if st else "?")
            res = doc.get("result", {})
            schemas.add(res.get("schema") if res.get("ok") else json.dumps(doc)[:200])
        want_proto = "HTTP/2" if h2 else "HTTP/1.1"
        t.ok(statuses == {want_proto} and schemas == {"struct<z:int>"} and any(r != first for r in seen),
             "JSON endpoint through HAProxy over %s: execute on %s, analyze on %s: the session is seen (%s)"
             % ("h2c" if h2 else "HTTP/1.1", first, ",".join(seen), ",".join(sorted(map(str, schemas)))),
             "statuses %r schemas %r" % (statuses, schemas))
        t.ok(hops == {"HTTP/2"}, "JSON endpoint through HAProxy over %s: the hop to the replicas is HTTP/2 "
             "(x-catalyzer-protocol %r)" % ("h2c" if h2 else "HTTP/1.1", sorted(hops)), repr(hops))


# The signal is sent this long after the "during" window opens: the timer
# here starts when catalyzer-load is spawned, its own clock only once it has
# started and connected, so a signal sent exactly at the boundary landed in
# the "before" window by the generator's clock (one in-flight call failed
# there and the check "none before" tripped).
KILL_MARGIN_S = 0.5


def run_load(lb, seconds, windows, at=None):
    """catalyzer-load through HAProxy with sessions (each stream Executes its
    session's set-up once, then Analyzes on it; --keep-sessions: a call that
    failed UNAVAILABLE is retried on the same session, never set up again).
    at: (seconds, fn) called while it runs. Returns the JSON report."""
    cmd = ["nice", LOAD, "--daemon", "127.0.0.1:%d" % lb, "--workload", WORKLOAD, "--connections", str(CONNS),
           "--concurrency", str(STREAMS), "--duration", str(seconds), "--keep-sessions", "--lean", "--json",
           "--windows", ",".join(str(w) for w in windows), "--timeout-ms", "10000"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.time()
    if at:
        when, fn = at
        time.sleep(max(0.0, when - (time.time() - t0)))
        fn()
    out, err = p.communicate(timeout=seconds + 60)
    try:
        return json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise RuntimeError("catalyzer-load: rc %s\n%s\n%s" % (p.returncode, out[-2000:], err[-2000:]))


def figures(label, rep):
    names = ("before", "during", "after")
    lines = ["%s: %d requests, %d ok, %s failed (%s), %d analysis errors, %.0f req/s, p99 %.1f ms"
             % (label, rep["requests"], rep["ok"], sum(rep["errors"].values()) if rep["errors"] else 0,
                json.dumps(rep["errors"]), rep["analysis_errors"], rep["throughput_rps"],
                rep["latency_us"]["p99"] / 1e3)]
    if rep.get("first_error"):
        lines.append("  first failure: %s" % rep["first_error"])
    for name, w in zip(names, rep.get("windows", [])):
        lines.append("  %-6s %5.1f-%5.1f s: %5d requests, %d errors, %d analysis errors, p99 %.1f ms"
                     % (name, w["from_s"], w["to_s"], w["requests"], w["errors"], w["analysis_errors"],
                        w["p99_us"] / 1e3))
    return lines


def guarded(t, name, fn):
    """fn reports its own checks; an exception in it is one failed check."""
    try:
        fn()
    except Exception:  # noqa: BLE001
        import traceback
        t.ok(False, name, traceback.format_exc())


def run_scenario(t, topo, seconds=12, windows=(4, 8)):
    """topo: .ports, .signal(replica, sig), .restart(replica), .log(). Prints
    the figures as TAP comments."""
    pb, hpb = load_stubs()
    ports = topo.ports
    ok, view = wait_status(ports, {r: "UP" for r in REPLICAS}, 60)
    if not t.ok(ok, "HAProxy health-checks three replicas: all UP", "%r\n%s" % (view, topo.log())):
        return
    guarded(t, "a session moves between replicas (gRPC)", lambda: session_moves(t, pb, hpb, "127.0.0.1:%d" % ports.lb))
    guarded(t, "a session moves between replicas (JSON)", lambda: json_session_moves(t, ports.lb))
    health = subprocess.run([CATALYZER, "health", "127.0.0.1:%d" % ports.lb], capture_output=True, text=True,
                            timeout=30)
    t.ok(health.returncode == 0 and "SERVING" in health.stdout,
         "catalyzer health through HAProxy: %s" % health.stdout.strip(), health.stderr)

    # 1. SIGTERM one replica mid-run: it turns NOT_SERVING, HAProxy takes it
    # out, it drains: nothing fails.
    rep = run_load(ports.lb, seconds, windows, at=(windows[0] + KILL_MARGIN_S, lambda: topo.signal("r3", signal.SIGTERM)))
    for line in figures("SIGTERM r3 at %.1fs" % (windows[0] + KILL_MARGIN_S), rep):
        print("# " + line)
    down, view = wait_status(ports, {"r3": "DOWN"}, 10)
    nerr = sum(rep["errors"].values())
    t.ok(nerr == 0 and rep["analysis_errors"] == 0 and rep["ok"] > 0 and down,
         "a replica drained on SIGTERM mid-run: %d requests, none failed, no session lost, HAProxy has it DOWN"
         % rep["requests"], json.dumps(rep) + "\n" + repr(view) + "\n" + topo.log())
    topo.restart("r3")
    ok, view = wait_status(ports, {r: "UP" for r in REPLICAS}, 60)
    t.ok(ok, "the drained replica is back: all UP", repr(view))

    # 2. SIGKILL one replica mid-run.
    rep = run_load(ports.lb, seconds, windows, at=(windows[0] + KILL_MARGIN_S, lambda: topo.signal("r2", signal.SIGKILL)))
    for line in figures("SIGKILL r2 at %.1fs" % (windows[0] + KILL_MARGIN_S), rep):
        print("# " + line)
    w = rep["windows"]
    nerr = sum(rep["errors"].values())
    bound = CONNS * STREAMS
    only_unavailable = set(rep["errors"]) <= {"UNAVAILABLE", "INTERNAL", "CANCELLED"}
    t.ok(rep["analysis_errors"] == 0 and all(x["analysis_errors"] == 0 for x in w),
         "a replica killed mid-run: no session lost (0 analysis errors in %d requests)" % rep["requests"],
         json.dumps(rep))
    t.ok(w[0]["errors"] == 0 and w[-1]["errors"] == 0 and nerr <= bound and only_unavailable and w[-1]["ok"] > 0,
         "a replica killed mid-run: %d failed calls, all while it died (at most the %d that can be in flight on it), "
         "none before or after" % (nerr, bound), json.dumps(rep) + "\n" + topo.log())
    down, view = wait_status(ports, {"r2": "DOWN"}, 10)
    t.ok(down, "HAProxy has the killed replica DOWN", repr(view))
    # The sessions made before both events still answer.
    c = Client("127.0.0.1:%d" % ports.lb, pb, hpb)
    msgs = list(c.analyze(pb.AnalyzeRequest(session_id="scaleout-moves", sql=pb.SqlQuery(query="SELECT k FROM sv")),
                          timeout=30))
    r = msgs[-1].result
    t.ok(r.ok and r.schema == "struct<k:int>", "the first session survived both replicas (%s)" % r.schema,
         str(r))
    c.channel.close()


def have(*progs):
    return all(shutil.which(p) for p in progs)


__all__ = ["Ports", "run_scenario", "wait_tcp", "stats", "have", "grpc", "HAPROXY_CFG", "REPLICAS", "LOAD"]
