#!/usr/bin/env bash
# Runs Spark's corpora under the ASan+UBSan build N times (default 5) and
# says, per run and corpus, clean or unclean:
#   visible, functions, broad: tests/conformance/conformance.py through
#     `catalyzer run` (one process per Spark test file); unclean when any
#     process exits abnormally (crash, sanitizer report, leak) — the pass
#     rates and floors are the release build's business, not this script's;
#   connect: connect-visible.jsonl's plans through `catalyzer run --plan`, and
#     each plan as the AnalyzePlan, schema and ExecutePlan requests a client
#     sends, through the daemon's own request path (fuzz_connect's replay:
#     wire check, decode, analysis, response); unclean on any exit but 0 or
#     any sanitizer report.
# Needs ../shared. Usage: scripts/asan_corpora.sh [N]; exits 1 if any run is unclean.
set -uo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
shared=${CATALYZER_SHARED:-../shared}
if [ ! -f "$shared/conformance/spark-visible.jsonl" ]; then
  echo "asan_corpora: SKIP: no $shared/conformance"; exit 77
fi
dir=build-asan
nice scripts/build.sh "$dir" -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug || exit 1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
work=$(mktemp -d /tmp/asan-corpora.XXXXXX)
sanitizer='AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:'
seeds=$work/seeds
FUZZ_SEEDS_LIMIT=1000000 "$dir/tests/fuzz/fuzz_seeds" "$seeds" . "$shared" >/dev/null || exit 1
unclean=0
for i in $(seq 1 "$n"); do
  log=$work/conformance-$i.log
  nice /usr/bin/python3 tests/conformance/conformance.py --cli "$dir/client/catalyzer" --shared "$shared" >"$log" 2>&1
  for c in visible functions broad; do
    f=spark-$c.jsonl
    # the lines of corpus $f: from its header to the next corpus' header
    section=$(awk -v f="conformance: $f" '$0==f{on=1;next} /^conformance: (spark-|FAIL: catalyzer)/{on=0} on' "$log")
    bad=$(echo "$section" | grep -c 'catalyzer exited')
    total=$(echo "$section" | grep -E '^ +TOTAL ' | awk '{print $2}')
    files=$(echo "$section" | grep -cE '^ +[^ ]+ +[0-9]+/[0-9]+ ')
    if [ -z "$total" ]; then echo "run $i $c: UNCLEAN (no result: see $log)"; unclean=1
    elif [ "$bad" -eq 0 ]; then echo "run $i $c: clean ($((files - 1)) groups, $total strict)"
    else echo "run $i $c: UNCLEAN ($bad file(s) exited abnormally, see $log)"; unclean=1; fi
  done
  clog=$work/connect-$i.log
  rc=0
  nice "$dir/client/catalyzer" run --plan "$shared/conformance/connect-visible.jsonl" >"$clog.out" 2>"$clog" || rc=$?
  nice "$dir/tests/fuzz/fuzz_connect" --crash-file "$work/connect-crash" "$seeds/connect" >>"$clog" 2>&1 || rc=$((rc ? rc : $?))
  if [ "$rc" -eq 0 ] && ! grep -qE "$sanitizer" "$clog"; then
    echo "run $i connect: clean ($(wc -l <"$clog.out") plans; $(ls "$seeds/connect" | wc -l) requests)"
  else
    echo "run $i connect: UNCLEAN (exit $rc, see $clog)"; unclean=1
  fi
done
if [ $unclean -eq 0 ]; then echo "asan_corpora: $n run(s), every corpus clean"; rm -rf "$work"; else echo "asan_corpora: UNCLEAN (logs in $work)"; fi
exit $unclean
