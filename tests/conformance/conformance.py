#!/usr/bin/env python3
"""Spark conformance runner: runs Spark's golden corpus through `catalyzer run`
(one session per test file, the file's --SET configuration applied) and prints
per-file (or per-family) and total strict pass rates. Strict: status equal,
error class equal when an error is expected, schema string equal when the corpus
has one; records whose error_phase is "execution" are skipped (analysis only).

Fails (exit 1) if a total falls below its floor in baseline.json next to
this file, or rises more than a point above it (raise it: --update writes the
figures rounded down to a tenth); ratchet.py keeps the floors from ever
going down in git history.

Usage: conformance.py --cli build/client/catalyzer [--shared ../shared]
                      [--only REGEX] [--failures N] [--update]
Exits 77 (meson's SKIP) when the shared corpus is not present."""
import argparse, collections, json, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import corpus  # noqa: E402

CORPORA = [("visible", "spark-visible.jsonl"), ("functions", "spark-functions.jsonl"), ("broad", "spark-broad.jsonl")]


def run_file(cli, recs, timeout):
    with corpus.statements_file(r["sql"] for r in recs) as name:
        try:
            p = subprocess.run([cli, "run", *corpus.conf_args(recs), name], capture_output=True, encoding="utf-8",
                               errors="replace", timeout=timeout)
            out, rc, err = p.stdout, p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            out, rc, err = "", -1, "timeout"
    got = {}
    for line in out.splitlines():
        try:
            o = json.loads(line)
            got[int(o["index"])] = o
        except (ValueError, KeyError, TypeError):
            pass
    return got, rc, err


def judge(rec, got):
    if got is None:
        return False, "no output"
    if got.get("status") != rec["expect"]:
        return False, f"expected {rec['expect']} {rec.get('error_class') or rec.get('schema') or ''}, got {got.get('status')} {got.get('error_class') or got.get('schema') or ''}"
    if rec["expect"] == "error" and got.get("error_class") != rec["error_class"]:
        return False, f"error class {got.get('error_class')} != {rec['error_class']}"
    if rec["expect"] == "ok" and rec.get("schema") is not None and got.get("schema") != rec["schema"]:
        return False, f"schema {got.get('schema')} != {rec['schema']}"
    return True, ""


def family_of(rec, families):
    return families.get(rec.get("function", ""), "other")


CRASHES = []


def run_corpus(cli, name, shared, only, failures, group_by_family, families):
    files = corpus.by_file(name, (lambda f: re.search(only, f)) if only else None, shared)
    groups = collections.OrderedDict()
    fails = []
    for fname, recs in files.items():
        got, rc, err = run_file(cli, recs, 600)
        if rc != 0:
            # a crash, a sanitizer report or a leak is a failure whatever the pass rate
            print(f"  {fname}: catalyzer exited {rc}: {err.strip()[-2000:]}")
            CRASHES.append(fname)
        for i, r in enumerate(recs):
            if r.get("error_phase") == "execution":
                continue
            ok, why = judge(r, got.get(i))
            key = family_of(r, families) if group_by_family else fname
            g = groups.setdefault(key, [0, 0])
            g[1] += 1
            if ok:
                g[0] += 1
            else:
                fails.append((fname, i, r["sql"], why))
    total = [sum(g[0] for g in groups.values()), sum(g[1] for g in groups.values())]
    for k, (p, n) in groups.items():
        print(f"  {k:60s} {p:4d}/{n:<4d} {100.0 * p / n:6.1f}%")
    pct = 100.0 * total[0] / total[1] if total[1] else 0.0
    print(f"  {'TOTAL':60s} {total[0]:4d}/{total[1]:<4d} {pct:6.1f}%")
    for f in fails[:failures]:
        print(f"    FAIL {f[0]}#{f[1]}: {f[2][:120]!r}: {f[3][:200]}")
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", default=None, help="the shared folder (default: $CATALYZER_SHARED, else ../shared)")
    ap.add_argument("--only")
    ap.add_argument("--failures", type=int, default=0)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    corpus.require("conformance", a.shared)
    families = {}
    try:
        out = subprocess.run([a.cli, "functions"], capture_output=True, encoding="utf-8", timeout=60).stdout
        for line in out.splitlines():
            parts = line.split("\t")
            if len(parts) >= 2:
                families[parts[0]] = parts[1]
    except (OSError, subprocess.TimeoutExpired):
        pass
    floors = corpus.baseline()
    status = 0
    for key, fname in CORPORA:
        print(f"conformance: {fname}")
        passed, total = run_corpus(a.cli, fname, a.shared, a.only, a.failures, key == "functions", families)
        if a.only:
            continue
        if a.update:
            pct = 100.0 * passed / total if total else 0.0
            floors[key] = max(floors.get(key, 0.0), corpus.floor_tenth(pct))
        elif not corpus.check_floor(key, passed, total, floors):
            print(f"conformance: FAIL: {fname}: the strict pass rate is off its floor (above)")
            status = 1
    if CRASHES:
        print(f"conformance: FAIL: catalyzer exited abnormally on {len(CRASHES)} file(s): {', '.join(CRASHES)}")
        status = 1
    if a.update and not a.only:
        with open(corpus.BASELINE, "w") as f:
            json.dump(floors, f, indent=2, sort_keys=True)
            f.write("\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
