-- A window function in a join condition: only a Window hosts window
-- expressions (Spark's specialExpressionsInUnsupportedOperator).
CREATE TEMPORARY VIEW e AS SELECT * FROM VALUES (1, 2) AS e(salary, x);
SELECT * FROM e e1 INNER JOIN e e2 ON row_number() OVER (ORDER BY e1.salary) < 10;
SELECT * FROM e e1 INNER JOIN e e2 ON e1.salary = e2.salary
;
-- WindowFrameCoercion casts a RANGE bound to the order type only where the
-- ANSI cast allows it: INT to BINARY it does not (RANGE_FRAME_INVALID_TYPE).
SELECT count(*) OVER (ORDER BY cast('1' AS binary) DESC RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM e
