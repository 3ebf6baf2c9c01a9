#!/usr/bin/env python3
"""ratchet.py catches what it must: in throw-away git repositories (in a
temporary folder) it passes a history whose floors only go up or gain keys,
and fails one that lowers a floor in a commit (even when a later commit
raises it back), drops a key, deletes the file, merges the lower side of a
branch, or lowers it in the working tree only. Prints TAP."""
import json
import os
import subprocess
import sys
import tempfile

RATCHET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ratchet.py")
REL = "tests/conformance/baseline.json"
n = failed = 0


def ok(cond, name, detail=""):
    global n, failed
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, name))
    if not cond:
        failed += 1
        for line in detail.splitlines()[:20]:
            print("# " + line)


class Repo:
    def __init__(self, top):
        self.root = tempfile.mkdtemp(dir=top)
        self.git("init", "-q", "-b", "main")

    def git(self, *args):
        return subprocess.run(["git", "-C", self.root, "-c", "user.name=t", "-c", "user.email=t@t", *args],
                              capture_output=True, text=True, check=True).stdout

    def write(self, floors):
        path = os.path.join(self.root, REL)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(floors, f)

    def commit(self, floors, msg="c"):
        if floors is None:
            self.git("rm", "-q", REL)
        else:
            self.write(floors)
            self.git("add", REL)
        self.git("commit", "-q", "--allow-empty", "-m", msg)

    def ratchet(self):
        p = subprocess.run([sys.executable, RATCHET, self.root], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


with tempfile.TemporaryDirectory(prefix="cz-ratchet-") as top:
    r = Repo(top)
    r.commit({"a": 50.0})
    r.commit({"a": 60.0})
    r.commit({"a": 60.0, "b": 10.0})
    rc, out = r.ratchet()
    ok(rc == 0, "floors that only go up or gain keys pass", out)

    r.commit({"a": 59.9, "b": 10.0})
    r.commit({"a": 60.0, "b": 10.0})
    rc, out = r.ratchet()
    ok(rc == 1 and "'a' went down from 60.0 to 59.9" in out, "a commit that lowers a floor fails, even raised back", out)

    r = Repo(top)
    r.commit({"a": 50.0, "b": 1.0})
    r.commit({"a": 50.0})
    rc, out = r.ratchet()
    ok(rc == 1 and "'b' (1.0) disappeared" in out, "a dropped key fails", out)

    r = Repo(top)
    r.commit({"a": 50.0})
    r.commit(None)
    rc, out = r.ratchet()
    ok(rc == 1 and "was deleted" in out, "deleting the file fails", out)

    r = Repo(top)
    r.commit({"a": 50.0})
    r.git("checkout", "-q", "-b", "side")
    r.commit({"a": 70.0})
    r.git("checkout", "-q", "main")
    r.commit({"a": 55.0})
    r.git("merge", "-q", "-s", "ours", "-m", "merge keeping main's floors", "side")
    rc, out = r.ratchet()
    ok(rc == 1 and "'a' went down from 70.0 to 55.0" in out, "a merge that keeps the lower side fails", out)

    r = Repo(top)
    r.commit({"a": 50.0})
    r.write({"a": 49.0})
    rc, out = r.ratchet()
    ok(rc == 1 and "working tree (against HEAD): floor 'a' went down" in out, "lowering it in the working tree fails", out)

    r = Repo(top)
    r.commit({"a": 50.0})
    r.write({"a": 101.0})
    rc, out = r.ratchet()
    ok(rc == 1 and "not a percentage" in out, "a floor above 100 fails", out)

    plain = tempfile.mkdtemp(dir=top)
    p = subprocess.run([sys.executable, RATCHET, plain], capture_output=True, text=True)
    ok(p.returncode == 77 and "not a git checkout" in p.stdout, "outside a git checkout: exit 77 (skip)", p.stdout)

print("1..%d" % n)
sys.exit(1 if failed else 0)
