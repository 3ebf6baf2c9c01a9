-- conf: spark.sql.ansi.enabled=false
-- Without ANSI a string beside a timestamp is not cast for a subtraction
-- (SubtractTimestamps' input check fails) and is a double in an addition;
-- a timestamp plus NULL stays an Add of two types; a string in arithmetic
-- with a number is a double (PromoteStrings).
select timestamp'2011-11-11 11:11:11' - '2011-11-11 11:11:10';
select '2011-11-11 11:11:11' - timestamp'2011-11-11 11:11:10';
select timestamp'2011-11-11 11:11:11' + '1';
select null + timestamp'2011-11-11 11:11:11';
select interval 2 second * '2', interval 2 year / 'a';
select 2147483647 + '1', try_add(2147483647, '1'), 2 * '3'
