CREATE TEMPORARY VIEW wide AS SELECT * FROM VALUES ('a', 1, NULL, 3L), ('b', 4, 5, NULL) AS wide(id, q1, q2, q3);
-- EXCLUDE NULLS by default: a Filter over the Expand; values widened to bigint
SELECT * FROM wide UNPIVOT (v FOR q IN (q1, q2, q3));
SELECT * FROM wide UNPIVOT INCLUDE NULLS (v FOR q IN (q1 AS first, q2, q3)) AS u;
-- several value columns, one alias per set
SELECT * FROM wide UNPIVOT ((x, y) FOR pair IN ((q1, q2) AS p12, (q2, q3)));
-- errors
SELECT * FROM wide UNPIVOT (v FOR q IN (nope));
SELECT * FROM wide UNPIVOT ((x, y) FOR pair IN ((q1, q2), (q3)));
