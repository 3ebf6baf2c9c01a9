"""Two catalyzerd replicas sharing one real redis-server (--session-store
redis://...), no docker: any replica serves any session, and a stale copy of
a session is never used or written back.

* a session's views, variables, catalog tables and conf written through one
  replica are read through the other (Execute, RegisterCatalog, request
  conf), both ways, round after round on the same session;
* each replica's workers held the session at an older version when the
  other changed it: the next call sees the new state, never the old one;
* compare-and-append: a change computed on a stale copy (the other replica
  changed the session while it ran) is refused with ABORTED, kept nowhere,
  and both replicas then agree on the winner's state;
* DropSession through one replica ends the session for both;
* a session is owned by its principal on every replica (bearer tokens);
* a replica's idle sweep forgets only its own copy; the shared session
  lives on for the other;
* Redis down: calls on sessions get UNAVAILABLE quickly, stateless calls
  still work; Redis back: sessions work again;
* without --session-store a replica keeps today's in-memory sessions (the
  other replica does not see them)."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from daemon import Client, Daemon, Tap, grpc, load_stubs, skip_all  # noqa: E402

if grpc is None:
    skip_all("python3-grpcio is not installed")
REDIS = shutil.which("redis-server")
if not REDIS:
    skip_all("redis-server is not installed (scripts/install-deps.sh installs it)")

pb, hpb = load_stubs()
t = Tap()
tmp = tempfile.mkdtemp(prefix="cz-shared-")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Redis:
    def __init__(self):
        self.port = free_port()
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen([REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--loglevel", "warning"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def url(self):
        return "redis://127.0.0.1:%d" % self.port


redis = Redis()
TOKENS = os.path.join(tmp, "tokens")
with open(TOKENS, "w") as f:
    f.write("token-of-alice-0123456789 alice\ntoken-of-bob-0123456789 bob\n")
os.chmod(TOKENS, 0o600)
ALICE = [("authorization", "Bearer token-of-alice-0123456789")]
BOB = [("authorization", "Bearer token-of-bob-0123456789")]

common = ("--session-store", redis.url(), "--workers", "1", "--auth-token-file", TOKENS,
          "--enable-fault-injection", "--session-idle-seconds", "3", "--log-level", "debug")
a = Daemon(*common)
b = Daemon(*common)
ca, cb = Client(a.grpc_addr, pb, hpb), Client(b.grpc_addr, pb, hpb)


def code_of(fn):
    try:
        fn()
        return "OK", ""
    except grpc.RpcError as e:
        return e.code().name, e.details()


def execute(c, session, sql, who=ALICE, conf=None, timeout=30):
    req = pb.ExecuteRequest(session_id=session, sql=sql)
    for k, v in (conf or {}).items():
        req.conf[k] = v
    return c.execute(req, timeout=timeout, metadata=who)


def schema(c, session, sql, who=ALICE):
    """The schema of sql in session, or the error class / gRPC status."""
    try:
        msgs = list(c.analyze(pb.AnalyzeRequest(session_id=session, sql=pb.SqlQuery(query=sql)), timeout=30,
                              metadata=who))
    except grpc.RpcError as e:
        return "rpc:" + e.code().name
    r = msgs[-1].result
    return r.schema if r.ok else r.error.error_class


def started_with_redis():
    ok = a.info.get("session_store") == "redis" and b.info.get("session_store") == "redis"
    return ok or (a.info, b.info)


t.check("both replicas start with the Redis session store (the first log line says so)", started_with_redis)


def write_here_read_there():
    S = "shared-1"
    execute(ca, S, "CREATE TEMPORARY VIEW v AS SELECT 1 AS a; DECLARE x = 'five'")
    assert schema(cb, S, "SELECT a, x FROM v") == "struct<a:int,x:string>", schema(cb, S, "SELECT a, x FROM v")
    cat = pb.Catalog(tables=[pb.Table(name="db1.t", columns=[pb.Column(name="c", type="bigint")])])
    cb.register(pb.RegisterCatalogRequest(session_id=S, catalog=cat), timeout=30, metadata=ALICE)
    got = schema(ca, S, "SELECT c, a FROM db1.t, v")
    assert got == "struct<c:bigint,a:int>", got
    execute(ca, S, "SELECT 1", conf={"spark.sql.caseSensitive": "true"})
    got = schema(cb, S, "SELECT A FROM v")
    assert got == "UNRESOLVED_COLUMN.WITH_SUGGESTION", got  # case-sensitive now, on the other replica
    return True


t.check("views, variables, catalog tables and conf written through one replica are read through the other",
        write_here_read_there)


def alternating_rounds():
    """Each replica's workers hold the session from the round before; the
    other replica changes it; the next read must see the change."""
    S = "shared-rounds"
    for i in range(30):
        w, r = (ca, cb) if i % 2 == 0 else (cb, ca)
        execute(w, S, "CREATE OR REPLACE TEMPORARY VIEW v AS SELECT %d AS c%d" % (i, i))
        got = schema(r, S, "SELECT * FROM v")
        assert got == "struct<c%d:int>" % i, "round %d: %s" % (i, got)
        got = schema(w, S, "SELECT * FROM v")
        assert got == "struct<c%d:int>" % i, "round %d (writer): %s" % (i, got)
    return True


t.check("30 rounds of Execute on one replica then Analyze on the other, same session: never a stale view",
        alternating_rounds)


def replays(d, mark):
    """The "session replay" lines d logged since line mark: (from_scratch, bytes) each."""
    import json
    out = []
    for line in d.lines[mark:]:
        if '"session replay"' in line:
            j = json.loads(line)
            out.append((j["from_scratch"], j["bytes"]))
    return out


def replay_only_what_is_missing():
    """A replica's worker replays a session once, then only the batches
    another replica added; a session it holds at the store's version is
    not replayed at all (the sync costs a round trip, not a replay)."""
    S = "shared-replays"
    ma = len(a.lines)
    execute(ca, S, "CREATE TEMPORARY VIEW v AS SELECT 1 AS a")
    for _ in range(10):
        assert schema(ca, S, "SELECT * FROM v") == "struct<a:int>"
    time.sleep(0.2)
    first = replays(a, ma)
    assert len(first) <= 2 and all(r[0] for r in first), first  # the new journal once (its own base), no more
    execute(cb, S, "CREATE TEMPORARY VIEW w AS SELECT 2 AS b")
    ma = len(a.lines)
    for _ in range(5):
        assert schema(ca, S, "SELECT * FROM w") == "struct<b:int>"
    time.sleep(0.2)
    then = replays(a, ma)
    assert len(then) == 1 and not then[0][0], then  # just B's batch, on top of what A held
    return True


t.check("a replica replays a session once, then only what another replica added", replay_only_what_is_missing)


def stale_change_refused():
    S = "shared-race"
    execute(ca, S, "CREATE TEMPORARY VIEW v AS SELECT 0 AS start")
    assert schema(cb, S, "SELECT * FROM v") == "struct<start:int>"  # both replicas hold the session now
    out = {}

    def slow_a():
        # Computed on the session as it was (start); B changes it meanwhile.
        out["a"] = code_of(lambda: execute(ca, S, "CREATE OR REPLACE TEMPORARY VIEW v AS SELECT 1 AS from_a",
                                           conf={"catalyzer.debug.fault": "slow",
                                                 "catalyzer.debug.fault.millis": "1500"}))
    th = threading.Thread(target=slow_a)
    th.start()
    time.sleep(0.4)
    out["b"] = code_of(lambda: execute(cb, S, "CREATE OR REPLACE TEMPORARY VIEW v AS SELECT 2 AS from_b"))
    th.join(30)
    assert out["b"][0] == "OK", out
    assert out["a"][0] == "ABORTED" and "another replica" in out["a"][1], out
    for c in (ca, cb, ca):
        got = schema(c, S, "SELECT * FROM v")
        assert got == "struct<from_b:int>", got
    # The refused replica goes on with the session's true history.
    execute(ca, S, "CREATE OR REPLACE TEMPORARY VIEW w AS SELECT from_b AS again FROM v")
    assert schema(cb, S, "SELECT * FROM w") == "struct<again:int>"
    return True


t.check("compare-and-append: a change made on a stale copy gets ABORTED and is kept nowhere; both replicas agree",
        stale_change_refused)


def drop_ends_it_everywhere():
    S = "shared-drop"
    execute(ca, S, "CREATE TEMPORARY VIEW gone AS SELECT 1 AS a")
    assert schema(ca, S, "SELECT * FROM gone") == "struct<a:int>"
    assert schema(cb, S, "SELECT * FROM gone") == "struct<a:int>"
    cb.drop(pb.DropSessionRequest(session_id=S), timeout=30, metadata=ALICE)
    got = schema(ca, S, "SELECT * FROM gone")  # A's workers still held it
    assert got == "TABLE_OR_VIEW_NOT_FOUND", got
    # The id made again: its new versions never match what A's workers held.
    execute(cb, S, "CREATE TEMPORARY VIEW other AS SELECT 1 AS b")
    execute(cb, S, "CREATE TEMPORARY VIEW other2 AS SELECT 1 AS b")
    assert schema(ca, S, "SELECT * FROM gone") == "TABLE_OR_VIEW_NOT_FOUND"
    assert schema(ca, S, "SELECT * FROM other2") == "struct<b:int>"
    return True


t.check("DropSession through one replica ends the session on both; the id made again starts afresh",
        drop_ends_it_everywhere)


def owners_everywhere():
    S = "shared-owned"
    execute(ca, S, "DECLARE secret = 42", who=ALICE)
    code, detail = code_of(lambda: list(cb.analyze(pb.AnalyzeRequest(session_id=S, sql=pb.SqlQuery(query="SELECT secret")),
                                                   timeout=30, metadata=BOB)))
    assert code == "PERMISSION_DENIED", (code, detail)
    code, _ = code_of(lambda: execute(cb, S, "DECLARE OR REPLACE secret = 0", who=BOB))
    assert code == "PERMISSION_DENIED", code
    assert schema(cb, S, "SELECT secret", who=ALICE) == "struct<secret:int>"
    return True


t.check("a session belongs to its principal on every replica (another principal: PERMISSION_DENIED)",
        owners_everywhere)


def idle_sweep_is_local():
    S = "shared-idle"
    execute(ca, S, "CREATE TEMPORARY VIEW kept AS SELECT 1 AS a")
    assert schema(ca, S, "SELECT * FROM kept") == "struct<a:int>"
    # A goes idle on the session past its 3 s idle time (its sweep forgets
    # its copy); B keeps it in use, which renews it in Redis.
    for _ in range(6):
        time.sleep(0.9)
        got = schema(cb, S, "SELECT * FROM kept")
        assert got == "struct<a:int>", got
    got = schema(ca, S, "SELECT * FROM kept")
    assert got == "struct<a:int>", got
    return True


t.check("a replica's idle sweep forgets only its own copy: the session lives on through the other", idle_sweep_is_local)


def redis_down_and_back():
    S = "shared-down"
    execute(ca, S, "CREATE TEMPORARY VIEW v AS SELECT 1 AS a")
    redis.stop()
    t0 = time.monotonic()
    code, detail = code_of(lambda: execute(cb, S, "SELECT * FROM v"))
    took = time.monotonic() - t0
    assert code == "UNAVAILABLE" and "session store" in detail, (code, detail)
    assert took < 2.0, took
    assert schema(ca, "", "SELECT 1 AS one") == "struct<one:int>"  # stateless calls need no store
    redis.start()  # an empty Redis (no persistence): the old sessions are gone, new ones work
    time.sleep(1.2)  # the store retries its connection once a second
    execute(cb, S, "CREATE TEMPORARY VIEW v2 AS SELECT 2 AS b")
    got = schema(ca, S, "SELECT * FROM v2")
    assert got == "struct<b:int>", got
    got = schema(ca, S, "SELECT * FROM v")
    assert got == "TABLE_OR_VIEW_NOT_FOUND", got  # A's workers held v; the store's truth wins
    return True


t.check("Redis down: calls on sessions get UNAVAILABLE fast, stateless calls work; Redis back: sessions work",
        redis_down_and_back)


def memory_store_is_local():
    m1 = Daemon("--workers", "1")
    m2 = Daemon("--workers", "1", "--session-store", "memory")
    try:
        c1, c2 = Client(m1.grpc_addr, pb, hpb), Client(m2.grpc_addr, pb, hpb)
        assert m1.info.get("session_store") == "memory" and m2.info.get("session_store") == "memory"
        c1.execute(pb.ExecuteRequest(session_id="local", sql="CREATE TEMPORARY VIEW v AS SELECT 1 AS a"), timeout=30)
        r1 = list(c1.analyze(pb.AnalyzeRequest(session_id="local", sql=pb.SqlQuery(query="SELECT * FROM v")),
                             timeout=30))[-1].result
        r2 = list(c2.analyze(pb.AnalyzeRequest(session_id="local", sql=pb.SqlQuery(query="SELECT * FROM v")),
                             timeout=30))[-1].result
        c1.close()
        c2.close()
        assert r1.ok and not r2.ok and r2.error.error_class == "TABLE_OR_VIEW_NOT_FOUND", (r1, r2)
    finally:
        m1.stop()
        m2.stop()
    return True


t.check("without --session-store sessions stay in their process (today's behaviour)", memory_store_is_local)


def bad_flags():
    r = subprocess.run([os.environ.get("CATALYZERD", "catalyzerd"), "--grpc", "127.0.0.1:0", "--http", "off",
                        "--session-store", "redis://127.0.0.1:1", "--worker-isolation", "thread"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "needs --worker-isolation process" in r.stderr, r
    r = subprocess.run([os.environ.get("CATALYZERD", "catalyzerd"), "--grpc", "127.0.0.1:0", "--http", "off",
                        "--session-store", "postgres://x"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "redis://" in r.stderr, r
    return True


t.check("--session-store refuses thread isolation and other schemes", bad_flags)

ca.close()
cb.close()
for d in (a, b):
    rc = d.stop()
    t.ok(rc == 0, "replica on port %d drains and exits 0" % d.grpc_port, d.log()[-2000:])
redis.stop()
shutil.rmtree(tmp, ignore_errors=True)
t.done()
