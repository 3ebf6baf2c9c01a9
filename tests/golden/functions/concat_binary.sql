-- Binaries concatenate as binary, or as strings under
-- spark.sql.function.concatBinaryAsString.
SELECT X'01' || X'02', concat(X'01', X'02');
SET spark.sql.function.concatBinaryAsString = true;
SELECT X'01' || X'02';
