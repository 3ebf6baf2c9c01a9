-- A try_ default is evaluated as its coerced operator, NULL on overflow.
DECLARE v1 = try_add(2147483647, '1');
SELECT v1;
DECLARE v2 = try_add(2147483647, 1);
SELECT v2;
select * from range(try_add(1, '2'))
