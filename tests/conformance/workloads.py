#!/usr/bin/env python3
"""Every TPC-H and TPC-DS query of ../shared/workloads must analyse without
error against its schema (one session per query, the schema's statements run
first). Skips cleanly when the workloads are not present.

Usage: workloads.py --cli build/client/catalyzer [--shared ../shared]"""
import argparse, glob, json, os, subprocess, sys, tempfile

SETS = [("tpch", "tpch"), ("tpcds", "tpcds"), ("tpcds-v2.7.0", "tpcds")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", default=os.environ.get("CATALYZER_SHARED", "../shared"))
    a = ap.parse_args()
    root = os.path.join(a.shared, "workloads")
    if not os.path.isdir(root):
        print(f"workloads: SKIP: no workloads at {root} (they live in ../shared beside the clone)")
        return 0
    failed = 0
    total = 0
    for qdir, sdir in SETS:
        schema = open(os.path.join(root, sdir, "schema.sql"), encoding="utf-8").read()
        ok = 0
        queries = sorted(glob.glob(os.path.join(root, qdir, "q*.sql")))
        for q in queries:
            total += 1
            with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, encoding="utf-8") as f:
                f.write(schema + "\n;\n" + open(q, encoding="utf-8").read())
                name = f.name
            try:
                p = subprocess.run([a.cli, "run", "--bare", name], capture_output=True, encoding="utf-8",
                                   errors="replace", timeout=120)
            finally:
                os.unlink(name)
            lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
            bad = [l for l in lines if l.get("status") != "ok"]
            if p.returncode != 0 or not lines or bad:
                failed += 1
                why = bad[0].get("message", "")[:200] if bad else f"exit {p.returncode}: {p.stderr[-300:]}"
                print(f"  FAIL {qdir}/{os.path.basename(q)}: {why}")
            else:
                ok += 1
        print(f"  {qdir:14s} {ok:3d}/{len(queries)} analysed")
    print(f"workloads: {total - failed}/{total} queries analysed without error")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
