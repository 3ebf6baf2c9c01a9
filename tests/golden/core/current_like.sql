-- conf: spark.sql.session.timeZone=America/Los_Angeles
create temporary view ttf1 as select * from values (1, 2) as ttf1(`current_date`, `current_timestamp`);
select typeof(current_date), current_date from ttf1;
select current_date from ttf1;
select typeof(current_date), current_date, current_date(), typeof(current_timestamp), current_user;
SET spark.sql.ansi.enforceReservedKeywords = true;
select typeof(current_date) from ttf1;
