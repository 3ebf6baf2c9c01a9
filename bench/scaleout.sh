#!/usr/bin/env bash
# bench/scaleout.sh — throughput through HAProxy (docker/haproxy.cfg, Debian's
# HAProxy 2.6) with 1, 2 and 3 catalyzerd replicas sharing sessions through
# Redis, against one replica called directly, and what the shared session
# store costs per stateful request (one replica, --session-store redis://
# against the default in-memory store). The topology of docker/compose.yaml,
# as processes on loopback (the containers add nothing to measure here: host
# networking, the same binaries). catalyzer-load drives TPC-H (22 queries
# cycled) with a session per stream (its schema set up once by Execute, then
# Analyze on it), lean responses; the configurations alternate over
# SCALE_ROUNDS rounds, fresh processes each run.
#
#   bash bench/scaleout.sh      builds build-bench/ if needed, then splices its
#                               section into BENCHMARKS.md
#   (bench/run.sh runs it as a step with BENCH_SCALEOUT_STEP=1: results only;
#   report.py renders them into the whole report)
# Knobs: SCALE_SECONDS (each run, default LOAD_SECONDS or 8), SCALE_ROUNDS (2),
# SCALE_CONNS x SCALE_STREAMS (saturating shape, 2 x 8), BENCH_NICE,
# CATALYZER_SHARED, BENCH_OUT, BENCH_MD, BENCH_BUILD (a build directory to use
# instead of build-bench/, e.g. the worktree's build/). Needs haproxy and redis-server
# (scripts/install-deps.sh).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${CATALYZER_SHARED:-$ROOT/../shared}
WL=$SHARED/workloads
BUILD=${BENCH_BUILD:-$ROOT/build-bench}
OUT=${BENCH_OUT:-$BUILD/bench-results}
SOUT=$OUT/scaleout
DEST=${BENCH_MD:-$ROOT/BENCHMARKS.md}
SCALE_SECONDS=${SCALE_SECONDS:-${LOAD_SECONDS:-8}}
SCALE_ROUNDS=${SCALE_ROUNDS:-2}
SCALE_CONNS=${SCALE_CONNS:-2}
SCALE_STREAMS=${SCALE_STREAMS:-8}
PY=/usr/bin/python3
STEP=${BENCH_SCALEOUT_STEP:-}

slog() {
    local line
    line=$(printf '[bench %s] [load %s] scaleout: %s' "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1 /proc/loadavg)" "$*")
    printf '%s\n' "$line" >&2
    printf '%s\n' "$line" >>"$SOUT/steps.log"
}

[ -d "$WL/tpch" ] || { echo "bench/scaleout: no workloads at $WL (set CATALYZER_SHARED)" >&2; exit 2; }
for p in haproxy redis-server; do
    command -v "$p" >/dev/null || { echo "bench/scaleout: $p is not installed (scripts/install-deps.sh)" >&2; exit 2; }
done
rm -rf "$SOUT"
mkdir -p "$SOUT"
date -u '+%Y-%m-%d %H:%M UTC' >"$SOUT/date.txt"
cut -d' ' -f1-3 /proc/loadavg >"$SOUT/loadavg-start.txt"
if [ -z "$STEP" ]; then
    slog "building (release) in $BUILD"
    [ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dbuildtype=release -Dwerror=false >"$SOUT/meson-setup.log"
    ninja -C "$BUILD" client/load/catalyzer-load server/catalyzerd >"$SOUT/ninja.log"
    BENCH_NICE=${BENCH_NICE:--10}
    if [ "$(id -u)" = 0 ] && [ -n "$BENCH_NICE" ]; then renice -n "$BENCH_NICE" -p $$ >/dev/null 2>&1 || true; fi
fi
LOAD=$BUILD/client/load/catalyzer-load
CZD=$BUILD/server/catalyzerd
git -C "$ROOT" rev-parse --short HEAD >"$SOUT/commit.txt" 2>/dev/null || echo "?" >"$SOUT/commit.txt"
echo "SCALE_SECONDS=$SCALE_SECONDS SCALE_ROUNDS=$SCALE_ROUNDS SCALE_CONNS=$SCALE_CONNS SCALE_STREAMS=$SCALE_STREAMS" >"$SOUT/knobs.txt"
haproxy -v | sed -n 1p >"$SOUT/haproxy.txt"  # (sed reads it all: head would SIGPIPE haproxy under pipefail)
meson introspect "$BUILD" --buildoptions 2>/dev/null | "$PY" -c 'import json,sys; print({o["name"]: o["value"] for o in json.load(sys.stdin)}.get("buildtype", "?"))' >"$SOUT/buildtype.txt" || true
redis-server --version >"$SOUT/redis.txt"

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PIDS=()
cleanup() {
    local p
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT
stop_all() {
    cleanup
    PIDS=()
}

REDIS_PORT=$(free_port)
start_redis() {
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --loglevel warning \
        >"$SOUT/redis.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 100); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && return; sleep 0.05; done
    echo "bench/scaleout: redis-server did not start" >&2
    exit 1
}
# start_replica N STORE(memory|redis): fixed free ports, recorded in R<N>_GRPC / R<N>_HTTP
start_replica() {
    local n=$1 store=$2 g h
    g=$(free_port)
    h=$(free_port)
    local args=(--grpc "127.0.0.1:$g" --http "127.0.0.1:$h" --workers 1 --log-level warn)
    [ "$store" = redis ] && args+=(--session-store "redis://127.0.0.1:$REDIS_PORT")
    "$CZD" "${args[@]}" 2>"$SOUT/replica$n.log" &
    PIDS+=($!)
    eval "R${n}_GRPC=$g R${n}_HTTP=$h"
    echo "$CZD ${args[*]}" | sed "s|$ROOT/||g; s|127\.0\.0\.1:[0-9]*|127.0.0.1:PORT|g" >"$SOUT/replica.cmd"
    for _ in $(seq 200); do grep -q '"listening"' "$SOUT/replica$n.log" 2>/dev/null && return; sleep 0.05; done
    echo "bench/scaleout: catalyzerd did not start" >&2
    exit 1
}
# start_haproxy N: HAProxy over replicas 1..N (the other servers point at closed ports and stay DOWN)
start_haproxy() {
    local n=$1 i
    LB=$(free_port)
    STATS=$(free_port)
    export CZ_LB=127.0.0.1:$LB CZ_LB_STATS=127.0.0.1:$STATS
    for i in 1 2 3; do
        local g h
        if [ "$i" -le "$n" ]; then eval "g=\$R${i}_GRPC h=\$R${i}_HTTP"; else g=$(free_port); h=$(free_port); fi
        export "CZ_R${i}_HOST=127.0.0.1" "CZ_R${i}_GRPC_PORT=$g" "CZ_R${i}_HTTP_PORT=$h"
    done
    haproxy -db -f "$ROOT/docker/haproxy.cfg" >"$SOUT/haproxy.log" 2>&1 &
    PIDS+=($!)
    # wait until the stats page has replicas 1..N UP and the rest DOWN
    for _ in $(seq 200); do
        local up down
        up=$(curl -s "http://127.0.0.1:$STATS/stats;csv" 2>/dev/null | grep -c '^replicas_grpc,r[123],.*,UP,' || true)
        down=$(curl -s "http://127.0.0.1:$STATS/stats;csv" 2>/dev/null | grep -c '^replicas_grpc,r[123],.*,DOWN,' || true)
        [ "$up" = "$n" ] && [ "$down" = $((3 - n)) ] && return
        sleep 0.1
    done
    echo "bench/scaleout: HAProxy did not see $n replicas UP" >&2
    exit 1
}
# daemon CPU seconds of every catalyzerd (and its worker processes) and haproxy started here
cpu_of() {
    local hz t=0 pid
    hz=$(getconf CLK_TCK)
    for pid in "${PIDS[@]}" $(for p in "${PIDS[@]}"; do awk -v p="$p" '$4 == p { print $1 }' /proc/[0-9]*/stat 2>/dev/null; done); do
        t=$(awk -v t="$t" -v hz="$hz" '{ split($0, a, ") "); split(a[2], f, " "); printf "%.3f", t + (f[12] + f[13]) / hz }' "/proc/$pid/stat" 2>/dev/null || echo "$t")
    done
    echo "$t"
}
# run NAME ROUND TARGET CONNS STREAMS
run_load() {
    local name=$1 round=$2 target=$3 conns=$4 streams=$5 c0 c1
    local cmd=("$LOAD" --daemon "$target" --workload "$WL/tpch" --connections "$conns" --concurrency "$streams"
        --duration "$SCALE_SECONDS" --lean --json)
    echo "${cmd[*]}" | sed "s|$ROOT/||g; s|$WL|\$WL|g" >"$SOUT/$name.cmd"
    c0=$(cpu_of)
    "${cmd[@]}" >"$SOUT/$name-r$round.json" 2>"$SOUT/$name-r$round.err"
    c1=$(cpu_of)
    echo "$name $round $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.3f", b - a }')" >>"$SOUT/cpu.txt"
    slog "$name round $round: $("$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); print("%.0f req/s, p50 %.2f ms, p99 %.2f ms, %d errors" % (j["throughput_rps"], j["latency_us"]["p50"]/1e3, j["latency_us"]["p99"]/1e3, sum(j["errors"].values())))' "$SOUT/$name-r$round.json")"
}

S="$SCALE_CONNS $SCALE_STREAMS"
for round in $(seq 1 "$SCALE_ROUNDS"); do
    # the session store's cost: one replica called directly, memory vs redis
    for store in memory redis; do
        [ "$store" = redis ] && start_redis
        start_replica 1 "$store"
        run_load "direct-$store-c1" "$round" "127.0.0.1:$R1_GRPC" 1 1
        run_load "direct-$store" "$round" "127.0.0.1:$R1_GRPC" $S
        stop_all
    done
    # through HAProxy: 1, 2, 3 replicas sharing sessions in Redis
    for n in 1 2 3; do
        start_redis
        for i in $(seq 1 "$n"); do start_replica "$i" redis; done
        start_haproxy "$n"
        [ "$n" = 1 ] && run_load "lb1-c1" "$round" "127.0.0.1:$LB" 1 1
        run_load "lb$n" "$round" "127.0.0.1:$LB" $S
        stop_all
    done
done
cat /proc/loadavg >"$SOUT/loadavg.txt"
if [ -z "$STEP" ]; then
    "$PY" "$ROOT/bench/scaleout_report.py" "$OUT" "$DEST"
    slog "section written to $DEST"
fi
