#!/usr/bin/env python3
"""Trace events name the analysis they belong to (depth, scope, scope_id,
parent_scope_id, plan_before), on the wire (the JSON endpoint, as the
debugger page reads it) and in `catalyzer trace`, which prints the
statement's own rule applications as its timeline and each nested analysis
grouped under the rule application it ran in, in process and through the
daemon alike."""
import json
import os
import re
import subprocess
import tempfile
import urllib.request

from daemon import Daemon, Tap

CLI = os.environ["CATALYZER_CLI"]
SETUP = "CREATE TEMPORARY VIEW v AS SELECT key + 1 AS k FROM testdata"
QUERY = ("WITH c AS (SELECT k FROM v) SELECT k, (SELECT max(k) FROM c) AS m FROM c "
         "WHERE EXISTS (SELECT 1 FROM v WHERE v.k = c.k)")

t = Tap()
d = Daemon()
base = "http://127.0.0.1:%d" % d.http_port


def post(path, body):
    req = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req, timeout=30))


# the table the CLI's session has (Spark's test harness): the same analysis both ways
post("/v1/register-catalog", {"sessionId": "s", "catalog": {"tables": [
    {"name": "testdata", "columns": [{"name": "key", "type": "int"}, {"name": "value", "type": "string"}]}]}})
post("/v1/execute", {"sessionId": "s", "sql": SETUP})
res = post("/v1/analyze", {"sessionId": "s", "sql": QUERY, "traceLevel": "TRACE_LEVEL_ALL", "tracePlans": True})
events = res["traceEvents"]


def wire():
    assert res["result"].get("ok"), res["result"]
    scopes = {0: {"path": "", "depth": 0, "parent": None}}
    for e in events:  # a nested analysis' events come before those of the rule that ran it
        sid = e.get("scopeId", 0)
        s = {"path": e.get("scope", ""), "depth": e.get("depth", 0), "parent": e.get("parentScopeId", 0) if sid else None}
        assert scopes.setdefault(sid, s) == s, ("every event of a scope says the same", e, scopes[sid])
    assert sorted(scopes) == list(range(len(scopes))), ("scopes numbered 1, 2, ...", sorted(scopes))
    for sid, s in scopes.items():
        if not sid:
            continue
        p = scopes[s["parent"]]
        assert s["depth"] == p["depth"] + 1 and s["path"].endswith("#%d" % sid), (sid, s, p)
        assert s["path"].startswith(p["path"] + "/" if p["path"] else "") and "/" not in s["path"][len(p["path"]) + 1:], (s, p)
    seen_effective = set()
    for e in events:
        sid = e.get("scopeId", 0)
        if e.get("effective"):
            # the first effective event of each analysis carries the plan it started from
            assert ("planBefore" in e) == (sid not in seen_effective), (sid, e.get("rule"))
            seen_effective.add(sid)
    kinds = sorted(set(re.sub(r"#\d+$", "", s["path"].split("/")[-1]).split(" ")[0] for s in scopes.values() if s["path"]))
    print("# scopes: " + "; ".join(s["path"] for s in scopes.values() if s["path"]))
    assert {"view", "subquery", "scalar-subquery", "exists"} <= set(kinds), kinds
    assert any(s["depth"] >= 2 for s in scopes.values()), "a view inside a CTE's query is two levels down"


t.check("events carry depth, scope path, numbered scopes, parents; plan_before once per analysis", wire)


SQL_FILE = os.path.join(tempfile.mkdtemp(prefix="cz-trace-"), "q.sql")
with open(SQL_FILE, "w") as f:
    f.write(SETUP + ";\n" + QUERY)


def run_cli(*args):
    r = subprocess.run([CLI, "trace"] + list(args) + [SQL_FILE], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


LINE = re.compile(r"^ *(\d+\.\d) +(\d+\.\d)  (\S+) +(\d+)  (\S+) +(.*)$")


def cli_grouping():
    out = run_cli()
    lines = out.splitlines()
    top = [m.group(5) for m in map(LINE.match, lines) if m]
    nested = [ln for ln in lines if ln.startswith("    | ")]
    top_eff = [e["rule"] for e in events if e.get("depth", 0) == 0 and e.get("effective")]
    # the timeline proper: exactly the statement's own effective rules (in process: same analysis)
    assert top == top_eff, (top, top_eff)
    assert any(re.match(r"^    \| > subquery c#\d+: \d+ rule applications?, \d+ effective, [\d.]+ us$", ln) for ln in nested), out
    assert any(ln.startswith("    | | > view v#") for ln in nested), "the view inside the CTE's query, two levels in:\n" + out
    assert any(re.match(r"^    \| > (scalar-subquery|exists)#\d+: ", ln) for ln in nested), out
    rule_lines = [ln for ln in nested if LINE.match(re.sub(r"^    (\| )+", "", ln))]
    assert rule_lines, out
    n = sum(1 for e in events)
    neff = sum(1 for e in events if e.get("effective"))
    assert re.search(r"^%d rule applications, %d effective, [\d.]+ us in rules$" % (n, neff), out, re.M), out[-400:]
    m = re.search(r"^nested analyses: (\d+) \(depth <= (\d+)\), (\d+) rule applications, (\d+) effective$", out, re.M)
    assert m and int(m.group(2)) >= 2, out[-400:]
    nested_eff = sum(1 for e in events if e.get("depth", 0) > 0 and e.get("effective"))
    assert int(m.group(4)) == nested_eff, (m.group(0), nested_eff)


t.check("catalyzer trace: the timeline is the statement's own rules, nested analyses grouped and indented under theirs",
        cli_grouping)


def cli_diff():
    out = run_cli("--diff")
    # a nested analysis' first diff starts from its own plan, not the outer one
    block = out[out.index("| | > view v#"):]
    first = [ln for ln in block.splitlines()[1:6]]
    assert any(ln.startswith("    | |       - ") and "UnresolvedRelation [testdata]" in ln for ln in first), "\n".join(first)
    remote = run_cli("--diff", "--daemon", d.grpc_addr)
    strip = lambda s: [" ".join(re.sub(r"\d+\.\d+", "", ln).split()) for ln in s.splitlines()]  # noqa: E731
    diff = [(a, b) for a, b in zip(strip(out), strip(remote)) if a != b]
    assert strip(out) == strip(remote), "in process and through the daemon differ: %r" % (diff[:3] or remote[-300:],)


t.check("catalyzer trace --diff: each analysis' diffs against its own plans; --daemon the same", cli_diff)
t.ok(d.stop() == 0, "daemon drains and exits 0")
os.unlink(SQL_FILE)
os.rmdir(os.path.dirname(SQL_FILE))
t.done()
