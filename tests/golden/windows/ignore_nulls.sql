SELECT first_value(a) IGNORE NULLS OVER (ORDER BY a), last_value(a) IGNORE NULLS OVER (ORDER BY a), first_value(a) OVER (ORDER BY a) FROM VALUES (1) t(a);
SELECT first_value(a, true) OVER (ORDER BY a) FROM VALUES (1) t(a);
