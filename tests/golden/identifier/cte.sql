-- SPARK-46625: IDENTIFIER as a CTE reference, from variables and constants
DECLARE agg = 'max';
DECLARE col = 'c1';
DECLARE tab = 'T';
WITH S(c1, c2) AS (VALUES(1, 2), (2, 3)),
     T(c1, c2) AS (VALUES ('a', 'b'), ('c', 'd'))
SELECT IDENTIFIER(agg)(IDENTIFIER(col)) FROM IDENTIFIER(tab);
WITH S(c1, c2) AS (VALUES(1, 2), (2, 3)),
     T(c1, c2) AS (VALUES ('a', 'b'), ('c', 'd'))
SELECT IDENTIFIER('max')(IDENTIFIER('c1')) FROM IDENTIFIER('T');
WITH ABC(c1, c2) AS (VALUES(1, 2), (2, 3))
SELECT IDENTIFIER('max')(IDENTIFIER('c1')) FROM IDENTIFIER('A' || 'BC');
-- an inner WITH shadows the outer one for the IDENTIFIER relation too
WITH t(a) AS (SELECT 1)
SELECT * FROM (WITH t(b) AS (SELECT 'x') SELECT * FROM IDENTIFIER('t'));
-- a name not among the CTEs goes to the catalog
WITH t(a) AS (SELECT 1) SELECT * FROM IDENTIFIER('testdata');
-- the CTE is visible from a subquery expression
WITH t(a) AS (SELECT 1) SELECT (SELECT max(a) FROM IDENTIFIER('t'));
