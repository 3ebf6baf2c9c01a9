CREATE TABLE ct (col INT) USING csv;
WITH s AS (SELECT 43 AS col) INSERT INTO ct SELECT * FROM s;
with ct as (select 42) insert into ct select * from ct;
SELECT * FROM (WITH s AS (SELECT 1) INSERT INTO ct SELECT * FROM s);
