-- conf: spark.sql.function.concatBinaryAsString=true
-- ConcatCoercion: binaries are concatenated as strings under this conf.
select concat(encode('a', 'utf-8'), encode('b', 'utf-8'));
select encode('a', 'utf-8') || x'62'
