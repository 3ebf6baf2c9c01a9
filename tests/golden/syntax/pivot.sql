CREATE TEMPORARY VIEW sales AS SELECT * FROM VALUES ('a', 2020, 10), ('b', 2020, 20), ('a', 2021, 30) AS sales(item, yr, amount);
-- one aggregate: two aggregations and a Project picking each value's element
SELECT * FROM sales PIVOT (sum(amount) FOR yr IN (2020, 2021));
-- several aggregates, aliased values and aggregates
SELECT * FROM sales PIVOT (sum(amount) AS total, max(amount) FOR item IN ('a' AS first, 'b'));
-- several pivot columns are one struct
SELECT * FROM sales PIVOT (count(amount) FOR (item, yr) IN (('a', 2020), ('b', 2021)));
-- an aggregate PivotFirst cannot collect: one aggregation with if()
SELECT * FROM sales PIVOT (max(item) FOR yr IN (2020));
-- errors
SELECT * FROM sales PIVOT (amount FOR yr IN (2020));
SELECT * FROM sales PIVOT (sum(amount) FOR yr IN (item));
SELECT * FROM sales PIVOT (sum(amount) FOR (item, yr) IN ('a'));
SELECT * FROM sales PIVOT (sum(amount) FOR nope IN (1));
SELECT * FROM (SELECT map('k', amount) m, amount FROM sales) PIVOT (sum(amount) FOR m IN (map('k', 1)));
