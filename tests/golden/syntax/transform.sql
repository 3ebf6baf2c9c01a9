CREATE TEMPORARY VIEW src AS SELECT * FROM VALUES (1, 'x'), (2, 'y') AS src(n, w);
-- untyped columns are strings; no AS gives key and value
SELECT TRANSFORM(n, w) USING 'cat' AS (a, b) FROM src;
SELECT TRANSFORM(n) USING 'cat' FROM src;
-- typed columns, an aggregation as input, row formats
SELECT TRANSFORM(w, max(n)) USING 'cat' AS (w string, m int) FROM src GROUP BY w;
SELECT TRANSFORM(n, w) ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' NULL DEFINED AS '-' USING 'cat' AS (a, b) ROW FORMAT DELIMITED LINES TERMINATED BY '\n' FROM src;
MAP n, w USING 'cat' AS (a, b) FROM src;
FROM src REDUCE n USING 'cat' AS (r);
-- errors
SELECT TRANSFORM(DISTINCT n) USING 'cat' FROM src;
SELECT TRANSFORM(n AS m) USING 'cat' FROM src;
SELECT TRANSFORM(n) ROW FORMAT DELIMITED LINES TERMINATED BY ';' USING 'cat' FROM src;
-- transform() with a lambda stays the function
SELECT transform(array(1, 2), x -> x + 1);
