-- Functions with WITHIN GROUP (ORDER BY ...) (SupportsOrderingWithinGroup):
-- mode keeps the ordering as reverseOpt (ASC is Some(true)), the percentiles
-- as reverse, listagg as SortOrder children; in a window the ordering stays
-- in the function and only its child comes from below.
CREATE TEMPORARY VIEW pays AS SELECT * FROM VALUES ('a', 'x', 10), ('b', 'x', 20), ('c', 'y', 20) AS t(name, dept, salary);
SELECT mode() WITHIN GROUP (ORDER BY salary), mode() WITHIN GROUP (ORDER BY salary DESC), mode(salary), mode(salary, true) FROM pays;
SELECT dept, mode() WITHIN GROUP (ORDER BY salary) OVER (PARTITION BY dept) FROM pays;
SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY salary DESC) OVER (PARTITION BY dept), percentile_disc(0.5) WITHIN GROUP (ORDER BY salary) OVER (PARTITION BY dept) FROM pays;
SELECT listagg(name), string_agg(name, ','), listagg(name) WITHIN GROUP (ORDER BY salary DESC, name) FROM pays;
SELECT string_agg(DISTINCT name) WITHIN GROUP (ORDER BY name) FROM pays;
SELECT listagg(name) WITHIN GROUP (ORDER BY salary DESC) OVER (PARTITION BY dept) FROM pays;
SELECT listagg(salary), listagg(X'AB', NULL) FROM pays;
SELECT mode(DISTINCT salary) FROM pays;
SELECT mode() FROM pays;
SELECT mode(salary) WITHIN GROUP (ORDER BY salary) FROM pays;
SELECT mode(salary, name = 'a') FROM pays;
SELECT mode(salary, CAST(NULL AS BOOLEAN)) FROM pays;
SELECT mode(salary, 'true') FROM pays;
SELECT percentile_cont(salary / 100) WITHIN GROUP (ORDER BY salary) FROM pays;
SELECT listagg(DISTINCT name) WITHIN GROUP (ORDER BY salary) FROM pays;
SELECT listagg(name, dept) FROM pays;
SELECT listagg(X'AB', ',') FROM pays;
SELECT listagg(name) WITHIN GROUP (ORDER BY name) OVER (ORDER BY name) FROM pays;
