#!/usr/bin/env bash
# bench/catalogs.sh — what an external catalog costs: TPC-DS parse+analyse in
# process (catalyzer bench) with
#   inline  the tables created in the session (CREATE TABLE from schema.sql)
#   warm    the tables in PostgreSQL, read through the JDBC catalog, cache warm
#   cold    the same with spark.sql.catalog.pg.cacheTtlSeconds=0: every
#           analysis loads every table it names (counted in PostgreSQL's log)
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
cleanup() {
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
