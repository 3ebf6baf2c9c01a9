#!/usr/bin/env python3
"""Write BENCHMARKS.md from the results directory bench/run.sh filled.
Usage: report.py RESULTS_DIR OUTPUT.md
Every figure in the output comes from files of that one run."""
import glob
import json
import math
import os
import statistics
import sys

OUT = sys.argv[1]
DEST = sys.argv[2]
SETS = ["tpcds", "tpcds-v2.7.0", "tpch"]
SET_TITLE = {"tpcds": "TPC-DS (103 queries)", "tpcds-v2.7.0": "TPC-DS v2.7 (16 queries)", "tpch": "TPC-H (22 queries)"}
PEERS = ["duckdb", "postgres", "sqlite"]
PEER_TITLE = {"duckdb": "DuckDB", "postgres": "PostgreSQL", "sqlite": "SQLite"}
GROWTH_LIMIT = 2.3
BASELINE = "(baseline: SELECT 1)"


def read(path, default=""):
    try:
        with open(os.path.join(OUT, path)) as f:
            return f.read().strip()
    except OSError:
        return default


def kv(path):
    d = {}
    for line in read(path).splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            d[k.strip()] = v.strip()
    return d


def jsonl(path):
    rows = {}
    for line in read(path).splitlines():
        line = line.strip()
        if line:
            o = json.loads(line)
            rows[o["query"]] = o
    return rows


def us(x):
    if x is None:
        return "–"
    if x >= 100000:
        return "{:,.0f}".format(x)
    if x >= 100:
        return "%.0f" % x
    return "%.1f" % x


def ratio(x):
    if x is None:
        return "–"
    return ("%.1f×" % x) if x < 100 else ("%.0f×" % x)


def kib(b):
    return "{:,.0f}".format(b / 1024)


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def med(xs):
    return statistics.median(xs) if xs else None


machine = kv("machine.txt")
knobs = read("knobs.txt")
lines = []
w = lines.append

# ------------------------------------------------------------------ data ----
cz = {}
for s in SETS:
    d = json.loads(read("cz/%s.json" % s, "{}") or "{}")
    cz[s] = {q["query"]: q for q in d.get("queries", [])}
    cz[s + "/iterations"] = d.get("iterations")
peers = {(p, s): jsonl("peers/%s-%s.jsonl" % (p, s)) for p in PEERS for s in SETS}


def peer_base(p):
    """the peer's own overhead: its lowest SELECT 1 median over the sets (a
    property of the peer, not of the set; the lowest resists a noisy moment)"""
    xs = [peers[(p, s)][BASELINE]["median_us"] for s in SETS if BASELINE in peers[(p, s)]]
    return min(xs) if xs else 0.0


def peer_ratios(p, s, net=False):
    """per-query peer/Catalyzer ratios over the queries the peer accepted"""
    rows = peers[(p, s)]
    base = peer_base(p) if net else 0.0
    out = {}
    for q, c in cz[s].items():
        r = rows.get(q)
        if r and r.get("status") == "ok" and c["status"] == "ok":
            out[q] = max(r["median_us"] - base, 0.0) / c["median_us"]
    return out


# ---------------------------------------------------------------- header ----
w("# Catalyzer benchmarks")
w("")
w("Figures from one run of `bash bench/run.sh` (written by `bench/report.py`; do not edit by hand — rerun).")
w("Timings taken with the TPC-H/TPC-DS query texts are not TPC benchmark results.")
w("")
w("| | |")
w("|---|---|")
w("| date | %s |" % read("date.txt"))
mod = int(machine.get("modified", "0") or 0)
w("| commit | `%s`%s |" % (machine.get("commit", "?"),
                          " (working tree with %d modified tracked files, built as is)" % mod if mod else ""))
w("| machine | %s cores (`nproc`), %s, %.1f GiB memory |" % (
    machine.get("nproc"), machine.get("cpu"), int(machine.get("mem_kib", "0")) / 1048576))
w("| kernel / OS | %s / %s |" % (machine.get("kernel"), machine.get("os")))
w("| compiler | gcc %s, meson `-Dbuildtype=release -Dwerror=false` (-O3) |" % machine.get("gcc"))
w("| peers | DuckDB %s (libduckdb.so from npm `%s`), %s, SQLite %s |" % (
    machine.get("duckdb"), machine.get("duckdb_npm"), machine.get("postgres"), machine.get("sqlite")))
w("| load average at start / end | %s / %s |" % (" ".join(read("loadavg_start.txt").split()[:3]),
                                               " ".join(read("loadavg_end.txt").split()[:3])))
w("| iteration counts | %s |" % knobs)
w("| priority | measuring processes at `%s` (`renice`, as root) |" % read("priority.txt", "nice=0"))
w("| run time | %s s |" % read("elapsed_s.txt"))
w("")
w("The machine is shared: other work (builds, tests) may run at the same time, as the load average")
w("shows. Medians resist that noise; Catalyzer and the peers run back to back per query set so")
w("they see the same load.")
w("")

# --------------------------------------------------------------- summary ----
w("## Summary")
w("")
w("In process, parse + analyse of each query (`catalyzer bench --json`), median of the per-query medians:")
w("")
w("| set | queries (ok) | median µs | sum of medians µs | median arena KiB | max arena KiB |")
w("|---|---|---|---|---|---|")
for s in SETS:
    rows = list(cz[s].values())
    ok = [r for r in rows if r["status"] == "ok"]
    w("| %s | %d (%d) | %s | %s | %s | %s |" % (
        SET_TITLE[s], len(rows), len(ok), us(med([r["median_us"] for r in rows])),
        us(sum(r["median_us"] for r in rows)), kib(med([r["arena_bytes"] for r in rows]) or 0),
        kib(max([r["arena_bytes"] for r in rows] or [0]))))
w("")
w("Peers on the same queries, as **peer time ÷ Catalyzer time** per query (above 1×: Catalyzer is faster),")
w("over the queries the peer accepted. *Raw* times the peer's call as is; *net* first subtracts the")
w("peer's own time for `SELECT 1` (per-statement overhead, and for PostgreSQL a tenth of a socket round")
w("trip; the lowest of the peer's three `SELECT 1` medians), which favours the peer.")
w("")
w("*Sum* is the peer's sum of medians over the Catalyzer's, on the accepted queries.")
w("")
w("| set | peer | accepted | median ratio (raw) | median ratio (net) | geomean (raw) | sum (raw) | lowest (raw) | peer's `SELECT 1` µs |")
w("|---|---|---|---|---|---|---|---|---|")
headline = {}
for s in SETS:
    for p in PEERS:
        raw = peer_ratios(p, s)
        net = peer_ratios(p, s, net=True)
        rows = peers[(p, s)]
        n = len(cz[s])
        base = rows.get(BASELINE, {}).get("median_us")
        headline[(p, s)] = (med(list(raw.values())), med(list(net.values())))
        psum = sum(rows[q]["median_us"] for q in raw)
        csum = sum(cz[s][q]["median_us"] for q in raw)
        w("| %s | %s | %d/%d | %s | %s | %s | %s | %s | %s |" % (
            SET_TITLE[s], PEER_TITLE[p], len(raw), n, ratio(med(list(raw.values()))),
            ratio(med(list(net.values()))), ratio(geomean(raw.values())), ratio(psum / csum if csum else None),
            ratio(min(raw.values()) if raw else None), us(base)))
w("")

# --------------------------------------------------------------- targets ----
growth = {}
for f in sorted(glob.glob(os.path.join(OUT, "growth", "*.json"))):
    name = os.path.basename(f)[:-5]
    family, size = name.rsplit("-", 1)
    d = json.load(open(f))
    growth.setdefault(family, []).append((int(size), d["queries"][0], d["iterations"]))
for v in growth.values():
    v.sort(key=lambda x: x[0])
ORDER = ["columns", "chained_projections", "union_all", "nested_subqueries", "ctes", "sql_function_chain"]
# instructions per analysed query by callgrind (bench/growth_cg.sh); absent in older runs
growth_ir = {}
for line in read("growth/instructions.txt").splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[2].isdigit() and int(parts[2]) > 0:
        growth_ir[(parts[0], int(parts[1]))] = int(parts[2])
growth = {k: growth[k] for k in sorted(growth, key=lambda k: ORDER.index(k) if k in ORDER else len(ORDER))}
daemon = {}
for f in glob.glob(os.path.join(OUT, "daemon", "*.json")):
    daemon[os.path.basename(f)[:-5]] = json.load(open(f))
dinfo = kv("daemon/info.txt")
rss_peak = dict(l.split() for l in read("daemon/rss_peak.txt").splitlines() if l.strip())
dload = dict(l.split() for l in read("daemon/loadavg.txt").splitlines() if l.strip())

w("## Targets (issue 7)")
w("")
w("| target | figure of this run | met? |")
w("|---|---|---|")
for p in PEERS:
    raw, net = headline[(p, "tpcds")]
    w("| median TPC-DS query ≥ 10× faster than %s | %s raw, %s net | %s |" % (
        PEER_TITLE[p], ratio(raw), ratio(net), "yes" if net and net >= 10 else ("raw only" if raw and raw >= 10 else "**no**")))
sat = daemon.get("saturating-lean") or daemon.get("saturating")
if sat:
    w("| ≥ 20,000 TPC-H Analyze/s through the daemon | %s/s (saturating, lean), %s/s (full responses) | %s |" % (
        "{:,.0f}".format(daemon.get("saturating-lean", {}).get("throughput_rps", 0)),
        "{:,.0f}".format(daemon.get("saturating", {}).get("throughput_rps", 0)),
        "yes" if sat["throughput_rps"] >= 20000 else "**no**"))
hr = daemon.get("half-rate-lean")
if hr:
    p99 = hr["latency_us"]["p99"]
    w("| p99 < 5 ms at half the saturating rate | p99 %s ms at %s/s offered (lean); %s ms with full responses | %s |" % (
        "%.2f" % (p99 / 1000), "{:,.0f}".format(hr["rate"]),
        "%.2f" % (daemon.get("half-rate", {}).get("latency_us", {}).get("p99", 0) / 1000),
        "yes" if p99 < 5000 else "**no**"))
worst = []
for family, pts in growth.items():
    for (n0, q0, _), (n1, q1, _) in zip(pts, pts[1:]):
        if q0["status"] == "ok" and q1["status"] == "ok":
            worst.append((q1["median_us"] / q0["median_us"], q1["min_us"] / q0["min_us"], family, n0, n1))
if worst:
    over = [x for x in worst if x[0] > GROWTH_LIMIT]
    over_min = [x for x in worst if x[1] > GROWTH_LIMIT]
    wr = max(worst)
    wm = max(worst, key=lambda x: x[1])
    w("| every growth doubling ≤ %.1f× in time | by median time: worst %.1f× (%s %d→%d), %d of %d doublings over; "
      "by min time: worst %.1f× (%s %d→%d), %d over | %s |" % (
          GROWTH_LIMIT, wr[0], wr[2].replace("_", " "), wr[3], wr[4], len(over), len(worst),
          wm[1], wm[2].replace("_", " "), wm[3], wm[4], len(over_min),
          "yes" if not over and not over_min else ("by min time only" if not over_min else "**no**")))
w("")

# ------------------------------------------------------ targets (issue 15) ----
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import phases_report  # noqa: E402


def yes(ok):
    return "yes" if ok else "**no**"


w("## Targets (issue 15)")
w("")
w("Every figure from this run: medians of the per-query medians in process (Summary), the median")
w("per-query peer ratio (raw), the growth doublings (Growth), the daemon's full-response runs (Through")
w("the daemon) and the phase series (Where the time goes). A missed target's profile is under")
w("\"Profiles behind the missed targets\" below.")
w("")
w("| target | figure of this run | met? |")
w("|---|---|---|")
for s, limit in (("tpcds", 10.0), ("tpch", 5.0)):
    m = med([r["median_us"] for r in cz[s].values() if r["status"] == "ok"])
    if m is not None:
        w("| median %s parse + analyse ≤ %.0f µs | %s µs | %s |" % (SET_TITLE[s].split(" (")[0], limit, us(m), yes(m <= limit)))
arena = med([r["arena_bytes"] for r in cz["tpcds"].values()])
if arena is not None:
    w("| median TPC-DS arena ≤ 32 KiB | %s KiB | %s |" % (kib(arena), yes(arena <= 32 * 1024)))
for p, limit in (("postgres", 10), ("sqlite", 10), ("duckdb", 50)):
    raw, _ = headline.get((p, "tpcds"), (None, None))
    if raw is not None:
        w("| TPC-DS ≥ %d× %s (median per-query ratio) | %s | %s |" % (limit, PEER_TITLE[p], ratio(raw), yes(raw >= limit)))
tw, mw = [], []
for family, pts in growth.items():
    for (n0, q0, _), (n1, q1, _) in zip(pts, pts[1:]):
        if q0["status"] == "ok" and q1["status"] == "ok":
            tw.append((q1["median_us"] / q0["median_us"], family, n0, n1))
            if q0.get("arena_bytes"):
                mw.append((q1["arena_bytes"] / q0["arena_bytes"], family, n0, n1))
iw = []
for family, pts in growth.items():
    for (n0, q0, _), (n1, q1, _) in zip(pts, pts[1:]):
        if q0["status"] == "ok" and q1["status"] == "ok" and (family, n0) in growth_ir and (family, n1) in growth_ir:
            iw.append((growth_ir[(family, n1)] / growth_ir[(family, n0)], family, n0, n1))
for label, xs in (("time (median)", tw), ("memory (arena)", mw), ("instructions (callgrind)", iw)):
    if xs:
        x = max(xs)
        w("| every growth doubling ≤ 2.2× in %s | worst %.2f× (%s %d→%d), %d of %d over | %s |" % (
            label, x[0], x[1].replace("_", " "), x[2], x[3], len([y for y in xs if y[0] > 2.2]), len(xs), yes(x[0] <= 2.2)))
full = daemon.get("saturating")
if full:
    w("| ≥ 30,000 TPC-H Analyze/s through the daemon, full responses | %s/s | %s |" % (
        "{:,.0f}".format(full["throughput_rps"]), yes(full["throughput_rps"] >= 30000)))
hrf = daemon.get("half-rate")
if hrf:
    p99 = hrf["latency_us"]["p99"]
    w("| p99 < 2 ms at half the full-response rate | p99 %.2f ms at %s/s offered | %s |" % (
        p99 / 1000, "{:,.0f}".format(hrf["rate"]), yes(p99 < 2000)))
for s, title, n, meds, kb_all, kb_med, enc in phases_report.figures(OUT):
    if s == "tpcds":
        w("| TPC-DS parses at ≤ 2 µs per KB | %s µs/KB (the set), %s (median query) | %s |" % (
            phases_report.fmt(kb_all), phases_report.fmt(kb_med), yes(kb_all is not None and kb_all <= 2)))
    w("| %s: encoding ≤ 25%% of analysis | %.0f%% (median per query) | %s |" % (title, enc * 100, yes(enc <= 0.25)))
w("| phase breakdown per set (parse, resolve, check, encode) | see \"Where the time goes\" | %s |" % yes(
    bool(phases_report.figures(OUT))))
w("")
notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "PROFILES.md")
if os.path.exists(notes):
    w("### Profiles behind the missed targets")
    w("")
    w("Hand-written from profiles (bench/PROFILES.md, which names the commit and command of each); the")
    w("figures above are this run's.")
    w("")
    for line in open(notes).read().splitlines()[1:]:  # its own title dropped
        w(line)
    if lines[-1] != "":
        w("")

# ---------------------------------------------------------------- growth ----
w("## Growth")
w("")
w("Generated by `bench/growth.py` against `t(a INT, b INT)` (the wide tables are created in the query")
w("file, outside the timed statement). Each size runs as many times as fit in the budget (at least 3).")
w("Ratios compare each size with the previous (half) size; **bold ⚠** marks a doubling over %.1f×." % GROWTH_LIMIT)
w("The min-time ratio is given too, as it is less sensitive to a loaded machine.")
if growth_ir:
    w("Instructions: per analysed query, by callgrind (`bench/growth_cg.sh`: `catalyzer bench` at 1 and 1+K")
    w("iterations, the difference / K, so start-up, the schema and the file's leading statements cancel out);")
    w("unlike the times, they do not depend on the machine's load or caches.")
w("")
w("| family | size | runs | median µs | min µs | arena KiB | time ratio (median) | time ratio (min) | memory ratio "
  "| instructions | instruction ratio |")
w("|---|---|---|---|---|---|---|---|---|---|---|")


def irs(x):
    return "–" if x is None else "{:,}".format(x)


def gr(x):
    if x is None:
        return "–"
    s = "%.2f×" % x
    return "**%s ⚠**" % s if x > GROWTH_LIMIT else s


for family, pts in growth.items():
    prev = prev_ir = None
    for size, q, iters in pts:
        ir = growth_ir.get((family, size))
        if q["status"] != "ok":
            w("| %s | %d | %d | %s | | | error | | | | |" % (family.replace("_", " "), size, iters, q["status"]))
            prev = prev_ir = None
            continue
        rt = rm = rb = ri = None
        if prev:
            rt = q["median_us"] / prev["median_us"]
            rm = q["min_us"] / prev["min_us"]
            rb = q["arena_bytes"] / prev["arena_bytes"]
            ri = ir / prev_ir if ir and prev_ir else None
        w("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            family.replace("_", " "), size, iters, us(q["median_us"]), us(q["min_us"]), kib(q["arena_bytes"]),
            gr(rt), gr(rm), gr(rb), irs(ir), gr(ri)))
        prev, prev_ir = q, ir
w("")
w("Shapes: `columns` = `SELECT c1, ..., cN FROM wide_N`; `chained projections` = `SELECT a + 1 AS a, b FROM (SELECT a + 1 AS a, b FROM (... t))`;")
w("`union all` = N × `SELECT a, b + i AS b FROM t`; `nested subqueries` = `SELECT a FROM t WHERE b > i AND a IN (SELECT ...)` N deep;")
w("`ctes` = `WITH c1 AS (SELECT a, b FROM t), c2 AS (SELECT a + 1 AS a, b FROM c1), ... SELECT a, b FROM cN`;")
w("`sql function chain` = `SELECT fN(1)` after `CREATE TEMPORARY FUNCTION f1(x INT) RETURNS INT RETURN x + 1`, ..., "
  "`fi(x INT) ... RETURN f(i-1)(x) + 1` (the call expands the whole chain).")
w("")

# ---------------------------------------------------------------- daemon ----
w("## Through the daemon")
w("")
w("`catalyzerd --grpc 127.0.0.1:0 --http 127.0.0.1:0` (release build, %s worker threads = cores), driven by" % dinfo.get("workers", "?"))
w("`catalyzer-load` (client/load, gRPC over HTTP/2) on the TPC-H workload (22 queries cycled, schema")
w("registered once per connection), %s s per run. The load generator runs on the same 2 cores as the daemon." % (
    knobs.split("LOAD_SECONDS=")[-1] if "LOAD_SECONDS=" in knobs else "?"))
w("*Lean* asks for neither the tree string nor the structured plan (`--lean`); the other runs get full responses.")
w("Open-loop runs (`--rate`) measure latency from each request's due time (no coordinated omission).")
w("")
w("The last column is the machine's 1-minute load average when the run ended (both cores are busy")
w("with the daemon and the generator alone at about 2; more means other work shared the machine).")
w("")
w("| run | connections × streams | mode | requests | errors | req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | peak RSS MiB | load |")
w("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for name in ["c1", "c2", "saturating", "saturating-lean", "half-rate", "half-rate-lean"]:
    d = daemon.get(name)
    if not d:
        w("| %s | | | | | failed: %s | | | | | | | |" % (name, read("daemon/%s.err" % name).replace("\n", " ")[:120]))
        continue
    L = d["latency_us"]
    nerr = sum(d.get("errors", {}).values()) + d.get("analysis_errors", 0)
    mode = d["mode"] + (" %s/s" % "{:,.0f}".format(d["rate"]) if d.get("rate") else "") + (", lean" if d.get("lean") else "")
    w("| %s | %d × %d | %s | %s | %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %s |" % (
        name, d["connections"], d["concurrency"], mode, "{:,}".format(d["requests"]), nerr,
        "{:,.0f}".format(d["throughput_rps"]), L["p50"] / 1000, L["p90"] / 1000, L["p99"] / 1000, L["p99.9"] / 1000,
        L["max"] / 1000, int(rss_peak.get(name, 0)) / 1024, dload.get(name, "?")))
w("")
w("RSS of catalyzerd: %.1f MiB at rest after start, %.1f MiB at rest after the load runs, %.1f MiB at most under load." % (
    int(dinfo.get("rss_start_kib", 0)) / 1024, int(dinfo.get("rss_after_kib", 0)) / 1024,
    max([int(v) for v in rss_peak.values()] or [0]) / 1024))
w("")
w("Commands (PORT from the daemon's first log line):")
w("")
w("```")
for name in ["c1", "c2", "saturating", "saturating-lean", "half-rate", "half-rate-lean"]:
    c = read("daemon/%s.cmd" % name)
    if c:
        w(c)
w("```")
w("")

# ------------------------------------------------------------- security ----
import security_report  # noqa: E402

lines.extend(phases_report.render(OUT))
if lines[-1] != "":
    w("")
lines.extend(security_report.render(OUT))
import connect_report  # noqa: E402

lines.extend(connect_report.render(OUT))
if lines[-1] != "":
    w("")
import catalogs_report  # noqa: E402

lines.extend(catalogs_report.render(OUT))
if lines[-1] != "":
    w("")

# ------------------------------------------------------------- isolation ----
import isolation_report  # noqa: E402

lines.extend(isolation_report.render(OUT))
if lines[-1] != "":
    w("")

# ------------------------------------------------------------- scaleout ----
import scaleout_report  # noqa: E402

lines.extend(scaleout_report.render(OUT))
if lines[-1] != "":
    w("")

# ------------------------------------------------------------- per query ----
w("## Per query")
w("")
w("Catalyzer: median / min µs of %s in-process runs and the arena bytes of one analysis; each peer:" % (
    cz.get("tpcds/iterations")))
w("median µs of its prepare over %s runs (PostgreSQL: messages of 10, see Method) and the ratio to Catalyzer's median (raw)." % (
    knobs.split("ITER_PEER=")[-1].split()[0] if "ITER_PEER=" in knobs else "?"))
w("`rejected` means the peer refused the (mechanically adapted) query; the reasons are listed below.")
for s in SETS:
    w("")
    w("### %s" % SET_TITLE[s])
    w("")
    w("| query | Catalyzer µs | min µs | arena KiB | DuckDB µs | × | PostgreSQL µs | × | SQLite µs | × |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for q, c in cz[s].items():
        cells = ["%s%s" % (q[:-4], "" if c["status"] == "ok" else " (error)"), us(c["median_us"]), us(c["min_us"]),
                 kib(c["arena_bytes"])]
        for p in PEERS:
            r = peers[(p, s)].get(q)
            if not r:
                cells += ["missing", ""]
            elif r["status"] != "ok":
                cells += ["rejected", ""]
            else:
                cells += [us(r["median_us"]), ratio(r["median_us"] / c["median_us"])]
        w("| " + " | ".join(cells) + " |")

w("")
w("## Queries the peers rejected")
w("")
for p in PEERS:
    for s in SETS:
        rej = [(q, r.get("error", "")) for q, r in peers[(p, s)].items() if r.get("status") != "ok"]
        if not rej:
            continue
        w("<details><summary>%s, %s: %d rejected</summary>" % (PEER_TITLE[p], SET_TITLE[s], len(rej)))
        w("")
        w("| query | first line of the error |")
        w("|---|---|")
        for q, e in rej:
            w("| %s | %s |" % (q[:-4], e.replace("|", "\\|")[:160]))
        w("")
        w("</details>")
        w("")

# --------------------------------------------------------------- method ----
w("## Method")
w("")
w("One command: `bash bench/run.sh` (as root on the project's Debian 12 machine). It")
w("")
w("1. installs what is missing: Debian `postgresql` (15), `libpq-dev`, `libsqlite3-dev`; npm `%s` into" % machine.get("duckdb_npm"))
w("   `build-bench-peers/` (it ships `libduckdb.so`). None of these is a dependency of the build or the tests;")
w("2. builds `meson setup build-bench -Dbuildtype=release -Dwerror=false` and `ninja -C build-bench client/catalyzer")
w("   client/load/catalyzer-load server/catalyzerd`, and the three peer timing programs in `bench/peers/`")
w("   with `gcc -O2`;")
w("3. per query set (TPC-DS, TPC-DS v2.7, TPC-H from `../shared/workloads`), back to back:")
w("   - `catalyzer bench --schema SET/schema.sql --iterations %s --json SET/q*.sql` — in process, one" % cz.get("tpcds/iterations"))
w("     session, the schema run once, each query parsed and analysed N times; the arena bytes are those of")
w("     one analysis (every node, string and temporary of the request);")
w("   - DuckDB (`bench/peers/duckdb_prepare.c`, DuckDB's C API from the npm package's library): in-memory")
w("     database, `SET threads = 1`, `PRAGMA disable_optimizer`, the schema; then `duckdb_prepare` timed")
w("     (parse, bind, logical plan and, as DuckDB's prepare always does, the physical plan; no optimizer);")
w("   - PostgreSQL (`bench/peers/pg_prepare.c`, libpq): a throwaway cluster (`initdb` + `pg_ctl` as the")
w("     `postgres` user, socket in a temp dir, no TCP, `fsync=off`), one database per set with the schema;")
w("     10 × `PREPARE bq AS <query>; DEALLOCATE bq;` sent as one simple-query message and timed, the time")
w("     divided by 10 (raw parse, parse analysis and rewrite — PostgreSQL plans at EXECUTE — plus its")
w("     per-statement overhead; one socket round trip per 10 statements, as a round trip costs more than")
w("     the analysis on an idle machine); the median of N/10 messages;")
w("   - SQLite (`bench/peers/sqlite_prepare.c`): in-memory database with the schema; `sqlite3_prepare_v2`")
w("     timed (parse, name resolution and code generation: SQLite has no separate bind step);")
w("   each peer prepares every query once first (a refusal is reported, not timed), then N timed runs;")
w("4. growth (`bench/growth.py`) with `catalyzer bench`, and its instructions by callgrind (`bench/growth_cg.sh`);")
w("5. the daemon with `catalyzer-load`, RSS from `/proc/PID/status` (VmRSS) sampled every 0.2 s.")
w("")
w("Steps 3–5 run under `renice -n BENCH_NICE` (default −10, as root; the PostgreSQL server and the daemon")
w("inherit it), so that builds or tests sharing the machine disturb the figures less.")
w("")
w("Adaptations for the peers (`bench/adapt.py`, the same text for all three; Catalyzer gets the")
w("original Spark text): backtick identifiers → double-quoted; `INTERVAL 30 days` → `INTERVAL '30 days'`;")
w("`STRING` → `VARCHAR` in the schemas; a trailing `;` dropped. Nothing else is rewritten, so Spark-only")
w("functions and syntax (`year()`, `date '...'` literals in SQLite, ...) count as rejections.")
w("")
iters_peer = knobs.split("ITER_PEER=")[-1].split()[0] if "ITER_PEER=" in knobs else "?"
w("Exact commands of this run, per set S in tpcds, tpcds-v2.7.0, tpch (`$WL` = `../shared/workloads`,")
w("`$R` = the results directory, `build-bench/bench-results`; tpcds-v2.7.0 uses tpcds' schema):")
w("")
w("```")
w("build-bench/client/catalyzer bench --schema $WL/S/schema.sql --iterations %s --json $WL/S/q*.sql" % cz.get("tpcds/iterations"))
w("python3 bench/adapt.py $WL/S $R/adapted/S")
w("$R/tools/duckdb_prepare %s $R/adapted/S/schema.sql $R/adapted/S/q*.sql" % iters_peer)
w("$R/tools/pg_prepare 'host=$PGTMP user=postgres dbname=S' %s $R/adapted/S/schema.sql $R/adapted/S/q*.sql" % iters_peer)
w("$R/tools/sqlite_prepare %s $R/adapted/S/schema.sql $R/adapted/S/q*.sql" % iters_peer)
w("python3 bench/growth.py $R/growth/sql")
w("build-bench/client/catalyzer bench --schema $R/growth/sql/schema.sql --iterations N --json $R/growth/sql/FAMILY/SIZE.sql")
if read("growth/instructions_cmd.txt"):
    w(read("growth/instructions_cmd.txt").replace("CZ", "build-bench/client/catalyzer", 1))
w("```")
w("")
w("<details><summary>Run log (each step with the 1-minute load average)</summary>")
w("")
w("```")
for l in read("steps.log").splitlines():
    w(l)
w("```")
w("")
w("</details>")
w("")
with open(DEST, "w") as f:
    f.write("\n".join(lines) + "\n")
