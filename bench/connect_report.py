#!/usr/bin/env python3
"""The "Spark Connect: AnalyzePlan against catalyzer.v1 Analyze" section of
BENCHMARKS.md from the results of bench/connect.sh (OUT/connect).
report.py calls render(); run by itself (python3 bench/connect_report.py OUT
BENCHMARKS.md) it replaces the section between its markers in an existing
report, or appends it."""
import glob
import json
import os
import re
import statistics
import sys

BEGIN = "<!-- connect-bench:begin -->"
END = "<!-- connect-bench:end -->"
CONFIGS = [("v1-sql", "catalyzer.v1 Analyze (lean)", "SQL (`SqlQuery`)"),
           ("v1-structured", "catalyzer.v1 Analyze (lean)", "structured (`AnalyzeRequest.plan`)"),
           ("connect-sql", "SparkConnectService/AnalyzePlan (schema)", "SQL (`Relation{sql}`)"),
           ("connect-structured", "SparkConnectService/AnalyzePlan (schema)", "structured (`Plan.root`)")]


def _read(d, name):
    try:
        with open(os.path.join(d, name)) as f:
            return f.read().strip()
    except OSError:
        return ""


def _runs(d, cfg, run):
    out = []
    for f in sorted(glob.glob(os.path.join(d, "%s-%s-r*.json" % (cfg, run)))):
        try:
            j = json.load(open(f))
        except (OSError, ValueError):
            continue
        j["_round"] = int(re.search(r"-r(\d+)\.json$", f).group(1))
        out.append(j)
    return out


def _cpu(d):
    cpu = {}
    for line in _read(d, "cpu.txt").splitlines():
        p = line.split()
        if len(p) >= 5:
            cpu[(p[0], p[1], int(p[2]))] = (float(p[3]), p[4])
    return cpu


def render(out_dir):
    d = os.path.join(out_dir, "connect")
    if not os.path.isdir(d):
        return []
    knobs = _read(d, "knobs.txt")
    secs = knobs.split("CONNECT_SECONDS=")[-1].split()[0] if "CONNECT_SECONDS=" in knobs else "?"
    rounds = knobs.split("CONNECT_ROUNDS=")[-1].split()[0] if "CONNECT_ROUNDS=" in knobs else "?"
    cpu = _cpu(d)
    w = [BEGIN, "## Spark Connect: AnalyzePlan against catalyzer.v1 Analyze", ""]
    w.append("`bench/connect.sh` at %s (%s): TPC-H through both services of a fresh release `catalyzerd` per run,"
             % (_read(d, "commit.txt") or "?", _read(d, "date.txt") or "?"))
    w.append("driven by `catalyzer-load --service connect|catalyzer`, %s s per run, the configurations alternating over"
             % secs)
    w.append("%s rounds (median of the rounds, each round in brackets). Two forms of the 22 queries: the SQL texts" % rounds)
    w.append("and the structured plans a DataFrame client sends (`bench/workloads/tpch-connect`, written by")
    w.append("`bench/tpch_connect.py`: every relation with a plan id, `df(\"c\")` columns resolved by plan id, operators")
    w.append("as unresolved functions; correlated subqueries written as joins and aggregations, as DataFrame programs")
    w.append("write them, so they analyse to other plans than the SQL). AnalyzePlan answers the schema as a")
    w.append("`DataType`; the catalyzer.v1 calls are lean (schema string, no tree, no structured plan). The daemon's")
    w.append("CPU per call (user + system time from /proc over the run, divided by the calls it completed) moves")
    w.append("less with other work on the machine than throughput does; the load average at the end of each run")
    w.append("is in the last column.")
    w.append("")
    w.append("| service | plan | saturating req/s (4 × 16) | daemon CPU µs/call (4 × 16) | 1 × 1 req/s | 1 × 1 p50 ms | "
             "1 × 1 p99 ms | daemon CPU µs/call (1 × 1) | errors | load |")
    w.append("|---|---|---|---|---|---|---|---|---|---|")

    def per_call(cfg, run, runs):
        xs = []
        for r in runs:
            c = cpu.get((cfg, run, r["_round"]))
            if c and r.get("ok"):
                xs.append(c[0] / r["ok"] * 1e6)
        return statistics.median(xs) if xs else None

    for cfg, svc, plan in CONFIGS:
        sat, c1 = _runs(d, cfg, "saturating"), _runs(d, cfg, "c1")
        if not sat or not c1:
            w.append("| %s | %s | failed: %s | | | | | | | |" % (
                svc, plan, _read(d, "%s-saturating-r1.err" % cfg).replace("\n", " ")[:100]))
            continue
        tps = [r["throughput_rps"] for r in sat]
        c1_tps = [r["throughput_rps"] for r in c1]
        errs = sum(sum(r.get("errors", {}).values()) + r.get("analysis_errors", 0) for r in sat + c1)
        loads = [cpu.get((cfg, run, r["_round"]), (0, "?"))[1] for run, rs in (("saturating", sat), ("c1", c1))
                 for r in rs]
        s_cpu, c_cpu = per_call(cfg, "saturating", sat), per_call(cfg, "c1", c1)
        w.append("| %s | %s | %s (%s) | %s | %s (%s) | %.3f | %.3f | %s | %d | %s |" % (
            svc, plan, "{:,.0f}".format(statistics.median(tps)), ", ".join("{:,.0f}".format(x) for x in tps),
            "%.1f" % s_cpu if s_cpu is not None else "", "{:,.0f}".format(statistics.median(c1_tps)),
            ", ".join("{:,.0f}".format(x) for x in c1_tps),
            statistics.median([r["latency_us"]["p50"] for r in c1]) / 1000,
            statistics.median([r["latency_us"]["p99"] for r in c1]) / 1000,
            "%.1f" % c_cpu if c_cpu is not None else "", errs, " ".join(loads)))
    w.append("")
    w.append("Commands (PORT from the daemon's first log line; the daemon: `catalyzerd --grpc 127.0.0.1:0 --http off`):")
    w.append("")
    w.append("```")
    for cfg, _, _ in CONFIGS:
        for run in ("saturating", "c1"):
            c = _read(d, "%s-%s.cmd" % (cfg, run))
            if c:
                w.append(c)
    w.append("```")
    w.append(END)
    w.append("")
    return w


def splice(out_dir, md):
    section = "\n".join(render(out_dir))
    text = open(md).read() if os.path.exists(md) else ""
    if BEGIN in text and END in text:
        a, b = text.index(BEGIN), text.index(END) + len(END)
        text = text[:a] + section.rstrip("\n") + text[b:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(md, "w") as f:
        f.write(text)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    splice(sys.argv[1], sys.argv[2])
