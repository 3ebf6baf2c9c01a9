-- ToCharacterBuilder: to_char/to_varchar of a date or timestamp is
-- date_format (DateFormatClass, whose input is a TIMESTAMP).
create temporary view dt as select date'2023-08-18' d, timestamp_ntz'2023-08-18 09:13:14' n, timestamp'2023-08-18 09:13:14' t;
select to_char(t, 'yyyy-MM-dd'), to_varchar(d, 'yyyy'), to_char(n, 'HH:mm') from dt;
select date_format(n, 'yyyy') from dt;
select to_char(12.5, '99.9')
