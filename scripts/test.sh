#!/usr/bin/env bash
# The whole test suite: a normal build and an ASan+UBSan build, every test in
# both, then the conformance ratchet. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 1

total_ok=0
total_fail=0
status=0

run_suite() { # DIR LABEL [meson options...]
  local dir=$1 label=$2; shift 2
  echo "== $label build ($dir)"
  if ! scripts/build.sh "$dir" "$@"; then
    echo "build failed: $dir"; ninja -C "$dir" 2>&1 | tail -40
    status=1; total_fail=$((total_fail + 1)); return
  fi
  meson test -C "$dir" --print-errorlogs --num-processes 2 > "$dir/test-output.txt" 2>&1
  local rc=$?
  grep -E '^ *[0-9]+/[0-9]+ ' "$dir/test-output.txt" | sed 's/^/  /'
  local ok fail
  ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$dir/test-output.txt" | tail -1)
  fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$dir/test-output.txt" | tail -1)
  local timeout
  timeout=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$dir/test-output.txt" | tail -1)
  total_ok=$((total_ok + ${ok:-0}))
  total_fail=$((total_fail + ${fail:-0} + ${timeout:-0}))
  if [ $rc -ne 0 ]; then
    status=1
    sed -n '/Summary of Failures/,$p' "$dir/test-output.txt"
    grep -B2 -A30 -E '^(not ok|FAIL)' "$dir/test-output.txt" | head -150
  fi
}

run_suite build "release"
# The Spark conformance figures (per file, per function family, totals) and the workloads.
echo "== conformance (release build)"
sed -n '/^conformance: spark-/,/^workloads:\|^-------\|^=======/p' build/meson-logs/testlog.txt \
  | grep -E '^conformance|^  [A-Za-z/_.-]+ +[0-9]+/[0-9]+|TOTAL|FAIL' | sed 's/^/  /'
grep -E '^workloads:|^fuzz_analyzer:' build/meson-logs/testlog.txt | sed 's/^/  /' 
# Sanitizer build: leaks, out-of-bounds and undefined behaviour fail the tests.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  run_suite build-asan "ASan+UBSan" -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug

echo
echo "$total_ok passed, $total_fail failed"
exit $status
