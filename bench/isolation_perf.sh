#!/usr/bin/env bash
# bench/isolation_perf.sh — what a call costs the daemon per isolation mode,
# counted rather than timed (the machine is shared): a fixed number of TPC-H
# Analyze calls (catalyzer-load, saturating lean: 4 connections × 16 calls,
# the bench/isolation.sh shape) against a fresh daemon, with `perf stat -p`
# over the daemon and its worker processes (every thread), after a warm-up.
# Per call: syscalls, context switches, wake-ups, CPU migrations, and CPU
# time (task-clock; the user/system split from /proc). This VM has no PMU
# (instructions:u/k are <not supported>), so syscalls and switches stand in
# for the kernel's share.
#
#   bash bench/isolation_perf.sh BUILD_DIR PORT [MODE...]   (MODE: thread, process)
# Knobs: ISO_PERF_CALLS (20000), ISO_PERF_SHAPE (saturating-lean flags),
# ISO_PERF_DAEMON_ARGS (extra catalyzerd flags), CATALYZER_SHARED.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:?build dir}
PORT=${2:?loopback port}
shift 2
MODES=${*:-thread process}
WL=${CATALYZER_SHARED:-$ROOT/../shared}/workloads/tpch
CALLS=${ISO_PERF_CALLS:-20000}
SHAPE=${ISO_PERF_SHAPE:---connections 4 --concurrency 16 --lean}
LOAD=$BUILD/client/load/catalyzer-load
CZD=$BUILD/server/catalyzerd
EVENTS=raw_syscalls:sys_enter,context-switches,sched:sched_wakeup,cpu-migrations,task-clock,minor-faults
TMP=$(mktemp -d)
DPID=
cleanup() { [ -n "$DPID" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT

tree_pids() { echo "$DPID" $(awk -v p="$DPID" '$4 == p { print $1 }' /proc/[0-9]*/stat 2>/dev/null); }
# user and system clock ticks of the daemon's tree so far
# voluntary and involuntary context switches of every thread of the tree so far
tree_switches() {
    local pid
    for pid in $(tree_pids); do cat /proc/"$pid"/task/*/status 2>/dev/null; done |
        awk '/^voluntary_ctxt_switches/ { v += $2 } /^nonvoluntary_ctxt_switches/ { n += $2 } END { print v + 0, n + 0 }'
}
tree_ticks() {
    local u=0 s=0 pid
    for pid in $(tree_pids); do
        read -r a b < <(awk '{ split($0, x, ") "); split(x[2], f, " "); print f[12], f[13] }' "/proc/$pid/stat")
        u=$((u + a)); s=$((s + b))
    done
    echo "$u $s"
}

for mode in $MODES; do
    # shellcheck disable=SC2086
    "$CZD" --grpc "127.0.0.1:$PORT" --http off --log-level warn --worker-isolation "$mode" \
        ${ISO_PERF_DAEMON_ARGS:-} 2>"$TMP/daemon.log" &
    DPID=$!
    for _ in $(seq 200); do [ -s "$TMP/daemon.log" ] && break; sleep 0.05; done
    "$LOAD" --daemon "127.0.0.1:$PORT" --workload "$WL" --requests 2000 --connections 2 --concurrency 4 --lean \
        --json >/dev/null 2>&1 || true
    pids=$(tree_pids | tr ' ' ',')
    read -r u0 s0 < <(tree_ticks)
    read -r v0 n0 < <(tree_switches)
    perf stat -x, -e "$EVENTS" -p "$pids" -o "$TMP/perf.csv" &
    PERF=$!
    sleep 0.2
    # shellcheck disable=SC2086
    "$LOAD" --daemon "127.0.0.1:$PORT" --workload "$WL" --requests "$CALLS" $SHAPE --json >"$TMP/load.json" 2>/dev/null
    kill -INT "$PERF"
    wait "$PERF" || true
    read -r u1 s1 < <(tree_ticks)
    read -r v1 n1 < <(tree_switches)
    kill "$DPID"
    wait "$DPID" 2>/dev/null || true
    DPID=
    /usr/bin/python3 - "$mode" "$TMP/perf.csv" "$TMP/load.json" "$((u1 - u0))" "$((s1 - s0))" "$(getconf CLK_TCK)" \
        "$((v1 - v0))" "$((n1 - n0))" <<'EOF'
import json, sys
mode, csv, load = sys.argv[1:4]
du, ds, hz, vol, invol = (int(a) for a in sys.argv[4:9])
L = json.load(open(load))
calls = L.get("completed") or L.get("requests") or 0
ok = L.get("ok", calls)
ev = {}
for line in open(csv):
    f = line.strip().split(",")
    if len(f) > 2 and f[0] and not line.startswith("#"):
        try:
            ev[f[2]] = float(f[0])
        except ValueError:
            pass
per = lambda k: ev.get(k, float("nan")) / calls
print("%-7s calls %d ok %d | per call: syscalls %.2f  ctx-switches %.2f (voluntary %.2f)  wakeups %.2f  migrations %.3f  page faults %.2f  "
      "cpu %.1f us (user %.1f, sys %.1f)  | rps %.0f" % (
          mode, calls, ok, per("raw_syscalls:sys_enter"), per("context-switches"), vol / calls, per("sched:sched_wakeup"),
          per("cpu-migrations"), per("minor-faults"), per("task-clock") * 1000, du / hz / calls * 1e6, ds / hz / calls * 1e6,
          L.get("rps", L.get("throughput_rps", 0))))
EOF
done
