-- TypeCoercion.Division casts both integral operands to double before any
-- widening; log(x) is Logarithm(E(), x); range() truncates decimal bounds.
create temporary view i8 as select 4567890123456789L q1;
select q1 / int(42), int(246) / q1, 7 / 2, 1.5 / 2 from i8;
select log(10.0), log(2, 8);
select * from range(cast(4.0 as decimal(38, 18)), cast(-1.5 as decimal(38, 18)), cast(-2.2 as decimal(38, 18)))
