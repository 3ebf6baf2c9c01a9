CREATE TEMPORARY VIEW og AS SELECT * FROM VALUES (1, 2), (1, 3) AS og(a, b);
SELECT a, count(*) FROM og GROUP BY a ORDER BY b;
SELECT a, count(*) FROM og GROUP BY a HAVING b > 0;
SELECT a, b, count(*) FROM og GROUP BY a;
SELECT count(*) FROM og GROUP BY a ORDER BY a;
SELECT a, count(*) FROM og GROUP BY a ORDER BY max(b);
