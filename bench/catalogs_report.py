#!/usr/bin/env python3
"""The "External catalogs" section of BENCHMARKS.md from bench/catalogs.sh's
results (OUT/catalogs). report.py calls render(); run by itself
(python3 bench/catalogs_report.py OUT BENCHMARKS.md) it replaces the section
between its markers in an existing report, or appends it."""
import json
import os
import statistics
import sys

BEGIN = "<!-- catalogs-bench:begin -->"
END = "<!-- catalogs-bench:end -->"


def _load(d, name):
    try:
        with open(os.path.join(d, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def render(out):
    d = os.path.join(out, "catalogs")
    inline, warm, cold, loads = (_load(d, n) for n in ("inline.json", "warm.json", "cold.json", "cold_loads.json"))
    lines = [BEGIN, "## External catalogs (JDBC over PostgreSQL)", ""]
    if not (inline and warm and cold and loads):
        lines += ["Not measured in this run (bench/catalogs.sh did not finish).", "", END]
        return lines
    med = {q["query"]: q["median_us"] for q in inline["queries"] if q["status"] == "ok"}
    wmed = {q["query"]: q["median_us"] for q in warm["queries"] if q["status"] == "ok"}
    cmed = {q["query"]: q["median_us"] for q in cold["queries"] if q["status"] == "ok"}
    common = sorted(set(med) & set(wmed) & set(cmed))
    ratios = [wmed[q] / med[q] for q in common]
    inline_sum, warm_sum, cold_sum = (sum(m[q] for q in common) for m in (med, wmed, cmed))
    per_load = (cold_sum - warm_sum) * loads["iter_cold"] / max(loads["table_loads"], 1)
    lines += [
        "`bash bench/catalogs.sh` (run by `bench/run.sh`): the TPC-DS queries parsed and analysed in process "
        "(`catalyzer bench`) against the tables created in the session (inline) and against the same tables "
        "in PostgreSQL read through Spark's `JDBCTableCatalog` (`spark.sql.defaultCatalog=pg`), with a warm "
        "cache and with `cacheTtlSeconds=0` (every analysis loads every table it names, over a loopback TCP "
        "connection to %s)." % loads["postgres"],
        "",
        "| catalog | queries | median µs (of per-query medians) | sum of medians µs | vs inline |",
        "|---|---|---|---|---|",
        "| inline | %d | %.1f | %.0f | 1.00× |" % (len(common), statistics.median(med[q] for q in common), inline_sum),
        "| JDBC, warm cache | %d | %.1f | %.0f | %.2f× (median per-query ratio %.2f×) |"
        % (len(common), statistics.median(wmed[q] for q in common), warm_sum, warm_sum / inline_sum,
           statistics.median(ratios)),
        "| JDBC, cold (every table loaded) | %d | %.1f | %.0f | %.1f× |"
        % (len(common), statistics.median(cmed[q] for q in common), cold_sum, cold_sum / inline_sum),
        "",
        "Cold: %d table loads in %d analyses; **%.0f µs per table loaded** (cold minus warm time over the loads). "
        "Iterations: %d (inline, warm), %d (cold)." % (loads["table_loads"], loads["analyses"], per_load,
                                                       loads["iter_cz"], loads["iter_cold"]),
        "", END]
    return lines


if __name__ == "__main__":
    out, dest = sys.argv[1], sys.argv[2]
    section = "\n".join(render(out)) + "\n"
    text = open(dest).read() if os.path.exists(dest) else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section.rstrip("\n") + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(dest, "w").write(text)
