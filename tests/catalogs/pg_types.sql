-- One column of every PostgreSQL type Spark's JDBC source maps (PostgresDialect
-- and JdbcUtils), created in the throwaway cluster by test_jdbc_postgres.py.
CREATE SCHEMA types;
CREATE TYPE types.mood AS ENUM ('sad', 'ok');
CREATE TYPE types.pair AS (x int, y text);
CREATE DOMAIN types.positive AS integer CHECK (VALUE > 0);
CREATE TABLE types.all_types (
  c_smallint smallint, c_integer integer NOT NULL, c_bigint bigint, c_serial serial, c_oid oid,
  c_real real, c_double double precision, c_numeric_7_2 numeric(7,2), c_numeric numeric, c_numeric_neg numeric(5,-2),
  c_money money, c_bool boolean, c_bit bit, c_bit3 bit(3), c_varbit varbit(8),
  c_char char(4), c_varchar varchar(10), c_varchar_nolen varchar, c_text text, c_name name,
  c_bytea bytea, c_date date, c_time time, c_timetz timetz, c_timestamp timestamp, c_timestamptz timestamptz,
  c_interval interval, c_uuid uuid, c_json json, c_jsonb jsonb, c_xml xml, c_inet inet, c_cidr cidr,
  c_macaddr macaddr, c_point point, c_box box, c_tsvector tsvector, c_enum types.mood, c_composite types.pair,
  c_domain types.positive,
  c_int_array int[], c_text_array text[], c_numeric_array numeric(10,2)[], c_timestamptz_array timestamptz[],
  c_bool_array boolean[], c_uuid_array uuid[], c_int_matrix int[][]
);
CREATE TABLE types.unreadable (id int, amounts money[]);
CREATE TABLE types."MixedCase" (id int);
CREATE TABLE public.in_public (id int);
