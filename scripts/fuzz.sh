#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz/README.md) for a time budget each:
#   scripts/fuzz.sh [SECONDS]          every target (default 60 s each)
#   scripts/fuzz.sh NAME [SECONDS]     one of: sql rpc connect json h2 http1
# Builds build-fuzz once (clang, -Dfuzz=true, ASan+UBSan), regenerates the
# seeds (tests/golden and ../shared when present) into build-fuzz/fuzz-seeds,
# keeps each target's growing corpus in build-fuzz/fuzz-corpus/NAME and its
# findings in build-fuzz/fuzz-findings/NAME, and prints per target the
# executions, coverage and findings. Exits 1 if any target found something:
# fix it at its cause, then add the input under tests/fuzz/regressions/NAME.
# FUZZ_JOBS=N runs N targets at once (default 1); everything runs under nice.
# The seeds go in only while a target's corpus is empty (FUZZ_RESEED=1: always).
# Executions are libFuzzer's fork-mode count after the initial corpus is loaded.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(sql rpc connect json h2 http1)
secs=60
if [ $# -ge 1 ] && [[ ! $1 =~ ^[0-9]+$ ]]; then
  targets=("$1"); shift
fi
[ $# -ge 1 ] && secs=$1
dir=build-fuzz
# libFuzzer comes with Debian's clang; only this script needs it (the test
# command's gcc builds link tests/fuzz/driver.c instead).
if ! command -v clang >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
  else
    echo "scripts/fuzz.sh: needs clang (apt-get install clang)" >&2; exit 2
  fi
fi
if [ ! -f "$dir/build.ninja" ]; then
  CC=clang nice meson setup "$dir" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dbuildtype=debugoptimized >/dev/null
fi
nice ninja -C "$dir" tests/fuzz/fuzz_seeds $(for t in "${targets[@]}"; do echo "tests/fuzz/fuzz_$t"; done) >/dev/null
shared=../shared
seeds=$dir/fuzz-seeds
# fresh seeds, under a lock: several fuzz.sh may start at once
(
  flock 9
  rm -rf "$seeds"
  if [ -d "$shared" ]; then "$dir/tests/fuzz/fuzz_seeds" "$seeds" . "$shared"; else "$dir/tests/fuzz/fuzz_seeds" "$seeds" .; fi >/dev/null
) 9>"$dir/fuzz-seeds.lock"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
run_one() { # NAME
  local t=$1 corpus=$dir/fuzz-corpus/$1 findings=$dir/fuzz-findings/$1 log=$dir/fuzz-$1.log
  mkdir -p "$corpus" "$findings"
  local regress=tests/fuzz/regressions/$t
  local rc=0 from=("$seeds/$t")
  # the seeds once: a corpus that already grew from them has what they cover
  # (merging thousands of seeds again took most of a 10-minute run under ASan)
  [ -n "$(ls -A "$corpus" 2>/dev/null)" ] && [ -z "${FUZZ_RESEED:-}" ] && from=()
  # -fork keeps fuzzing past a finding (each crash is saved, the run goes on);
  # a sanitizer report, a leak, a timeout (25 s) or 3 GB of memory is a finding.
  nice "$dir/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=25 -rss_limit_mb=3072 -max_len=65536 \
    -print_final_stats=1 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix="$findings/" "$corpus" "${from[@]}" $( [ -d "$regress" ] && echo "$regress" ) >"$log" 2>&1 || rc=$?
  local execs cov nfind
  execs=$(grep -o 'exec/s: [0-9]*\|#[0-9]*' "$log" | grep '^#' | tail -1 | tr -d '#')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  nfind=$(find "$findings" -type f -newer "$log.start" 2>/dev/null | wc -l)
  printf '%-8s %6ss  executions %-10s coverage %-6s findings %s%s\n' "$t" "$secs" "${execs:-?}" "${cov:-?}" "$nfind" \
    "$( [ "$rc" -ne 0 ] && echo " (exit $rc, see $log)")"
  if [ "$nfind" -gt 0 ]; then find "$findings" -type f -newer "$log.start" | sed 's/^/    /'; return 1; fi
  return 0
}
status=0
for t in "${targets[@]}"; do touch "$dir/fuzz-$t.log.start"; done
if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
  pids=()
  for t in "${targets[@]}"; do run_one "$t" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
else
  for t in "${targets[@]}"; do run_one "$t" || status=1; done
fi
exit $status
