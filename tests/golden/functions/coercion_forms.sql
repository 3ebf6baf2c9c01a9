-- How some calls take their arguments: integral / integral casts each side
-- to double as it is (TypeCoercion.Division); hex takes bigint; a NULL among
-- concat_ws's strings is an array<string>; timestamp_seconds takes its input
-- without casts (a NULL a typed null); TRIM(BOTH FROM s) is trim(s).
SELECT 10 / smallint(2), 10L / 3, 2.5D / 2;
SELECT hex(255), concat_ws(',', 1, NULL), timestamp_seconds(NULL), timestamp_millis(1);
SELECT TRIM(BOTH FROM '  a  '), TRIM('  a  ');
