-- Multiplying or dividing an ANSI interval, and averaging intervals, gives
-- the interval type with all its fields (MultiplyYMInterval, DivideDTInterval,
-- Average: YearMonthIntervalType(), DayTimeIntervalType()).
SELECT interval 2 second * 2, interval 2 year / 2, 1.5 * interval '1' month, try_multiply(interval 2 year, 2), try_divide(interval 2 second, 2);
SELECT avg(col), try_avg(col) FROM VALUES (interval '1' month), (interval '2' month) AS t(col);
