CREATE TEMPORARY VIEW sx (x1, x2) AS VALUES (1, 1), (2, 2);
CREATE TEMPORARY VIEW sy (y1, y2) AS VALUES (2, 0), (3, -1);
SET spark.sql.optimizer.scalarSubqueryUseSingleJoin = false;
SELECT * FROM sx WHERE (SELECT count(*) FROM sy WHERE y1 = x1 GROUP BY y1) = 1;
SELECT * FROM sx WHERE (SELECT count(*) FROM sy WHERE y1 > x1 GROUP BY y1) = 1;
SET spark.sql.legacy.scalarSubqueryAllowGroupByNonEqualityCorrelatedPredicate = true;
SELECT * FROM sx WHERE (SELECT count(*) FROM sy WHERE y1 > x1 GROUP BY y1) = 1;
SELECT *, (SELECT count(*) FROM sy WHERE y1 + y2 = x1 GROUP BY y1) FROM sx;
