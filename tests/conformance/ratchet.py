#!/usr/bin/env python3
"""The floors in baseline.json only ever go up, checked over git history:
for every commit reachable from HEAD (merges against each parent), every key
its parent's baseline.json has must still be there with a value at least as
high; then the same for the working tree against HEAD. A change that lowers
or drops a floor therefore fails the test command on its own branch, before
it can land, and CI (a clean clone of main) fails if one ever did land: a
clone has the whole history, not just the last commit.

The floors are percentages (0-100) and every one is checked by a test
(conformance.py, tests/common/floor.c); adding a key is always allowed.
Exits 77 (meson's SKIP) outside a git checkout (a source tarball has no
history to check). Usage: ratchet.py [SOURCE_ROOT]"""
import json
import os
import subprocess
import sys

REL = "tests/conformance/baseline.json"


def git(root, *args, stdin=None):
    return subprocess.run(["git", "-C", root, *args], input=stdin, capture_output=True, text=True, check=True).stdout


def problems(before, after, where):
    """What `after` lost or lowered against `before`."""
    out = []
    for key, old in sorted(before.items()):
        if key not in after:
            out.append("%s: floor %r (%s) disappeared" % (where, key, old))
        elif not isinstance(after[key], (int, float)) or after[key] < old:
            out.append("%s: floor %r went down from %s to %s" % (where, key, old, after[key]))
    return out


def valid(floors, where):
    if not isinstance(floors, dict):
        return ["%s: not a JSON object" % where]
    return ["%s: floor %r = %r is not a percentage" % (where, k, v) for k, v in sorted(floors.items())
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 100]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    try:
        inside = git(root, "rev-parse", "--is-inside-work-tree").strip() == "true"
        head = git(root, "rev-parse", "--verify", "HEAD").strip()
    except (subprocess.CalledProcessError, OSError):
        inside = False
    if not inside:
        print("ratchet: SKIP: %s is not a git checkout, so there is no history of %s to check" % (root, REL))
        return 77
    shallow = git(root, "rev-parse", "--is-shallow-repository").strip() == "true"
    # every commit with its parents, then the blob of baseline.json in each (one batch)
    commits = [line.split() for line in git(root, "rev-list", "--parents", head).splitlines()]
    ids = [c[0] for c in commits]
    answers = git(root, "cat-file", "--batch-check=%(objectname) %(objecttype)",
                  stdin="".join("%s:%s\n" % (c, REL) for c in ids)).splitlines()
    blob_of = {}
    for c, ans in zip(ids, answers):
        parts = ans.split()
        blob_of[c] = parts[0] if len(parts) == 2 and parts[1] == "blob" else None
    blobs = sorted({b for b in blob_of.values() if b})
    content = {}
    if blobs:
        raw = subprocess.run(["git", "-C", root, "cat-file", "--batch"], input="".join(b + "\n" for b in blobs).encode(),
                             capture_output=True, check=True).stdout
        pos = 0
        while pos < len(raw):
            nl = raw.index(b"\n", pos)
            sha, _, size = raw[pos:nl].decode().split()
            body = raw[nl + 1:nl + 1 + int(size)]
            pos = nl + 1 + int(size) + 1
            content[sha] = body.decode("utf-8")
    parsed, bad = {}, []
    for sha, text in content.items():
        try:
            parsed[sha] = json.loads(text)
        except ValueError as e:
            parsed[sha] = {}
            bad.append("blob %s of %s: not JSON (%s)" % (sha[:10], REL, e))
    checked = 0
    for c in commits:
        mine = blob_of.get(c[0])
        for p in c[1:]:
            theirs = blob_of.get(p)
            if theirs is None or theirs == mine:
                continue  # the file is new here, or unchanged
            checked += 1
            short = "commit %s (against its parent %s)" % (c[0][:10], p[:10])
            if mine is None:
                bad.append("%s: %s was deleted" % (short, REL))
            else:
                bad += valid(parsed[mine], short) + problems(parsed[theirs], parsed[mine], short)
    path = os.path.join(root, REL)
    head_floors = parsed.get(blob_of.get(head)) if blob_of.get(head) else None
    if not os.path.exists(path):
        bad.append("working tree: %s is missing" % REL)
    else:
        try:
            work = json.load(open(path, encoding="utf-8"))
            bad += valid(work, "working tree")
            if head_floors is not None:
                bad += problems(head_floors, work, "working tree (against HEAD)")
        except ValueError as e:
            bad.append("working tree: %s is not JSON (%s)" % (REL, e))
    print("ratchet: %d commits reachable from HEAD%s, %d versions of %s, %d changes checked, plus the working tree"
          % (len(commits), " (a shallow clone: only that much history)" if shallow else "", len(blobs), REL, checked))
    for b in bad:
        print("ratchet: FAIL: " + b)
    if not bad:
        print("ratchet: no floor ever went down or disappeared")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
