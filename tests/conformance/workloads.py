#!/usr/bin/env python3
"""Every TPC-H and TPC-DS query of ../shared/workloads must analyse without
error against its schema (one session per query, the schema's statements run
first). Exits 77 (meson's SKIP) when the shared corpus is not present.

Usage: workloads.py --cli build/client/catalyzer [--shared ../shared]"""
import argparse, json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import corpus  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", default=None, help="the shared folder (default: $CATALYZER_SHARED, else ../shared)")
    a = ap.parse_args()
    corpus.require("workloads", a.shared)
    failed = 0
    total = 0
    for qdir, schema_path, queries in corpus.workloads(a.shared):
        schema = open(schema_path, encoding="utf-8").read()
        ok = 0
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
    return 1 if failed or not total else 0


if __name__ == "__main__":
    sys.exit(main())
