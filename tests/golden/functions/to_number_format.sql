-- to_number's format is checked as Spark's ToNumberParser does: a thousands
-- separator needs digits on both sides, and none after the decimal point.
SELECT to_number('123,000', '999G');
SELECT to_number('-34,338,492.654,878', '99G999G999D999G999');
SELECT try_to_number('1,2', ',9');
SELECT to_number('123,456', '999,999');
SELECT to_number('12.5', '99.9')
