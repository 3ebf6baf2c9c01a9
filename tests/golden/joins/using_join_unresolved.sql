-- A USING or NATURAL join is not resolved until ResolveNaturalAndUsingJoin
-- rewrote it (Spark's Join.resolved), so a star over a join with a USING
-- join below expands the rewritten Project's output, not the raw join's.
CREATE TABLE tt7 (x INT, y INT) USING parquet;
CREATE TABLE tt8 (x INT, z INT) USING parquet;
SELECT * FROM tt7 FULL JOIN tt8 USING (x), tt8 tt8x;
SELECT * FROM tt7 JOIN tt8 USING (x) JOIN tt8 tt8x ON true;
SELECT * FROM tt7 NATURAL JOIN tt8, tt8 tt8x
