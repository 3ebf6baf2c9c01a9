#!/usr/bin/env python3
"""Analyzer robustness: every corpus statement, plus seeded random token-level
mutations of it (deleted, inserted and replaced words), runs through
`catalyzer run` file by file. Whatever the input, each statement must get an
answer line and the process must exit 0 — no crash, no sanitizer report, no
leak (the ASan build runs this too). Exits 77 (meson's SKIP) without the
shared corpus.

Usage: fuzz_analyzer.py --cli build/client/catalyzer [--shared ../shared] [--seed N] [--mutations M]"""
import argparse, os, random, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import corpus  # noqa: E402

WORDS = ['(', ')', ',', 'SELECT', 'FROM', 'WHERE', 'GROUP BY', 'ORDER BY', '*', '1', 'a', 'NULL', 'LATERAL',
         'JOIN', 'ON', 'AS', 'OVER', '(SELECT 1)', 'EXISTS', 'IN', 'sum', 'count(*)', 'c1', 't1', 'WITH', 'UNION',
         'HAVING', 'CASE', 'WHEN', 'END', 'IDENTIFIER', "'x'", '.', '+', 'max(', 'DISTINCT', 'LIMIT', 'VALUES',
         'USING', 'NATURAL', 'ROLLUP', 'GROUPING SETS', 'WINDOW', 'PARTITION BY', 'ROWS', 'DECLARE', 'SET VAR',
         'EXECUTE IMMEDIATE', '||', '->', '::', '[0]', '?', ':p']


def mutate(rng, sql):
    toks = sql.split(' ')
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        i = rng.randrange(len(toks)) if toks else 0
        if op < 0.4 and toks:
            del toks[i]
        elif op < 0.8:
            toks.insert(i, rng.choice(WORDS))
        elif toks:
            toks[i] = rng.choice(WORDS)
    return ' '.join(toks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", default=None, help="the shared folder (default: $CATALYZER_SHARED, else ../shared)")
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--mutations", type=int, default=2)
    a = ap.parse_args()
    corpus.require("fuzz_analyzer", a.shared)
    rng = random.Random(a.seed)
    failures, total = 0, 0
    for fname, recs in corpus.by_file("spark-visible.jsonl", shared=a.shared).items():
        stmts = []
        for s in (r["sql"] for r in recs):
            stmts.append(s)
            stmts += [mutate(rng, s) for _ in range(a.mutations)]
        total += len(stmts)
        with corpus.statements_file(stmts) as name:
            p = subprocess.run([a.cli, "run", name], capture_output=True, encoding="utf-8", errors="replace",
                               timeout=900)
        answered = len([l for l in p.stdout.splitlines() if l.strip()])
        if p.returncode != 0 or answered != len(stmts):
            failures += 1
            culprit = stmts[answered] if answered < len(stmts) else "?"
            print(f"  FAIL {fname}: exit {p.returncode}, {answered}/{len(stmts)} answered; "
                  f"statement {culprit[:200]!r}\n{p.stderr[-1500:]}")
    print(f"fuzz_analyzer: {total} statements (seed {a.seed}), {failures} file(s) failed")
    return 1 if failures or not total else 0


if __name__ == "__main__":
    sys.exit(main())
