#!/usr/bin/env bash
# bench/run.sh — Catalyzer's benchmarks, one command:
#   bash bench/run.sh            (as root on the project's Debian machine)
# builds a release build in build-bench/, installs the peers it compares with
# (none of them is a dependency of the build or the tests), runs
#   1. in process: parse+analyse of every TPC-DS / TPC-H query (catalyzer bench),
#      then per query a series that times each phase (--phases: parse,
#      resolve, check, encode of the full response)
#   2. peers on the same queries: DuckDB's binder, PostgreSQL 15's parse
#      analysis, SQLite's sqlite3_prepare_v2
#   3. growth: plans that double in one dimension at a time
#   4. through the daemon: catalyzer-load at concurrency 1, 2 and saturating
#   5. the cost of TLS and token checks through the daemon (bench/security.sh)
#   6. the cost of isolated analysis workers through the daemon (bench/isolation.sh)
#   7. external catalogs: TPC-DS through the JDBC catalog, warm and cold (bench/catalogs.sh)
#   8. TPC-H through Spark Connect's AnalyzePlan against catalyzer.v1 Analyze (bench/connect.sh)
#   9. scale-out: through HAProxy with 1, 2, 3 replicas, the session store's cost (bench/scaleout.sh)
# and writes BENCHMARKS.md at the repository root from the figures of this run.
# Knobs (environment): ITER_CZ ITER_PEER GROWTH_BUDGET_S GROWTH_CG_K LOAD_SECONDS BENCH_NICE
# CZ_CONF (one key=value for the in-process runs, e.g. catalyzer.analyzer.singlePass=true)
# CATALYZER_SHARED (defaults to ../shared beside the clone), BENCH_OUT, BENCH_MD.
# The benchmark is not part of the test suite.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${CATALYZER_SHARED:-$ROOT/../shared}
WL=$SHARED/workloads
BUILD=$ROOT/build-bench
PEERS=$ROOT/build-bench-peers          # npm prefix for @duckdb/node-api
OUT=${BENCH_OUT:-$BUILD/bench-results}
DEST=${BENCH_MD:-$ROOT/BENCHMARKS.md}     # the report
ITER_CZ=${ITER_CZ:-2000}               # in-process iterations per query
ITER_PEER=${ITER_PEER:-300}            # peer iterations per query
GROWTH_BUDGET_S=${GROWTH_BUDGET_S:-4}  # time per growth size (at least 3 runs)
LOAD_SECONDS=${LOAD_SECONDS:-10}       # duration of each daemon load run
DUCKDB_NODE_API=${DUCKDB_NODE_API:-@duckdb/node-api@1.5.6-r.1}
PGBIN=/usr/lib/postgresql/15/bin
PY=/usr/bin/python3

# each step is logged with the load average, kept in the report's run log
log() {
    local line
    line=$(printf '[bench %s] [load %s] %s' "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1 /proc/loadavg)" "$*")
    printf '%s\n' "$line" >&2
    [ -d "$OUT" ] && printf '%s\n' "$line" >>"$OUT/steps.log"
    return 0
}

[ -d "$WL/tpch" ] || { echo "bench: no workloads at $WL (set CATALYZER_SHARED)" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT/tools" "$OUT/adapted" "$OUT/cz" "$OUT/peers" "$OUT/growth" "$OUT/daemon"
START_EPOCH=$(date +%s)
date -u '+%Y-%m-%d %H:%M UTC' > "$OUT/date.txt"
cat /proc/loadavg > "$OUT/loadavg_start.txt"

# ---------------------------------------------------------------- peers ----
log "installing peers (Debian: postgresql libpq-dev libsqlite3-dev; npm: $DUCKDB_NODE_API)"
need=()
for p in postgresql libpq-dev libsqlite3-dev; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
# tools: by command, since node/npm may come from elsewhere than Debian
for t in python3:python3 gcc:gcc meson:meson ninja:ninja-build npm:npm; do
    command -v "${t%%:*}" >/dev/null 2>&1 || need+=("${t#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
DUCKLIB=$PEERS/node_modules/@duckdb/node-bindings-linux-x64
if [ ! -f "$DUCKLIB/libduckdb.so" ]; then
    mkdir -p "$PEERS"
    npm install --prefix "$PEERS" --no-audit --no-fund --silent "$DUCKDB_NODE_API" >&2
fi

# ---------------------------------------------------------------- build ----
log "building (release) in $BUILD"
# werror off: a warning that only -O3 finds must not stop a measurement (the
# test builds keep -Werror)
[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dbuildtype=release -Dwerror=false >"$OUT/meson-setup.log"
meson configure "$BUILD" -Dbuildtype=release -Dwerror=false >>"$OUT/meson-setup.log"
ninja -C "$BUILD" client/catalyzer client/load/catalyzer-load server/catalyzerd >"$OUT/ninja.log"
CZ=$BUILD/client/catalyzer
LOAD=$BUILD/client/load/catalyzer-load
CZD=$BUILD/server/catalyzerd
CFLAGS_PEER="-O2 -Wall -Wextra -I$ROOT/bench/peers"
gcc $CFLAGS_PEER -o "$OUT/tools/sqlite_prepare" "$ROOT/bench/peers/sqlite_prepare.c" -lsqlite3
gcc $CFLAGS_PEER -I"$(pg_config --includedir)" -o "$OUT/tools/pg_prepare" "$ROOT/bench/peers/pg_prepare.c" -lpq
gcc $CFLAGS_PEER -o "$OUT/tools/duckdb_prepare" "$ROOT/bench/peers/duckdb_prepare.c" \
    -L"$DUCKLIB" -l:libduckdb.so -Wl,-rpath,"$DUCKLIB"

# ------------------------------------------------------------- priority ----
# The machine may be shared with builds and tests; as root, the measuring
# processes (and everything they start: the PostgreSQL cluster, the daemon)
# run at a higher priority so that the figures are less disturbed by them.
BENCH_NICE=${BENCH_NICE:--10}
if [ "$(id -u)" = 0 ] && [ -n "$BENCH_NICE" ] && renice -n "$BENCH_NICE" -p $$ >/dev/null 2>&1; then
    echo "nice=$BENCH_NICE" >"$OUT/priority.txt"
else
    echo "nice=0" >"$OUT/priority.txt"
fi

# ------------------------------------------------------------- machine ----
{
    echo "nproc=$(nproc)"
    echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "mem_kib=$(awk '/MemTotal/{print $2}' /proc/meminfo)"
    echo "kernel=$(uname -r)"
    echo "os=$(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "gcc=$(gcc -dumpfullversion)"
    echo "commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "modified=$(git -C "$ROOT" status --porcelain --untracked-files=no -- . ':!BENCHMARKS.md' 2>/dev/null | wc -l)"
    echo "postgres=$("$PGBIN/postgres" --version)"
    echo "sqlite=$(dpkg-query -W -f='${Version}' libsqlite3-0)"
    echo "duckdb=$("$OUT/tools/duckdb_prepare" --version)"
    echo "duckdb_npm=$DUCKDB_NODE_API"
    echo "node=$(node --version)"
} > "$OUT/machine.txt"

# ------------------------------------------------------------ workloads ----
# Sets: name, query dir, schema. tpcds-v2.7.0 binds against tpcds' schema.
SETS=(tpcds tpcds-v2.7.0 tpch)
set_schema() { case $1 in tpcds-v2.7.0) echo "$WL/tpcds/schema.sql" ;; *) echo "$WL/$1/schema.sql" ;; esac; }
set_queries() { ls "$WL/$1"/q*.sql | sort -V; }
for s in "${SETS[@]}"; do "$PY" "$ROOT/bench/adapt.py" "$WL/$s" "$OUT/adapted/$s"; done
cp "$OUT/adapted/tpcds/schema.sql" "$OUT/adapted/tpcds-v2.7.0/schema.sql"

# ------------------------------------------------- PostgreSQL (throwaway) ----
PGTMP=$(mktemp -d /tmp/catalyzer-bench-pg.XXXXXX)
DAEMON_PID=
cleanup() {
    [ -n "$DAEMON_PID" ] && kill "$DAEMON_PID" 2>/dev/null || true
    if [ -f "$PGTMP/data/postmaster.pid" ]; then
        runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGTMP/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$PGTMP"
}
trap cleanup EXIT
log "PostgreSQL: throwaway cluster on a Unix socket in $PGTMP"
id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
chown postgres "$PGTMP"
runuser -u postgres -- "$PGBIN/initdb" -D "$PGTMP/data" -A trust -U postgres --no-sync >"$OUT/peers/pg-initdb.log" 2>&1
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/pg.log" -w \
    -o "-k $PGTMP -c listen_addresses='' -c fsync=off" start >/dev/null
for s in "${SETS[@]}"; do
    psql -q -h "$PGTMP" -U postgres -d postgres -c "CREATE DATABASE \"$s\"" >/dev/null
done

# ------------------------------------------------ in process + peers ----
# Per set, Catalyzer and the three peers run back to back so that they see
# the same machine load.
echo "catalyzer bench --schema SCHEMA --iterations $ITER_CZ --json --phases QUERIES" >"$OUT/phases_cmd.txt"
for s in "${SETS[@]}"; do
    mapfile -t Q < <(set_queries "$s")
    mapfile -t A < <(for q in "${Q[@]}"; do echo "$OUT/adapted/$s/$(basename "$q")"; done)
    log "$s: catalyzer bench (${#Q[@]} queries x $ITER_CZ)"
    "$CZ" bench ${CZ_CONF:+--conf "$CZ_CONF"} --schema "$(set_schema "$s")" --iterations "$ITER_CZ" --json --phases "${Q[@]}" >"$OUT/cz/$s.json"
    log "$s: DuckDB prepare (x $ITER_PEER)"
    "$OUT/tools/duckdb_prepare" "$ITER_PEER" "$OUT/adapted/$s/schema.sql" "${A[@]}" >"$OUT/peers/duckdb-$s.jsonl" 2>/dev/null
    log "$s: PostgreSQL PREPARE (x $ITER_PEER)"
    "$OUT/tools/pg_prepare" "host=$PGTMP user=postgres dbname=$s" "$ITER_PEER" "$OUT/adapted/$s/schema.sql" "${A[@]}" \
        >"$OUT/peers/postgres-$s.jsonl"
    log "$s: SQLite prepare (x $ITER_PEER)"
    "$OUT/tools/sqlite_prepare" "$ITER_PEER" "$OUT/adapted/$s/schema.sql" "${A[@]}" >"$OUT/peers/sqlite-$s.jsonl"
done
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGTMP/data" -m fast stop >/dev/null

# --------------------------------------------------------------- growth ----
log "growth"
"$PY" "$ROOT/bench/growth.py" "$OUT/growth/sql" >"$OUT/growth/files.txt"
while read -r family size path; do
    # one calibration run, then as many runs as fit the budget (3..200)
    t=$("$CZ" bench ${CZ_CONF:+--conf "$CZ_CONF"} --schema "$OUT/growth/sql/schema.sql" --iterations 1 --json "$path" |
        "$PY" -c 'import json,sys; print(json.load(sys.stdin)["queries"][0]["median_us"])')
    n=$("$PY" -c "print(max(3, min(200, int($GROWTH_BUDGET_S * 1e6 / max($t, 1.0)))))")
    log "growth: $family $size (~${t%.*} us, $n runs)"
    "$CZ" bench ${CZ_CONF:+--conf "$CZ_CONF"} --schema "$OUT/growth/sql/schema.sql" --iterations "$n" --json "$path" >"$OUT/growth/$family-$size.json"
done <"$OUT/growth/files.txt"
# instructions per analysed query by callgrind (1 and 1+K runs, the difference / K): load-independent,
# unlike the times; ~1.5 minutes for every size (the largest are ~50x slower under callgrind)
GROWTH_CG_K=${GROWTH_CG_K:-8}
if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
    log "growth: instructions by callgrind (bench/growth_cg.sh, K=$GROWTH_CG_K)"
    echo "bash bench/growth_cg.sh CZ \$R/growth/sql/schema.sql \$R/growth/files.txt $GROWTH_CG_K" >"$OUT/growth/instructions_cmd.txt"
    CZ_CONF="${CZ_CONF:-}" bash "$ROOT/bench/growth_cg.sh" "$CZ" "$OUT/growth/sql/schema.sql" "$OUT/growth/files.txt" \
        "$GROWTH_CG_K" >"$OUT/growth/instructions.txt" || log "growth: bench/growth_cg.sh exited $?"
else
    log "growth: no valgrind, so no instruction counts"
fi

# --------------------------------------------------------------- daemon ----
log "daemon: $CZD"
"$CZD" --grpc 127.0.0.1:0 --http 127.0.0.1:0 >"$OUT/daemon/catalyzerd.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do [ -s "$OUT/daemon/catalyzerd.log" ] && break; sleep 0.05; done
PORT=$(head -1 "$OUT/daemon/catalyzerd.log" | "$PY" -c 'import json,sys; print(json.loads(sys.stdin.readline())["grpc_port"])')
WORKERS=$(head -1 "$OUT/daemon/catalyzerd.log" | "$PY" -c 'import json,sys; print(json.loads(sys.stdin.readline())["workers"])')
echo "workers=$WORKERS" >"$OUT/daemon/info.txt"
rss_kib() { awk '/VmRSS/{print $2}' "/proc/$DAEMON_PID/status"; }
sleep 0.5
echo "rss_start_kib=$(rss_kib)" >>"$OUT/daemon/info.txt"
# one load run: NAME then catalyzer-load options; RSS sampled every 0.2 s
load_run() {
    local name=$1; shift
    log "daemon: $name ($*)"
    "$LOAD" --daemon "127.0.0.1:$PORT" --workload "$WL/tpch" --duration "$LOAD_SECONDS" --json "$@" \
        >"$OUT/daemon/$name.json" 2>"$OUT/daemon/$name.err" &
    local lp=$! peak=0 r
    while kill -0 "$lp" 2>/dev/null; do
        r=$(rss_kib); [ "${r:-0}" -gt "$peak" ] && peak=$r
        sleep 0.2
    done
    wait "$lp" || log "daemon: $name: catalyzer-load exited $?"
    echo "$name $peak" >>"$OUT/daemon/rss_peak.txt"
    echo "$name $(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/daemon/loadavg.txt"
    echo "catalyzer-load --daemon 127.0.0.1:PORT --workload \$WL/tpch --duration $LOAD_SECONDS --json $*" \
        >"$OUT/daemon/$name.cmd"
}
# warm-up (not reported): sessions, allocator and page cache of a fresh daemon
"$LOAD" --daemon "127.0.0.1:$PORT" --workload "$WL/tpch" --duration 2 --connections 2 --concurrency 4 --json \
    >"$OUT/daemon/warmup.out" 2>&1 || true
load_run c1 --connections 1 --concurrency 1
load_run c2 --connections 1 --concurrency 2
load_run saturating --connections 4 --concurrency 16
load_run saturating-lean --connections 4 --concurrency 16 --lean
HALF=$("$PY" -c 'import json; print(int(json.load(open("'"$OUT/daemon/saturating.json"'"))["throughput_rps"] / 2))')
# open loop at half the saturating rate: 2 x 8 streams are plenty for the backlog
load_run half-rate --connections 2 --concurrency 8 --rate "$HALF"
HALFL=$("$PY" -c 'import json; print(int(json.load(open("'"$OUT/daemon/saturating-lean.json"'"))["throughput_rps"] / 2))')
load_run half-rate-lean --connections 2 --concurrency 8 --rate "$HALFL" --lean
sleep 1
echo "rss_after_kib=$(rss_kib)" >>"$OUT/daemon/info.txt"
kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true; DAEMON_PID=

# --------------------------------------------------------------- security ----
log "security: TLS and token checks (bench/security.sh)"
BENCH_SECURITY_STEP=1 BENCH_OUT="$OUT" LOAD_SECONDS="$LOAD_SECONDS" CATALYZER_SHARED="$SHARED" \
    bash "$ROOT/bench/security.sh" || log "security: bench/security.sh exited $?"

# --------------------------------------------------------------- isolation ----
log "isolation: worker processes against worker threads (bench/isolation.sh)"
BENCH_ISOLATION_STEP=1 BENCH_OUT="$OUT" LOAD_SECONDS="$LOAD_SECONDS" CATALYZER_SHARED="$SHARED" \
    bash "$ROOT/bench/isolation.sh" || log "isolation: bench/isolation.sh exited $?"

# --------------------------------------------------------------- catalogs ----
log "external catalogs: JDBC over PostgreSQL, warm and cold (bench/catalogs.sh)"
BENCH_OUT="$OUT" CATALYZER="$BUILD/client/catalyzer" ITER_CZ="$ITER_CZ" CATALYZER_SHARED="$SHARED" \
    bash "$ROOT/bench/catalogs.sh" || log "catalogs: bench/catalogs.sh exited $?"

# --------------------------------------------------------------- connect ----
log "connect: AnalyzePlan against Analyze (bench/connect.sh)"
BENCH_CONNECT_STEP=1 BENCH_OUT="$OUT" LOAD_SECONDS="$LOAD_SECONDS" CATALYZER_SHARED="$SHARED" \
    bash "$ROOT/bench/connect.sh" || log "connect: bench/connect.sh exited $?"

# --------------------------------------------------------------- scaleout ----
log "scaleout: HAProxy with 1, 2, 3 replicas, the session store (bench/scaleout.sh)"
BENCH_SCALEOUT_STEP=1 BENCH_OUT="$OUT" LOAD_SECONDS="$LOAD_SECONDS" CATALYZER_SHARED="$SHARED" \
    bash "$ROOT/bench/scaleout.sh" || log "scaleout: bench/scaleout.sh exited $?"

# --------------------------------------------------------------- report ----
cat /proc/loadavg >"$OUT/loadavg_end.txt"
echo "$(( $(date +%s) - START_EPOCH ))" >"$OUT/elapsed_s.txt"
{
    echo "ITER_CZ=$ITER_CZ ITER_PEER=$ITER_PEER GROWTH_BUDGET_S=$GROWTH_BUDGET_S LOAD_SECONDS=$LOAD_SECONDS"
} >"$OUT/knobs.txt"
"$PY" "$ROOT/bench/report.py" "$OUT" "$DEST"
log "wrote $DEST (results in $OUT, $(cat "$OUT/elapsed_s.txt") s)"
