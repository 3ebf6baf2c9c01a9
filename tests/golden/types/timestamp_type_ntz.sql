-- conf: spark.sql.timestampType=TIMESTAMP_NTZ
-- A TIMESTAMP literal is spark.sql.timestampType's: TIMESTAMP_NTZ here,
-- unless its text names a zone (then TIMESTAMP, with local time zone).
select timestamp'2021-01-01 10:11:12', timestamp'-0015-03-18 16:00:00';
select timestamp'2021-01-01 10:11:12Z', timestamp_ltz'2021-01-01 10:11:12';
select to_timestamp('2021-01-01')
