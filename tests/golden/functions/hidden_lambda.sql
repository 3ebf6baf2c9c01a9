-- A plain expression in a function slot is a hidden lambda (hidden = true).
SELECT transform(array(1, 2), 0), transform(array(1, 2), x -> x + 1);
