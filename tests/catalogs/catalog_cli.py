"""What the external-catalog tests share: running `catalyzer run|explain`
with --conf flags (in process, or through a daemon), and the TPC-DS queries
of ../shared/workloads in their natural order."""
import glob
import json
import os
import re
import subprocess
import tempfile

CLI = os.environ.get("CATALYZER_CLI", "catalyzer")
SANITIZER = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


def run_cli(statements, confs, daemon=None, timeout=300):
    """`catalyzer run` of the statements: ([one JSON object per statement], CompletedProcess)."""
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(";\n".join(statements) + ";\n")
    args = [CLI, "run"] + (["--daemon", daemon] if daemon else []) + confs + [f.name]
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    os.unlink(f.name)
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    return lines, r


def explain(sql, confs):
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(sql + "\n")
    r = subprocess.run([CLI, "explain"] + confs + [f.name], capture_output=True, text=True, timeout=60)
    os.unlink(f.name)
    return r.stdout + r.stderr


def tpcds_queries(shared):
    """[(file name, query text without comments or the final ;)], q1 ... q99."""
    out = []
    for q in sorted(glob.glob(os.path.join(shared, "workloads", "tpcds", "q*.sql")),
                    key=lambda p: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", p)]):
        with open(q) as f:
            out.append((os.path.basename(q), re.sub(r"--[^\n]*", "", f.read()).strip().rstrip(";")))
    return out
