#!/usr/bin/env python3
"""Renders bench/single_pass.sh's results as the `Single-pass resolver`
section of BENCHMARKS.md (spliced by benchmarks_section.py).
Usage: single_pass_report.py OUT_DIR BENCHMARKS.md"""
import json, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmarks_section import write_section  # noqa: E402

BEGIN = "<!-- BEGIN single_pass (bench/single_pass.sh) -->"
END = "<!-- END single_pass -->"
SETS = ["tpcds", "tpcds-v2.7.0", "tpch"]


def med(qs, key):
    v = [q["phases"][key] if key in q.get("phases", {}) else q[key] for q in qs if q.get("status") == "ok"]
    return statistics.median(v) if v else 0.0


def main():
    out, dest = sys.argv[1], sys.argv[2]
    ins = {}
    if os.path.exists(os.path.join(out, "instructions.txt")):
        for line in open(os.path.join(out, "instructions.txt")):
            s, sp, n, it, a, b = line.split()
            ins[(s, sp)] = (int(b) - int(a)) / int(it) / int(n)
    load = {}
    for line in open(os.path.join(out, "loadavg.txt")):
        s, sp, l = line.split()
        load[(s, sp)] = l
    date = open(os.path.join(out, "date.txt")).read().strip()
    machine = dict(l.strip().split("=", 1) for l in open(os.path.join(out, "machine.txt")) if "=" in l)
    L = [BEGIN, "## Single-pass resolver (issue 15)", "",
         f"`bash bench/single_pass.sh`, {date}, commit {machine.get('commit')}, {machine.get('nproc')} cores. "
         "The same queries, parse + analyse in process, with the fixed-point batches "
         "(`catalyzer.analyzer.singlePass=false`, the default) and with the single-pass resolver "
         "(`singlePass=true`; a plan its guard declines goes to the batches, as in the daemon). "
         "Instructions are callgrind's count per query (runs of 1 and 1+N iterations, the difference over N "
         "and the queries): they do not depend on the machine's load. Times are medians over the queries of "
         "each query's median, on a machine shared with other work (load average in the table): noisy.", "",
         "| set | analyzer | instructions / query | median parse+analyse µs | median resolve µs | median arena KiB | load |",
         "|---|---|---:|---:|---:|---:|---:|"]
    for s in SETS:
        for sp, name in (("false", "fixed point"), ("true", "single pass")):
            p = os.path.join(out, f"{s}-{sp}.json")
            if not os.path.exists(p):
                continue
            qs = json.load(open(p))["queries"]
            i = ins.get((s, sp))
            L.append(f"| {s} | {name} | {i:,.0f} | {med(qs, 'median_us'):.1f} | {med(qs, 'resolve_us'):.1f} | "
                     f"{med(qs, 'arena_bytes') / 1024:.0f} | {load.get((s, sp), '?')} |" if i is not None else
                     f"| {s} | {name} | – | {med(qs, 'median_us'):.1f} | {med(qs, 'resolve_us'):.1f} | "
                     f"{med(qs, 'arena_bytes') / 1024:.0f} | {load.get((s, sp), '?')} |")
    L += ["", "Ratios (fixed point ÷ single pass, instructions): " + ", ".join(
        f"{s} {ins[(s, 'false')] / ins[(s, 'true')]:.2f}×" for s in SETS if (s, 'false') in ins and (s, 'true') in ins),
        ""]
    dr = os.path.join(out, "dual_run.txt")
    if os.path.exists(dr):
        lines = [l.rstrip() for l in open(dr) if l.startswith("dual run:")]
        if lines:
            L += ["Coverage (the dual run over the corpora, `tests/conformance/dual_run.py`: queries the single pass "
                  "answered as the batches do / queries analysed; any mismatch fails meson test `dual_run`):", "",
                  "```"] + lines + ["```", ""]
    L += [END]
    write_section(dest, L, BEGIN, END, "single_pass_report: nothing to write")


if __name__ == "__main__":
    main()
