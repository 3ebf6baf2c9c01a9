-- A persistent view may not read a temporary view (Spark's
-- verifyTemporaryObjectsNotExists), directly, in a join or in a subquery;
-- a temporary view may.
CREATE TEMPORARY VIEW tv AS SELECT 1 AS id;
CREATE TABLE base (id INT) USING parquet;
CREATE VIEW v1 AS SELECT * FROM tv;
CREATE VIEW v2 AS SELECT b.id FROM base b JOIN tv ON b.id = tv.id;
CREATE VIEW v3 AS SELECT * FROM base WHERE EXISTS (SELECT 1 FROM tv);
CREATE TEMPORARY VIEW v4 AS SELECT * FROM tv;
CREATE VIEW v5 AS SELECT * FROM base
