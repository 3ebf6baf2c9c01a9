#!/usr/bin/env python3
"""The red-team findings of issue 13 against the live daemon, each as it was
reported and each a case the daemon got wrong before its fix (the analyzer's
side is in tests/analyzer/test_redteam.c):

* `SELECT 1+1+...+1` with 80,000 terms, a 100,000-way UNION ALL and the
  90-byte DECLARE + EXECUTE IMMEDIATE that builds one: FAILED_TO_PARSE_TOO_
  COMPLEX in the result (the worker died of a stack overflow), on gRPC and
  the JSON endpoint;
* an inline catalog whose views form a cycle: RegisterCatalog answers
  INVALID_ARGUMENT with RECURSIVE_VIEW (the worker died);
* catalog views that each union the previous one with itself are analysed
  under the call's memory budget: RESOURCE_EXHAUSTED (they ran unbounded
  until the deadline killed the worker);
* 60,000 catalog tables register well within a 5 s deadline (quadratic: far
  past it);
* LIKE with a million %s, and the exponential match, answer at once; a
  costly match on a thread worker stops at the call's deadline and the
  worker is free for the next call (it spun forever; SIGTERM never exited);
* sequence() over the whole long domain (the DECLARE aborted the worker);
* ${var} substitution under --max-memory-bytes (it ran before the budget);
* a resolved plan nested deeper than the 100 levels stock protobuf decoders
  read is left out of the result (AnalyzeResult.omitted says so): Python's
  decoder failed on the whole response;
* a response over --max-response-bytes (a 2 MB session variable printed in
  the plan): RESOURCE_EXHAUSTED instead of the answer (80 MB were sent)."""
import json
import time
import urllib.error
import urllib.request

from daemon import Client, Daemon, Tap, grpc, load_stubs, skip_all

if grpc is None:
    skip_all("python3-grpcio not importable (use Debian's /usr/bin/python3)")

pb, hpb = load_stubs()
t = Tap()


def analyze(c, sql, session="", timeout=30, catalog=None):
    req = pb.AnalyzeRequest(session_id=session, sql=pb.SqlQuery(query=sql), omit_resolved_plan=True)
    if catalog is not None:
        req.catalog.CopyFrom(catalog)
    start = time.monotonic()
    try:
        return grpc.StatusCode.OK, list(c.analyze(req, timeout=timeout))[-1].result, time.monotonic() - start
    except grpc.RpcError as e:
        return e.code(), e.details(), time.monotonic() - start


def execute(c, sql, session, timeout=30):
    start = time.monotonic()
    try:
        return grpc.StatusCode.OK, c.execute(pb.ExecuteRequest(session_id=session, sql=sql), timeout=timeout).results, \
            time.monotonic() - start
    except grpc.RpcError as e:
        return e.code(), e.details(), time.monotonic() - start


def register(c, session, catalog, timeout=30):
    start = time.monotonic()
    try:
        r = c.register(pb.RegisterCatalogRequest(session_id=session, catalog=catalog), timeout=timeout)
        return grpc.StatusCode.OK, r, time.monotonic() - start
    except grpc.RpcError as e:
        return e.code(), e.details(), time.monotonic() - start


def error_class(r):
    return r.error.error_class if hasattr(r, "error") and not r.ok else None


def json_analyze(d, sql):
    body = json.dumps({"sql": sql, "omitResolvedPlan": True}).encode()
    req = urllib.request.Request("http://127.0.0.1:%d/v1/analyze" % d.http_port, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        return json.loads(urllib.request.urlopen(req, timeout=60).read())
    except urllib.error.HTTPError as e:
        return {"http_error": e.code, "body": e.read().decode()[:300]}


# ---------------------------------------------------------------- process workers
d = Daemon("--workers", "2", "--max-memory-bytes", str(64 << 20))
c = Client(d.grpc_addr, pb, hpb)

plus = "SELECT " + "+".join(["1"] * 80000)
union = " UNION ALL ".join(["SELECT 1"] * 100000)
for name, sql in (("80,000-term 1+1+...", plus), ("100,000-way UNION ALL", union)):
    code, r, _ = analyze(c, sql)
    t.ok(code == grpc.StatusCode.OK and error_class(r) == "FAILED_TO_PARSE_TOO_COMPLEX",
         "%s: FAILED_TO_PARSE_TOO_COMPLEX, no dead worker" % name, "%s %s" % (code, r))
    j = json_analyze(d, sql)
    t.ok(j.get("result", {}).get("error", {}).get("errorClass") == "FAILED_TO_PARSE_TOO_COMPLEX",
         "... and through the JSON endpoint", str(j)[:300])

code, rs, _ = execute(c, "DECLARE s = repeat('SELECT 1 UNION ALL ', 100000) || 'SELECT 1'; EXECUTE IMMEDIATE s", "ei")
t.ok(code == grpc.StatusCode.OK and len(rs) == 2 and rs[0].ok and error_class(rs[1]) == "FAILED_TO_PARSE_TOO_COMPLEX",
     "the 90-byte EXECUTE IMMEDIATE of a built chain: FAILED_TO_PARSE_TOO_COMPLEX",
     "%s %s" % (code, rs if code != grpc.StatusCode.OK else [error_class(x) for x in rs]))

cycle = pb.Catalog(views=[pb.View(name="va", query="SELECT 1 AS x"), pb.View(name="vb", query="SELECT * FROM va"),
                          pb.View(name="va", query="SELECT * FROM vb"), pb.View(name="vc", query="SELECT * FROM va")])
code, r, _ = register(c, "cycle", cycle)
t.ok(code == grpc.StatusCode.INVALID_ARGUMENT and "RECURSIVE_VIEW" in r and "`va` -> `vb` -> `va`" in r,
     "catalog views va, vb->va, va->vb: RegisterCatalog refuses the cycle (RECURSIVE_VIEW)", "%s %s" % (code, r))
code, r, _ = analyze(c, "SELECT 1 AS a")
t.ok(code == grpc.StatusCode.OK and r.ok, "... and the next call is served", "%s %s" % (code, r))

views = [pb.View(name="u0", query="SELECT 1 AS x")]
for i in range(1, 40):
    views.append(pb.View(name="u%d" % i, query="SELECT * FROM u%d UNION ALL SELECT * FROM u%d" % (i - 1, i - 1)))
code, r, secs = register(c, "bomb", pb.Catalog(views=views), timeout=20)
t.ok(code == grpc.StatusCode.RESOURCE_EXHAUSTED and "MEMORY_LIMIT" in r,
     "views doubling one another are analysed under the call's memory budget: RESOURCE_EXHAUSTED (%.1f s)" % secs,
     "%s %s" % (code, r))

tables = pb.Catalog(tables=[pb.Table(name="db%d.t%d" % (i % 5, i), columns=[pb.Column(name="id", type="int")])
                            for i in range(60000)])
code, r, secs = register(c, "many", tables, timeout=5)
t.ok(code == grpc.StatusCode.OK and r.tables == 60000,
     "60,000 catalog tables within a 5 s deadline (%.1f s)" % secs, "%s %s" % (code, str(r)[:200]))
code, r, _ = analyze(c, "SELECT id FROM db4.t59999", session="many")
t.ok(code == grpc.StatusCode.OK and r.ok, "... and the last one resolves", "%s %s" % (code, r))

code, rs, secs = execute(c, "DECLARE v = 'a' LIKE repeat('%', 1000000)", "like")
t.ok(code == grpc.StatusCode.OK and rs[0].ok, "'a' LIKE a million %%s: evaluated (%.1f s)" % secs, "%s %s" % (code, rs))
code, rs, secs = execute(c, "DECLARE w = '" + "a" * 40 + "' LIKE '" + "%" * 30 + "' || 'b'", "like", timeout=3)
t.ok(code == grpc.StatusCode.OK and rs[0].ok and secs < 2,
     "40 a's LIKE 30 %%s and a b: at once (%.1f s)" % secs, "%s %s" % (code, rs))
code, r, _ = analyze(c, "SELECT v, w", session="like")
t.ok(code == grpc.StatusCode.OK and r.ok and "v=true" in r.tree_string and "w=false" in r.tree_string,
     "... with the right values", "%s %s" % (code, r))

code, rs, _ = execute(c, "DECLARE v = sequence(-9223372036854775808, 9223372036854775806)", "seq")
t.ok(code == grpc.StatusCode.OK and rs[0].ok, "sequence over the whole long domain: no abort", "%s %s" % (code, rs))
code, r, _ = analyze(c, "SELECT element_at(v, 100000), element_at(v, 3)", session="seq")
t.ok(code == grpc.StatusCode.OK and r.ok, "... element_at on it: no crash", "%s %s" % (code, r))

# resolved plans deeper than stock protobuf decoders read (Python's 100 levels)
for k, kind in ((60, "UNION ALL"), (150, "UNION ALL"), (60, "+"), (400, "+")):
    sql = (" UNION ALL ".join(["SELECT 1 AS a"] * k)) if kind == "UNION ALL" else "SELECT " + "+".join(["1"] * k)
    try:
        r = list(c.analyze(pb.AnalyzeRequest(sql=pb.SqlQuery(query=sql)), timeout=30))[-1].result
        got = (r.ok, r.HasField("plan"), r.omitted, bool(r.tree_string))
    except grpc.RpcError as e:
        got = (e.code(), e.details())
    deep = k > 90
    t.ok(got[:2] == (True, not deep) and (("stock decoders" in got[2]) == deep) and got[3],
         "a %d-term %s chain: Python decodes the result, %s" % (
             k, kind, "the plan left out and omitted saying why" if deep else "with its plan"), got)
t.ok(d.info and d.alive() and "analysis worker died" not in d.log(), "no worker died", d.log()[-2000:])
c.close()
t.ok(d.stop() == 0, "exit 0")

# ---------------------------------------------------------------- the response-size cap
# A 16 MB session variable made an 80 MB answer (Spark prints the value in the
# plan): past --max-response-bytes the call is RESOURCE_EXHAUSTED, not sent.
d = Daemon("--workers", "2", "--max-response-bytes", str(1 << 20))
c = Client(d.grpc_addr, pb, hpb)
code, rs, _ = execute(c, "DECLARE big = repeat('x', 2000000)", "capped")
t.ok(code == grpc.StatusCode.OK and rs[0].ok, "a 2 MB session variable is declared", "%s %s" % (code, rs))
try:
    res = list(c.analyze(pb.AnalyzeRequest(session_id="capped", sql=pb.SqlQuery(query="SELECT big")), timeout=30))
    got = (grpc.StatusCode.OK, sum(m.ByteSize() for m in res))
except grpc.RpcError as e:
    got = (e.code(), e.details())
t.ok(got[0] == grpc.StatusCode.RESOURCE_EXHAUSTED and "--max-response-bytes" in got[1],
     "SELECT of it under --max-response-bytes 1 MiB: RESOURCE_EXHAUSTED naming the limit", got)
code, r, _ = analyze(c, "SELECT 1 AS a", session="capped")
t.ok(code == grpc.StatusCode.OK and r.ok, "... and the session's next call is served", "%s %s" % (code, r))
body = json.dumps({"sessionId": "capped", "sql": "SELECT big"}).encode()
req = urllib.request.Request("http://127.0.0.1:%d/v1/analyze" % d.http_port, data=body, method="POST",
                             headers={"Content-Type": "application/json"})
try:
    j = (200, urllib.request.urlopen(req, timeout=60).read()[:200])
except urllib.error.HTTPError as e:
    j = (e.code, e.read().decode()[:300])
t.ok(j[0] != 200 and "RESOURCE_EXHAUSTED" in j[1] and "--max-response-bytes" in j[1],
     "... the same through the JSON endpoint", j)
t.ok(d.stop() == 0, "exit 0")

# ---------------------------------------------------------------- thread workers: the evaluation itself stops
d = Daemon("--workers", "1", "--worker-isolation", "thread", "--max-memory-bytes", str(16 << 20))
c = Client(d.grpc_addr, pb, hpb)
costly = "DECLARE v = repeat('a', 400000) LIKE '%' || repeat('a', 200000) || 'b'"
code, r, secs = execute(c, costly, "costly", timeout=1)
t.ok(code == grpc.StatusCode.DEADLINE_EXCEEDED and secs < 2, "a costly LIKE: DEADLINE_EXCEEDED at 1 s (%.1f s)" % secs,
     "%s %s" % (code, r))
code, r, secs = analyze(c, "SELECT 1 AS a", timeout=5)
t.ok(code == grpc.StatusCode.OK and r.ok and secs < 2,
     "... and the only worker takes the next call at once (%.1f s)" % secs, "%s %s" % (code, r))

req = pb.AnalyzeRequest(session_id="subst", sql=pb.SqlQuery(query="SELECT '" + "${x}" * 4000 + "'"),
                        omit_resolved_plan=True)
req.conf["x"] = "x" * 100000
try:
    res = list(c.analyze(req, timeout=30))[-1].result
    got = (res.ok, res.error.error_class, res.arena_bytes)
except grpc.RpcError as e:
    got = (e.code(), e.details())
t.ok(got[:2] == (False, "CATALYZER_MEMORY_LIMIT_EXCEEDED"),
     "4,000 ${x} of 100 KB under a 16 MiB budget: CATALYZER_MEMORY_LIMIT_EXCEEDED", got)
t.ok(d.rss_kib() < 200 * 1024, "... without the daemon growing past 200 MB (%d KiB)" % d.rss_kib())
code, r, _ = analyze(c, "SELECT 1 AS a", timeout=5)
t.ok(code == grpc.StatusCode.OK and r.ok, "a good call after it", "%s %s" % (code, r))
c.close()
start = time.monotonic()
t.ok(d.stop(timeout=15) == 0 and time.monotonic() - start < 12, "SIGTERM: exit 0 promptly")
t.done()
