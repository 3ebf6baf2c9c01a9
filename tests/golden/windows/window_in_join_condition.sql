-- A window function in a join condition: only a Window hosts window
-- expressions (Spark's specialExpressionsInUnsupportedOperator).
CREATE TEMPORARY VIEW e AS SELECT * FROM VALUES (1, 2) AS e(salary, x);
SELECT * FROM e e1 INNER JOIN e e2 ON row_number() OVER (ORDER BY e1.salary) < 10;
SELECT * FROM e e1 INNER JOIN e e2 ON e1.salary = e2.salary
