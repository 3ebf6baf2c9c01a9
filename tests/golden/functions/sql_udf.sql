-- SQL functions (Spark's CreateSQLFunctionCommand / ResolveSQLFunctions):
-- each call's arguments are cast to the parameters and aliased in a Project
-- under the operator; the inlined SQLScalarFunction shows its inputs; a body
-- that is a one-item SELECT is its expression, any other query a scalar
-- subquery reading the parameters as outer references (one level only);
-- calls outside aggregate functions are lifted above the Aggregate.
CREATE FUNCTION f0() RETURNS INT RETURN 1;
SELECT f0();
SELECT f0(1);
CREATE FUNCTION f2(a INT, b INT) RETURNS INT RETURN a + b;
CREATE FUNCTION f2(a INT) RETURNS INT RETURN a;
CREATE FUNCTION fs(a INT) RETURNS INT RETURN 1 + (SELECT a);
CREATE FUNCTION fbad(a INT) RETURNS INT RETURN 1 + (SELECT (SELECT a));
CREATE TEMPORARY FUNCTION ft(x STRING) RETURNS STRING RETURN upper(x);
CREATE TEMPORARY VIEW v AS SELECT * FROM VALUES (1, 2), (3, 4) AS v(c1, c2);
SELECT f2(c1, c2), f2(c2, 1) FROM v;
SELECT * FROM v WHERE f2(c1, 0) = c1;
SELECT f2(SUM(c1), SUM(c2)), SUM(f2(c1, c2)) FROM v;
SELECT fs(5);
SELECT ft('a'), default.f2(1, 2);
DROP TEMPORARY FUNCTION ft;
SELECT ft('a')
