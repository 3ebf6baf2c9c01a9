CREATE TEMPORARY VIEW ac AS SELECT * FROM VALUES (1, 2) AS ac(a, b);
SELECT sum(sum(a)) FROM ac;
SELECT max(a + min(a)) FROM ac GROUP BY b;
SELECT sum(a) FROM ac HAVING max(sum(a)) > 1;
SELECT sum(a) FROM ac GROUP BY b ORDER BY max(min(a));
SELECT count(a + rand()) FROM ac GROUP BY b;
SELECT (SELECT max(x.b) FROM ac x WHERE x.a = ac.a) FROM ac GROUP BY ac.b;
SELECT (SELECT max(x.b) FROM ac x WHERE x.a = ac.a) FROM ac GROUP BY 1;
SELECT sum(a), max(b) FROM ac;
