-- conf: spark.sql.parser.quotedRegexColumnNames=true
-- A backquoted name that is a regex, in a select item, stands for the
-- columns whose name matches it whole (Spark's UnresolvedRegex): (?i) while
-- names are case-insensitive, of one table when qualified, inside function
-- arguments too; elsewhere (WHERE, GROUP BY) it stays a column name.
CREATE TEMPORARY VIEW t2 AS SELECT * FROM VALUES (1, 1, 1, 2) AS t2(A, B, c, d);
SELECT `(a)?+.+` FROM t2 WHERE a = 1;
SELECT t.`(A|b)` FROM t2 t;
SELECT `(e|f)` FROM t2;
SELECT SUM(`(a)`) FROM t2;
SELECT count(`(a|b)`) FROM t2;
SELECT SUM(a) FROM t2 GROUP BY `(a)`;
SELECT `a` FROM t2
