-- A float or double literal beyond its type's range is
-- INVALID_NUMERIC_LITERAL_RANGE; the largest values parse.
select -3.4028235E39f;
select 1E309, -1E309;
select 3.4028234E38f, 1.7976931348623157E308, -1.7976931348623157E308D
