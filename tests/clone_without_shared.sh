#!/usr/bin/env bash
# A user's clone has no ../shared: there the corpus tests (meson suite
# `corpus`) must report SKIP — never OK. This clones the repository into a
# temporary folder (with the working tree's uncommitted changes and new
# files added, so it checks what is being tested), where ../shared does not
# exist, builds only what those
# tests run (-O0, to keep it quick), runs them and checks that every one
# reports SKIP with its message. Also fails when a test that uses the corpus
# loader (corpus_main.c, corpus.require) is not in the suite. Run by scripts/test.sh; exit 0 when all
# skip, 1 otherwise.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cz-clone-XXXXXX")
[ -n "${CZ_KEEP_CLONE:-}" ] || trap 'rm -rf "$tmp"' EXIT
fail() { echo "clone without ../shared: FAIL: $*"; exit 1; }

git clone -q --no-hardlinks "$src" "$tmp/catalyzer" || fail "git clone $src"
git -C "$src" diff HEAD --binary > "$tmp/changes.diff" || fail "git diff"
if [ -s "$tmp/changes.diff" ]; then
  git -C "$tmp/catalyzer" apply "$tmp/changes.diff" || fail "cannot apply the working tree's changes"
fi
# and the new files not committed yet (not the ignored ones)
(cd "$src" && git ls-files -z --others --exclude-standard | xargs -0 -r cp --parents -t "$tmp/catalyzer") \
  || fail "cannot copy the new files"
[ ! -e "$tmp/shared" ] || fail "$tmp/shared exists"

meson setup "$tmp/build" "$tmp/catalyzer" -Dbuildtype=debug -Doptimization=0 > "$tmp/setup.log" 2>&1 \
  || { tail -20 "$tmp/setup.log"; fail "meson setup"; }
# the executables the corpus tests run, and those they depend on
targets=$(python3 - "$tmp/build" <<'PY'
import json, os, subprocess, sys
b = sys.argv[1]
tests = json.loads(subprocess.run(["meson", "introspect", "--tests", b], capture_output=True, check=True).stdout)
targets = json.loads(subprocess.run(["meson", "introspect", "--targets", b], capture_output=True, check=True).stdout)
by_id = {t["id"]: t for t in targets}
by_file = {f: t for t in targets for f in t["filename"]}


def reads_corpus(t):
    """The test uses the corpus loader: a C program with corpus_main.c, or a script calling corpus.require."""
    exe = by_file.get(t["cmd"][0]) if t["cmd"] else None
    if exe and any(src.endswith("/corpus_main.c") for group in exe.get("target_sources", []) for src in group.get("sources", [])):
        return True
    return any(a.endswith(".py") and "corpus.require(" in open(a, encoding="utf-8").read() for a in t["cmd"][1:])


want, stray = set(), []
for t in tests:
    in_suite = any(s.split(":")[-1] == "corpus" for s in t["suite"])
    if reads_corpus(t) and not in_suite:
        stray.append(t["name"])
    if not in_suite:
        continue
    for dep in t.get("depends", []):
        if dep in by_id:
            want.update(by_id[dep]["filename"])
    if t["cmd"] and t["cmd"][0] in by_file:
        want.add(t["cmd"][0])
if stray:
    sys.exit("tests that read the corpus but are not in the suite 'corpus': " + ", ".join(stray))
print(" ".join(os.path.relpath(f, b) for f in sorted(want)))
PY
) || fail "meson introspect (above)"
[ -n "$targets" ] || fail "no corpus tests found (meson suite 'corpus')"
# shellcheck disable=SC2086
ninja -C "$tmp/build" -j2 $targets > "$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log"; fail "build"; }

meson test -C "$tmp/build" --no-rebuild --suite corpus --num-processes 2 > "$tmp/test.log" 2>&1
results=$(grep -E '^ *[0-9]+/[0-9]+ ' "$tmp/test.log")
total=$(printf '%s\n' "$results" | grep -c . || true)
skipped=$(printf '%s\n' "$results" | grep -c ' SKIP ' || true)
printf '%s\n' "$results" | sed 's/^/  /'
messages=$(grep -c 'skipped, not passed' "$tmp/build/meson-logs/testlog.txt" || true)
[ "$total" -gt 0 ] || fail "no corpus test ran"
[ "$skipped" -eq "$total" ] || fail "$((total - skipped)) of $total corpus tests did not report SKIP"
[ "$messages" -ge "$total" ] || fail "only $messages of $total skipped tests said why"
echo "clone without ../shared: all $total corpus tests reported SKIP, each saying why"
