-- conf: catalyzer.decorrelate=true
-- LATERAL joins rewritten into joins (opt-in batch)
CREATE TEMPORARY VIEW t1 AS VALUES (0, 1), (1, 2) AS t1(a, b);
CREATE TEMPORARY VIEW t2 AS VALUES (0, 2), (0, 3) AS t2(c, d);
SELECT * FROM t1, LATERAL (SELECT * FROM t2 WHERE t1.a = t2.c);
SELECT * FROM t1 LEFT JOIN LATERAL (SELECT d FROM t2 WHERE t1.a = t2.c AND d > 2) ON true;
SELECT * FROM t1, LATERAL (SELECT c, count(*) cnt FROM t2 WHERE t2.c = t1.a GROUP BY c);
-- the COUNT bug: a scalar aggregate returns a row for every outer row
SELECT * FROM t1, LATERAL (SELECT count(*) cnt FROM t2 WHERE c = t1.a);
SELECT * FROM t1, LATERAL (SELECT count(*) + coalesce(sum(d), 0) AS s, max(d) AS m FROM t2 WHERE c = t1.a);
-- outer references in the top Project: evaluated above the join, ON after it
SELECT * FROM t1, LATERAL (SELECT a + b AS e);
SELECT * FROM t1 JOIN LATERAL (SELECT a + b AS e) ON b = e;
SELECT * FROM t1, LATERAL (SELECT t1.a + t2.d AS x FROM t2 WHERE t2.c = t1.a);
-- kept as LateralJoin: a LEFT join computing outer references, correlation under a LIMIT
SELECT * FROM t1 LEFT JOIN LATERAL (SELECT a + b AS e) ON b = e;
SELECT * FROM t1, LATERAL (SELECT d FROM t2 WHERE c = t1.a ORDER BY d LIMIT 1);
