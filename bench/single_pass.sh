#!/usr/bin/env bash
# bench/single_pass.sh — the single-pass resolver against the fixed-point
# batches on the same queries (TPC-DS, TPC-DS v2.7, TPC-H), in process:
#   1. instructions per query (valgrind's callgrind: the difference between
#      runs of 1 and 1+N iterations of `catalyzer bench`, divided by N and the
#      number of queries: parse + analyse, what `catalyzer bench` times), which
#      a loaded machine does not disturb
#   2. `catalyzer bench --phases --json` medians with each analyzer (time:
#      noisy on a shared machine, read with the load average beside it)
# then splices its section into BENCHMARKS.md (bench/single_pass_report.py).
#   3. the dual run over the corpora (tests/conformance/dual_run.py, as meson
#      test dual_run): the share of queries the single pass covers, mismatches
# Knobs: ITER_CZ (timed runs per query, 300), ITER_IR (extra callgrind
# iterations, 3), CATALYZER_SHARED, BENCH_OUT, BENCH_MD, BUILD (build-bench),
# CZ (a catalyzer binary to measure instead of building one).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${CATALYZER_SHARED:-$ROOT/../shared}
WL=$SHARED/workloads
BUILD=${BUILD:-$ROOT/build-bench}
OUT=${BENCH_OUT:-$BUILD/bench-results}/single_pass
DEST=${BENCH_MD:-$ROOT/BENCHMARKS.md}
ITER_CZ=${ITER_CZ:-300}
ITER_IR=${ITER_IR:-3}
PY=/usr/bin/python3

[ -d "$WL/tpch" ] || { echo "bench/single_pass: no workloads at $WL (set CATALYZER_SHARED)" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT"
if [ -z "${CZ:-}" ]; then
    [ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dbuildtype=release -Dwerror=false >"$OUT/meson-setup.log"
    ninja -C "$BUILD" -j2 client/catalyzer >"$OUT/ninja.log"
    CZ=$BUILD/client/catalyzer
fi
date -u '+%Y-%m-%d %H:%M UTC' >"$OUT/date.txt"
echo "commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" >"$OUT/machine.txt"
echo "nproc=$(nproc)" >>"$OUT/machine.txt"
set_schema() { case $1 in tpcds-v2.7.0) echo "$WL/tpcds/schema.sql" ;; *) echo "$WL/$1/schema.sql" ;; esac; }
instructions() { # SET SINGLEPASS ITERATIONS
    mapfile -t Q < <(ls "$WL/$1"/q*.sql | sort -V)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$CZ" bench --schema "$(set_schema "$1")" \
        --iterations "$3" --conf "catalyzer.analyzer.singlePass=$2" "${Q[@]}" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for s in tpcds tpcds-v2.7.0 tpch; do
    mapfile -t Q < <(ls "$WL/$s"/q*.sql | sort -V)
    for sp in false true; do
        if command -v valgrind >/dev/null; then
            a=$(instructions "$s" "$sp" 1)
            b=$(instructions "$s" "$sp" $((1 + ITER_IR)))
            echo "$s $sp ${#Q[@]} $ITER_IR $a $b" >>"$OUT/instructions.txt"
        fi
        echo "$s $sp $(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/loadavg.txt"
        "$CZ" bench --schema "$(set_schema "$s")" --iterations "$ITER_CZ" --json --phases \
            --conf "catalyzer.analyzer.singlePass=$sp" "${Q[@]}" >"$OUT/$s-$sp.json"
    done
done
# coverage and agreement: the dual run over the corpora
"$PY" "$ROOT/tests/conformance/dual_run.py" --cli "$CZ" --shared "$SHARED" >"$OUT/dual_run.txt" 2>&1 || true
"$PY" "$ROOT/bench/single_pass_report.py" "$OUT" "$DEST"
