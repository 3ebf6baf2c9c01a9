"""The one loader of the shared corpus for the Python tests (the C tests have
corpus.c): Spark's golden records (../shared/conformance/*.jsonl), the
TPC-H / TPC-DS workloads (../shared/workloads) and the floors of the figures
(tests/conformance/baseline.json, see floor.h).

The shared folder is $CATALYZER_SHARED (tests/meson.build sets it to
../shared beside the clone), else ../shared itself. Without it, require()
exits 77 — meson's SKIP — with a message: a clone without ../shared reports
the corpus tests as skipped, never as passed."""
import collections
import contextlib
import glob
import json
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
BASELINE = os.path.join(SOURCE, "tests", "conformance", "baseline.json")
SKIP = 77
# the workload query folders and the folder of the schema each runs against
WORKLOADS = [("tpch", "tpch"), ("tpcds", "tpcds"), ("tpcds-v2.7.0", "tpcds")]
NEEDED = ["conformance/spark-visible.jsonl", "conformance/spark-functions.jsonl"] + \
    ["workloads/%s" % q for q, _ in WORKLOADS]


def shared_dir(shared=None):
    return shared or os.environ.get("CATALYZER_SHARED") or os.path.join(SOURCE, "..", "shared")


def present(shared=None):
    root = shared_dir(shared)
    return all(os.path.exists(os.path.join(root, rel)) for rel in NEEDED)


def require(what, shared=None):
    """Exits 77 unless the shared corpus is there; what: the test's name."""
    if present(shared):
        return
    root = shared_dir(shared)
    missing = [rel for rel in NEEDED if not os.path.exists(os.path.join(root, rel))]
    print("%s: SKIP: this test reads Spark's corpus from ../shared beside the clone (%s), which is not there "
          "(missing %s): skipped, not passed" % (what, os.path.abspath(root), ", ".join(missing)))
    sys.stdout.flush()
    sys.exit(SKIP)


def path(*parts, shared=None):
    return os.path.join(shared_dir(shared), *parts)


def records(name, shared=None):
    """Every record of conformance/NAME, in file order."""
    out = []
    with open(path("conformance", name, shared=shared), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                out.append(json.loads(line))
    return out


def by_file(name, only=None, shared=None):
    """conformance/NAME grouped by Spark test file (one session a file), in
    order; only: a predicate on the file name."""
    files = collections.OrderedDict()
    for r in records(name, shared):
        if only is None or only(r["file"]):
            files.setdefault(r["file"], []).append(r)
    return files


def conf_args(recs):
    """The file's configuration as `catalyzer run` options."""
    args = []
    for kv in (recs[0].get("file_config") or {}).get("set", []):
        args += ["--conf", "%s=%s" % (kv[0], kv[1])]
    return args


@contextlib.contextmanager
def statements_file(sqls):
    """A temporary .jsonl of {"sql": ...} lines, as `catalyzer run` reads."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for s in sqls:
            f.write(json.dumps({"sql": s}) + "\n")
        name = f.name
    try:
        yield name
    finally:
        os.unlink(name)


def workloads(shared=None):
    """[(query folder, schema.sql path, [query paths in name order])]."""
    root = path("workloads", shared=shared)
    return [(q, os.path.join(root, s, "schema.sql"), sorted(glob.glob(os.path.join(root, q, "q*.sql"))))
            for q, s in WORKLOADS]


def baseline():
    with open(BASELINE, encoding="utf-8") as f:
        return json.load(f)


def floor_tenth(pct):
    """A figure as its floor: rounded down to a tenth of a point."""
    return math.floor(pct * 10 + 1e-9) / 10


def check_floor(key, passed, total, floors=None):
    """Prints the figure against its floor; False when below it, more than a
    point above it (raise it), the key is missing or nothing was measured."""
    floors = baseline() if floors is None else floors
    pct = 100.0 * passed / total if total else 0.0
    want = floors.get(key)
    if want is None:
        print("figure %s: %d/%d (%.2f%%): no floor %r in %s" % (key, passed, total, pct, key, BASELINE))
        return False
    if not total:
        print("figure %s: nothing measured" % key)
        return False
    if pct + 1e-9 < want:
        print("figure %s: %d/%d (%.2f%%) FELL BELOW its floor %.1f%%" % (key, passed, total, pct, want))
        return False
    if pct > want + 1.0 + 1e-9:
        print("figure %s: %d/%d (%.2f%%) is more than a point above its floor %.1f%%: raise it to %.1f in %s"
              % (key, passed, total, pct, want, floor_tenth(pct), BASELINE))
        return False
    print("figure %s: %d/%d (%.2f%%), floor %.1f%%" % (key, passed, total, pct, want))
    return True
