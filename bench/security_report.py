#!/usr/bin/env python3
"""The "Cost of TLS and token checks" section of BENCHMARKS.md from the
results of bench/security.sh (OUT/security). report.py calls render(); run by
itself (python3 bench/security_report.py OUT BENCHMARKS.md) it replaces the
section between its markers in an existing report, or appends it."""
import glob
import json
import os
import re
import statistics
import sys

from benchmarks_section import write_section

BEGIN = "<!-- security-bench:begin -->"
END = "<!-- security-bench:end -->"
CONFIGS = [("plain", "cleartext", "none"), ("token", "cleartext", "bearer token (100 in the file)"),
           ("tls", "TLS 1.3", "none"), ("tls-token", "TLS 1.3", "bearer token"),
           ("mtls-token", "mutual TLS 1.3", "client certificate + bearer token")]


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
    """{(cfg, run): [(daemon s, generator s, round)]} from cpu.txt."""
    out = {}
    for line in _read(d, "cpu.txt").splitlines():
        f = line.split()
        if len(f) == 5:
            out.setdefault((f[0], f[1]), []).append((float(f[3]), float(f[4]), int(f[2])))
    return out


def _us_per_call(cpu, runs, cfg, run, which):
    """Median over the rounds of CPU microseconds per call (which: 0 daemon, 1 generator)."""
    by_round = {int(r.get("_round", i + 1)): r for i, r in enumerate(runs)}
    xs = []
    for c in cpu.get((cfg, run), []):
        r = by_round.get(c[2])
        if r and r.get("requests"):
            xs.append(c[which] / r["requests"] * 1e6)
    return statistics.median(xs) if xs else None


def _s_time(text):
    m = re.search(r"(\d+) connections in ([\d.]+)s; ([\d.]+) connections/user sec", text)
    r = re.search(r"(\d+) connections in (\d+) real seconds", text)
    if not (m and r):
        return None
    return int(r.group(1)) / max(1, int(r.group(2))), float(m.group(3))


def render(out_dir):
    d = os.path.join(out_dir, "security")
    if not os.path.isdir(d):
        return []
    w = []
    w.append(BEGIN)
    w.append("## Cost of TLS and token checks")
    w.append("")
    knobs = _read(d, "knobs.txt")
    secs = knobs.split("SEC_SECONDS=")[-1].split()[0] if "SEC_SECONDS=" in knobs else "?"
    rounds = knobs.split("SEC_ROUNDS=")[-1].split()[0] if "SEC_ROUNDS=" in knobs else "?"
    w.append("`bench/security.sh` at %s (%s; %s): the same `catalyzer-load` runs on TPC-H (22 queries cycled, lean"
             % (_read(d, "commit.txt") or "?", _read(d, "date.txt") or "?", _read(d, "openssl.txt") or "OpenSSL"))
    w.append("responses) against a fresh release `catalyzerd` per run in each configuration, %s s per run, the" % secs)
    w.append("configurations alternating over %s rounds (the figure is the median of the rounds, each round in" % rounds)
    w.append("brackets). Certificates are ECDSA P-256, made by the openssl CLI for the run. Connections are")
    w.append("long-lived (one TLS handshake per connection), so the figures are the cost per call of record")
    w.append("encryption and of the token check (SHA-256 of the presented token, compared with all 100 digests")
    w.append("in the file). Generator and daemon share the machine's 2 cores, so encryption on both sides of")
    w.append("the socket is counted.")
    w.append("")
    w.append("Throughput moves with whatever else runs on the machine; the CPU each call costs (the daemon's")
    w.append("user + system time from /proc over the saturating run, and the generator's, divided by the calls")
    w.append("it completed) is the steadier figure of what TLS and tokens add.")
    w.append("")
    w.append("| configuration | transport | authentication | saturating req/s (4 × 16) | vs cleartext | "
             "daemon CPU µs/call | generator CPU µs/call | 1 × 1 req/s | 1 × 1 p50 ms | 1 × 1 p99 ms | errors |")
    w.append("|---|---|---|---|---|---|---|---|---|---|---|")
    cpu = _cpu(d)
    base = None
    base_cpu = None
    for cfg, transport, authn in CONFIGS:
        sat, c1 = _runs(d, cfg, "saturating-lean"), _runs(d, cfg, "c1-lean")
        if not sat:
            w.append("| %s | %s | %s | failed: %s | | | | | |" % (
                cfg, transport, authn, _read(d, "%s-saturating-lean-r1.err" % cfg).replace("\n", " ")[:100]))
            continue
        tps = [r["throughput_rps"] for r in sat]
        med = statistics.median(tps)
        if cfg == "plain":
            base = med
        errs = sum(sum(r.get("errors", {}).values()) for r in sat + c1)
        c1_tps = statistics.median([r["throughput_rps"] for r in c1]) if c1 else 0
        p50 = statistics.median([r["latency_us"]["p50"] for r in c1]) / 1000 if c1 else 0
        p99 = statistics.median([r["latency_us"]["p99"] for r in c1]) / 1000 if c1 else 0
        dcpu = _us_per_call(cpu, sat, cfg, "saturating-lean", 0)
        gcpu = _us_per_call(cpu, sat, cfg, "saturating-lean", 1)
        if cfg == "plain":
            base_cpu = (dcpu, gcpu)

        def fmt_cpu(x, b):
            if x is None:
                return ""
            return "%.1f" % x + (" (%+.1f)" % (x - b) if b is not None and cfg != "plain" else "")
        w.append("| %s | %s | %s | %s (%s) | %s | %s | %s | %s | %.3f | %.3f | %d |" % (
            cfg, transport, authn, "{:,.0f}".format(med), ", ".join("{:,.0f}".format(x) for x in tps),
            "%.1f %%" % ((med / base - 1) * 100) if base else "",
            fmt_cpu(dcpu, base_cpu[0] if base_cpu else None), fmt_cpu(gcpu, base_cpu[1] if base_cpu else None),
            "{:,.0f}".format(c1_tps), p50, p99, errs))
    w.append("")
    new, reuse = _s_time(_read(d, "s_time-new.txt")), _s_time(_read(d, "s_time-reuse.txt"))
    if new:
        w.append("New TLS connections: %.0f full handshakes/s (ECDHE + ECDSA P-256, TLS 1.3; `openssl s_time -new`, "
                 "%.0f per second of client CPU)%s — paid once per connection." % (
                     new[0], new[1], (", %.0f/s resuming sessions (`-reuse`)" % reuse[0]) if reuse else ""))
        w.append("")
    w.append("Commands (`$PKI`: the run's certificates and token file, deleted afterwards; PORT from the first log line):")
    w.append("")
    w.append("```")
    for cfg, _, _ in CONFIGS:
        for name in ("%s.daemon.cmd" % cfg, "%s-saturating-lean.cmd" % cfg, "%s-c1-lean.cmd" % cfg):
            c = _read(d, name)
            if c:
                w.append(c)
    c = _read(d, "s_time.cmd")
    if c:
        w.append(c)
    w.append("```")
    w.append("")
    loads = _read(d, "loadavg.txt")
    if loads:
        w.append("<details><summary>1-minute load average after each run (config, run, round, load)</summary>")
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
    write_section(dest, render(out_dir), BEGIN, END, "no security results in " + out_dir)


if __name__ == "__main__":
    main()
