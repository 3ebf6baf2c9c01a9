-- from_avro / to_avro: the schema must be a constant string (a session
-- variable is one), the options a constant map of strings; the calls that
-- pass are refused as Spark refuses them without its spark-avro module.
DECLARE avro_schema STRING DEFAULT '{"type": "int"}';
SELECT from_avro(X'00', 42, map());
SELECT from_avro(X'00', avro_schema, 42);
SELECT to_avro(1, 42);
SELECT to_avro(1, avro_schema);
SELECT from_avro(X'00', avro_schema, map());
