-- JSON, CSV and XML functions: options are a map(...) of strings, printed
-- as pairs; schema_of_* take a constant, non-null text; to_xml a struct.
SELECT schema_of_json('{"a":1}', map('primitivesAsString', 'true')), schema_of_csv('1|a', map('delimiter', '|'));
SELECT from_json('{"a":1}', 'a INT', named_struct('mode', 'PERMISSIVE'));
SELECT to_csv(named_struct('a', 1), map('mode', 1));
SELECT from_csv('1', 'array<int>');
SELECT from_json('{"a":1}', 'a InvalidType');
SELECT schema_of_json(NULL);
SELECT schema_of_xml(x) FROM VALUES ('<a>1</a>') AS t(x);
SELECT to_xml(map('a', 1));
SELECT to_binary('abc', 'base32');
SELECT to_binary('abc', f) FROM VALUES ('hex') AS t(f);
SELECT count(DISTINCT *) FROM VALUES (1, 2) AS t(a, b);
SELECT count(t.*) FROM VALUES (1, 2) AS t(a, b);
