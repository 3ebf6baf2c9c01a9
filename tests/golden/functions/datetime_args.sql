-- conf: spark.sql.session.timeZone=America/Los_Angeles
-- The datetime parsers take a NULL as a string; convert_timezone with two
-- arguments converts from current_timezone(); map_concat of maps without a
-- common type (no string promotion) is DATA_DIFF_TYPES.
SELECT to_timestamp(NULL), to_timestamp_ntz(NULL), to_date(NULL), unix_timestamp(NULL, 'yyyy');
SELECT convert_timezone('Europe/Brussels', timestamp_ntz'2022-03-23 00:00:00');
SELECT map_concat(map(1Y, 1Y), map(2S, 2S));
SELECT map_concat(map('a', 'b'), map(date'2020-01-01', date'2020-01-01'));
