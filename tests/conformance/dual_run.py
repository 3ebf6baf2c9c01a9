#!/usr/bin/env python3
"""The dual run over the corpora: every statement of Spark's corpora
(visible, functions, broad) and of the TPC-H / TPC-DS workloads through
`catalyzer run --conf catalyzer.analyzer.dualRun=true`, where each query is
resolved by the single-pass resolver and by the fixed-point batches and the
two answers compared (resolver/hybrid_analyzer.h). A statement whose answers
differ ("single_pass":"mismatch") fails the test, as does a crash.

Prints, per corpus, the share of the statements that analyse a query which
the single pass covered (answered as the batches do), and the reasons it
declined the others, most frequent first.

Usage: dual_run.py --cli build/client/catalyzer [--shared ../shared]
                   [--corpus visible|functions|broad|workloads]... [--only REGEX] [--declined N]
Exits 77 (meson's SKIP) when the shared corpus is not present."""
import argparse, collections, json, os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import corpus  # noqa: E402

CORPORA = [("visible", "spark-visible.jsonl"), ("functions", "spark-functions.jsonl"), ("broad", "spark-broad.jsonl")]
DUAL = ["--conf", "catalyzer.analyzer.dualRun=true"]


def run(cli, args, path, timeout=600):
    try:
        p = subprocess.run([cli, "run", *args, *DUAL, path], capture_output=True, encoding="utf-8", errors="replace",
                           timeout=timeout)
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


class Tally:
    def __init__(self, name):
        self.name = name
        self.counts = collections.Counter()
        self.reasons = collections.Counter()
        self.mismatches = []
        self.crashes = []
        self.declined = []

    def add(self, where, sql, o):
        sp = o.get("single_pass") if o else None
        if sp is None:
            return  # a command without a query, or a parse error
        self.counts[sp] += 1
        if sp == "declined":
            self.reasons[re.sub(r"\d+", "N", o.get("single_pass_detail") or "?")[:80]] += 1
            self.declined.append((where, sql, o.get("single_pass_detail")))
        elif sp == "mismatch":
            self.mismatches.append((where, sql, o.get("single_pass_detail")))

    def report(self, show_declined=0):
        n = sum(self.counts.values())
        c = self.counts["covered"]
        pct = 100.0 * c / n if n else 0.0
        print(f"dual run: {self.name:10s} single pass covered {c}/{n} queries ({pct:.1f}%), "
              f"declined {self.counts['declined']}, mismatched {self.counts['mismatch']}")
        for why, k in self.reasons.most_common(12):
            print(f"    declined {k:5d}  {why}")
        for where, sql, why in self.mismatches[:50]:
            print(f"  MISMATCH {where}: {sql[:160]!r}\n      {why}")
        for where, sql, why in self.declined[:show_declined]:
            print(f"  declined {where}: {sql[:160]!r}\n      {why}")
        for c in self.crashes:
            print(f"  CRASH {c}")
        return not self.mismatches and not self.crashes


def run_corpus(cli, key, fname, shared, only):
    t = Tally(key)
    files = corpus.by_file(fname, (lambda f: re.search(only, f)) if only else None, shared)
    for f, recs in files.items():
        with corpus.statements_file(r["sql"] for r in recs) as name:
            got, rc, err = run(cli, corpus.conf_args(recs), name)
        if rc != 0:
            t.crashes.append(f"{f}: exit {rc}: {err.strip()[-500:]}")
        for i, r in enumerate(recs):
            t.add(f"{f}#{i}", r["sql"], got.get(i))
    return t


def run_workloads(cli, shared, only):
    t = Tally("workloads")
    for qdir, schema_path, queries in corpus.workloads(shared):
        schema = open(schema_path, encoding="utf-8").read()
        nschema = len([s for s in schema.split(";") if s.strip()])
        texts = [(q, open(q, encoding="utf-8").read()) for q in queries
                 if not only or re.search(only, f"{qdir}/{os.path.basename(q)}")]
        with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, encoding="utf-8") as f:
            f.write(schema + "\n;\n" + "\n;\n".join(txt.strip().rstrip(";") for _, txt in texts) + "\n")
            name = f.name
        try:
            got, rc, err = run(cli, ["--bare"], name)
        finally:
            os.unlink(name)
        if rc != 0:
            t.crashes.append(f"{qdir}: exit {rc}: {err.strip()[-500:]}")
        for i, (q, txt) in enumerate(texts):
            o = got.get(nschema + i)
            if o is None or o.get("status") != "ok":
                t.crashes.append(f"{qdir}/{os.path.basename(q)}: no answer or an error: {str(o)[:300]}")
            t.add(f"{qdir}/{os.path.basename(q)}", txt.strip(), o)
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", default=None)
    ap.add_argument("--corpus", action="append", choices=[k for k, _ in CORPORA] + ["workloads"])
    ap.add_argument("--only")
    ap.add_argument("--declined", type=int, default=0, help="list the first N declined statements")
    a = ap.parse_args()
    corpus.require("dual run", a.shared)
    want = a.corpus or [k for k, _ in CORPORA] + ["workloads"]
    ok = True
    for key, fname in CORPORA:
        if key in want:
            ok = run_corpus(a.cli, key, fname, a.shared, a.only).report(a.declined) and ok
    if "workloads" in want:
        ok = run_workloads(a.cli, a.shared, a.only).report(a.declined) and ok
    if not ok:
        print("dual run: FAIL: the single pass and the fixed point answered differently (above), or a run crashed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
