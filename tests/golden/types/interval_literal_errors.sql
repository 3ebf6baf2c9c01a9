-- IntervalUtils' errors for unit-to-unit literals: a string not of the
-- form, a year-month value out of range, an unsupported pair of units, a
-- nanosecond unit; the most negative day-time value is a valid literal.
select interval '20 15:40:32.99899999' day to hour;
select interval '15:40' hour to second;
select interval '-\t2-2\t' year to month;
SELECT INTERVAL '178956970-8' YEAR TO MONTH;
SELECT INTERVAL '-178956970-8' YEAR TO MONTH;
select interval '1' year to second;
select interval 10 nanoseconds;
SELECT INTERVAL '106751992 04' DAY TO HOUR;
SELECT INTERVAL '-106751991 04:00:54.775808' DAY TO SECOND;
SELECT INTERVAL '-2562047788:00:54.775808' HOUR TO SECOND
