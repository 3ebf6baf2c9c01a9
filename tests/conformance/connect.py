#!/usr/bin/env python3
"""Spark's Connect plan corpus (../shared/conformance/connect-visible.jsonl)
through a live catalyzerd with Spark's own judge (connect_judge.py: a Spark
Connect client built from Spark's protos, the session set up as its docstring
says, AnalyzePlan(explain EXTENDED) per plan). The strict figure is checked
against its floor `connect` in baseline.json; the judge's per-kind table and
the failing cases are printed.

Usage: connect.py --daemon build/server/catalyzerd [--shared ../shared]
Exits 77 (meson's SKIP) without ../shared."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import corpus  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--daemon", required=True)
    ap.add_argument("--shared")
    ap.add_argument("--show", type=int, default=20)
    args = ap.parse_args()
    corpus.require("connect", args.shared)
    judge = corpus.path("conformance", "connect_judge.py", shared=args.shared)
    plans = corpus.path("conformance", "connect-visible.jsonl", shared=args.shared)
    for f in (judge, plans):
        if not os.path.exists(f):
            print("connect: SKIP: %s is not there: skipped, not passed" % f)
            return corpus.SKIP
    work = tempfile.mkdtemp(prefix="connect-judge-")
    log_path = os.path.join(work, "catalyzerd.log")
    # the log goes to a file: a pipe nobody reads would stall the daemon once full
    log = open(log_path, "w+", encoding="utf-8")
    daemon = subprocess.Popen([args.daemon, "--grpc", "127.0.0.1:0", "--http", "off"], stdout=subprocess.DEVNULL,
                              stderr=log, text=True)
    try:
        first = ""
        for _ in range(200):
            with open(log_path, encoding="utf-8") as f:
                first = f.readline()
            if first.endswith("\n") or daemon.poll() is not None:
                break
            time.sleep(0.05)
        info = json.loads(first)
        addr = "127.0.0.1:%d" % info["grpc_port"]
        out = os.path.join(work, "judge.json")
        # Debian's python3 has grpcio and protobuf; the judge needs both
        r = subprocess.run(["/usr/bin/python3", judge, "--addr", addr, "--corpus", plans, "--json", out,
                            "--show", str(args.show)], capture_output=True, text=True, timeout=1200)
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr[-4000:])
        if r.returncode not in (0, 1):
            print("connect: the judge failed (exit %d)" % r.returncode)
            return 1
        with open(out, encoding="utf-8") as f:
            cases = json.load(f)["cases"]
    finally:
        daemon.terminate()
        daemon.wait(30)
        log.close()
    passed = sum(1 for c in cases if c.get("strict"))
    return 0 if corpus.check_floor("connect", passed, len(cases)) else 1


if __name__ == "__main__":
    sys.exit(main())
