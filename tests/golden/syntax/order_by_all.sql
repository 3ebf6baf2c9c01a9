SELECT k, v FROM VALUES (2, 'b'), (1, NULL) AS t(k, v) ORDER BY ALL;
SELECT k, v FROM VALUES (2, 'b'), (1, NULL) AS t(k, v) ORDER BY All DESC NULLS FIRST;
SELECT k FROM VALUES (2), (1) AS t(k) UNION SELECT 3 ORDER BY all LIMIT 1;
-- a column named all is sorted by, not expanded
SELECT k, all FROM VALUES (2, 9), (1, 8) AS t(k, all) ORDER BY all;
-- a grouping column named all (a missing reference) wins too
SELECT max(k) FROM VALUES (2, 9), (1, 8) AS t(k, all) GROUP BY all ORDER BY all;
-- ALL is expanded in the subquery rather than taken from the outer query
SELECT (SELECT k FROM VALUES (1, 2) AS s(k, m) ORDER BY all LIMIT 1) FROM VALUES (5) AS o(all);
-- SORT BY ALL and window ORDER BY ALL are not expanded
SELECT k FROM VALUES (1) AS t(k) SORT BY all;
SELECT rank() OVER (ORDER BY all) FROM VALUES (1) AS t(k);
