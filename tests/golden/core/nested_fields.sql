CREATE TABLE e (p STRUCT<y:INT, z:STRING>);
SELECT min(p.y), max(p.y) AS q FROM e;
SELECT p.y, p.y AS q, p.y + 1 FROM e;
