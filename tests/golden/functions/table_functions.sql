-- range() over constant decimals takes their integral parts; a zero step is
-- refused (Range's require); format_string's argument indexes start at 1.
SELECT * FROM range(cast(0.1 as decimal(38, 18)), cast(4.0 as decimal(38, 18)), cast(1.3 as decimal(38, 18)));
SELECT * FROM range(1, 10, 0);
SELECT format_string('%1$s', 'x'), printf('%d', 1);
SELECT format_string('%0$s', 'Hello');
