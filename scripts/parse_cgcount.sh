#!/bin/bash
# usage: scripts/parse_cgcount.sh CZ SET [tag] -> parser instructions per byte (callgrind, toggle-collect parse_statement, 4-iter minus 1-iter)
CZ=$1; S=$2; TAG=${3:-x}; WL=/work/shared/workloads; schema=$WL/$S/schema.sql; [ "$S" = tpcds-v2.7.0 ] && schema=$WL/tpcds/schema.sql
Q=($(ls $WL/$S/*.sql | grep -v schema.sql)); n=${#Q[@]}
bytes=$($CZ bench --schema $schema --iterations 1 --phases --json "${Q[@]}" 2>/dev/null | grep -o '"sql_bytes":[0-9]*' | awk -F: '{s+=$2} END{print s}')
tot() { nice -n 19 valgrind --tool=callgrind --toggle-collect=parse_statement --callgrind-out-file=/tmp/parse_cg.$$.$TAG.$1 $CZ bench --schema $schema --iterations $1 "${Q[@]}" >/dev/null 2>&1; callgrind_annotate /tmp/parse_cg.$$.$TAG.$1 2>/dev/null | grep "PROGRAM TOTALS" | awk '{gsub(",","",$1); print $1}'; rm -f /tmp/parse_cg.$$.$TAG.$1; }
a=$(tot 1); b=$(tot 4)
echo "$S queries=$n bytes=$bytes parse_instr_per_iter=$(( (b-a)/3 )) per_query=$(( (b-a)/(3*n) )) per_byte=$(echo "scale=2; ($b-$a)/(3*$bytes)" | bc)"
