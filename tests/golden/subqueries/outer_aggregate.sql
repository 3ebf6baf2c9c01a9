-- Aggregates over outer columns are evaluated by the outer Aggregate (UpdateOuterReferences)
CREATE TEMPORARY VIEW l AS VALUES (1, 2.0), (1, 2.0), (2, 1.0) AS l(a, b);
CREATE TEMPORARY VIEW r AS VALUES (2, 3.0), (3, 2.0) AS r(c, d);
SELECT l.a FROM l GROUP BY 1 HAVING EXISTS (SELECT 1 FROM r WHERE r.d < min(l.b));
SELECT a FROM l GROUP BY a HAVING max(b) > (SELECT max(d) FROM r WHERE r.c = sum(l.a));
-- correlated subqueries in SELECT, WHERE, HAVING, ORDER BY
SELECT a, (SELECT max(d) FROM r WHERE r.c = l.a) FROM l;
SELECT a FROM l WHERE a IN (SELECT c FROM r WHERE d > l.b);
SELECT a FROM l WHERE a NOT IN (SELECT c FROM r) AND EXISTS (SELECT * FROM r WHERE c = a);
SELECT a, count(*) FROM l GROUP BY a HAVING count(*) > (SELECT count(*) FROM r WHERE c > a);
SELECT a FROM l ORDER BY (SELECT max(d) FROM r);
-- not aggregated: Spark 4 runs it with a single-row join (scalarSubqueryUseSingleJoin)
SELECT a, (SELECT d FROM r WHERE c = a) FROM l;
-- validity checks
SELECT a FROM l ORDER BY (SELECT max(d) FROM r WHERE c = a);
SELECT a, (SELECT sum(d) FROM r GROUP BY c + a) FROM l;
SELECT a, (SELECT max(d + a) FROM r WHERE c = a) FROM l;
SELECT a FROM l WHERE EXISTS (SELECT * FROM r LEFT JOIN (SELECT * FROM r WHERE d > l.b) s ON r.c = s.c);
