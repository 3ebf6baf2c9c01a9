#!/usr/bin/env python3
"""The golden runner really compares and really discovers: on a copy of
tests/golden it must pass untouched; with one line of every .expected file
altered it must fail every file; a new area with a new .sql file must be
picked up (failing until it has its .expected, passing once --update wrote
it). Prints TAP.

Usage: mutation_check.py RUN_GOLDEN GOLDEN_DIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

runner, golden = sys.argv[1], sys.argv[2]
n = 0
failed = 0


def ok(cond, name, detail=""):
    global n, failed
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, name))
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:30]:
            print("# " + line)


def run(root, *args):
    p = subprocess.run([runner, *args, root], capture_output=True, text=True, timeout=300)
    res = {}
    for line in p.stdout.splitlines():
        m = re.match(r"(ok|not ok) \d+ - ([^:]+)", line)
        if m:
            res[m.group(2)] = m.group(1) == "ok"
    return p.returncode, res, p.stdout + p.stderr


with tempfile.TemporaryDirectory(prefix="cz-golden-") as tmp:
    root = os.path.join(tmp, "golden")
    shutil.copytree(golden, root, ignore=shutil.ignore_patterns("*.c", "*.py", "meson.build"))
    expected = sorted(os.path.relpath(os.path.join(d, f), root)[:-len(".expected")]
                      for d, _, fs in os.walk(root) for f in fs if f.endswith(".expected"))
    rc, res, out = run(root)
    ok(rc == 0 and len(res) == len(expected) and all(res.values()), "unaltered copy: all %d files pass" % len(expected), out)

    for name in expected:
        path = os.path.join(root, name + ".expected")
        lines = open(path).read().split("\n")
        i = len(lines) // 2
        lines[i] = lines[i] + "x"
        open(path, "w").write("\n".join(lines))
    rc, res, out = run(root)
    still = [k for k in expected if res.get(k, True)]
    ok(rc != 0 and not still, "one line of every .expected altered: every file fails",
       "still passing or not run: %s\n%s" % (still, out))

    shutil.rmtree(root)
    shutil.copytree(golden, root, ignore=shutil.ignore_patterns("*.c", "*.py", "meson.build"))
    os.mkdir(os.path.join(root, "zz_new_area"))
    open(os.path.join(root, "zz_new_area", "probe.sql"), "w").write("SELECT 1 AS one;\nSELECT nosuch;\n")
    rc, res, out = run(root)
    others = [v for k, v in res.items() if k != "zz_new_area/probe"]
    ok(rc != 0 and res.get("zz_new_area/probe") is False and len(others) == len(expected) and all(others),
       "a new .sql without .expected is found and fails (alone)", out)
    rc, res, out = run(root, "--update")
    want = ("-- statement 0\nSELECT 1 AS one\n-- ok struct<one:int>\nProject [1 AS one#x]\n+- OneRowRelation\n\n"
            "-- statement 1\nSELECT nosuch\n-- error UNRESOLVED_COLUMN.WITHOUT_SUGGESTION\n\n")
    got = open(os.path.join(root, "zz_new_area", "probe.expected")).read()
    ok(rc == 0 and got == want, "--update writes it in the documented format", got)
    rc, res, out = run(root)
    ok(rc == 0 and res.get("zz_new_area/probe") is True and len(res) == len(expected) + 1,
       "then it passes, with the others", out)

print("1..%d" % n)
sys.exit(1 if failed else 0)
