#!/usr/bin/env bash
# bench/security.sh — what TLS and bearer-token checks cost on TPC-H Analyze
# throughput through the daemon: the same catalyzer-load runs against
# catalyzerd in cleartext, with --auth-token-file, with TLS, with TLS and
# tokens, and with mutual TLS and tokens (certificates made now with the
# openssl CLI, ECDSA P-256). Configurations alternate over SEC_ROUNDS rounds
# so drift on the machine spreads over all of them; a fresh daemon each run.
# Also: full TLS handshakes per second (openssl s_time -new).
#
#   bash bench/security.sh     by itself: builds build-bench/ if needed, then
#                              splices its section into BENCHMARKS.md
#   (bench/run.sh runs it as a step with BENCH_SECURITY_STEP=1: results only;
#   report.py renders them into the whole report)
# Knobs: SEC_SECONDS (each run, default LOAD_SECONDS or 10), SEC_ROUNDS (3),
# BENCH_NICE, CATALYZER_SHARED, BENCH_OUT, BENCH_MD.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${CATALYZER_SHARED:-$ROOT/../shared}
WL=$SHARED/workloads
BUILD=$ROOT/build-bench
OUT=${BENCH_OUT:-$BUILD/bench-results}
SOUT=$OUT/security
DEST=${BENCH_MD:-$ROOT/BENCHMARKS.md}
SEC_SECONDS=${SEC_SECONDS:-${LOAD_SECONDS:-10}}
SEC_ROUNDS=${SEC_ROUNDS:-3}
PY=/usr/bin/python3
STEP=${BENCH_SECURITY_STEP:-}

slog() {
    local line
    line=$(printf '[bench %s] [load %s] security: %s' "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1 /proc/loadavg)" "$*")
    printf '%s\n' "$line" >&2
    printf '%s\n' "$line" >>"$SOUT/steps.log"
}

[ -d "$WL/tpch" ] || { echo "bench/security: no workloads at $WL (set CATALYZER_SHARED)" >&2; exit 2; }
rm -rf "$SOUT"
mkdir -p "$SOUT/pki"
date -u '+%Y-%m-%d %H:%M UTC' >"$SOUT/date.txt"
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

# ---------------------------------------------------------------- certificates, tokens
P=$SOUT/pki
ossl() { openssl "$@" >/dev/null 2>&1; }
ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$P/ca.key" -out "$P/ca.pem" -days 2 -subj /CN=bench-ca
ossl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$P/server.key" -out "$P/server.csr" -subj /CN=localhost
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$P/server.ext"
ossl x509 -req -in "$P/server.csr" -CA "$P/ca.pem" -CAkey "$P/ca.key" -CAcreateserial -out "$P/server.pem" -days 2 -extfile "$P/server.ext"
ossl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$P/client.key" -out "$P/client.csr" -subj /CN=bench
ossl x509 -req -in "$P/client.csr" -CA "$P/ca.pem" -CAkey "$P/ca.key" -CAcreateserial -out "$P/client.pem" -days 2
TOKEN=$(openssl rand -hex 24)
{ echo "# bench tokens"; for i in $(seq 1 99); do echo "$(openssl rand -hex 24) other-$i"; done; echo "$TOKEN bench"; } >"$P/tokens"
echo "$TOKEN" >"$P/client.token"
chmod 600 "$P/tokens" "$P/client.token"

# ---------------------------------------------------------------- runs
TLS_FLAGS="--tls-cert $P/server.pem --tls-key $P/server.key"
daemon_flags() {
    case $1 in
        plain) echo "" ;;
        token) echo "--auth-token-file $P/tokens" ;;
        tls) echo "$TLS_FLAGS" ;;
        tls-token) echo "$TLS_FLAGS --auth-token-file $P/tokens" ;;
        mtls-token) echo "$TLS_FLAGS --tls-client-ca $P/ca.pem --auth-token-file $P/tokens" ;;
    esac
}
client_flags() {
    case $1 in
        plain) echo "" ;;
        token) echo "--token-file $P/client.token" ;;
        tls) echo "--tls-ca $P/ca.pem" ;;
        tls-token) echo "--tls-ca $P/ca.pem --token-file $P/client.token" ;;
        mtls-token) echo "--tls-ca $P/ca.pem --tls-cert $P/client.pem --tls-key $P/client.key --token-file $P/client.token" ;;
    esac
}
CONFIGS="plain token tls tls-token mtls-token"
DPID=
cleanup() { [ -n "$DPID" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT
start_daemon() { # CONFIG → PORT
    local log=$SOUT/daemon-$1.log
    rm -f "$log" # the wait below must not see the previous run's file
    # shellcheck disable=SC2046
    "$CZD" --grpc 127.0.0.1:0 --http off --log-level warn $(daemon_flags "$1") 2>"$log" &
    DPID=$!
    for _ in $(seq 100); do [ -s "$log" ] && break; sleep 0.05; done
    PORT=$(head -1 "$log" | "$PY" -c 'import json,sys; print(json.loads(sys.stdin.readline())["grpc_port"])')
}
stop_daemon() { kill "$DPID"; wait "$DPID" 2>/dev/null || true; DPID=; }
# CPU seconds: the daemon's so far (/proc), and what this shell's finished
# children used (bash's times, second line; must run in this shell, not a $(...))
daemon_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$DPID/stat"; }
children_cpu() { awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%.3f\n", t }' "$1"; }

for round in $(seq 1 "$SEC_ROUNDS"); do
    for cfg in $CONFIGS; do
        start_daemon "$cfg"
        # shellcheck disable=SC2046
        "$LOAD" --daemon "127.0.0.1:$PORT" --workload "$WL/tpch" --duration 2 --connections 2 --concurrency 4 --lean \
            $(client_flags "$cfg") --json >/dev/null 2>&1 || true # warm-up, not reported
        for run in saturating-lean c1-lean; do
            case $run in
                saturating-lean) shape="--connections 4 --concurrency 16" ;;
                c1-lean) shape="--connections 1 --concurrency 1" ;;
            esac
            slog "round $round: $cfg: $run"
            # shellcheck disable=SC2086,SC2046
            cf=$(client_flags "$cfg")
            d0=$(daemon_cpu); times >"$SOUT/times0"
            # shellcheck disable=SC2086
            "$LOAD" --daemon "127.0.0.1:$PORT" --workload "$WL/tpch" --duration "$SEC_SECONDS" --json $shape --lean \
                $cf >"$SOUT/$cfg-$run-r$round.json" 2>"$SOUT/$cfg-$run-r$round.err" ||
                slog "$cfg $run: catalyzer-load exited $?"
            d1=$(daemon_cpu); times >"$SOUT/times1"
            # daemon and generator CPU seconds of this run
            echo "$cfg $run $round $(awk -v a="$d0" -v b="$d1" 'BEGIN { printf "%.3f", b - a }') $(awk -v a="$(children_cpu "$SOUT/times0")" -v b="$(children_cpu "$SOUT/times1")" 'BEGIN { printf "%.3f", b - a }')" >>"$SOUT/cpu.txt"
            echo "$cfg $run $round $(cut -d' ' -f1 /proc/loadavg)" >>"$SOUT/loadavg.txt"
            echo "catalyzerd --grpc 127.0.0.1:0 --http off --log-level warn $(daemon_flags "$cfg" | sed "s|$P|\$PKI|g")" >"$SOUT/$cfg.daemon.cmd"
            echo "catalyzer-load --daemon 127.0.0.1:PORT --workload \$WL/tpch --duration $SEC_SECONDS --json $shape --lean $(client_flags "$cfg" | sed "s|$P|\$PKI|g")" >"$SOUT/$cfg-$run.cmd"
        done
        stop_daemon
    done
done

# full handshakes per second against the gRPC port (s_time offers no ALPN: served)
start_daemon tls
slog "openssl s_time -new"
openssl s_time -connect "127.0.0.1:$PORT" -new -time "$SEC_SECONDS" -CAfile "$P/ca.pem" >"$SOUT/s_time-new.txt" 2>&1 || true
openssl s_time -connect "127.0.0.1:$PORT" -reuse -time "$SEC_SECONDS" -CAfile "$P/ca.pem" >"$SOUT/s_time-reuse.txt" 2>&1 || true
stop_daemon
echo "openssl s_time -connect 127.0.0.1:PORT -new|-reuse -time $SEC_SECONDS -CAfile \$PKI/ca.pem" >"$SOUT/s_time.cmd"
echo "SEC_SECONDS=$SEC_SECONDS SEC_ROUNDS=$SEC_ROUNDS" >"$SOUT/knobs.txt"
openssl version >"$SOUT/openssl.txt"
rm -f "$P"/*.key "$P/tokens" "$P/client.token" # no key or token outlives the run

if [ -z "$STEP" ]; then
    "$PY" "$ROOT/bench/security_report.py" "$OUT" "$DEST"
    slog "spliced the section into $DEST"
fi
