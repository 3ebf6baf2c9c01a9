-- the three values of spark.sql.legacy.ctePrecedencePolicy on the same queries
SET spark.sql.legacy.ctePrecedencePolicy = CORRECTED;
WITH t AS (SELECT 1 AS a), t2 AS (WITH t AS (SELECT 'x' AS b) SELECT * FROM t) SELECT * FROM t2;
WITH t AS (SELECT 1 AS c) SELECT (WITH t AS (SELECT 'x' AS c) SELECT * FROM t);
WITH t AS (SELECT 1 AS c) SELECT * FROM (WITH t AS (SELECT 'x' AS d) SELECT * FROM t);
SET spark.sql.legacy.ctePrecedencePolicy = LEGACY;
WITH t AS (SELECT 1 AS a), t2 AS (WITH t AS (SELECT 'x' AS b) SELECT * FROM t) SELECT * FROM t2;
WITH t AS (SELECT 1 AS c) SELECT (WITH t AS (SELECT 'x' AS c) SELECT * FROM t);
WITH t AS (SELECT 1 AS c) SELECT * FROM (WITH t AS (SELECT 'x' AS d) SELECT * FROM t);
SET spark.sql.legacy.ctePrecedencePolicy = EXCEPTION;
WITH t AS (SELECT 1 AS a), t2 AS (WITH t AS (SELECT 'x' AS b) SELECT * FROM t) SELECT * FROM t2;
WITH t AS (SELECT 1 AS c) SELECT (WITH t AS (SELECT 'x' AS c) SELECT * FROM t);
WITH t AS (SELECT 1 AS c) SELECT * FROM (WITH t AS (SELECT 'x' AS d) SELECT * FROM t);
-- IDENTIFIER relations follow the same precedence
SET spark.sql.legacy.ctePrecedencePolicy = LEGACY;
WITH t AS (SELECT 1 AS a) SELECT * FROM (WITH t AS (SELECT 'x' AS b) SELECT * FROM IDENTIFIER('t'));
WITH t AS (SELECT 1 AS a), t2 AS (WITH t AS (SELECT 'x' AS b) SELECT * FROM IDENTIFIER('t')) SELECT * FROM t2;
SET spark.sql.legacy.ctePrecedencePolicy = CORRECTED;
WITH t AS (SELECT 1 AS a), t2 AS (WITH t AS (SELECT 'x' AS b) SELECT * FROM IDENTIFIER('t')) SELECT * FROM t2;
