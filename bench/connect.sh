#!/usr/bin/env bash
# bench/connect.sh — TPC-H through Spark Connect's AnalyzePlan against the
# same through catalyzer.v1 Analyze: the 22 SQL texts (Relation{sql} /
# SqlQuery) and the 22 structured DataFrame plans of
# bench/workloads/tpch-connect (bench/tpch_connect.py), driven by
# catalyzer-load --service connect|catalyzer against one fresh release
# catalyzerd per run. Configurations alternate over CONNECT_ROUNDS rounds so
# drift on the machine spreads over all of them; the daemon's CPU time per
# call is recorded beside throughput and latency.
#
#   bash bench/connect.sh      by itself: builds build-bench/ if needed, then
#                              splices its section into BENCHMARKS.md
#   (bench/run.sh runs it as a step with BENCH_CONNECT_STEP=1: results only;
#   report.py renders them into the whole report)
# Knobs: CONNECT_SECONDS (each run, default LOAD_SECONDS or 10), CONNECT_ROUNDS (2),
# BENCH_NICE, CATALYZER_SHARED, BENCH_OUT, BENCH_MD.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${CATALYZER_SHARED:-$ROOT/../shared}
WL=$SHARED/workloads
BUILD=$ROOT/build-bench
OUT=${BENCH_OUT:-$BUILD/bench-results}
COUT=$OUT/connect
DEST=${BENCH_MD:-$ROOT/BENCHMARKS.md}
SECS=${CONNECT_SECONDS:-${LOAD_SECONDS:-10}}
ROUNDS=${CONNECT_ROUNDS:-2}
PY=/usr/bin/python3
STEP=${BENCH_CONNECT_STEP:-}
STRUCTURED=$ROOT/bench/workloads/tpch-connect

clog() {
    local line
    line=$(printf '[bench %s] [load %s] connect: %s' "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1 /proc/loadavg)" "$*")
    printf '%s\n' "$line" >&2
    printf '%s\n' "$line" >>"$COUT/steps.log"
}

[ -d "$WL/tpch" ] || { echo "bench/connect: no workloads at $WL (set CATALYZER_SHARED)" >&2; exit 2; }
rm -rf "$COUT"
mkdir -p "$COUT"
date -u '+%Y-%m-%d %H:%M UTC' >"$COUT/date.txt"
if [ -z "$STEP" ]; then
    clog "building (release) in $BUILD"
    [ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dbuildtype=release -Dwerror=false >"$COUT/meson-setup.log"
    ninja -C "$BUILD" client/load/catalyzer-load server/catalyzerd >"$COUT/ninja.log"
    BENCH_NICE=${BENCH_NICE:--10}
    if [ "$(id -u)" = 0 ] && [ -n "$BENCH_NICE" ]; then renice -n "$BENCH_NICE" -p $$ >/dev/null 2>&1 || true; fi
fi
LOAD=$BUILD/client/load/catalyzer-load
CZD=$BUILD/server/catalyzerd
export LD_LIBRARY_PATH=$BUILD/client/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
git -C "$ROOT" rev-parse --short HEAD >"$COUT/commit.txt" 2>/dev/null || echo "?" >"$COUT/commit.txt"

PID=""
PORT=""
start_daemon() {
    "$CZD" --grpc 127.0.0.1:0 --http off --log-level warn 2>"$COUT/daemon.log" >/dev/null &
    PID=$!
    for _ in $(seq 200); do grep -q grpc_port "$COUT/daemon.log" 2>/dev/null && break; sleep 0.05; done
    PORT=$(head -1 "$COUT/daemon.log" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["grpc_port"])')
}
stop_daemon() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
daemon_cpu() { awk -v t="$(getconf CLK_TCK)" '{ printf "%.3f", ($14 + $15) / t }' "/proc/$PID/stat"; }

# configuration: service, workload, extra flags
config() {
    case $1 in
    v1-sql) echo "catalyzer $WL/tpch --lean" ;;
    v1-structured) echo "catalyzer $STRUCTURED --lean" ;;
    connect-sql) echo "connect $WL/tpch" ;;
    connect-structured) echo "connect $STRUCTURED" ;;
    esac
}
CONFIGS="v1-sql v1-structured connect-sql connect-structured"
for round in $(seq "$ROUNDS"); do
    for cfg in $CONFIGS; do
        read -r svc wl extra <<<"$(config "$cfg")"
        for run in c1 saturating; do
            shape="--connections 1 --concurrency 1"
            [ "$run" = saturating ] && shape="--connections 4 --concurrency 16"
            start_daemon
            clog "$cfg $run (round $round)"
            d0=$(daemon_cpu)
            # shellcheck disable=SC2086
            "$LOAD" --daemon "127.0.0.1:$PORT" --workload "$wl" --schema "$WL/tpch/schema.sql" --service "$svc" \
                --duration "$SECS" --json $shape $extra >"$COUT/$cfg-$run-r$round.json" 2>"$COUT/$cfg-$run-r$round.err" ||
                clog "$cfg $run: catalyzer-load exited $?"
            d1=$(daemon_cpu)
            echo "$cfg $run $round $(awk -v a="$d0" -v b="$d1" 'BEGIN { printf "%.3f", b - a }') $(cut -d' ' -f1 /proc/loadavg)" >>"$COUT/cpu.txt"
            echo "catalyzer-load --daemon 127.0.0.1:PORT --workload ${wl/#$WL/\$WL} --schema \$WL/tpch/schema.sql --service $svc --duration $SECS --json $shape $extra" | sed "s|$ROOT/||" >"$COUT/$cfg-$run.cmd"
            stop_daemon
        done
    done
done
echo "CONNECT_SECONDS=$SECS CONNECT_ROUNDS=$ROUNDS" >"$COUT/knobs.txt"

if [ -z "$STEP" ]; then
    "$PY" "$ROOT/bench/connect_report.py" "$OUT" "$DEST"
    clog "spliced the section into $DEST"
fi
