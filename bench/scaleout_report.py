#!/usr/bin/env python3
"""The "Scale-out through HAProxy" section of BENCHMARKS.md from the results
of bench/scaleout.sh (OUT/scaleout). render() returns its lines; run by
itself (python3 bench/scaleout_report.py OUT BENCHMARKS.md) it replaces the
section between its markers in an existing report, or appends it."""
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmarks_section import write_section  # noqa: E402

BEGIN = "<!-- scaleout-bench:begin -->"
END = "<!-- scaleout-bench:end -->"


def _read(d, name):
    try:
        with open(os.path.join(d, name)) as f:
            return f.read().strip()
    except OSError:
        return ""


def _runs(d, name):
    out = []
    for f in sorted(glob.glob(os.path.join(d, "%s-r*.json" % name))):
        try:
            j = json.load(open(f))
        except (OSError, ValueError):
            continue
        j["_round"] = int(re.search(r"-r(\d+)\.json$", f).group(1))
        out.append(j)
    return out


def _cpu(d):
    out = {}
    for line in _read(d, "cpu.txt").splitlines():
        f = line.split()
        if len(f) == 3:
            out[(f[0], int(f[1]))] = float(f[2])
    return out


def _fig(d, name, cpu):
    rs = _runs(d, name)
    if not rs:
        return None
    tps = [r["throughput_rps"] for r in rs]
    us = [cpu[(name, r["_round"])] / r["requests"] * 1e6 for r in rs if (name, r["_round"]) in cpu and r["requests"]]
    return {
        "rps": statistics.median(tps), "all": tps,
        "p50": statistics.median(r["latency_us"]["p50"] for r in rs) / 1e3,
        "p99": statistics.median(r["latency_us"]["p99"] for r in rs) / 1e3,
        "cpu": statistics.median(us) if us else None,
        "errors": sum(sum(r.get("errors", {}).values()) for r in rs),
        "analysis_errors": sum(r.get("analysis_errors", 0) for r in rs),
        "shape": "%d × %d" % (rs[0]["connections"], rs[0]["concurrency"]),
    }


ROWS = [
    ("direct-memory", "1 replica, called directly", "in memory (default)"),
    ("direct-redis", "1 replica, called directly", "Redis"),
    ("lb1", "HAProxy → 1 replica", "Redis"),
    ("lb2", "HAProxy → 2 replicas", "Redis"),
    ("lb3", "HAProxy → 3 replicas", "Redis"),
    ("direct-memory-c1", "1 replica, called directly", "in memory (default)"),
    ("direct-redis-c1", "1 replica, called directly", "Redis"),
    ("lb1-c1", "HAProxy → 1 replica", "Redis"),
]


def render(out_dir):
    d = os.path.join(out_dir, "scaleout")
    if not os.path.isdir(d):
        return []
    knobs = _read(d, "knobs.txt")
    k = dict(x.split("=", 1) for x in knobs.split() if "=" in x)
    cpu = _cpu(d)
    figs = {name: _fig(d, name, cpu) for name, _, _ in ROWS}
    w = [BEGIN, "## Scale-out through HAProxy", ""]
    w.append("`bench/scaleout.sh` at %s (%s): the topology of `docker/compose.yaml` as processes on loopback —"
             % (_read(d, "commit.txt") or "?", _read(d, "date.txt") or "?"))
    w.append("%s `catalyzerd` replicas (`--workers 1` each) behind %s with `docker/haproxy.cfg` (h2c in front,"
             % (_read(d, "buildtype.txt") or "release", _read(d, "haproxy.txt").split(" - ")[0] or "HAProxy"))
    w.append("HTTP/2 to the replicas, round robin per call), sessions shared through %s."
             % (_read(d, "redis.txt").split(" sha=")[0] or "Redis"))
    w.append("`catalyzer-load` drives TPC-H (22 queries cycled) with a session per stream (the schema set up once by")
    w.append("Execute, then every Analyze on that session, so behind HAProxy a session's calls land on every replica),")
    w.append("lean responses, %s s per run, the configurations alternating over %s rounds, fresh processes each run;"
             % (k.get("SCALE_SECONDS", "?"), k.get("SCALE_ROUNDS", "?")))
    w.append("the figure is the median of the rounds (each round in brackets). Server CPU is the user + system time of")
    w.append("every replica, its worker processes, HAProxy and Redis, per completed call. Generator, replicas, HAProxy")
    w.append("and Redis share the machine's 2 cores with whatever else runs (load average %s at the start, %s at"
             % (_read(d, "loadavg-start.txt").split(" ")[0] or "?", _read(d, "loadavg.txt").split(" ")[0] or "?"))
    w.append("the end), so more replicas cannot add cores: the point is that nothing breaks and what the hop and the")
    w.append("store cost. On a busy machine saturating throughput mostly measures the other work (the rounds in")
    w.append("brackets show how far apart they are); the server CPU per call and the median of one call at a time are")
    w.append("the figures to read.")
    w.append("")
    w.append("| configuration | session store | calls in flight | req/s | p50 ms | p99 ms | server CPU µs/call | errors |")
    w.append("|---|---|---|---|---|---|---|---|")
    for name, label, store in ROWS:
        f = figs[name]
        if not f:
            continue
        w.append("| %s | %s | %s | %s (%s) | %.3f | %.3f | %s | %d |" % (
            label, store, f["shape"], "{:,.0f}".format(f["rps"]), ", ".join("{:,.0f}".format(x) for x in f["all"]),
            f["p50"], f["p99"], "%.0f" % f["cpu"] if f["cpu"] is not None else "", f["errors"] + f["analysis_errors"]))
    w.append("")
    m1, r1, l1 = figs["direct-memory-c1"], figs["direct-redis-c1"], figs["lb1-c1"]
    ms, rs_ = figs["direct-memory"], figs["direct-redis"]
    notes = []
    if m1 and r1:
        notes.append("**Session-store cost per stateful request**: one call at a time on one replica, Redis adds "
                     "%+.3f ms to the median call (%.3f → %.3f ms)%s; saturating, %s throughput (%s → %s req/s)%s."
                     % (r1["p50"] - m1["p50"], m1["p50"], r1["p50"],
                        ", %+.0f µs of server CPU per call" % (r1["cpu"] - m1["cpu"])
                        if r1["cpu"] is not None and m1["cpu"] is not None else "",
                        "%+.1f %%" % ((rs_["rps"] / ms["rps"] - 1) * 100) if ms and rs_ else "?",
                        "{:,.0f}".format(ms["rps"]) if ms else "?", "{:,.0f}".format(rs_["rps"]) if rs_ else "?",
                        ", %+.0f µs of server CPU per call" % (rs_["cpu"] - ms["cpu"])
                        if ms and rs_ and rs_["cpu"] is not None and ms["cpu"] is not None else ""))
        notes.append("Each call on a session reads the session's journal version from Redis first (one round trip"
                     " of a Lua script); a worker that lacks records fetches them too. Those round trips are"
                     " synchronous on the replica's event loop (`server/session_store_redis.h`): while one waits for"
                     " Redis no other call on that replica moves, which is what the saturating figure of one replica"
                     " shows on a busy machine, where Redis itself waits for a core; hiredis' asynchronous API on the"
                     " same libuv loop would remove that stall.")
    if r1 and l1:
        notes.append("**The HAProxy hop**: one call at a time, %+.3f ms on the median call (%.3f → %.3f ms, both on "
                     "Redis)." % (l1["p50"] - r1["p50"], r1["p50"], l1["p50"]))
    if figs["lb1"] and figs["lb3"]:
        notes.append("**Replicas**: saturating, 1 → 2 → 3 replicas through HAProxy: %s req/s."
                     % " → ".join("{:,.0f}".format(figs[n]["rps"]) for n in ("lb1", "lb2", "lb3") if figs[n]))
    for n in notes:
        w.append(n)
        w.append("")
    w.append("Failover is tested, not benchmarked: `daemon-scaleout` (processes) and `docker-failover` (containers) "
             "kill and drain replicas under load and print requests, errors and p99 before, during and after.")
    w.append("")
    w.append("Commands (ports picked free per run; haproxy with the `CZ_*` variables of `docker/haproxy.cfg`):")
    w.append("")
    w.append("```")
    rc = _read(d, "replica.cmd")
    if rc:
        w.append("# a replica (--session-store only for the Redis rows)")
        w.append(rc)
    w.append("# HAProxy (CZ_LB, CZ_LB_STATS, CZ_R<n>_HOST/_GRPC_PORT/_HTTP_PORT in the environment)")
    w.append("haproxy -db -f docker/haproxy.cfg")
    seen = set()
    for name, _, _ in ROWS:
        c = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", _read(d, "%s.cmd" % name))
        if c and c not in seen:
            seen.add(c)
            w.append("# load: %s" % ("one call at a time" if "--connections 1 --concurrency 1" in c else "saturating"))
            w.append(c)
    w.append("```")
    w.append(END)
    return w


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: scaleout_report.py OUT_DIR BENCHMARKS.md")
    write_section(sys.argv[2], render(sys.argv[1]), BEGIN, END, "scaleout_report: no results in %s" % sys.argv[1])
