-- conf: spark.sql.session.timeZone=America/Los_Angeles
-- A TIMESTAMP literal naming a zone or an offset is the same instant on the
-- session zone's clock (daylight saving from the tz database); 'epoch' is
-- the instant 0; an NTZ literal drops the zone.
select timestamp'2020-12-01 14:30:08Z', timestamp'2020-07-01 14:30:08Z';
select timestamp'2020-12-01 14:30:08+01:00', timestamp_ltz'2022-03-23 00:00:00 Europe/Brussels';
select timestamp'epoch', date'epoch', timestamp_ntz'epoch';
select timestamp_ntz'2020-12-01 14:30:08Z';
select timestamp'2020-12-01 14:30:08 Nowhere/Zone'
