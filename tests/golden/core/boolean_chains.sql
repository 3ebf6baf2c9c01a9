CREATE TEMPORARY VIEW bc AS SELECT * FROM VALUES (1, 2, 3, 4, 5) AS bc(a, b, c, d, e);
SELECT * FROM bc WHERE a > 0 AND b > 0 AND c > 0 AND d > 0;
SELECT * FROM bc WHERE a > 0 AND b > 0 AND c > 0;
SELECT * FROM bc WHERE a = 1 OR b = 1 OR c = 1 OR d = 1 OR e = 1;
SELECT * FROM bc WHERE a = 1 OR b = 1 AND c = 1 AND d = 1 AND e = 1;
