-- TIMESTAMPADD / TIMESTAMPDIFF / TIMEDIFF take their unit as a keyword; a
-- string there is refused (INVALID_PARAMETER_VALUE.DATETIME_UNIT); timediff
-- is TimestampDiff. The two-argument date_add / datediff are other functions.
SELECT timediff(HOUR, timestamp'2022-02-14 01:02:03', timestamp'2022-02-14 12:00:03'), timestampdiff(QUARTER, date'2022-01-01', date'2022-12-01');
SELECT timediff('MINUTE', timestamp'2023-02-14 01:02:03', timestamp'2023-02-14 02:00:03');
SELECT timestampadd('MONTH', -1, timestamp'2022-02-14 01:02:03');
SELECT date_add('2016-07-30', 1), datediff('2009-07-31', '2009-07-30');
