#!/usr/bin/env bash
# bench/isolation_cg.sh — user-space instructions per TPC-H Analyze call
# through the daemon, per isolation mode, counted by callgrind over the whole
# daemon tree (the loop and its worker processes, --trace-children): two runs
# of N1 and N2 calls (saturating lean, 4 connections × 16 calls) on fresh
# daemons, the difference / (N2 - N1), so start-up and shutdown cancel out.
# Under valgrind the threads of a process take turns, so the batching seen at
# full speed differs; the per-call work of each side is what this counts.
#
#   bash bench/isolation_cg.sh BUILD_DIR PORT [MODE...]   (MODE: thread, process)
# Knobs: ISO_CG_N1 (300), ISO_CG_N2 (1300), CATALYZER_SHARED.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:?build dir}
PORT=${2:?loopback port}
shift 2
MODES=${*:-thread process}
WL=${CATALYZER_SHARED:-$ROOT/../shared}/workloads/tpch
N1=${ISO_CG_N1:-300}
N2=${ISO_CG_N2:-1300}
LOAD=$BUILD/client/load/catalyzer-load
CZD=$BUILD/server/catalyzerd
TMP=$(mktemp -d)
DPID=
cleanup() { [ -n "$DPID" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null || true; [ -n "${ISO_CG_KEEP:-}" ] || rm -rf "$TMP"; }
trap cleanup EXIT

total() { # MODE CALLS → instructions of every process of the tree
    local out=$TMP/$1-$2
    mkdir -p "$out"
    valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$out/cg.%p" \
        "$CZD" --grpc "127.0.0.1:$PORT" --http off --log-level warn --worker-isolation "$1" 2>"$out/daemon.log" &
    DPID=$!
    for _ in $(seq 600); do grep -q '"listening"' "$out/daemon.log" 2>/dev/null && break; sleep 0.1; done
    sleep 2 # the workers start
    "$LOAD" --daemon "127.0.0.1:$PORT" --workload "$WL" --requests "$2" --connections 4 --concurrency 16 --lean \
        --timeout-ms 600000 --json >"$out/load.json" 2>/dev/null
    kill -TERM "$DPID"
    wait "$DPID" 2>/dev/null || true
    DPID=
    local sum=0 f n
    for f in "$out"/cg.*; do
        n=$(grep -m1 '^totals:\|^summary:' "$f" | awk '{print $2}')
        sum=$((sum + ${n:-0}))
    done
    echo "$sum"
}

for mode in $MODES; do
    a=$(total "$mode" "$N1")
    b=$(total "$mode" "$N2")
    echo "$mode user instructions/call $(((b - a) / (N2 - N1)))  (tree totals: $N1 calls $a, $N2 calls $b)"
done
