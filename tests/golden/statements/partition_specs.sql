-- Partition specs as Spark's v1 commands check them: all partition columns
-- named (_LEGACY_ERROR_TEMP_1232), a known key (SHOW TABLE EXTENDED:
-- PARTITIONS_NOT_FOUND), the partition added before (PARTITIONS_NOT_FOUND,
-- PARTITIONS_ALREADY_EXIST); once data is written the partitions are unknown.
CREATE TABLE t (a STRING, b INT, c STRING, d INT) USING parquet PARTITIONED BY (c, d);
ALTER TABLE t ADD PARTITION (c='Us', d=1);
ALTER TABLE t ADD PARTITION (c='Us', d=1);
ALTER TABLE t ADD IF NOT EXISTS PARTITION (c='Us', d=1);
ALTER TABLE t ADD PARTITION (c='Us');
DESC t PARTITION (c='Us', d=1);
DESC t PARTITION (C='Us', D=1);
DESC t PARTITION (c='Us', d=2);
DESC t PARTITION (c='Us');
SHOW TABLE EXTENDED LIKE 't' PARTITION (a='Us', d=1);
SHOW TABLE EXTENDED LIKE 't' PARTITION (c='Ch', d=1);
ALTER TABLE t PARTITION (c='Us') RENAME TO PARTITION (c='Fr');
INSERT INTO t VALUES ('x', 1, 'Fr', 3);
DESC t PARTITION (c='Fr', d=3)
