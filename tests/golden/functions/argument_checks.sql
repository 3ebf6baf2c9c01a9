-- Constant-argument checks of checkInputDataTypes: regexp_replace's position.
SELECT regexp_replace('abc', 'b', 'x', 2);
SELECT regexp_replace('abc', 'b', 'x', 0);
SELECT regexp_replace('abc', 'b', 'x', p) FROM VALUES (1) AS t(p);
