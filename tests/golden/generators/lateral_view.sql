CREATE TABLE t (id INT, arr ARRAY<INT>, m MAP<STRING, INT>);
SELECT id, x FROM t LATERAL VIEW explode(arr) e AS x;
SELECT id, e.* FROM t LATERAL VIEW OUTER posexplode(m) e;
SELECT id, explode(arr) FROM t;
SELECT posexplode(arr) AS (p, v) FROM t;
SELECT stack(2, id, 'x', id + 1, 'y') FROM t;
