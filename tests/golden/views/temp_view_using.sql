-- A temporary view over a data source (CREATE TEMPORARY VIEW v (cols)
-- USING fmt) reads as Spark's View over the source's unnamed Relation.
CREATE OR REPLACE TEMPORARY VIEW zt3 (f3 INT) USING parquet;
CREATE OR REPLACE TEMPORARY VIEW zt2 AS SELECT * FROM (VALUES (53)) AS v(f2);
SELECT * FROM zt2 LEFT JOIN zt3 ON (f2 = f3) WHERE f2 = 53
