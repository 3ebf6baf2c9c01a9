-- MultiplyYMInterval / DivideYMInterval and their day-time forms return the
-- default interval fields (YEAR TO MONTH, DAY TO SECOND), whatever fields
-- the operand had; a string operand is cast to double.
select interval 2 year * 2;
select interval 2 second / 2;
select interval '1' month * 1.5;
select interval '10' day / '2';
select 2 * interval '3' hour;
select interval '2' year * null
