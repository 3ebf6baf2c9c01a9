-- try_add & co. (InheritAnalysisRules) print their arguments as written;
-- the coercion belongs to the operator they stand for.
select try_add(2147483647, "1");
select try_add(1, 1.0 / 0.0);
select try_divide(1, 0);
select try_subtract(9223372036854775807L, -1);
select try_multiply(interval 2 year, 2);
select try_divide(interval 2 second, 0);
select try_mod(10, 3.5)
