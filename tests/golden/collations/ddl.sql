-- DEFAULT COLLATION of CREATE TABLE: every column typed a plain STRING (also
-- inside arrays, maps and structs) takes it; a column written with COLLATE,
-- UTF8_BINARY included, keeps its own.
create table coll_d(c1 string, c2 string collate sr, c3 string collate utf8_binary, c4 array<string>, c5 struct<f: string, g: string collate unicode>, id int) using parquet default collation utf8_lcase;
select * from coll_d;
select c1 = 'A', c3 = 'A' from coll_d;
create table coll_e(c1 string) using parquet default collation nope;
-- CTAS and views keep the collations of the query's columns, which are
-- implicit where they are read
create table coll_f using parquet as select c1, c2 collate unicode as c2, 'x' as c3 from coll_d;
select * from coll_f;
create view coll_v as select c1, upper(c2) as u from coll_d;
select * from coll_v;
select c1 = u from coll_v;
-- ALTER TABLE ... DEFAULT COLLATION: only the columns added later take it
create table coll_g(c1 string, c0 string collate utf8_binary) using parquet default collation utf8_lcase;
alter table coll_g add column c2 string;
alter table coll_g default collation unicode;
alter table coll_g add columns (c3 string collate utf8_lcase, c4 string, c5 array<string>);
select * from coll_g;
alter table coll_g default collation nope