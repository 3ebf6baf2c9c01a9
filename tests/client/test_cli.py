#!/usr/bin/env python3
"""`catalyzer run --daemon` prints byte-identical output to in-process
`catalyzer run` on a file of varied statements written here (the whole
visible corpus through the daemon: tests/integration/test_corpus.py). Also
explain/bench/trace over the wire."""
import json
import os
import re
import subprocess
import sys
import tempfile

from czdaemon import CLI, Daemon, Tap

VARIED = """
SELECT 1 AS a, 'x' AS b;
SELECT key, value FROM testdata WHERE key > 1;
SELECT nosuch FROM testdata;
CREATE TEMPORARY VIEW v AS SELECT key + 1 AS k FROM testdata;
SELECT k, count(*) FROM v GROUP BY k;
DECLARE VARIABLE x INT DEFAULT 5;
SELECT x + 1;
SET VAR x = 7;
SELECT * FROM nosuchtable;
SELECT 1 +;
SELECT 'caf\u00e9' AS "q\\"uote", 2.5D, CAST(NULL AS DECIMAL(10,2));
WITH c AS (SELECT a FROM VALUES (1), (2) AS t(a)) SELECT a, a + 1 AS b, b * 2 FROM c;
SELECT count(*) OVER (PARTITION BY key ORDER BY value) FROM testdata;
SELECT * FROM testdata t1 JOIN testdata t2 USING (key);
SELECT arraycol[0], mapcol[1] FROM arraydata, mapdata;
SET spark.sql.caseSensitive=true;
SELECT KEY FROM testdata;
SELECT (SELECT max(a) FROM aggtest WHERE a > t.key) FROM testdata t
"""


FROM_FIELDS = dict(os.environ, CATALYZER_CLI_JSON_FROM_FIELDS="1")


def run(args, env=None):
    return subprocess.run([CLI] + args, capture_output=True, timeout=600, env=env)


t = Tap()
d = Daemon()
try:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "varied.sql")
        with open(path, "w") as f:
            f.write(VARIED)
        local, remote = run(["run", path]), run(["run", "--daemon", d.addr, path])
        t.ok(local.returncode == 0 and remote.returncode == 0, "run exits 0 both ways",
             local.stderr.decode() + remote.stderr.decode())
        t.ok(local.stdout.count(b"\n") == 18, "in process: 18 lines", local.stdout.decode())
        t.ok(local.stdout == remote.stdout, "run --daemon: byte-identical output on varied statements",
             "in process:\n%s\ndaemon:\n%s" % (local.stdout.decode(), remote.stdout.decode()))
        fields = run(["run", "--daemon", d.addr, path], FROM_FIELDS)
        t.ok(local.stdout == fields.stdout, "run --daemon, lines rebuilt from the response fields: byte-identical",
             "in process:\n%s\ndaemon:\n%s" % (local.stdout.decode(), fields.stdout.decode()))
        local, remote = run(["run", "--bare", "--conf", "spark.sql.caseSensitive=true", path]), \
            run(["run", "--bare", "--conf", "spark.sql.caseSensitive=true", "--daemon", d.addr, path])
        t.ok(local.stdout == remote.stdout, "run --daemon --bare --conf: byte-identical",
             "in process:\n%s\ndaemon:\n%s" % (local.stdout.decode(), remote.stdout.decode()))
        bad = run(["run", "--daemon", "127.0.0.1:1", path])
        t.ok(bad.returncode == 2 and b"UNAVAILABLE" in bad.stderr, "run --daemon to a closed port: exit 2, UNAVAILABLE",
             bad.stderr.decode())

        local, remote = run(["explain", path]), run(["explain", "--daemon", d.addr, path])
        t.ok(local.stdout == remote.stdout, "explain --daemon: identical plans",
             "in process:\n%s\ndaemon:\n%s" % (local.stdout.decode()[:3000], remote.stdout.decode()[:3000]))

        # --plan: Spark Connect plans (protobuf JSON), one per line, in process and through the daemon
        plans = os.path.join(tmp, "plans.jsonl")
        attr = lambda n, pid=None: {"unresolvedAttribute": dict({"unparsedIdentifier": n},  # noqa: E731
                                                                **({"planId": str(pid)} if pid is not None else {}))}
        with open(plans, "w") as f:
            for p in [
                {"common": {"planId": "1"}, "project": {"input": {"common": {"planId": "0"}, "read": {
                    "namedTable": {"unparsedIdentifier": "testdata"}}}, "expressions": [
                        attr("key", 0), {"alias": {"expr": {"unresolvedFunction": {"functionName": "upper",
                                                                                   "arguments": [attr("value")]}},
                                                   "name": ["v"]}}]}},
                {"plan": {"filter": {"input": {"sql": {"query": "SELECT 1 AS a"}},
                                     "condition": {"expressionString": {"expression": "a > 0"}}}}},
                {"project": {"input": {"sql": {"query": "SELECT 1 AS a"}}, "expressions": [attr("nope")]}},
                {"filter": {"input": {"sql": {"query": "SELECT 1 AS a"}}}},
            ]:
                f.write(json.dumps(p) + "\n")
        local, remote = run(["run", "--plan", plans]), run(["run", "--plan", "--daemon", d.addr, plans])
        lines = [json.loads(x) for x in local.stdout.decode().splitlines()]
        t.ok(local.returncode == 0 and [x["status"] for x in lines] == ["ok", "ok", "error", "error"]
             and lines[0]["schema"] == "struct<key:int,v:string>"
             and lines[2].get("error_class") == "UNRESOLVED_COLUMN.WITH_SUGGESTION"
             and "filter.condition" in lines[3]["message"],
             "run --plan: Spark Connect plans analysed (and bad ones refused with the field)", local.stdout.decode()
             + local.stderr.decode())
        t.ok(local.stdout == remote.stdout, "run --plan --daemon: byte-identical output",
             "in process:\n%s\ndaemon:\n%s" % (local.stdout.decode(), remote.stdout.decode()))
        local, remote = run(["explain", "--plan", plans]), run(["explain", "--plan", "--daemon", d.addr, plans])
        t.ok(b"+- Relation spark_catalog.default.testdata" in local.stdout and local.stdout == remote.stdout,
             "explain --plan (--daemon): the analysed plans, identical",
             "in process:\n%s\ndaemon:\n%s" % (local.stdout.decode()[:3000], remote.stdout.decode()[:3000]))

        def strip_times(out):
            # the timing columns (decimals) differ; everything else must agree
            return [" ".join(re.sub(r"\d+\.\d+", "", line).split()) for line in out.decode().splitlines()]

        q = os.path.join(tmp, "q.sql")
        with open(q, "w") as f:
            f.write("CREATE TEMPORARY VIEW t AS SELECT * FROM VALUES (1, 2), (3, 4) AS t(a, b);\n"
                    "SELECT a, sum(b) AS s FROM t WHERE a > 0 GROUP BY a HAVING s > 1 ORDER BY a")
        local, remote = run(["trace", "--diff", q]), run(["trace", "--diff", "--daemon", d.addr, q])
        t.ok(local.returncode == 0 and remote.returncode == 0 and b"ResolveReferences" in local.stdout
             and b"      + " in local.stdout, "trace --diff: timeline with plan changes",
             local.stdout.decode()[:2000] + local.stderr.decode())
        t.ok(strip_times(local.stdout) == strip_times(remote.stdout), "trace --daemon: same timeline but the times",
             "in process:\n%s\ndaemon:\n%s" % (local.stdout.decode()[:3000], remote.stdout.decode()[:3000]))

        # parse: the same trees on stdout and the same errors on stderr, exit 1 for a bad statement
        pq = os.path.join(tmp, "p.sql")
        with open(pq, "w") as f:
            f.write("SET x = 1;\nSELECT a, ${x} + 1 FROM t WHERE b IN (SELECT 1);\nSELECT FROM WHERE;\n"
                    "WITH w AS (SELECT 1) SELECT * FROM w")
        local, remote = run(["parse", pq]), run(["parse", "--daemon", d.addr, pq])
        t.ok(local.returncode == 1 and remote.returncode == 1 and local.stdout == remote.stdout
             and local.stderr == remote.stderr and b"PARSE_SYNTAX_ERROR" in remote.stderr,
             "parse --daemon: identical trees and parse errors",
             "in process:\n%s%s\ndaemon:\n%s%s" % (local.stdout.decode(), local.stderr.decode(),
                                                    remote.stdout.decode(), remote.stderr.decode()))
        local, remote = run(["functions"]), run(["functions", "--daemon", d.addr])
        t.ok(local.returncode == 0 and remote.returncode == 0 and local.stdout == remote.stdout
             and local.stdout.count(b"\n") > 400, "functions --daemon: the same list",
             remote.stderr.decode())

        b = run(["bench", "--daemon", d.addr, "--iterations", "20", "--json", q])
        ok = b.returncode == 0
        try:
            j = json.loads(b.stdout)
            ok = ok and j["queries"][0]["status"] == "ok" and j["queries"][0]["arena_bytes"] > 0
        except ValueError:
            ok = False
        t.ok(ok, "bench --daemon: round-trip timing", b.stdout.decode() + b.stderr.decode())

        lean = run(["bench", "--iterations", "5", "--json", q])
        ph = run(["bench", "--iterations", "5", "--json", "--phases", q])
        ok = lean.returncode == 0 and ph.returncode == 0
        try:
            jl, jp = json.loads(lean.stdout)["queries"][0], json.loads(ph.stdout)["queries"][0]
            p = jp["phases"]
            names = ["parse", "resolve", "check", "output", "tree", "plan", "encode", "total"]
            ok = ok and "phases" not in jl and set(jl) | {"phases"} == set(jp) and \
                all(p[n + "_us"] >= 0 for n in names) and p["resolve_us"] > 0 and p["plan_us"] > 0 and \
                0 < p["sql_bytes"] < os.path.getsize(q) and \
                p["total_us"] >= p["encode_us"] * 0.5
        except (ValueError, KeyError, IndexError):
            ok = False
        t.ok(ok, "bench --phases: the same keys plus a phase breakdown (parse, resolve, check, encode)",
             lean.stdout.decode() + ph.stdout.decode() + ph.stderr.decode())

        try:
            import grpc  # noqa: F401
            have_grpc = True
        except ImportError:
            have_grpc = False
        example = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "client", "lib", "examples",
                               "analyze.py")
        if not have_grpc:
            t.skip("Python grpcio example", "python3-grpcio not importable")
        else:
            p = subprocess.run([sys.executable, example, d.addr], capture_output=True, text=True, timeout=120)
            t.ok(p.returncode == 0 and "event 0: " in p.stdout and "result: struct<id:bigint,total:decimal(20,2)>"
                 in p.stdout, "Python grpcio example: session Execute, streamed Analyze", p.stdout + p.stderr)
finally:
    rc = d.stop()
t.ok(rc == 0, "daemon stopped cleanly", rc)
t.done()
