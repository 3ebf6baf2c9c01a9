-- map_zip_with casts both maps to the wider key type (MapZipWithCoercion,
-- no string promotion); the key lambda variable has that type.
SELECT map_zip_with(map(1Y, 1Y), map(2S, 2S), (k, v1, v2) -> struct(k, v1, v2));
SELECT map_zip_with(map(1D, 1), map(2F, 2), (k, v1, v2) -> k);
SELECT map_zip_with(map('a', 1), map(1, 2), (k, v1, v2) -> k);
