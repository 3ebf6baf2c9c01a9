-- CHAR and VARCHAR columns read as STRING; a CHAR(n) column is padded to n
-- on read (CharVarcharCodegenUtils.readSidePadding in a Project over the
-- relation); CAST(x AS CHAR(n)) is a cast to STRING.
create table cv_tbl(c char(5), v varchar(6), s string) using parquet;
select c, v, s from cv_tbl;
select c = s, length(c), v from cv_tbl where v = 'Spark ';
select cast(c as char(1)), cast(v as varchar(2)), cast('ab' as char(3)) from cv_tbl;
create temporary view cv_view as select * from cv_tbl;
select * from cv_view
;
-- ApplyCharTypePadding: CHAR columns of different lengths compare padded to
-- the longer, a CHAR(n) beside a longer string constant to its length.
create table cv_tbl3(c7 char(7), c8 char(8)) using parquet;
select c7 = c8, c7 = 'NetEase               ', c7 = 'Net', upper(c7) = upper(c8) from cv_tbl3;
select c from (select c7 as c, c8 from cv_tbl3) where c < c8
