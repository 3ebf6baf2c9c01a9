-- A NULL argument: ParseToTimestamp / ParseToDate cast it to string (the
-- first of their input types); timestamp_seconds/millis/micros
-- (ExpectsInputTypes) keep it as it is. CEIL/FLOOR's scale must be a
-- foldable INT.
select to_timestamp(null), to_date(null), to_timestamp_ntz(null);
select timestamp_seconds(null), timestamp_millis(null), timestamp_micros(null);
select ceil(2.5, 0), floor(3.1411, -3);
select ceil(2.5, null);
select floor(2.5, 'a')
