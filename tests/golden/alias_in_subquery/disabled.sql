-- With catalyzer.aliasInSubquery.enabled off (the default) the errors are Spark's
CREATE TEMPORARY VIEW xy AS VALUES (1, 2), (3, 4) AS xy(x, y);
SELECT 1 AS a, (SELECT a AS a);
SELECT x + 1 AS newX, (SELECT newX FROM xy) FROM xy;
