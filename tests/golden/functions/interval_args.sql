-- Functions that take ANSI intervals as they are: signum, width_bucket (all
-- three bounds of one kind), div over the covering interval type; ceil/floor's
-- scale must be a constant int.
SELECT signum(INTERVAL '-10' YEAR), sign(INTERVAL '1' DAY), signum(2);
SELECT width_bucket(INTERVAL '-59' MINUTE, INTERVAL -'1 01' DAY TO HOUR, INTERVAL '1 2:3:4.001' DAY TO SECOND, 10), width_bucket(1, 0, 10, 5);
SELECT div(INTERVAL '1-1' YEAR TO MONTH, INTERVAL '1' YEAR), div(INTERVAL '1 06' DAY TO HOUR, INTERVAL '-1' HOUR);
SELECT width_bucket(INTERVAL '1' YEAR, INTERVAL '1' DAY, INTERVAL '2' DAY, 2);
SELECT ceil(2.5, 0), floor(2.5, -1);
SELECT ceil(2.5, NULL);
SELECT floor(2.5, 'a');
