#!/usr/bin/env python3
"""The "Cost of isolated analysis workers" section of BENCHMARKS.md from the
results of bench/isolation.sh (OUT/isolation). report.py calls render(); run
by itself (python3 bench/isolation_report.py OUT BENCHMARKS.md) it replaces
the section between its markers in an existing report, or appends it."""
import glob
import json
import os
import re
import statistics
import sys

from benchmarks_section import write_section

BEGIN = "<!-- isolation-bench:begin -->"
END = "<!-- isolation-bench:end -->"
CONFIGS = [("thread", "threads of the daemon"), ("process", "worker processes (default)")]
RUNS = [("saturating-lean", "saturating, lean (4 × 16)"), ("saturating", "saturating, full responses (4 × 16)"),
        ("sessions-lean", "saturating on sessions, lean (4 × 16, a session per connection)"),
        ("c1-lean", "one call at a time, lean (1 × 1)")]
TARGET = 10.0  # issue 13: isolation costs at most 10 % of TPC-H throughput


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
    out = {}
    for line in _read(d, "cpu.txt").splitlines():
        f = line.split()
        if len(f) == 4:
            out[(f[0], f[1], int(f[2]))] = float(f[3])
    return out


def render(out_dir):
    d = os.path.join(out_dir, "isolation")
    if not os.path.isdir(d):
        return []
    knobs = _read(d, "knobs.txt")
    secs = knobs.split("ISO_SECONDS=")[-1].split()[0] if "ISO_SECONDS=" in knobs else "?"
    rounds = knobs.split("ISO_ROUNDS=")[-1].split()[0] if "ISO_ROUNDS=" in knobs else "?"
    cpu = _cpu(d)
    w = [BEGIN, "## Cost of isolated analysis workers", ""]
    w.append("`bench/isolation.sh` at %s (%s): the same `catalyzer-load` runs on TPC-H (22 queries cycled) against a"
             % (_read(d, "commit.txt") or "?", _read(d, "date.txt") or "?"))
    w.append("fresh release `catalyzerd` per run with `--worker-isolation thread` (analysis on threads of the daemon)")
    w.append("and with the default `--worker-isolation process` (a crash costs one request; issue 13), %s s per run," % secs)
    w.append("the two alternating over %s rounds; the figure is the median of the rounds (each round in brackets)." % rounds)
    w.append("Daemon CPU is the daemon's user + system time plus its worker processes', per completed call.")
    w.append("Generator and daemon share the machine's 2 cores.")
    w.append("")
    w.append("| run | isolation | req/s | vs threads | p50 ms | p99 ms | daemon CPU µs/call | errors |")
    w.append("|---|---|---|---|---|---|---|---|")
    verdict = None
    cpu_verdict = None
    for run, label in RUNS:
        base_us = None
        base = None
        for cfg, cfg_label in CONFIGS:
            rs = _runs(d, cfg, run)
            if not rs:
                continue
            tps = [r["throughput_rps"] for r in rs]
            med = statistics.median(tps)
            if cfg == "thread":
                base = med
            p50 = statistics.median([r["latency_us"]["p50"] for r in rs]) / 1000
            p99 = statistics.median([r["latency_us"]["p99"] for r in rs]) / 1000
            us = [cpu[(cfg, run, r["_round"])] / r["requests"] * 1e6 for r in rs
                  if (cfg, run, r["_round"]) in cpu and r.get("requests")]
            errs = sum(sum(r.get("errors", {}).values()) for r in rs)
            delta = (med / base - 1) * 100 if base and cfg != "thread" else None
            if run == "saturating-lean" and delta is not None:
                verdict = delta
            if us and cfg == "thread":
                base_us = statistics.median(us)
            if run == "saturating-lean" and us and base_us and cfg != "thread":
                cpu_verdict = (statistics.median(us) / base_us - 1) * 100
            w.append("| %s | %s | %s (%s) | %s | %.3f | %.3f | %s | %d |" % (
                label, cfg_label, "{:,.0f}".format(med), ", ".join("{:,.0f}".format(x) for x in tps),
                "%+.1f %%" % delta if delta is not None else "", p50, p99,
                "%.1f" % statistics.median(us) if us else "", errs))
    w.append("")
    if verdict is not None:
        w.append("Target (issue 13): isolation costs at most %.0f %% of saturating TPC-H throughput. This run's "
                 "throughput: %+.1f %%; its daemon CPU per call: %s. Throughput only shows the cost when the daemon "
                 "has the cores to itself: on a machine busy with other work (see the load averages below) both "
                 "configurations are starved alike, so the CPU each call costs is the figure that decides — "
                 "**%s**." % (TARGET, verdict, "%+.1f %%" % cpu_verdict if cpu_verdict is not None else "?",
                              "met" if verdict >= -TARGET and (cpu_verdict is None or cpu_verdict <= TARGET)
                              else "not met"))
        w.append("")
    w.append("Commands (PORT from the first log line):")
    w.append("")
    w.append("```")
    for cfg, _ in CONFIGS:
        c = _read(d, "%s.daemon.cmd" % cfg)
        if c:
            w.append(c)
    for run, _ in RUNS:
        c = _read(d, "%s.cmd" % run)
        if c:
            w.append(c)
    w.append("```")
    w.append("")
    loads = _read(d, "loadavg.txt")
    if loads:
        w.append("<details><summary>1-minute load average after each run (isolation, run, round, load)</summary>")
        w.append("")
        w.append("```")
        w.extend(loads.splitlines())
        w.append("```")
        w.append("")
        w.append("</details>")
        w.append("")
    w.append(END)
    return w


def main():
    out_dir, dest = sys.argv[1], sys.argv[2]
    write_section(dest, render(out_dir), BEGIN, END, "no isolation results in " + out_dir)


if __name__ == "__main__":
    main()
