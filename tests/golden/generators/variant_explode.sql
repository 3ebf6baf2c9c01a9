-- variant_explode / variant_explode_outer as table-valued functions (a
-- Generate over one row; the _outer form sets outer), with a named argument.
SELECT * FROM variant_explode(input => parse_json('["a", "b"]'));
SELECT * FROM variant_explode_outer(parse_json('{"a": 1}')) AS t(p, k, v);
SELECT variant_explode(1);
