CREATE TEMPORARY VIEW pt AS SELECT * FROM VALUES (1, 'one'), (2, 'two') AS pt(k, s);
-- WHERE and result clauses stand over a PipeOperator boundary
TABLE pt |> WHERE k > 1;
TABLE pt |> ORDER BY s DESC |> LIMIT 1;
-- the boundary stops ORDER BY from reaching below a SELECT
TABLE pt |> SELECT k + 1 AS k1 |> ORDER BY s;
-- SET replaces a column in place, one Project per assignment
TABLE pt |> EXTEND k * 10 AS big |> SET big = big + 1, s = upper(s);
TABLE pt |> SET missing = 1;
-- AGGREGATE: positions name input columns; every aggregate expression needs an aggregate
TABLE pt |> AGGREGATE count(*) AS n GROUP BY 2;
TABLE pt |> AGGREGATE k GROUP BY s;
-- SELECT and EXTEND may not aggregate
TABLE pt |> SELECT sum(k);
TABLE pt |> EXTEND max(k) AS m;
-- TABLESAMPLE: a fraction is a Sample, rows are a Limit
TABLE pt |> TABLESAMPLE (50 PERCENT) REPEATABLE (7);
TABLE pt |> TABLESAMPLE (1 ROWS);
TABLE pt |> TABLESAMPLE (BUCKET 3 OUT OF 2);
TABLE pt |> PIVOT (sum(k) FOR s IN ('one', 'two'));
-- one result clause per operator; the clauses after the chain are the query's
TABLE pt |> ORDER BY k LIMIT 1;
TABLE pt |> SORT BY k DISTRIBUTE BY k;
TABLE pt |> SELECT k, sum(k) OVER w AS total WINDOW w AS (PARTITION BY s);
TABLE pt |> WHERE sum(k) OVER w > 0 WINDOW w AS (PARTITION BY s);
-- AGGREGATE with nothing to aggregate or group: one row, no columns
TABLE pt |> AGGREGATE;
TABLE pt |> AGGREGATE |> SELECT 1 AS one;
