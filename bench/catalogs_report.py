#!/usr/bin/env python3
"""The "External catalogs" section of BENCHMARKS.md from bench/catalogs.sh's
results (OUT/catalogs). report.py calls render(); run by itself
(python3 bench/catalogs_report.py OUT BENCHMARKS.md) it replaces the section
between its markers in an existing report, or appends it (benchmarks_section.py)."""
import json
import os
import statistics
import sys

from benchmarks_section import write_section

BEGIN = "<!-- catalogs-bench:begin -->"
END = "<!-- catalogs-bench:end -->"


def _load(d, name):
    try:
        with open(os.path.join(d, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _medians(doc):
    return {q["query"]: q["median_us"] for q in doc["queries"] if q["status"] == "ok"}


def _jdbc(d, lines):
    inline, warm, cold, loads = (_load(d, n) for n in ("inline.json", "warm.json", "cold.json", "cold_loads.json"))
    lines += ["### JDBC over PostgreSQL", ""]
    if not (inline and warm and cold and loads):
        lines += ["Not measured in this run (bench/catalogs.sh did not finish).", ""]
        return
    med, wmed, cmed = _medians(inline), _medians(warm), _medians(cold)
    common = sorted(set(med) & set(wmed) & set(cmed))
    ratios = [wmed[q] / med[q] for q in common]
    inline_sum, warm_sum, cold_sum = (sum(m[q] for q in common) for m in (med, wmed, cmed))
    per_load = (cold_sum - warm_sum) * loads["iter_cold"] / max(loads["table_loads"], 1)
    lines += [
        "The TPC-DS queries parsed and analysed in process (`catalyzer bench`) against the tables created in "
        "the session (inline) and against the same tables in PostgreSQL read through Spark's `JDBCTableCatalog` "
        "(`spark.sql.defaultCatalog=pg`), with a warm cache and with `cacheTtlSeconds=0` (every analysis loads "
        "every table it names, over a loopback TCP connection to %s)." % loads["postgres"],
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
        ""]


def _remote(d, lines):
    inline, warm, cold, loads = (_load(d, n) for n in ("inline.json", "remote_warm.json", "remote_cold.json",
                                                          "remote_loads.json"))
    lines += ["### Remote catalog (catalyzer.remote)", ""]
    if not (inline and warm and cold and loads):
        lines += ["Not measured in this run (bench/catalogs.sh did not reach it, or no example provider could "
                  "run).", ""]
        return
    med, wmed, cmed = _medians(inline), _medians(warm), _medians(cold)
    common = sorted(set(med) & set(wmed) & set(cmed))
    ratios = [wmed[q] / med[q] for q in common]
    inline_sum, warm_sum, cold_sum = (sum(m[q] for q in common) for m in (med, wmed, cmed))
    per_load = (cold_sum - warm_sum) * loads["iter_cold"] / max(loads["table_loads"], 1)
    ir = loads.get("instructions_per_analysis") or {}
    lines += [
        "The same queries through the remote catalog (`spark.sql.catalog.rc=catalyzer.remote`, `USE rc.tpcds`): "
        "the %s example provider (`providers/%s`) serves `schema.sql` over gRPC on loopback; warm: the tables "
        "in the cache; cold: `cacheTtlSeconds=0` with the provider's `--unversioned`, so every analysis loads "
        "every table it names (LoadTable, the answer converted and cached)." % (loads["provider"].capitalize(),
                                                                              loads["provider"]),
        ""]
    if ir.get("inline") and ir.get("remote_warm"):
        over = ir["remote_warm"] / ir["inline"] - 1
        lines += [
            "**Warm cache: %+.1f%% instructions per analysis over the inline catalog** (callgrind, mean over the "
            "%d queries: %.0f vs %.0f; the target is ≤ 10%%: %s). Instructions, not time: this machine's time "
            "figures below move with its load%s." % (100 * over, len(med), ir["remote_warm"], ir["inline"],
                                                     "met" if over <= 0.10 else "NOT met",
                                                     " (load average %s at the end of the run)" % loads["load_average"]
                                                     if loads.get("load_average") else ""),
            ""]
    lines += [
        "| catalog | queries | median µs (of per-query medians) | sum of medians µs | vs inline |",
        "|---|---|---|---|---|",
        "| inline | %d | %.1f | %.0f | 1.00× |" % (len(common), statistics.median(med[q] for q in common), inline_sum),
        "| remote, warm cache | %d | %.1f | %.0f | %.2f× (median per-query ratio %.2f×) |"
        % (len(common), statistics.median(wmed[q] for q in common), warm_sum, warm_sum / inline_sum,
           statistics.median(ratios)),
        "| remote, cold (every table loaded) | %d | %.1f | %.0f | %.1f× |"
        % (len(common), statistics.median(cmed[q] for q in common), cold_sum, cold_sum / inline_sum),
        "",
        "Cold: %d table loads in %d analyses; **%.0f µs per table loaded** (cold minus warm time over the loads). "
        "Iterations: %d (inline, warm), %d (cold). The cache's memory bound under a 100,000-table catalog is a "
        "test (`catalogs-cache-bound`), not a benchmark." % (loads["table_loads"], loads["analyses"], per_load,
                                                            loads["iter_cz"], loads["iter_cold"]),
        ""]


def render(out):
    d = os.path.join(out, "catalogs")
    lines = [BEGIN, "## External catalogs", "", "`bash bench/catalogs.sh` (run by `bench/run.sh`).", ""]
    _jdbc(d, lines)
    _remote(d, lines)
    lines.append(END)
    return lines


if __name__ == "__main__":
    write_section(sys.argv[2], render(sys.argv[1]), BEGIN, END, "no catalogs results in " + sys.argv[1])
