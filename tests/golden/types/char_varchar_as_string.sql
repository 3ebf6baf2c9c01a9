-- conf: spark.sql.legacy.charVarcharAsString=true
-- Legacy: CHAR columns are plain strings, not padded.
create table cv_tbl2(c char(5)) using parquet;
select c from cv_tbl2
