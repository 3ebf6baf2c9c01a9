-- Session state every query below needs: a view, a variable and a conf value.
-- Set up once per session (Execute) by catalyzer-load; a session lost by the
-- store shows up as TABLE_OR_VIEW_NOT_FOUND / UNRESOLVED_COLUMN analysis errors.
CREATE TEMPORARY VIEW orders AS SELECT * FROM VALUES (1, 'ann', 10.5D), (2, 'bob', 3.0D), (3, 'ann', 7.25D) AS t(id, customer, amount);
CREATE TEMPORARY VIEW customers AS SELECT * FROM VALUES ('ann', 'north'), ('bob', 'south') AS c(name, region);
DECLARE VARIABLE min_amount DOUBLE DEFAULT 5.0;
SET spark.sql.ansi.enabled = true;
