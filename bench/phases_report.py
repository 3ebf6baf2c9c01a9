#!/usr/bin/env python3
"""The "Where the time goes" section of BENCHMARKS.md: the phase breakdown of
`catalyzer bench --phases` per query set (OUT/cz/SET.json, written by
bench/run.sh, or OUT/phases/cz/SET.json by bench/phases.sh). report.py calls
render(); run by itself (python3 bench/phases_report.py OUT BENCHMARKS.md) it
replaces the section between its markers in an existing report, or appends
it."""
import json
import os
import statistics
import sys

from benchmarks_section import write_section

BEGIN = "<!-- phases-bench:begin -->"
END = "<!-- phases-bench:end -->"
SETS = [("tpcds", "TPC-DS"), ("tpcds-v2.7.0", "TPC-DS v2.7"), ("tpch", "TPC-H")]
PHASES = ["parse", "resolve", "check", "output", "tree", "plan", "encode", "total"]


def _load(out_dir, s):
    try:
        with open(os.path.join(out_dir, "cz", s + ".json")) as f:
            d = json.load(f)
    except (OSError, ValueError):
        return None, []
    return d.get("iterations"), [q for q in d.get("queries", []) if "phases" in q]


def _read(out_dir, name):
    try:
        with open(os.path.join(out_dir, name)) as f:
            return f.read().strip()
    except OSError:
        return ""


def _f(x):
    return "—" if x is None else ("%.1f" % x if x < 100 else "%.0f" % x)


def figures(out_dir):
    """Per set with phase results: (set, title, queries, median µs per phase,
    parser µs/KB over the set, median per-query µs/KB, median encode ÷ analysis)."""
    rows = []
    for s, title in SETS:
        _, qs = _load(out_dir, s)
        if not qs:
            continue
        med = {p: statistics.median(q["phases"][p + "_us"] for q in qs) for p in PHASES}
        kb = sum(q["phases"]["sql_bytes"] for q in qs) / 1024.0
        parse_sum = sum(q["phases"]["parse_us"] for q in qs)
        per_kb = statistics.median(q["phases"]["parse_us"] / (q["phases"]["sql_bytes"] / 1024.0) for q in qs)
        # analysis: everything the lean response needs (parse, resolve, check, output)
        ratio = statistics.median(
            q["phases"]["encode_us"] /
            max(q["phases"]["parse_us"] + q["phases"]["resolve_us"] + q["phases"]["check_us"] + q["phases"]["output_us"], 1e-9)
            for q in qs)
        rows.append((s, title, len(qs), med, parse_sum / kb if kb else None, per_kb, ratio))
    return rows


def fmt(x):
    return _f(x)


def render(out_dir):
    iters = next((it for it, qs in (_load(out_dir, s) for s, _ in SETS) if qs), None)
    rows = [r[1:] for r in figures(out_dir)]
    if not rows:
        return []
    w = [BEGIN, "## Where the time goes (phases)", ""]
    cmd = _read(out_dir, "phases_cmd.txt") or "catalyzer bench --schema SCHEMA --iterations N --json --phases QUERIES"
    w.append("Per query, `%s` runs a second series of %s runs that build the full response the daemon sends" % (cmd, iters))
    w.append("(tree string, output attributes and the structured plan packed as protobuf) and times each phase")
    w.append("inside the library: *parse* (`${var}` substitution and the parser), *resolve* (the rule batches,")
    w.append("nested analyses included), *check* (CheckAnalysis), *output* (output attributes, schema string),")
    w.append("*tree* (the tree string), *plan* (structured plan and output attributes encoded and packed),")
    w.append("*encode* = tree + plan, *total* the whole call. Medians over the set of the per-query medians")
    w.append("(so the columns need not add up). *Encode ÷ analysis* is the median per query of encode over")
    w.append("parse + resolve + check + output (target ≤ 25%); the parser's µs per KB is the set's parse time")
    w.append("over its SQL text, and the median per query (target ≤ 2 µs/KB).")
    w.append("")
    w.append("| set | queries | " + " | ".join("%s µs" % p for p in PHASES) +
             " | encode ÷ analysis | parser µs/KB (set) | parser µs/KB (median) |")
    w.append("|" + "---|" * (len(PHASES) + 5))
    for title, n, med, kb_all, kb_med, ratio in rows:
        w.append("| %s | %d | %s | %.0f%% | %s | %s |" % (title, n, " | ".join(_f(med[p]) for p in PHASES), ratio * 100,
                                                          _f(kb_all), _f(kb_med)))
    w.append("")
    w.append(END)
    return w


def main():
    out_dir, dest = sys.argv[1], sys.argv[2]
    write_section(dest, render(out_dir), BEGIN, END, "no phase results in " + out_dir)


if __name__ == "__main__":
    main()
