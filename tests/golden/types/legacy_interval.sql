-- conf: spark.sql.legacy.interval.enabled=true
-- Legacy intervals: a timestamp or date difference is a CalendarInterval.
select timestamp'2020-01-02 00:00:00' - timestamp'2020-01-01 00:00:00';
select date'2020-01-02' - date'2020-01-01'
