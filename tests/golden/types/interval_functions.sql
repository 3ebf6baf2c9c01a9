-- IntegralDivide of two intervals of one family (cast to the wider fields),
-- signum and width_bucket over intervals, casts between intervals and
-- integral or decimal numbers (multi-field intervals too).
SELECT div(INTERVAL '1-1' YEAR TO MONTH, INTERVAL '1' YEAR);
SELECT div(INTERVAL '1 06' DAY TO HOUR, INTERVAL '-1' HOUR);
SELECT signum(INTERVAL '-10' YEAR), signum(INTERVAL '10' HOUR), signum(-2);
SELECT width_bucket(INTERVAL '-59' MINUTE, INTERVAL -'1 01' DAY TO HOUR, INTERVAL '1 2:3:4.001' DAY TO SECOND, 10);
SELECT width_bucket(5.3, 0.2, 10.6, 5);
select cast(interval '-10-2' year to month as smallint);
select cast(interval '08:11:10.001' hour to second as decimal(10, 4));
select cast(-1000S as interval day to second), cast(100Y as interval hour to second);
select '4 11:11' - interval '4 22:12' day to minute
