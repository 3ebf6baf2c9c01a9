-- conf: spark.sql.decimalOperations.allowPrecisionLoss=false
-- Without precision loss a decimal result is bounded at 38 digits; a
-- division keeps the integral digits first and splits any excess.
select 10.300000000000000000 * 3.000000000000000000;
select 1.0123456789012345678901234567890123456e34BD / 1.0;
select 1.0123456789012345678901234567890123456e31BD / 10.0;
select 10.3 * 3.0, 10.3 + 3.000000000000000000000000001
