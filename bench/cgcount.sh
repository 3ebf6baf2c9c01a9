#!/usr/bin/env bash
# bench/cgcount.sh CZ SET — instructions per query of `catalyzer bench` (parse + analyse) over a
# workload set, by callgrind: runs of 1 and 4 iterations, the difference over 3 × queries (the
# schema's CREATE TABLEs and start-up cancel out). Load-independent, unlike times.
#   bash bench/cgcount.sh build-bench/client/catalyzer tpcds     (SET: tpcds | tpch | tpcds-v2.7.0)
# CATALYZER_SHARED defaults to ../shared beside the clone.
set -euo pipefail
CZ=$1 S=$2
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WL=${CATALYZER_SHARED:-$ROOT/../shared}/workloads
schema=$WL/$S/schema.sql
[ "$S" = tpcds-v2.7.0 ] && schema=$WL/tpcds/schema.sql
mapfile -t Q < <(ls "$WL/$S"/*.sql | grep -v schema.sql)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$CZ" bench --schema "$schema" --iterations "$1" \
        "${Q[@]}" >/dev/null 2>&1
    callgrind_annotate "$tmp/cg.$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
a=$(total 1)
b=$(total 4)
echo "$S $(((b - a) / (3 * ${#Q[@]})))"
