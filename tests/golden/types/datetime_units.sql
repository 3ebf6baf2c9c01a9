-- conf: spark.sql.session.timeZone=America/Los_Angeles
-- TIMESTAMPADD/TIMESTAMPDIFF (and DATEADD, DATEDIFF, TIMEDIFF) take a unit
-- keyword; a string in its place is INVALID_PARAMETER_VALUE.DATETIME_UNIT.
-- TimestampDiff compares TIMESTAMPs in the session zone; the two-argument
-- convert_timezone converts from current_timezone().
select timediff(HOUR, timestamp'2022-02-14 01:02:03', timestamp'2022-02-14 12:00:03');
select timestampdiff(QUARTER, timestamp_ntz'2022-01-01 01:02:03', date'2022-05-02');
select timestampadd('MONTH', -1, timestamp'2022-02-14 01:02:03');
select timediff('YEAR', date'2020-02-15', date'2023-02-15');
select date_add('2011-11-11', 1);
select convert_timezone('Europe/Brussels', timestamp_ntz'2022-03-23 00:00:00')
