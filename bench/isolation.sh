#!/usr/bin/env bash
# bench/isolation.sh — what isolated analysis workers cost on TPC-H Analyze
# throughput through the daemon: the same catalyzer-load runs against
# catalyzerd with --worker-isolation process (the default: worker processes
# fed over socket pairs) and --worker-isolation thread (workers as threads of
# the daemon, as before issue 13), the two alternating over ISO_ROUNDS rounds
# so drift on the machine spreads over both; a fresh daemon each run. Runs:
# saturating with lean responses (4 connections × 16 calls), saturating with
# full responses, one call at a time, and saturating on sessions (one per
# connection: the journal path).
#
#   bash bench/isolation.sh    by itself: builds build-bench/ if needed, then
#                              splices its section into BENCHMARKS.md
#   (bench/run.sh runs it as a step with BENCH_ISOLATION_STEP=1: results only;
#   report.py renders them into the whole report)
# Knobs: ISO_SECONDS (each run, default LOAD_SECONDS or 10), ISO_ROUNDS (3),
# BENCH_NICE, CATALYZER_SHARED, BENCH_OUT, BENCH_MD.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${CATALYZER_SHARED:-$ROOT/../shared}
WL=$SHARED/workloads
BUILD=$ROOT/build-bench
OUT=${BENCH_OUT:-$BUILD/bench-results}
IOUT=$OUT/isolation
DEST=${BENCH_MD:-$ROOT/BENCHMARKS.md}
ISO_SECONDS=${ISO_SECONDS:-${LOAD_SECONDS:-10}}
ISO_ROUNDS=${ISO_ROUNDS:-3}
PY=/usr/bin/python3
STEP=${BENCH_ISOLATION_STEP:-}

ilog() {
    local line
    line=$(printf '[bench %s] [load %s] isolation: %s' "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1 /proc/loadavg)" "$*")
    printf '%s\n' "$line" >&2
    printf '%s\n' "$line" >>"$IOUT/steps.log"
}

[ -d "$WL/tpch" ] || { echo "bench/isolation: no workloads at $WL (set CATALYZER_SHARED)" >&2; exit 2; }
rm -rf "$IOUT"
mkdir -p "$IOUT"
date -u '+%Y-%m-%d %H:%M UTC' >"$IOUT/date.txt"
if [ -z "$STEP" ]; then
    ilog "building (release) in $BUILD"
    [ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dbuildtype=release -Dwerror=false >"$IOUT/meson-setup.log"
    ninja -C "$BUILD" client/load/catalyzer-load server/catalyzerd >"$IOUT/ninja.log"
    BENCH_NICE=${BENCH_NICE:--10}
    if [ "$(id -u)" = 0 ] && [ -n "$BENCH_NICE" ]; then renice -n "$BENCH_NICE" -p $$ >/dev/null 2>&1 || true; fi
fi
LOAD=$BUILD/client/load/catalyzer-load
CZD=$BUILD/server/catalyzerd
git -C "$ROOT" rev-parse --short HEAD >"$IOUT/commit.txt" 2>/dev/null || echo "?" >"$IOUT/commit.txt"

CONFIGS="thread process"
RUNS="saturating-lean saturating c1-lean sessions-lean"
DPID=
cleanup() { [ -n "$DPID" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT
start_daemon() { # CONFIG → PORT
    local log=$IOUT/daemon-$1.log
    rm -f "$log"
    "$CZD" --grpc 127.0.0.1:0 --http off --log-level warn --worker-isolation "$1" 2>"$log" &
    DPID=$!
    for _ in $(seq 100); do [ -s "$log" ] && break; sleep 0.05; done
    PORT=$(head -1 "$log" | "$PY" -c 'import json,sys; print(json.loads(sys.stdin.readline())["grpc_port"])')
}
stop_daemon() { kill "$DPID"; wait "$DPID" 2>/dev/null || true; DPID=; }
# CPU seconds of the daemon and its worker processes so far (/proc: the
# daemon's own and each live child's user + system time)
daemon_cpu() {
    local hz t=0 pid
    hz=$(getconf CLK_TCK)
    for pid in $DPID $(awk -v p="$DPID" '$4 == p { print $1 }' /proc/[0-9]*/stat 2>/dev/null); do
        t=$(awk -v t="$t" -v hz="$hz" '{ split($0, a, ") "); split(a[2], f, " "); printf "%.3f", t + (f[12] + f[13]) / hz }' "/proc/$pid/stat" 2>/dev/null || echo "$t")
    done
    echo "$t"
}

for round in $(seq 1 "$ISO_ROUNDS"); do
    for cfg in $CONFIGS; do
        start_daemon "$cfg"
        "$LOAD" --daemon "127.0.0.1:$PORT" --workload "$WL/tpch" --duration 2 --connections 2 --concurrency 4 --lean \
            --json >/dev/null 2>&1 || true # warm-up, not reported
        for run in $RUNS; do
            case $run in
                saturating-lean) shape="--connections 4 --concurrency 16 --lean" ;;
                saturating) shape="--connections 4 --concurrency 16" ;;
                c1-lean) shape="--connections 1 --concurrency 1 --lean" ;;
                sessions-lean) shape="--connections 4 --concurrency 16 --lean --sessions connection" ;;
            esac
            ilog "round $round: $cfg: $run"
            d0=$(daemon_cpu)
            # shellcheck disable=SC2086
            "$LOAD" --daemon "127.0.0.1:$PORT" --workload "$WL/tpch" --duration "$ISO_SECONDS" --json $shape \
                >"$IOUT/$cfg-$run-r$round.json" 2>"$IOUT/$cfg-$run-r$round.err" ||
                ilog "$cfg $run: catalyzer-load exited $?"
            d1=$(daemon_cpu)
            echo "$cfg $run $round $(awk -v a="$d0" -v b="$d1" 'BEGIN { printf "%.3f", b - a }')" >>"$IOUT/cpu.txt"
            echo "$cfg $run $round $(cut -d' ' -f1 /proc/loadavg)" >>"$IOUT/loadavg.txt"
            echo "catalyzerd --grpc 127.0.0.1:0 --http off --log-level warn --worker-isolation $cfg" >"$IOUT/$cfg.daemon.cmd"
            echo "catalyzer-load --daemon 127.0.0.1:PORT --workload \$WL/tpch --duration $ISO_SECONDS --json $shape" >"$IOUT/$run.cmd"
        done
        stop_daemon
    done
done
echo "ISO_SECONDS=$ISO_SECONDS ISO_ROUNDS=$ISO_ROUNDS" >"$IOUT/knobs.txt"

if [ -z "$STEP" ]; then
    "$PY" "$ROOT/bench/isolation_report.py" "$OUT" "$DEST"
    ilog "spliced the section into $DEST"
fi
