-- conf: catalyzer.aliasInSubquery.enabled=true
-- Aliases referenced from subquery expressions (Catalyzer extension, docs/alias-in-subquery.md)
CREATE TEMPORARY VIEW xy AS VALUES (1, 2), (3, 4) AS xy(x, y);
SELECT 1 AS a, (SELECT a AS a);
SELECT x + 1 AS newX, (SELECT newX FROM xy) FROM xy;
SELECT x + 1 AS newX, (SELECT newX FROM xy LIMIT 1) FROM xy;
SELECT x AS a, (SELECT max(y) FROM xy WHERE y > a) AS m FROM xy;
SELECT y AS g, sum(x) AS a, (SELECT a + g) FROM xy GROUP BY y;
SELECT x AS y, (SELECT y) FROM xy;
-- errors: later aliases are not visible
SELECT (SELECT a) AS b, 1 AS a;
