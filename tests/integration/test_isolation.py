#!/usr/bin/env python3
"""Isolated analysis workers (server/workers.h) against the live daemon,
started with --enable-fault-injection:

* each injected fault (segv, abort, hang, oom, slow) costs exactly its own
  request, with the right status (INTERNAL naming the request id, DEADLINE_
  EXCEEDED, RESOURCE_EXHAUSTED; slow just takes longer), while 50 concurrent
  requests on other sessions all succeed;
* the next request on the faulted session sees its views, variables,
  catalog tables and conf: the session's journal is replayed into a worker
  that lacks it (catalyzer.v1 and Spark Connect's Config on one session);
* a worker hanging past its call's deadline is stopped: CPU back to idle;
* an idle daemon's loop is not woken by the workers' watchdog;
* catalyzer_worker_restarts_total{reason} counts each replacement, and the
  log names the request by hash, never by its SQL;
* the crashing NATURAL FULL JOIN chain (postgreSQL/join.sql statement 73,
  fixed in the analyzer) as a regression, with the segv stand-in;
* without the flag the fault conf is refused with a clear error."""
import os
import re
import threading
import time
import urllib.request

from daemon import Client, Daemon, Tap, grpc, load_stubs, skip_all

if grpc is None:
    skip_all("python3-grpcio not importable (use Debian's /usr/bin/python3)")

pb, hpb = load_stubs()
t = Tap()
ASAN = "asan" in os.environ.get("CATALYZERD", "")

WORKERS = 2
d = Daemon("--workers", str(WORKERS), "--enable-fault-injection", "--worker-memory-limit", str(768 << 20))
c = Client(d.grpc_addr, pb, hpb)


def metrics():
    return urllib.request.urlopen("http://127.0.0.1:%d/metrics" % d.http_port, timeout=10).read().decode()


def restarts(reason):
    m = re.search(r'^catalyzer_worker_restarts_total\{reason="%s"\} (\d+)$' % re.escape(reason), metrics(), re.M)
    return int(m.group(1)) if m else 0


def analyze(session, sql, fault=None, timeout=30, extra=None):
    """(status code, last message or error text, seconds)."""
    kv = dict(extra or {})
    if fault:
        kv["catalyzer.debug.fault"] = fault
    req = pb.AnalyzeRequest(session_id=session, sql=pb.SqlQuery(query=sql))
    for k, v in kv.items():
        req.conf[k] = v
    start = time.monotonic()
    try:
        msgs = list(c.analyze(req, timeout=timeout))
        return grpc.StatusCode.OK, msgs[-1].result, time.monotonic() - start
    except grpc.RpcError as e:
        return e.code(), e.details(), time.monotonic() - start


def execute(session, sql, **kv):
    req = pb.ExecuteRequest(session_id=session, sql=sql)
    for k, v in kv.items():
        req.conf[k] = v
    return c.execute(req, timeout=30)


def session_intact(session):
    """The state set up by setup(): view, variable, catalog table, conf."""
    code, r, _ = analyze(session, "SELECT a, x, c FROM v, t")
    if code != grpc.StatusCode.OK or not r.ok or r.schema != "struct<a:int,x:int,c:int>":
        return False, "view/variable/table: %s %s" % (code, r)
    # spark.sql.caseSensitive=true came as request conf: `A` no longer finds `a`.
    code, r, _ = analyze(session, "SELECT A FROM v")
    if code != grpc.StatusCode.OK or r.ok or not r.error.error_class.startswith("UNRESOLVED_COLUMN"):
        return False, "conf: %s %s" % (code, r)
    return True, ""


def setup(session):
    execute(session, "CREATE TEMPORARY VIEW v AS SELECT 1 AS a; DECLARE x = 42", **{"spark.sql.caseSensitive": "true"})
    cat = pb.Catalog(tables=[pb.Table(name="t", columns=[pb.Column(name="c", type="int")])])
    c.register(pb.RegisterCatalogRequest(session_id=session, catalog=cat), timeout=30)


def others(n, tag, results):
    """n concurrent calls on n other sessions (each a statement, then a query on it)."""
    def one(i):
        sid = "other-%s-%d" % (tag, i)
        try:
            execute(sid, "DECLARE y = %d" % i)
            code, r, _ = analyze(sid, "SELECT y + 1 AS z")
            results[i] = code == grpc.StatusCode.OK and r.ok and r.schema == "struct<z:int>"
        except grpc.RpcError as e:
            results[i] = "%s %s" % (e.code(), e.details())
    ths = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for th in ths:
        th.start()
    return ths


# Warm the workers, so the first calls do not race their start.
c.good_call()
S = "faulted-session"
setup(S)
ok, why = session_intact(S)
t.ok(ok, "the session is set up (view, variable, table, conf)", why)

CASES = [
    # fault, extra conf, deadline, expected status, restart reason
    ("segv", {}, 30, grpc.StatusCode.INTERNAL, "SIGSEGV"),
    ("abort", {}, 30, grpc.StatusCode.INTERNAL, "SIGABRT"),
    ("segv", {"catalyzer.debug.fault.phase": "respond"}, 30, grpc.StatusCode.INTERNAL, "SIGSEGV"),
    ("segv", {"catalyzer.debug.fault.phase": "start"}, 30, grpc.StatusCode.INTERNAL, "SIGSEGV"),
    ("hang", {}, 1.5, grpc.StatusCode.DEADLINE_EXCEEDED, "deadline"),
    ("oom", {}, 60, grpc.StatusCode.RESOURCE_EXHAUSTED, "memory"),
    ("slow", {"catalyzer.debug.fault.millis": "400"}, 30, grpc.StatusCode.OK, None),
    ("slow", {"catalyzer.debug.fault.millis": "5000"}, 0.5, grpc.StatusCode.DEADLINE_EXCEEDED, None),
]
if ASAN:
    # AddressSanitizer reports the bad access itself and exits (status 1).
    CASES = [(f, e, dl, st, "exit" if r == "SIGSEGV" else r) for f, e, dl, st, r in CASES]

for k, (fault, extra, deadline, want, reason) in enumerate(CASES):
    label = fault + ("" if not extra else " " + ",".join("%s=%s" % (a.rsplit(".", 1)[1], b) for a, b in extra.items()))
    before = {r: restarts(r) for r in ("SIGSEGV", "SIGABRT", "deadline", "memory", "exit")}
    results = [None] * 50
    ths = others(50, "%d" % k, results)
    code, detail, secs = analyze(S, "SELECT a, x FROM v", fault=fault, timeout=deadline, extra=extra)
    for th in ths:
        th.join(60)
    t.ok(code == want, "%s: the faulted call gets %s" % (label, want.name), "%s %s" % (code, detail))
    if want == grpc.StatusCode.INTERNAL:
        t.ok(re.search(r"request r[0-9a-f]+", str(detail)) and "worker died" in str(detail),
             "%s: INTERNAL names the request id and a reason" % label, detail)
    if fault == "slow" and want == grpc.StatusCode.OK:
        t.ok(secs >= 0.4, "slow: the call took the stall (%.2fs)" % secs)
    bad = [r for r in results if r is not True]
    t.ok(not bad, "%s: 50 concurrent calls on other sessions all succeed" % label, bad[:3])
    ok, why = session_intact(S)
    t.ok(ok, "%s: the next call on the session sees its views, variables, tables and conf" % label, why)
    after = {r: restarts(r) for r in before}
    grown = {r: after[r] - before[r] for r in before if after[r] != before[r]}
    t.ok(grown == ({reason: 1} if reason else {}), "%s: worker restarts counted %s" % (label, grown or "none"), after)
    t.ok(d.alive(), "%s: the daemon is alive" % label)

# Replaced at once: a crash, then a full set of workers again. The bound is
# generous (2 s) because a timed assertion must hold on a machine at load 20;
# the time taken is printed as a figure (about 5 ms on a quiet machine).
code, _, _ = analyze(S, "SELECT 1", fault="segv")
start = time.monotonic()
while "catalyzer_workers %d" % WORKERS not in metrics() and time.monotonic() - start < 5:
    time.sleep(0.005)
took = time.monotonic() - start
t.ok(took < 2.0, "a dead worker is replaced within 2 s (%.0f ms)" % (took * 1000))
print("# figure worker_replacement_ms %.1f" % (took * 1000), flush=True)

# A hang past its deadline frees its worker: no CPU burns after the answer.
def children_cpu():
    return sum(cpu for _, cpu in d.children())


code, _, secs = analyze(S, "SELECT 1", fault="hang", timeout=1.0)
t.ok(code == grpc.StatusCode.DEADLINE_EXCEEDED, "hang: DEADLINE_EXCEEDED after %.2fs" % secs)
time.sleep(0.3)
cpu0 = children_cpu()
time.sleep(1.0)
burnt = children_cpu() - cpu0
t.ok(burnt < 0.1, "hang: the workers are idle once the call is answered (%.2f CPU-s in 1 s)" % burnt)


# An idle daemon sleeps: the loop's watchdog (slow jobs holding others,
# worker memory) runs only while a job is held; it woke the loop every
# 20 ms before (~100 voluntary switches in 2 s).
def loop_wakeups():
    n = 0
    for tid in os.listdir("/proc/%d/task" % d.proc.pid):
        with open("/proc/%d/task/%s/status" % (d.proc.pid, tid)) as f:
            n += sum(int(ln.split()[1]) for ln in f if ln.startswith("voluntary_ctxt_switches"))
    return n


time.sleep(0.2)
w0 = loop_wakeups()
time.sleep(2.0)
woke = loop_wakeups() - w0
t.ok(woke < 20, "idle: the loop is not woken by a timer (%d voluntary switches in 2 s)" % woke)
print("# figure idle_loop_wakeups_per_s %.1f" % (woke / 2.0), flush=True)

# The crash the breadth issue fixed (postgreSQL/join.sql statement 73): the
# segv stand-in costs that one request; the query itself now analyses.
J = "join-chain"
execute(J, "CREATE TABLE t1 (name STRING, n INTEGER) USING parquet; "
           "CREATE TABLE t2 (name STRING, n INTEGER) USING parquet; "
           "CREATE TABLE t3 (name STRING, n INTEGER) USING parquet")
CHAIN = ("SELECT * FROM (SELECT name, n as s1_n, 1 as s1_1 FROM t1) as s1 NATURAL FULL JOIN "
         "(SELECT name, n as s2_n, 2 as s2_2 FROM t2) as s2 NATURAL FULL JOIN "
         "(SELECT name, n as s3_n, 3 as s3_2 FROM t3) s3")
code, detail, _ = analyze(J, CHAIN, fault="segv")
t.ok(code == grpc.StatusCode.INTERNAL, "join chain with the segv stand-in: INTERNAL for that request", detail)
code, r, _ = analyze(J, CHAIN)
t.ok(code == grpc.StatusCode.OK and r.ok and r.schema ==
     "struct<name:string,s1_n:int,s1_1:int,s2_n:int,s2_2:int,s3_n:int,s3_2:int>",
     "join chain: the next call on the session analyses it (tables replayed)", r)

# Stateless calls and JSON go through the workers too.
code, r, _ = analyze("", "SELECT 1 AS a")
t.ok(code == grpc.StatusCode.OK and r.ok, "stateless call after crashes")
body = urllib.request.urlopen(urllib.request.Request(
    "http://127.0.0.1:%d/v1/analyze" % d.http_port, method="POST", headers={"Content-Type": "application/json"},
    data=b'{"sessionId": "faulted-session", "sql": "SELECT x FROM v"}'), timeout=30).read().decode()
t.ok('"ok":true' in body, "the JSON endpoint sees the session too", body[:300])

# The log: the death names the request by hash, never by its SQL.
log = d.log()
deaths = [ln for ln in log.splitlines() if "analysis worker died" in ln]
t.ok(len(deaths) >= 6 and all("request_sha256" in ln and "request_id" in ln for ln in deaths),
     "each death is logged with the request id and a hash of the request (%d)" % len(deaths), deaths[:2])
t.ok("NATURAL FULL JOIN" not in log and "SELECT a, x FROM v" not in log, "no SQL text in the log")

# Spark Connect on the same daemon: Config set survives a crash of the worker.
try:
    from spark.connect import base_pb2
    CS = "123e4567-e89b-42d3-a456-426614174000"
    cfg = c.channel.unary_unary("/spark.connect.SparkConnectService/Config",
                                request_serializer=lambda m: m.SerializeToString(),
                                response_deserializer=base_pb2.ConfigResponse.FromString)
    op = base_pb2.ConfigRequest.Operation(set=base_pb2.ConfigRequest.Set(
        pairs=[base_pb2.KeyValue(key="spark.sql.shuffle.partitions", value="7")]))
    cfg(base_pb2.ConfigRequest(session_id=CS, operation=op, user_context=base_pb2.UserContext(user_id="")), timeout=30)
    analyze(CS, "SELECT 1", fault="segv")
    analyze(CS, "SELECT 1", fault="abort")
    op = base_pb2.ConfigRequest.Operation(get=base_pb2.ConfigRequest.Get(keys=["spark.sql.shuffle.partitions"]))
    resp = cfg(base_pb2.ConfigRequest(session_id=CS, operation=op, user_context=base_pb2.UserContext(user_id="")),
               timeout=30)
    t.ok([(p.key, p.value) for p in resp.pairs] == [("spark.sql.shuffle.partitions", "7")],
         "Spark Connect: Config set on a session survives its workers' crashes", resp)
except ImportError as e:
    t.ok(False, "Spark Connect stubs", e)

c.close()
rc = d.stop()
t.ok(rc == 0, "SIGTERM: exit 0 with workers (rc %s)" % rc, d.log()[-2000:])

# Without the flag the conf is refused, clearly, and nothing is stored.
d = Daemon("--workers", "1")
c = Client(d.grpc_addr, pb, hpb)
code, detail, _ = analyze("s", "SELECT 1", fault="segv")
t.ok(code == grpc.StatusCode.INVALID_ARGUMENT and "--enable-fault-injection" in str(detail),
     "without --enable-fault-injection the fault conf is INVALID_ARGUMENT", "%s %s" % (code, detail))
code, r, _ = analyze("s", "SELECT 1 AS a")
t.ok(code == grpc.StatusCode.OK and r.ok, "and the session works on")
t.ok(restarts("SIGSEGV") == 0 and d.alive(), "no worker died")
c.close()
t.ok(d.stop() == 0, "exit 0")
t.done()
