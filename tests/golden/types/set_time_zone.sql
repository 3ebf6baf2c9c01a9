-- SET TIME ZONE: an interval is a ZoneOffset (at most 18 hours, whole
-- seconds, no months or days); a zone must be one Spark's getZoneId knows;
-- nothing (or more after the interval) is _LEGACY_ERROR_TEMP_0045.
SET TIME ZONE INTERVAL 10 HOURS;
SET TIME ZONE INTERVAL '15:40:32' HOUR TO SECOND;
SET TIME ZONE INTERVAL -'08:30' HOUR TO MINUTE;
SET TIME ZONE 'America/New_York';
SET TIME ZONE 'GMT+1';
SET TIME ZONE '+05:30';
SET TIME ZONE 'invalid/zone';
SET TIME ZONE INTERVAL 3 DAYS;
SET TIME ZONE INTERVAL 24 HOURS;
SET TIME ZONE INTERVAL 10 HOURS 1 MILLISECOND;
SET TIME ZONE INTERVAL 10 HOURS 'GMT+1';
SET TIME ZONE;
SET spark.sql.session.timeZone=Europe/Nowhere
