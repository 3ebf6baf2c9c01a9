#!/usr/bin/env bash
# bench/phases.sh — where the time of one analysis goes: `catalyzer bench
# --phases` over TPC-DS, TPC-DS v2.7 and TPC-H (parse, resolve, check,
# output, tree string, structured plan), without the peers and the daemon.
#
#   bash bench/phases.sh     by itself: builds build-bench/ if needed, then
#                            splices its section into BENCHMARKS.md
#   (bench/run.sh measures the same phases in its in-process step; report.py
#   renders them into the whole report)
# Knobs: ITER_CZ (runs per query and series, 2000), CZ_CONF (one key=value,
# e.g. catalyzer.analyzer.singlePass=true), CATALYZER_SHARED,
# BENCH_OUT, BENCH_MD.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${CATALYZER_SHARED:-$ROOT/../shared}
WL=$SHARED/workloads
BUILD=$ROOT/build-bench
OUT=${BENCH_OUT:-$BUILD/bench-results}/phases
DEST=${BENCH_MD:-$ROOT/BENCHMARKS.md}
ITER_CZ=${ITER_CZ:-2000}
PY=/usr/bin/python3

[ -d "$WL/tpch" ] || { echo "bench/phases: no workloads at $WL (set CATALYZER_SHARED)" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT/cz"
[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dbuildtype=release -Dwerror=false >"$OUT/meson-setup.log"
ninja -C "$BUILD" -j2 client/catalyzer >"$OUT/ninja.log"
CZ=$BUILD/client/catalyzer
echo "catalyzer bench --schema SCHEMA --iterations $ITER_CZ --json --phases QUERIES" >"$OUT/phases_cmd.txt"
for s in tpcds tpcds-v2.7.0 tpch; do
    schema=$WL/$s/schema.sql
    [ "$s" = tpcds-v2.7.0 ] && schema=$WL/tpcds/schema.sql
    mapfile -t Q < <(ls "$WL/$s"/q*.sql | sort -V)
    echo "[phases $(date -u +%H:%M:%S)] [load $(cut -d' ' -f1 /proc/loadavg)] $s: ${#Q[@]} queries x $ITER_CZ" >&2
    "$CZ" bench ${CZ_CONF:+--conf "$CZ_CONF"} --schema "$schema" --iterations "$ITER_CZ" --json --phases "${Q[@]}" >"$OUT/cz/$s.json"
done
"$PY" "$ROOT/bench/phases_report.py" "$OUT" "$DEST"
echo "bench/phases: wrote $DEST (results in $OUT)" >&2
