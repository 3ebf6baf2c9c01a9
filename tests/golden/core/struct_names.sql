CREATE TEMPORARY VIEW sn AS SELECT * FROM VALUES (1, 2) AS sn(a2, b2);
SELECT (a2 AS a, b2 AS b) FROM sn;
SELECT struct(a2 AS a, b2) FROM sn;
SELECT named_struct('x', a2) FROM sn;
SELECT * FROM VALUES (struct(1 AS a)) AS t(s);
