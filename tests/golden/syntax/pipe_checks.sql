-- What the SQL pipe operators refuse, as Spark's AstBuilder does: AGGREGATE
-- with nothing, GROUP BY ALL / ROLLUP / CUBE / GROUPING SETS, GROUPING(...)
-- and window functions in it; EXTEND *; DROP of a nested field; AS u-v;
-- PIVOT with UNPIVOT; and a pipe SELECT's WINDOW clause serves that SELECT
-- only (a further WINDOW clause is the query's).
CREATE TEMPORARY VIEW t AS SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(x, y);
TABLE t |> AGGREGATE;
TABLE t |> AGGREGATE GROUP BY;
TABLE t |> AGGREGATE GROUP BY ALL;
TABLE t |> AGGREGATE sum(x) GROUP BY ROLLUP(y);
TABLE t |> AGGREGATE sum(x) GROUP BY y GROUPING SETS (y);
TABLE t |> AGGREGATE sum(x), grouping(y) GROUP BY y;
TABLE t |> AGGREGATE sum(x) OVER () GROUP BY y;
TABLE t |> AGGREGATE sum(x) AS s GROUP BY y;
TABLE t |> EXTEND *;
TABLE t |> DROP y.z;
TABLE t |> AS u-v;
TABLE t |> PIVOT (sum(x) FOR y IN ('a')) UNPIVOT (v FOR n IN (`a`));
TABLE t |> SELECT x, sum(x) OVER w1, sum(x) OVER w2 WINDOW w1 AS (PARTITION BY y) WINDOW w2 AS (ORDER BY x);
TABLE t |> SELECT x, sum(x) OVER w AS s1 |> SELECT x, sum(x) OVER w AS s2 WINDOW w AS (ORDER BY x);
TABLE t |> SELECT x, sum(x) OVER w AS s WINDOW w AS (ORDER BY x)
