-- MapZipWithCoercion widens the key types before the lambda is bound (so
-- `k` has the wider type); a string key beside another type is not
-- coerced and fails. map_concat widens without string promotion. The wider
-- decimal keeps its integral digits (boundedPreferIntegralDigits).
create temporary view maps as select map(1Y, 1Y) t, map(2S, 2S) s, map('a', 'b') str, map(date'2020-01-01', date'2020-01-02') d,
  map(cast(1 as decimal(36,0)), 1) d0, map(cast(1 as decimal(36,35)), 1) d35;
select map_zip_with(t, s, (k, v1, v2) -> struct(k, v1, v2)) from maps;
select map_zip_with(d0, d35, (k, v1, v2) -> k) from maps;
select map_zip_with(str, s, (k, v1, v2) -> k) from maps;
select map_concat(t, s) from maps;
select map_concat(str, d) from maps
