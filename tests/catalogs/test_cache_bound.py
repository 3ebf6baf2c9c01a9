#!/usr/bin/env python3
"""The external-catalog cache stays within its bound under a 100,000-table
catalog: an example provider (Go when it builds here, else Python) serves a
synthetic namespace of 100,000 tables, and cache_bound_probe loads every one
of them through cz_catalogs as analyses would, once with the bytes bound
binding (2 MiB, 10,000 entries) and once with the entries bound binding
(1,000 entries, 64 MiB). Checked: every load reached the provider and
succeeded; the cache never held more entries or bytes than its bounds, and is
full at the end (so the bound, not a lack of tables, is what held it); the
probe's resident memory grew by less than 16 MiB from the first tenth of the
loads to the end (an unbounded cache of the 100,000 tables would hold ~45 MiB).

Usage: test_cache_bound.py PROBE. Exit 0 pass, 1 fail, 77 skip."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from provider_process import Provider, build_provider  # noqa: E402

PROBE = sys.argv[1]
N = int(os.environ.get("CACHE_BOUND_TABLES", "100000"))
failures = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what + ("" if cond else "\n     " + str(detail)[:3000]))
    sys.stdout.flush()
    if not cond:
        failures.append(what)


command = lang = None
for lang in ("go", "python"):
    try:
        command, why = build_provider(lang)
    except RuntimeError as e:
        command, why = None, str(e)
    if command:
        break
    print("%s provider: %s" % (lang, why))
if not command:
    print("test_cache_bound.py: SKIP: no example provider can run here: skipped, not passed")
    sys.exit(77)

prov = Provider(command, ["--synthetic", str(N)])
try:
    for max_entries, max_bytes, bound in ((10000, 2 << 20, "bytes"), (1000, 64 << 20, "entries")):
        mark = prov.mark()
        r = subprocess.run([PROBE, "127.0.0.1:%d" % prov.port, str(N), str(max_entries), str(max_bytes)],
                           capture_output=True, text=True, timeout=1800)
        try:
            got = json.loads(r.stdout)
        except ValueError:
            check(False, "the probe ran (%s bound)" % bound, r.stdout + r.stderr)
            continue
        loads = prov.count("LoadTable", "loaded", since=mark)
        check(r.returncode == 0 and got["failed"] == 0 and len(loads) == N and got["columns"] == 8 * N,
              "%d tables of the %s provider loaded, each reaching the provider" % (N, lang), (got, len(loads), r.stderr))
        check(got["max_entries"] <= max_entries and got["max_bytes"] <= max_bytes,
              "the cache never held more than its bounds (%d entries / %d bytes at most; bounds %d / %d)"
              % (got["max_entries"], got["max_bytes"], max_entries, max_bytes), got)
        full = got["end_bytes"] > max_bytes * 0.95 if bound == "bytes" else got["end_entries"] == max_entries
        check(full, "the %s bound is what held it: full at the end (%d entries, %d bytes)"
              % (bound, got["end_entries"], got["end_bytes"]), got)
        grew = got["rss_kib_end"] - got["rss_kib_tenth"]
        check(grew < 16 * 1024, "resident memory grew %d KiB from the first tenth of the loads to the end (< 16 MiB)"
              % grew, got)
        print("  (%s bound: %s)" % (bound, json.dumps(got)))
finally:
    prov.stop()

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
