-- Lateral column aliases: the three examples of ResolveLateralColumnAliasReference's design notes
CREATE TABLE employee (dept INT, name STRING, salary INT, bonus INT, properties STRUCT<joinYear: INT, mostRecentEmployer: STRING>) USING parquet;
-- Project: the referenced alias is pushed into a new Project below
SELECT salary AS a, a + 1 FROM employee;
-- Aggregate: grouping expressions and aggregates stay, a Project above is resolved like any Project
SELECT dept AS a, a + 1, avg(salary) AS b, b + avg(bonus) FROM employee GROUP BY dept;
-- Window: windows go up with the Project, ExtractWindowExpressions runs after
SELECT dept AS d, sum(salary) AS s, s + 1 AS t, rank() OVER (ORDER BY sum(salary)) AS r FROM employee GROUP BY dept;
-- ... but Spark 4 does not let a window expression itself reference a lateral alias
SELECT dept AS d, sum(salary) AS s, avg(s) OVER (PARTITION BY s ORDER BY d) AS avg FROM employee GROUP BY dept;
-- chains, nested fields, precedence
SELECT salary AS x, x + 1 AS y, y * 2 AS z FROM employee;
SELECT properties AS p, p.joinYear FROM employee;
SELECT bonus AS salary, salary FROM employee;
-- errors
SELECT 1 AS a, 2 AS a, a;
SELECT salary AS s, sum(s) FROM employee GROUP BY dept;
SELECT dept AS d, d + 1 AS e FROM employee GROUP BY dept, e;
