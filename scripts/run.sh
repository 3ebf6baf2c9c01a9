#!/usr/bin/env bash
# The main job: build, then analyse a demo query.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build
demo=$(mktemp --suffix=.sql)
trap 'rm -f "$demo"' EXIT
cat > "$demo" <<'SQL'
CREATE TEMPORARY VIEW emp AS VALUES ('alice', 'eng', 100), ('bob', 'eng', 80), ('carol', 'ops', 90) AS t(name, dept, salary);
SELECT dept, sum(salary) AS total, total / count(*) AS mean FROM emp GROUP BY dept ORDER BY total DESC;
SQL
echo "-- demo query:"; cat "$demo"
echo "-- unresolved plans (catalyzer parse):"
build/client/catalyzer parse "$demo"
echo "-- analysed plans (catalyzer explain):"
build/client/catalyzer explain "$demo"
echo "-- results (catalyzer run):"
build/client/catalyzer run "$demo"
