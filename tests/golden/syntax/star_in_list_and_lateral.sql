-- Stars expand in an IN list and, naming the enclosing query's relation,
-- inside a LATERAL subquery's function arguments (to outer references);
-- LIKE ANY () has no pattern (a parse error); `(with baz)` in CREATE
-- TABLE is a column `with`, not a query.
CREATE TEMPORARY VIEW v1 AS SELECT * FROM VALUES (1, 2, 3) AS v1(c1, c2, c3);
SELECT 5 IN (*) FROM v1;
SELECT 1 FROM v1 WHERE 2 IN (c1, *);
SELECT T.* FROM v1, LATERAL (SELECT COALESCE(v1.*)) AS T(x);
SELECT c1 FROM v1 WHERE 'a' LIKE ANY ();
CREATE TABLE foo (with baz)
