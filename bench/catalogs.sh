#!/usr/bin/env bash
# bench/catalogs.sh — what an external catalog costs: TPC-DS parse+analyse in
# process (catalyzer bench) with
#   inline  the tables created in the session (CREATE TABLE from schema.sql)
#   warm    the tables in PostgreSQL, read through the JDBC catalog, cache warm
#   cold    the same with spark.sql.catalog.pg.cacheTtlSeconds=0: every
#           analysis loads every table it names (counted in PostgreSQL's log)
# and the same through the remote catalog (catalyzer.remote), the Go example
# provider (providers/go; the Python one when Go cannot build) serving
# schema.sql as namespace tpcds:
#   remote_warm  cache warm
#   remote_cold  cacheTtlSeconds=0 with the provider's --unversioned: every
#                analysis loads every table it names over gRPC (counted in
#                the provider's call log)
# plus, under callgrind (when valgrind is there), instructions per analysis of
# every query inline and through the remote catalog's warm cache (the
# difference of two runs of different iteration counts, so set-up and
# loading cancel out). Every provider and PostgreSQL it starts is stopped on
# exit.
# Writes $BENCH_OUT/catalogs/*.json; bench/run.sh calls it and report.py puts
# the figures in BENCHMARKS.md (python3 bench/catalogs_report.py OUT BENCHMARKS.md
# does it alone). Knobs: ITER_CZ (inline/warm iterations), ITER_COLD.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${CATALYZER_SHARED:-$ROOT/../shared}
WL=$SHARED/workloads/tpcds
OUT=${BENCH_OUT:-$ROOT/build-bench/bench-results}/catalogs
CZ=${CATALYZER:-$ROOT/build-bench/client/catalyzer}
ITER_CZ=${ITER_CZ:-2000}
ITER_COLD=${ITER_COLD:-50}
PGBIN=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
[ -d "$WL" ] || { echo "catalogs bench: no TPC-DS workload at $WL" >&2; exit 2; }
[ -x "$CZ" ] || "$ROOT/scripts/build.sh" "$ROOT/build-bench" -Dbuildtype=release >/dev/null
mkdir -p "$OUT"

PGTMP=$(mktemp -d /tmp/catalyzer-bench-catalogs.XXXXXX)
PROV_PIDS=()
cleanup() {
    for p in "${PROV_PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGTMP/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PGTMP"
}
trap cleanup EXIT
id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
chown postgres "$PGTMP"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
runuser -u postgres -- "$PGBIN/initdb" -D "$PGTMP/data" -A trust -U postgres --no-sync >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/pg.log" -w -o \
    "-k $PGTMP -c listen_addresses=127.0.0.1 -p $PORT -c fsync=off -c log_min_duration_statement=0" start >/dev/null
sed 's/\bSTRING\b/TEXT/g' "$WL/schema.sql" | psql -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 >/dev/null

mapfile -t QUERIES < <(ls "$WL"/q*.sql | sort -V)
PG=(--conf spark.sql.catalog.pg=org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog
    --conf "spark.sql.catalog.pg.url=jdbc:postgresql://127.0.0.1:$PORT/postgres"
    --conf spark.sql.catalog.pg.user=postgres --conf spark.sql.defaultCatalog=pg)
"$CZ" bench --schema "$WL/schema.sql" --iterations "$ITER_CZ" --json "${QUERIES[@]}" >"$OUT/inline.json"
"$CZ" bench "${PG[@]}" --iterations "$ITER_CZ" --json "${QUERIES[@]}" >"$OUT/warm.json"
before=$(grep -c 'parse <unnamed>: SELECT \* FROM' "$PGTMP/pg.log" || true)
"$CZ" bench "${PG[@]}" --conf spark.sql.catalog.pg.cacheTtlSeconds=0 --iterations "$ITER_COLD" --json "${QUERIES[@]}" \
    >"$OUT/cold.json"
after=$(grep -c 'parse <unnamed>: SELECT \* FROM' "$PGTMP/pg.log" || true)
# the loads of the cold run, and the analyses it made (each query: ITER_COLD timed runs)
echo "{\"table_loads\": $((after - before)), \"analyses\": $(( ${#QUERIES[@]} * ITER_COLD )), \"iter_cz\": $ITER_CZ, \"iter_cold\": $ITER_COLD, \"postgres\": \"$("$PGBIN/postgres" --version)\"}" >"$OUT/cold_loads.json"
echo "catalogs bench: results in $OUT" >&2

# ---------------------------------------------------------------- the remote catalog
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
PROVIDER=$(PROVIDER_BUILD="$PGTMP/provider-build" "$PY" - "$ROOT" <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[1] + "/tests/catalogs")
from provider_process import build_provider
for lang in ("go", "python"):
    try:
        cmd, why = build_provider(lang)
    except RuntimeError as e:
        cmd, why = None, str(e)
    if cmd:
        print(lang + " " + " ".join(cmd))
        break
    print("catalogs bench: no %s provider: %s" % (lang, why), file=sys.stderr)
PYEOF
) || true
if [ -z "$PROVIDER" ]; then
    echo "catalogs bench: no example provider can run here: the remote catalog is not measured" >&2
    exit 0
fi
PROV_LANG=${PROVIDER%% *}
read -r -a PROV_CMD <<<"${PROVIDER#* }"
start_provider() { # start_provider LOG ARGS...: sets PPORT
    local log=$1; shift
    "${PROV_CMD[@]}" --listen 127.0.0.1:0 --schema "tpcds=$WL/schema.sql" "$@" >"$log" 2>"$log.err" &
    PROV_PIDS+=($!)
    for _ in $(seq 1 200); do
        PPORT=$(sed -n '1s/.*"listening": *\([0-9]*\).*/\1/p' "$log" 2>/dev/null)
        [ -n "$PPORT" ] && return 0
        sleep 0.05
    done
    echo "catalogs bench: the provider did not start: $(cat "$log.err")" >&2
    exit 1
}
echo "USE rc.tpcds" >"$PGTMP/use_rc.sql"
start_provider "$PGTMP/prov.log"
RC=(--conf spark.sql.catalog.rc=catalyzer.remote --conf "spark.sql.catalog.rc.uri=127.0.0.1:$PPORT"
    --schema "$PGTMP/use_rc.sql")
"$CZ" bench "${RC[@]}" --iterations "$ITER_CZ" --json "${QUERIES[@]}" >"$OUT/remote_warm.json"
start_provider "$PGTMP/prov_cold.log" --unversioned
RCC=(--conf spark.sql.catalog.rc=catalyzer.remote --conf "spark.sql.catalog.rc.uri=127.0.0.1:$PPORT"
     --conf spark.sql.catalog.rc.cacheTtlSeconds=0 --schema "$PGTMP/use_rc.sql")
before=$(grep -c '"loaded"' "$PGTMP/prov_cold.log" || true)
"$CZ" bench "${RCC[@]}" --iterations "$ITER_COLD" --json "${QUERIES[@]}" >"$OUT/remote_cold.json"
after=$(grep -c '"loaded"' "$PGTMP/prov_cold.log" || true)
IR=null
if command -v valgrind >/dev/null && [ "${CALLGRIND:-1}" != 0 ]; then
    ir() { # ir ITERATIONS ARGS...: instructions of one catalyzer bench run
        local n=$1; shift
        valgrind --tool=callgrind --callgrind-out-file="$PGTMP/cg.out" "$CZ" bench "$@" --iterations "$n" \
            "${QUERIES[@]}" >/dev/null 2>&1 || true
        callgrind_annotate "$PGTMP/cg.out" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,
    }
    I1=${IR_ITER1:-5}; I2=${IR_ITER2:-15}
    in1=$(ir "$I1" --schema "$WL/schema.sql"); in2=$(ir "$I2" --schema "$WL/schema.sql")
    rw1=$(ir "$I1" "${RC[@]}"); rw2=$(ir "$I2" "${RC[@]}")
    if [ -n "$in1" ] && [ -n "$in2" ] && [ -n "$rw1" ] && [ -n "$rw2" ]; then
        IR="{\"inline\": $(( (in2 - in1) / (I2 - I1) / ${#QUERIES[@]} )), \"remote_warm\": $(( (rw2 - rw1) / (I2 - I1) / ${#QUERIES[@]} ))}"
    fi
fi
echo "{\"table_loads\": $((after - before)), \"analyses\": $(( ${#QUERIES[@]} * ITER_COLD )), \"iter_cz\": $ITER_CZ, \"iter_cold\": $ITER_COLD, \"provider\": \"$PROV_LANG\", \"instructions_per_analysis\": $IR, \"load_average\": \"$(cut -d' ' -f1-3 /proc/loadavg)\"}" >"$OUT/remote_loads.json"
echo "catalogs bench: remote catalog results in $OUT" >&2
