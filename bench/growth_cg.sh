#!/usr/bin/env bash
# bench/growth_cg.sh CZ SCHEMA FILES [K] — instructions per analysed query of each growth file, by
# callgrind, as bench/cgcount.sh counts a set: `catalyzer bench` at 1 and 1+K iterations, the
# difference over K, so start-up, the schema and a file's leading statements (the wide tables)
# cancel out. Load-independent, unlike the growth times.
#   FILES: the lines `family size path` bench/growth.py prints; K defaults to 8.
#   Prints one line per file: family size instructions (0 when a count failed).
# CZ_CONF (one key=value) is passed to `catalyzer bench`, as bench/run.sh does.
#   python3 bench/growth.py /tmp/g/sql >/tmp/g/files.txt
#   bash bench/growth_cg.sh build/client/catalyzer /tmp/g/sql/schema.sql /tmp/g/files.txt
set -euo pipefail
CZ=$1 SCHEMA=$2 FILES=$3 K=${4:-8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# total instructions of one `catalyzer bench` run of PATH at N iterations (empty on failure)
total() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$CZ" bench ${CZ_CONF:+--conf "$CZ_CONF"} \
        --schema "$SCHEMA" --iterations "$2" "$1" >/dev/null 2>&1 || return 0
    callgrind_annotate "$tmp/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
while read -r family size path; do
    a=$(total "$path" 1)
    b=$(total "$path" $((1 + K)))
    if [ -n "$a" ] && [ -n "$b" ]; then
        echo "$family $size $(((b - a) / K))"
    else
        echo "$family $size 0"
    fi
done <"$FILES"
