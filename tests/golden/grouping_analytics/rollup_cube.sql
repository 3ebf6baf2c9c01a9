CREATE TABLE t (a INT, b STRING, c INT);
SELECT a, b, sum(c), grouping(a) + grouping(b) AS lvl FROM t GROUP BY ROLLUP (a, b);
SELECT a, b, count(*), grouping_id() FROM t GROUP BY CUBE (a, b) HAVING count(*) > 1;
SELECT a, b, count(*) FROM t GROUP BY GROUPING SETS ((a), (a, b), (a));
SELECT a, sum(c), rank() OVER (PARTITION BY grouping(a) ORDER BY sum(c) DESC) AS r FROM t GROUP BY ROLLUP (a);
SELECT sum(c) FROM t GROUP BY ROLLUP (a, b) ORDER BY b;
SELECT a, b FROM t GROUP BY CUBE (a, b) HAVING grouping__id > 0 AND grouping(b) = 1;
SELECT a + 1 AS k, count(*) FROM t GROUP BY ROLLUP (k);
