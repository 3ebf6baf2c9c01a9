#!/usr/bin/env python3
"""Spark conformance runner: runs Spark's golden corpus through `catalyzer run`
(one session per test file, the file's --SET configuration applied) and prints
per-file (or per-family) and total strict pass rates. Strict: status equal,
error class equal when an error is expected, schema string equal when the corpus
has one; records whose error_phase is "execution" are skipped (analysis only).

Fails (exit 1) if a total falls below the floor recorded in baseline.json next
to this file; the floors only ever move up (--update raises them).

Usage: conformance.py --cli build/client/catalyzer [--shared ../shared]
                      [--only REGEX] [--failures N] [--update]
Skips cleanly (exit 0) when the shared corpus is not present."""
import argparse, collections, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "baseline.json")
CORPORA = [("visible", "spark-visible.jsonl"), ("functions", "spark-functions.jsonl")]


def load(path, only):
    files = collections.OrderedDict()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                if only and not re.search(only, r["file"]):
                    continue
                files.setdefault(r["file"], []).append(r)
    return files


def run_file(cli, recs, timeout):
    confs = []
    for kv in (recs[0].get("file_config") or {}).get("set", []):
        confs += ["--conf", f"{kv[0]}={kv[1]}"]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps({"sql": r["sql"]}) + "\n")
        name = f.name
    try:
        p = subprocess.run([cli, "run", *confs, name], capture_output=True, encoding="utf-8",
                           errors="replace", timeout=timeout)
        out, rc, err = p.stdout, p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        out, rc, err = "", -1, "timeout"
    finally:
        os.unlink(name)
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


def run_corpus(cli, path, only, failures, group_by_family, families):
    files = load(path, only)
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
    pct = 100.0 * total[0] / total[1] if total[1] else 100.0
    print(f"  {'TOTAL':60s} {total[0]:4d}/{total[1]:<4d} {pct:6.1f}%")
    for f in fails[:failures]:
        print(f"    FAIL {f[0]}#{f[1]}: {f[2][:120]!r}: {f[3][:200]}")
    return pct


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", default=os.environ.get("CATALYZER_SHARED",
                                                       os.path.join(HERE, "..", "..", "..", "shared")))
    ap.add_argument("--only")
    ap.add_argument("--failures", type=int, default=0)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    corpus_dir = os.path.join(a.shared, "conformance")
    if not os.path.isfile(os.path.join(corpus_dir, "spark-visible.jsonl")):
        print(f"conformance: SKIP: no Spark corpus at {corpus_dir} (it lives in ../shared beside the clone)")
        return 0
    families = {}
    try:
        out = subprocess.run([a.cli, "functions"], capture_output=True, encoding="utf-8", timeout=60).stdout
        for line in out.splitlines():
            parts = line.split("\t")
            if len(parts) >= 2:
                families[parts[0]] = parts[1]
    except (OSError, subprocess.TimeoutExpired):
        pass
    baseline = json.load(open(BASELINE)) if os.path.exists(BASELINE) else {}
    status = 0
    for key, fname in CORPORA:
        print(f"conformance: {fname}")
        pct = run_corpus(a.cli, os.path.join(corpus_dir, fname), a.only, a.failures, key == "functions", families)
        floor = baseline.get(key, 0.0)
        if a.only:
            continue
        if pct + 1e-9 < floor:
            print(f"conformance: FAIL: {fname} strict pass rate {pct:.1f}% fell below the recorded {floor:.1f}%")
            status = 1
        elif a.update and pct > floor:
            baseline[key] = round(pct - 0.05, 1)
    if CRASHES:
        print(f"conformance: FAIL: catalyzer exited abnormally on {len(CRASHES)} file(s): {', '.join(CRASHES)}")
        status = 1
    if a.update and not a.only:
        with open(BASELINE, "w") as f:
            json.dump(baseline, f, indent=2, sort_keys=True)
            f.write("\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
