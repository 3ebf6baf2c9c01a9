-- GROUP BY ALL infers no grouping from `i + sum(j)` (UNRESOLVED_ALL_IN_GROUP_BY);
-- HAVING and ORDER BY over an aggregation may name a column only where it is
-- grouped or aggregated, else it stays unresolved (UNRESOLVED_COLUMN).
CREATE TEMPORARY VIEW stuff AS SELECT * FROM VALUES (1, 2), (3, 4) AS stuff(i, j);
SELECT i + SUM(j) FROM stuff GROUP BY ALL;
SELECT SUM(i) si FROM stuff GROUP BY ALL HAVING i > 2;
SELECT SUM(i) si FROM stuff GROUP BY ALL ORDER BY i DESC;
SELECT SUM(i) si FROM stuff HAVING i > 2;
SELECT i, SUM(j) s FROM stuff GROUP BY ALL HAVING i > 2 ORDER BY i;
SELECT SUM(j) FROM stuff GROUP BY ALL
