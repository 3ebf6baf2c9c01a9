-- conf: spark.sql.session.timeZone=America/Los_Angeles
-- from_json / from_csv / from_xml over schema_of_json / _csv / _xml of a
-- constant: the inferred schema (JSON fields sorted, integers bigint, a
-- repeated XML element an array, CSV columns _c0.. typed int/double/...).
SELECT from_json('{"b":[1, 2.5], "a":{"y":null, "x":true}}', schema_of_json('{"b":[1, 2.5], "a":{"y":null, "x":true}}'));
SELECT from_csv('1,abc,2.5', schema_of_csv('1,abc,2.5')), from_csv('1|x', schema_of_csv('1|x', map('delimiter', '|')));
SELECT from_xml('<p><a>1</a><a>2</a><b>x</b></p>', schema_of_xml('<p><a>1</a><a>2</a><b>x</b></p>'));
